#include "cfg/dominators.h"

namespace dxspv::cfg {

namespace {

/// Lengauer-Tarjan state, indexed by DFS preorder number.
struct LengauerTarjan {
    ScratchVector<uint32_t> vertex, number, parent, semi, label, ancestor, idom, bucket_head, bucket_next;
    ScratchVector<uint32_t> path; ///< scratch for compress

    void dfs(const Graph& g)
    {
        const uint32_t n = g.size();
        number.assign(n, none);
        ScratchVector<std::pair<uint32_t, uint32_t>> stack; // block, next successor index
        number[0] = 0;
        vertex.push_back(0);
        parent.push_back(none);
        stack.push_back({0, 0});
        while (!stack.empty()) {
            auto& [b, next] = stack.back();
            auto succ = g.successors(b);
            if (next == succ.size()) {
                stack.pop_back();
                continue;
            }
            uint32_t s = succ[next++];
            if (number[s] == none) {
                number[s] = uint32_t(vertex.size());
                parent.push_back(number[b]);
                vertex.push_back(s);
                stack.push_back({s, 0});
            }
        }
    }

    /// Path compression without recursion: the nodes whose ancestor's
    /// ancestor exists, updated from the one nearest the root down.
    void compress(uint32_t v)
    {
        path.clear();
        for (uint32_t x = v; ancestor[ancestor[x]] != none; x = ancestor[x])
            path.push_back(x);
        for (size_t k = path.size(); k-- > 0;) {
            uint32_t x = path[k], a = ancestor[x];
            if (semi[label[a]] < semi[label[x]])
                label[x] = label[a];
            ancestor[x] = ancestor[a];
        }
    }

    uint32_t eval(uint32_t v)
    {
        if (ancestor[v] == none)
            return v;
        compress(v);
        return label[v];
    }

    void run(const Graph& g)
    {
        dfs(g);
        const uint32_t n = uint32_t(vertex.size());
        semi.resize(n);
        label.resize(n);
        for (uint32_t i = 0; i < n; ++i)
            semi[i] = label[i] = i;
        ancestor.assign(n, none);
        idom.assign(n, none);
        bucket_head.assign(n, none);
        bucket_next.assign(n, none);
        for (uint32_t w = n; w-- > 1;) {
            for (uint32_t pred : g.predecessors(vertex[w])) {
                uint32_t u = eval(number[pred]);
                if (semi[u] < semi[w])
                    semi[w] = semi[u];
            }
            bucket_next[w] = bucket_head[semi[w]];
            bucket_head[semi[w]] = w;
            const uint32_t p = parent[w];
            ancestor[w] = p;
            for (uint32_t v = bucket_head[p]; v != none; v = bucket_next[v]) {
                uint32_t u = eval(v);
                idom[v] = semi[u] < semi[v] ? u : p;
            }
            bucket_head[p] = none;
        }
        for (uint32_t w = 1; w < n; ++w)
            if (idom[w] != semi[w])
                idom[w] = idom[idom[w]];
    }
};

} // namespace

ScratchVector<uint32_t> immediate_dominators(const Graph& graph)
{
    ScratchVector<uint32_t> result(graph.size(), none);
    if (graph.size() == 0)
        return result;
    LengauerTarjan lt;
    lt.run(graph);
    for (uint32_t w = 1; w < lt.vertex.size(); ++w)
        result[lt.vertex[w]] = lt.vertex[lt.idom[w]];
    return result;
}

DominatorTree build_dominator_tree(const Graph& graph)
{
    DominatorTree tree;
    const uint32_t n = graph.size();
    tree.idom = immediate_dominators(graph);
    tree.child_count.assign(n, 0);
    ScratchVector<uint32_t> first(n + 1, 0), children(n ? n - 1 : 0);
    for (uint32_t b = 1; b < n; ++b)
        ++first[tree.idom[b] + 1];
    for (uint32_t b = 0; b < n; ++b) {
        tree.child_count[b] = first[b + 1];
        first[b + 1] += first[b];
    }
    ScratchVector<uint32_t> fill(first.begin(), first.end() - 1);
    for (uint32_t b = 1; b < n; ++b)
        children[fill[tree.idom[b]]++] = b;
    tree.pre.assign(n, 0);
    tree.post.assign(n, 0);
    if (n == 0)
        return tree;
    uint32_t counter = 0;
    ScratchVector<std::pair<uint32_t, uint32_t>> stack{{0, first[0]}};
    tree.pre[0] = counter++;
    while (!stack.empty()) {
        auto& [b, next] = stack.back();
        if (next == first[b + 1]) {
            tree.post[b] = counter++;
            stack.pop_back();
            continue;
        }
        uint32_t c = children[next++];
        tree.pre[c] = counter++;
        stack.push_back({c, first[c]});
    }
    return tree;
}

} // namespace dxspv::cfg

#include "cfg/loops.h"

namespace dxspv::cfg {

namespace {

/// Reports the retreating edges whose target does not dominate their source.
bool check_reducible(const Graph& graph, const DominatorTree& dom, LoopForest& loops, Diagnostics& diags)
{
    constexpr uint32_t max_reports = 8;
    uint32_t reported = 0;
    for (uint32_t u = 0; u < graph.size(); ++u) {
        for (uint32_t h : graph.successors(u)) {
            if (h > u)
                continue;
            if (dom.dominates(h, u)) {
                loops.is_header[h] = 1;
                continue;
            }
            if (reported++ < max_reports)
                diags.error(Code::cfg_irreducible, Location::instruction(graph.blocks[u].terminator),
                    "irreducible control flow: the edge l%u -> l%u closes a cycle that l%u does not dominate "
                    "(the cycle can be entered without passing through l%u)",
                    graph.blocks[u].label, graph.blocks[h].label, graph.blocks[h].label, graph.blocks[h].label);
        }
    }
    return reported == 0;
}

uint32_t find(ScratchVector<uint32_t>& uf, uint32_t x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

} // namespace

bool find_loops(const Graph& graph, const DominatorTree& dom, LoopForest& loops, Diagnostics& diags)
{
    const uint32_t n = graph.size();
    loops.innermost.assign(n, none);
    loops.parent.assign(n, none);
    loops.is_header.assign(n, 0);
    loops.depth.assign(n, 0);
    loops.loop_count = 0;
    if (!check_reducible(graph, dom, loops, diags))
        return false;

    // Headers from the last to the first: an inner loop's header comes after
    // its outer loop's, so inner loops are complete when an outer one walks
    // over them, seeing each as one node (its union-find representative).
    ScratchVector<uint32_t> uf(n), stack;
    for (uint32_t b = 0; b < n; ++b)
        uf[b] = b;
    for (uint32_t h = n; h-- > 0;) {
        if (!loops.is_header[h])
            continue;
        ++loops.loop_count;
        loops.innermost[h] = h;
        for (uint32_t u : graph.predecessors(h))
            if (u >= h && u != h)
                stack.push_back(u);
        while (!stack.empty()) {
            uint32_t x = find(uf, stack.back());
            stack.pop_back();
            if (x == h)
                continue;
            uf[x] = h;
            if (loops.is_header[x])
                loops.parent[x] = h;
            else
                loops.innermost[x] = h;
            for (uint32_t p : graph.predecessors(x))
                if (!(loops.is_header[x] && p >= x)) // skip an inner header's own back edges
                    stack.push_back(p);
        }
    }
    for (uint32_t h = 0; h < n; ++h)
        if (loops.is_header[h])
            loops.depth[h] = loops.parent[h] == none ? 1 : loops.depth[loops.parent[h]] + 1;
    return true;
}

} // namespace dxspv::cfg

// Tree::compact: the attached nodes again in one array, in preorder.
//
// The simplifier moves nodes between lists, so after a few of its steps
// a walk over the tree jumps all over the node array; on a tree larger
// than the caches every step is a cache miss. Copying the nodes in
// preorder makes every later walk (the index sweeps of simplify.cpp and
// the emitter's walk) go through memory in order, and gives every node a
// larger index than its container.
#include "cfg/tree.h"

namespace dxspv::cfg {

void Tree::compact()
{
    ScratchVector<uint32_t> index(nodes.size(), none);
    ScratchVector<Node> order;
    order.reserve(nodes.size());
    // Preorder without a stack: down to the first child, else on to the
    // next sibling of the node or of its nearest container that has one.
    for (uint32_t n = 0;;) {
        index[n] = uint32_t(order.size());
        order.push_back(nodes[n]);
        if (nodes[n].first != none) {
            n = nodes[n].first;
            continue;
        }
        while (n != 0 && nodes[n].next == none)
            n = nodes[n].parent;
        if (n == 0)
            break;
        n = nodes[n].next;
    }
    const auto map = [&](uint32_t& i) {
        if (i != none)
            i = index[i];
    };
    for (Node& node : order) {
        map(node.parent), map(node.prev), map(node.next), map(node.first), map(node.last);
        if (node.kind == NodeKind::jump)
            map(node.target);
    }
    nodes = std::move(order);
}

} // namespace dxspv::cfg

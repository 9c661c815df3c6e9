// Dominators of a Graph (graph.h): immediate dominators by Lengauer-Tarjan
// (the simple version with path compression, O(E log V), no recursion) and
// the dominator tree with pre/post numbers, so that a dominance query is
// O(1) and nothing is quadratic in the number of blocks.
#pragma once

#include <cstdint>
#include <vector>

#include "cfg/graph.h"

namespace dxspv::cfg {

struct DominatorTree {
    ScratchVector<uint32_t> idom;        ///< immediate dominator; none for the entry
    ScratchVector<uint32_t> pre, post;   ///< dominator-tree DFS interval of each block
    ScratchVector<uint32_t> child_count; ///< dominator-tree children of each block

    /// a dominates b (every block dominates itself).
    bool dominates(uint32_t a, uint32_t b) const { return pre[a] <= pre[b] && post[b] <= post[a]; }
};

/// Immediate dominators of every block of `graph` (none for block 0).
ScratchVector<uint32_t> immediate_dominators(const Graph& graph);

DominatorTree build_dominator_tree(const Graph& graph);

} // namespace dxspv::cfg

// Back edges, reducibility and the loop nesting forest of a Graph.
//
// Blocks are numbered in reverse postorder, so the retreating edges of that
// DFS are the edges u -> h with h <= u. The graph is reducible exactly when
// every retreating edge is a back edge (h dominates u); otherwise
// find_loops reports cfg_irreducible naming the blocks. Each header's
// natural loop is the union of its back edges' loops; nested loops are
// found innermost first with a union-find (near-linear, no recursion).
#pragma once

#include <cstdint>
#include <vector>

#include "cfg/dominators.h"
#include "cfg/graph.h"

namespace dxspv::cfg {

struct LoopForest {
    ScratchVector<uint32_t> innermost; ///< header of the innermost loop containing the block (itself for a header); none
    ScratchVector<uint32_t> parent;    ///< for a header: header of the enclosing loop, or none
    ScratchVector<uint8_t> is_header;
    ScratchVector<uint32_t> depth;     ///< for a header: 1 for an outermost loop
    uint32_t loop_count = 0;

    /// Header of the innermost loop containing `b` that `b` does not head.
    uint32_t enclosing(uint32_t b) const { return is_header[b] ? parent[b] : innermost[b]; }
    /// Block `b` lies in the loop headed by `h`.
    bool contains(uint32_t h, uint32_t b) const
    {
        for (uint32_t l = innermost[b]; l != none; l = parent[l])
            if (l == h)
                return true;
        return false;
    }
};

/// Fills `loops`; false (with cfg_irreducible errors naming the labels) when
/// the graph is irreducible.
bool find_loops(const Graph& graph, const DominatorTree& dom, LoopForest& loops, Diagnostics& diags);

} // namespace dxspv::cfg

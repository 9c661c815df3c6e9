// The control-flow graph of one function region of an unstructured VSIR
// program (VSIR.md conventions 8 and 9): blocks from `label`, edges from
// `branch` / `switch_monolithic`, exits at `ret`. Only blocks reachable
// from the region's first block are kept, numbered in reverse postorder
// (the entry is block 0), so an edge u -> v is a retreating edge exactly
// when v <= u. Analyses (dominators.h, loops.h) index arrays by this number.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "common/scratch.h"
#include "vsir/ir.h"

namespace dxspv::cfg {

inline constexpr uint32_t none = ~0u;

/// Hard limit on the blocks of one region (label ids are below 2^24 anyway).
inline constexpr uint32_t max_blocks = 1u << 24;

/// A function region: the whole program, or one hull shader phase.
/// Instructions [first, blocks) are the region's prologue (phase marker,
/// declarations) and stay in place; [blocks, end) are its labelled blocks.
struct Region {
    uint32_t first = 0;
    uint32_t blocks = 0;
    uint32_t end = 0;
    bool has_blocks() const { return blocks < end; }
};

/// Splits `program` into regions at hull shader phase markers; `first_phi`,
/// when given, gets the index of the first phi (`none` without one).
ScratchVector<Region> find_regions(const vsir::Program& program, uint32_t* first_phi = nullptr);

struct Block {
    uint32_t label = 0;      ///< label id
    uint32_t first = 0;      ///< index of the `label` instruction
    uint32_t terminator = 0; ///< index of the block's branch / switch_monolithic / ret
};

struct Graph {
    ScratchVector<Block> blocks;       ///< reachable blocks in reverse postorder
    ScratchVector<uint32_t> succ_first; ///< CSR: successors of b are succs[succ_first[b] .. succ_first[b+1])
    ScratchVector<uint32_t> succs;      ///< distinct successors, in terminator order
    ScratchVector<uint32_t> pred_first;
    ScratchVector<uint32_t> preds;
    uint32_t unreachable = 0;         ///< blocks dropped because the entry does not reach them

    uint32_t size() const { return uint32_t(blocks.size()); }
    std::span<const uint32_t> successors(uint32_t b) const
    {
        return {succs.data() + succ_first[b], succ_first[b + 1] - succ_first[b]};
    }
    std::span<const uint32_t> predecessors(uint32_t b) const
    {
        return {preds.data() + pred_first[b], pred_first[b + 1] - pred_first[b]};
    }
};

/// Label operand `i` of a terminator names a block; the label ids a
/// terminator targets, in operand order (duplicates kept).
void terminator_targets(const vsir::Program& program, const vsir::Instruction& ins, ScratchVector<uint32_t>& labels);

/// Builds the CFG of `region`. `label_map` is scratch space of
/// program.label_count entries, all `none` on entry and on return. Reports
/// cfg_* errors (instructions outside blocks, missing terminators, jumps to
/// labels outside the region) and returns false on them.
bool build_graph(const vsir::Program& program, const Region& region, ScratchVector<uint32_t>& label_map,
    Graph& graph, Diagnostics& diags);

} // namespace dxspv::cfg

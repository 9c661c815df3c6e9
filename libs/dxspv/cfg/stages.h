// The structurizer's internal stages (structurize.cpp runs them in order):
// build_tree.cpp, simplify.cpp, emit.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "common/scratch.h"

#include "cfg/dominators.h"
#include "cfg/graph.h"
#include "cfg/loops.h"
#include "cfg/structurize.h"
#include "cfg/tree.h"

namespace dxspv::cfg {

/// The analysed CFG of one region. `block_of_label` maps label ids of the
/// region's reachable blocks to Graph block numbers.
struct Analysis {
    const vsir::Program& program;
    const Graph& graph;
    const DominatorTree& dom;
    const LoopForest& loops;
    const ScratchVector<uint32_t>& block_of_label;
};

/// Builds the structure tree: every block once, every edge an explicit
/// jump or a nesting (build_tree.cpp).
void build_tree(const Analysis& cfg, Tree& tree);

/// Simplifies the tree in place (simplify.cpp); false (cfg_too_deep) when
/// the result nests deeper than max_nesting_depth.
bool simplify_tree(const vsir::Program& program, const Graph& graph, Tree& tree, StructurizeStats& stats,
    Diagnostics& diags, uint32_t location);

/// The structured program as it is built: scratch memory (the caller's
/// scope), copied into the program's own array at the end.
using InstructionList = std::vector<vsir::Instruction, ScratchAllocator<vsir::Instruction>>;

/// Appends the structured instructions of the tree to `out`, new operands
/// to the program's pools; multilevel jumps use temp `jump_reg` (.x the
/// jump target, .y the test). Returns true when it used `jump_reg`.
bool emit_tree(vsir::Program& program, const Graph& graph, const Tree& tree, uint32_t jump_reg,
    InstructionList& out, StructurizeStats& stats);

} // namespace dxspv::cfg

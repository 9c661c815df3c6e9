// The structurizer: unstructured VSIR in, structured VSIR out.
//
// For each function region (the program, or each hull shader phase; the
// declarations before the first label stay where they are):
// 1. graph.cpp: blocks from `label`, edges from `branch` /
//    `switch_monolithic`, exits at `ret`; unreachable blocks are dropped and
//    the rest numbered in reverse postorder (a topological order of the
//    forward edges in which a loop header precedes its body).
// 2. dominators.cpp: Lengauer-Tarjan immediate dominators and the dominator
//    tree. loops.cpp: retreating edges must be back edges (else
//    cfg_irreducible, naming the blocks); natural loops, nested innermost
//    first with a union-find. Post-dominators are not needed.
// 3. build_tree.cpp: the structure tree. Every block is placed once: inline
//    at its single incoming edge, or after a breakable scope that encloses
//    all its predecessors: the scope of a merge block wraps the code of its
//    immediate dominator, the scope of a loop exit wraps the loop it leaves;
//    a switch case that one other case jumps to is that case's fallthrough.
//    A loop's interval is the loop construct; exits' scopes nest around it
//    in block order. Each edge becomes a nesting (inline), a `break` of a
//    scope or a `continue` of a loop, or `ret`; every list ends in explicit
//    jumps, so the tree is correct before any simplification.
// 4. simplify.cpp: jumps to where control falls anyway go; breaks (and
//    continues that would cross a loop) are retargeted to the innermost
//    construct with an equivalent end; a multilevel break to a small block
//    that returns becomes a copy of it and `ret`; scopes nothing breaks any
//    more dissolve (a "loop that runs once" with a single exit becomes plain
//    code), a scope with one break skipping its tail becomes a selection;
//    empty arms go, lone jumps in selections become breakc / continuec /
//    retc, the arm after an arm that always jumps is hoisted out, deep
//    chains of early exits are flattened; the nesting depth is bounded
//    (max_nesting_depth, cfg_too_deep).
// 5. emit.cpp: loops, selections and switches as VSIR; remaining scopes as
//    `switch l(0) default ... endswitch` (breakable but transparent to
//    `continue`); jumps that cross constructs set the jump-target temp
//    (`jump_target = construct id << 1 | is_continue`) and break, and the
//    crossed constructs get trampolines after their end (emit.cpp).
//
// A region that is one block ending in `ret` (most shaders without control
// flow) skips the stages: its code is copied as step 5 would emit it
// (single_block).
//
// Time and memory are O(instructions + edges) apart from the union-find and
// Lengauer-Tarjan's path compression (near-linear), plus, per multilevel
// jump, the constructs it crosses. Nothing recurses on input.
#include "cfg/structurize.h"

#include "cfg/stages.h"

namespace dxspv::cfg {

namespace {

/// Only declarations (and the phase marker) may precede a region's first
/// label.
bool check_prologue(const vsir::Program& program, const Region& region, Diagnostics& diags)
{
    for (uint32_t i = region.first; i < region.blocks; ++i) {
        const vsir::OpcodeKind kind = vsir::opcode_info(program.instructions[i].opcode).kind;
        if (kind != vsir::OpcodeKind::declaration && kind != vsir::OpcodeKind::phase) {
            diags.error(Code::cfg_outside_block, Location::instruction(i),
                "instruction before the first label of a function region");
            return false;
        }
    }
    return true;
}

/// Whether the region's blocks are one block that ends in `ret` (a label
/// the general path would accept, then no label, branch, switch or other
/// ret): the code of most shaders without control flow. The general path
/// turns such a block into its code without the label, then `ret` (a tree
/// of the block and a return, nothing to simplify, depth 0); this is that
/// result without the graph, dominators and tree.
bool single_block(const vsir::Program& program, const Region& region)
{
    const std::vector<vsir::Instruction>& code = program.instructions;
    if (region.end - region.blocks < 2 || code[region.end - 1].opcode != vsir::Opcode::ret)
        return false;
    const vsir::Instruction& label = code[region.blocks];
    const vsir::Instruction& ret = code[region.end - 1];
    if (label.src_count != 1 || uint64_t(label.src_first) + 1 > program.srcs.size() ||
        uint64_t(ret.src_first) + ret.src_count > program.srcs.size())
        return false;
    const vsir::Register& id = program.src(label, 0).reg;
    if (id.index_count < 1 || id.idx[0].offset >= program.label_count)
        return false;
    for (uint32_t i = region.blocks + 1; i + 1 < region.end; ++i) {
        const vsir::Opcode op = code[i].opcode;
        if (op == vsir::Opcode::label || op == vsir::Opcode::branch || op == vsir::Opcode::switch_monolithic ||
            op == vsir::Opcode::ret)
            return false;
    }
    return true;
}

/// Structurizes one region's blocks into `out`; true when it used the
/// jump-target register.
bool structurize_region(vsir::Program& program, const Region& region, ScratchVector<uint32_t>& label_map,
    uint32_t jump_reg, InstructionList& out, bool& used, StructurizeStats& stats, Diagnostics& diags)
{
    Graph graph;
    if (!build_graph(program, region, label_map, graph, diags))
        return false;
    DominatorTree dom = build_dominator_tree(graph);
    LoopForest loops;
    if (!find_loops(graph, dom, loops, diags))
        return false;
    // Loops nest in the output as in the CFG: refuse too deep a nest before
    // any walk over it.
    for (uint32_t h = 0; h < graph.size(); ++h) {
        if (loops.depth[h] > max_nesting_depth) {
            diags.error(Code::cfg_too_deep, Location::instruction(graph.blocks[h].first),
                "loop l%u is nested %u loops deep; the limit is %u", graph.blocks[h].label, loops.depth[h],
                max_nesting_depth);
            return false;
        }
    }
    for (uint32_t b = 0; b < graph.size(); ++b)
        label_map[graph.blocks[b].label] = b;
    Tree tree;
    build_tree(Analysis{program, graph, dom, loops, label_map}, tree);
    for (const Block& b : graph.blocks)
        label_map[b.label] = none;
    ++stats.regions;
    stats.blocks += graph.size();
    stats.unreachable_blocks += graph.unreachable;
    if (!simplify_tree(program, graph, tree, stats, diags, region.blocks))
        return false;
    // The code goes straight into `out`; the jump-target temp's initial
    // value goes in front of it when a multilevel jump used the temp.
    const size_t start = out.size();
    if (emit_tree(program, graph, tree, jump_reg, out, stats)) {
        // mov jt.x, l(0) before the region's code.
        vsir::Instruction init;
        init.opcode = vsir::Opcode::mov;
        init.dst_first = uint32_t(program.dsts.size());
        init.dst_count = 1;
        init.src_first = uint32_t(program.srcs.size());
        init.src_count = 1;
        const uint32_t index[] = {jump_reg};
        vsir::DstParam& d = program.dsts.emplace_back();
        d.reg = vsir::make_register(vsir::RegisterFile::temp, vsir::DataType::u32, vsir::Dimension::vec4, index);
        d.write_mask = 1;
        vsir::SrcParam& s = program.srcs.emplace_back();
        s.reg = vsir::make_immediate(vsir::DataType::u32, 0);
        s.swizzle = vsir::make_swizzle(0, 0, 0, 0);
        out.insert(out.begin() + ptrdiff_t(start), init);
        used = true;
    }
    return true;
}

} // namespace

bool structurize(vsir::Program& program, Diagnostics& diags, StructurizeStats& stats)
{
    if (program.control_flow == vsir::ControlFlow::structured)
        return true;
    ScratchScope scratch; // the analyses and the tree (common/scratch.h); the output is the program's
    uint32_t phi = none;
    const ScratchVector<Region> regions = find_regions(program, &phi);
    if (phi != none) {
        diags.error(Code::cfg_phi_present, Location::instruction(phi),
            "the structurizer needs a program without phis (run lower_phis first)");
        return false;
    }
    ScratchVector<uint32_t> label_map(program.label_count, none);
    // Room for what structured code adds (construct ends, trampolines): a
    // long program grows once at most instead of doubling its way up.
    const size_t size = program.instructions.size();
    InstructionList out;
    out.reserve(size + size / 4 + 16);
    const uint32_t jump_reg = program.temp_count;
    bool used = false;
    for (const Region& region : regions) {
        if (!check_prologue(program, region, diags))
            return false;
        out.insert(out.end(), program.instructions.begin() + region.first,
            program.instructions.begin() + region.blocks);
        if (!region.has_blocks())
            continue;
        if (single_block(program, region)) {
            out.insert(out.end(), program.instructions.begin() + region.blocks + 1,
                program.instructions.begin() + region.end - 1);
            out.emplace_back().opcode = vsir::Opcode::ret;
            ++stats.regions;
            ++stats.blocks;
        } else if (!structurize_region(program, region, label_map, jump_reg, out, used, stats, diags)) {
            return false;
        }
    }
    // Into the program's array, not in its place: the array keeps its
    // memory (recycled from program to program, vsir/program_storage.cpp),
    // and the structured code's leaves with the scope.
    program.instructions.assign(out.begin(), out.end());
    program.control_flow = vsir::ControlFlow::structured;
    if (used)
        program.temp_count = jump_reg + 1;
    return true;
}

bool structurize(vsir::Program& program, Diagnostics& diags)
{
    StructurizeStats stats;
    return structurize(program, diags, stats);
}

} // namespace dxspv::cfg

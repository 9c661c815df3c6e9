#include "cfg/graph.h"

namespace dxspv::cfg {

using vsir::Opcode;
using vsir::OpcodeKind;

ScratchVector<Region> find_regions(const vsir::Program& program, uint32_t* first_phi)
{
    ScratchVector<Region> regions;
    const uint32_t count = uint32_t(program.instructions.size());
    Region region;
    region.blocks = none;
    if (first_phi)
        *first_phi = none;
    for (uint32_t i = 0; i <= count; ++i) {
        if (first_phi && *first_phi == none && i < count && program.instructions[i].opcode == Opcode::phi)
            *first_phi = i;
        if (i == count || vsir::opcode_info(program.instructions[i].opcode).kind == OpcodeKind::phase) {
            if (i > region.first) {
                region.end = i;
                region.blocks = region.blocks == none ? i : region.blocks;
                regions.push_back(region);
            }
            region = Region{i, none, 0};
        } else if (region.blocks == none && program.instructions[i].opcode == Opcode::label) {
            region.blocks = i;
        }
    }
    return regions;
}

void terminator_targets(const vsir::Program& program, const vsir::Instruction& ins, ScratchVector<uint32_t>& labels)
{
    labels.clear();
    auto add = [&](uint32_t k) {
        if (k < ins.src_count)
            labels.push_back(program.src(ins, k).reg.file == vsir::RegisterFile::label &&
                                     program.src(ins, k).reg.index_count >= 1
                                 ? program.src(ins, k).reg.idx[0].offset
                                 : none);
    };
    if (ins.opcode == Opcode::branch) {
        if (ins.src_count == 1)
            add(0);
        else {
            add(1);
            add(2);
        }
    } else if (ins.opcode == Opcode::switch_monolithic) {
        add(1);
        for (uint32_t k = 3; k < ins.src_count; k += 2)
            add(k);
    }
}

namespace {

bool is_terminator(Opcode op)
{
    return op == Opcode::branch || op == Opcode::switch_monolithic || op == Opcode::ret;
}

/// Pass 1: the region's blocks in program order, their labels entered in
/// label_map (label id -> program-order block index).
bool collect_blocks(const vsir::Program& program, const Region& region, ScratchVector<uint32_t>& label_map,
    ScratchVector<Block>& blocks, Diagnostics& diags)
{
    bool ok = true;
    bool open = false;
    for (uint32_t i = region.blocks; i < region.end; ++i) {
        const vsir::Instruction& ins = program.instructions[i];
        const bool malformed = (ins.opcode == Opcode::branch && ins.src_count != 1 && ins.src_count != 3) ||
                               (ins.opcode == Opcode::switch_monolithic && (ins.src_count < 2 || ins.src_count % 2));
        if (malformed || ((ins.opcode == Opcode::label || is_terminator(ins.opcode)) &&
                             uint64_t(ins.src_first) + ins.src_count > program.srcs.size())) {
            diags.error(Code::cfg_bad_target, Location::instruction(i), "malformed %s",
                vsir::opcode_info(ins.opcode).name);
            return false;
        }
        if (ins.opcode == Opcode::label) {
            if (open) {
                diags.error(Code::cfg_missing_terminator, Location::instruction(blocks.back().first),
                    "block l%u has no terminator before the next label", blocks.back().label);
                ok = false;
            }
            uint32_t id = none;
            if (ins.src_count == 1 && program.src(ins, 0).reg.index_count >= 1)
                id = program.src(ins, 0).reg.idx[0].offset;
            if (id >= label_map.size() || label_map[id] != none) {
                diags.error(Code::cfg_bad_target, Location::instruction(i), "invalid or repeated label l%u", id);
                return false;
            }
            if (blocks.size() >= max_blocks) {
                diags.error(Code::cfg_too_large, Location::instruction(i), "more than %u blocks in one function",
                    max_blocks);
                return false;
            }
            label_map[id] = uint32_t(blocks.size());
            blocks.push_back({id, i, none});
            open = true;
        } else if (vsir::opcode_info(ins.opcode).kind == OpcodeKind::declaration) {
            continue; // declarations may sit anywhere; they travel with their block
        } else if (!open) {
            diags.error(Code::cfg_outside_block, Location::instruction(i),
                "instruction outside a block (no label since the last terminator)");
            ok = false;
        } else if (is_terminator(ins.opcode)) {
            blocks.back().terminator = i;
            open = false;
        }
    }
    if (open) {
        diags.error(Code::cfg_missing_terminator, Location::instruction(blocks.back().first),
            "block l%u has no terminator", blocks.back().label);
        ok = false;
    }
    return ok;
}

/// Pass 2: successor lists (program-order block indices, duplicates removed).
bool collect_edges(const vsir::Program& program, const ScratchVector<Block>& blocks,
    const ScratchVector<uint32_t>& label_map, ScratchVector<uint32_t>& first, ScratchVector<uint32_t>& succs,
    Diagnostics& diags)
{
    ScratchVector<uint32_t> labels;
    ScratchVector<uint32_t> seen(blocks.size(), none);
    first.assign(blocks.size() + 1, 0);
    for (uint32_t b = 0; b < blocks.size(); ++b) {
        first[b] = uint32_t(succs.size());
        const vsir::Instruction& term = program.instructions[blocks[b].terminator];
        terminator_targets(program, term, labels);
        for (uint32_t id : labels) {
            uint32_t s = id < label_map.size() ? label_map[id] : none;
            if (s == none) {
                diags.error(Code::cfg_bad_target, Location::instruction(blocks[b].terminator),
                    "block l%u jumps to l%u, which is not a block of this function", blocks[b].label, id);
                return false;
            }
            if (seen[s] != b) {
                seen[s] = b;
                succs.push_back(s);
            }
        }
    }
    first[blocks.size()] = uint32_t(succs.size());
    return true;
}

/// Reverse postorder of the blocks reachable from block 0 (iterative DFS).
ScratchVector<uint32_t> reverse_postorder(uint32_t count, const ScratchVector<uint32_t>& first,
    const ScratchVector<uint32_t>& succs)
{
    ScratchVector<uint32_t> order;
    ScratchVector<uint8_t> visited(count, 0);
    ScratchVector<std::pair<uint32_t, uint32_t>> stack; // block, next successor slot
    stack.push_back({0, first[0]});
    visited[0] = 1;
    while (!stack.empty()) {
        auto& [b, next] = stack.back();
        if (next == first[b + 1]) {
            order.push_back(b);
            stack.pop_back();
            continue;
        }
        uint32_t s = succs[next++];
        if (!visited[s]) {
            visited[s] = 1;
            stack.push_back({s, first[s]});
        }
    }
    return {order.rbegin(), order.rend()};
}

} // namespace

bool build_graph(const vsir::Program& program, const Region& region, ScratchVector<uint32_t>& label_map,
    Graph& graph, Diagnostics& diags)
{
    graph = Graph();
    ScratchVector<Block> blocks;
    bool ok = collect_blocks(program, region, label_map, blocks, diags);
    ScratchVector<uint32_t> first, succs;
    ok = ok && !blocks.empty() && collect_edges(program, blocks, label_map, first, succs, diags);
    for (const Block& b : blocks)
        label_map[b.label] = none;
    if (!ok)
        return false;

    ScratchVector<uint32_t> order = reverse_postorder(uint32_t(blocks.size()), first, succs);
    ScratchVector<uint32_t> number(blocks.size(), none);
    for (uint32_t i = 0; i < order.size(); ++i)
        number[order[i]] = i;
    const uint32_t n = uint32_t(order.size());
    graph.unreachable = uint32_t(blocks.size()) - n;
    graph.blocks.resize(n);
    graph.succ_first.assign(n + 1, 0);
    graph.pred_first.assign(n + 2, 0);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t b = order[i];
        graph.blocks[i] = blocks[b];
        graph.succ_first[i] = uint32_t(graph.succs.size());
        for (uint32_t k = first[b]; k < first[b + 1]; ++k) {
            graph.succs.push_back(number[succs[k]]);
            ++graph.pred_first[number[succs[k]] + 2];
        }
    }
    graph.succ_first[n] = uint32_t(graph.succs.size());
    // Predecessors by counting sort, in increasing block number.
    for (uint32_t i = 2; i < n + 2; ++i)
        graph.pred_first[i] += graph.pred_first[i - 1];
    graph.preds.resize(graph.succs.size());
    for (uint32_t u = 0; u < n; ++u)
        for (uint32_t s : graph.successors(u))
            graph.preds[graph.pred_first[s + 1]++] = u;
    graph.pred_first.pop_back();
    return true;
}

} // namespace dxspv::cfg

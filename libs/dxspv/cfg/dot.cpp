// cfg::write_dot: a debugging view of the CFG of each function region.
#include <algorithm>

#include "cfg/structurize.h"
#include "cfg/graph.h"

namespace dxspv::cfg {

namespace {

/// Edge labels of a terminator, in terminator_targets order.
std::string edge_label(const vsir::Program& program, const vsir::Instruction& term, uint32_t k)
{
    if (term.opcode == vsir::Opcode::branch)
        return term.src_count == 3 ? (k == 0 ? "T" : "F") : "";
    if (k == 0)
        return "default";
    const vsir::Register& value = program.src(term, 2 * k).reg;
    return strformat("%d", int32_t(value.u32[0]));
}

void write_region(const vsir::Program& program, const Region& region, const Graph& graph, uint32_t index,
    ScratchVector<uint32_t>& number, std::string& out)
{
    for (uint32_t b = 0; b < graph.size(); ++b)
        number[graph.blocks[b].label] = b;
    out += strformat("  subgraph cluster_%u {\n    label=\"region %u\";\n", index, index);
    ScratchVector<uint32_t> targets;
    for (uint32_t i = region.blocks; i < region.end; ++i) {
        const vsir::Instruction& ins = program.instructions[i];
        if (ins.opcode != vsir::Opcode::label)
            continue;
        const uint32_t label = program.src(ins, 0).reg.idx[0].offset; // build_graph checked it
        const uint32_t from = number[label];
        if (from == none) {
            out += strformat("    l%u [color=grey, fontcolor=grey];\n", label);
            continue;
        }
        out += strformat("    l%u%s;\n", label, from == 0 ? " [shape=box]" : "");
        const vsir::Instruction& term = program.instructions[graph.blocks[from].terminator];
        terminator_targets(program, term, targets);
        for (uint32_t k = 0; k < targets.size(); ++k) {
            std::string attrs;
            std::string text = edge_label(program, term, k);
            if (!text.empty())
                attrs = "label=\"" + text + "\"";
            if (number[targets[k]] <= from)
                attrs += std::string(attrs.empty() ? "" : ", ") + "style=dashed";
            out += strformat("    l%u -> l%u%s;\n", label, targets[k],
                attrs.empty() ? "" : (" [" + attrs + "]").c_str());
        }
    }
    out += "  }\n";
    for (const Block& b : graph.blocks)
        number[b.label] = none;
}

} // namespace

bool write_dot(const vsir::Program& program, std::string& out, Diagnostics& diags)
{
    out = "digraph cfg {\n";
    ScratchVector<uint32_t> label_map(program.label_count, none);
    uint32_t index = 0;
    for (const Region& region : find_regions(program)) {
        if (!region.has_blocks())
            continue;
        Graph graph;
        if (!build_graph(program, region, label_map, graph, diags))
            return false;
        write_region(program, region, graph, index++, label_map, out);
    }
    out += "}\n";
    return true;
}

} // namespace dxspv::cfg

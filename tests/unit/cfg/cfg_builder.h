// Builds unstructured VSIR test programs from a line-per-block text:
//   "0: br 1 2"        block l0 ends in branch_nz r1.x, l1, l2
//   "1: jmp 3"         branch l3
//   "2: switch 4 0=5 7=6"  switch_monolithic r1.x, l4, [l(0), l5], [l(7), l6]
//   "3: ret"
// Each block's only other instruction is `mov r0.x, l(<label>)`, its visit
// marker: the interpreters (interpreter.h) record the visit and load the
// block's next branch decision into r1.x there. The first block listed is
// the entry; `phase` on a line of its own starts a hull shader phase.
#pragma once

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "vsir/ir.h"

namespace cfg_test {

using namespace dxspv::vsir;

struct Terminator {
    enum Kind { ret, jmp, br, sw } kind = ret;
    std::vector<uint32_t> targets;   ///< jmp: 1; br: true, false; sw: default, then cases
    std::vector<uint32_t> values;    ///< sw: case values
};

struct TestCfg {
    Program program;
    std::map<uint32_t, Terminator> blocks; ///< by label
};

inline Register temp_reg(uint32_t index, DataType type)
{
    const uint32_t idx[] = {index};
    return make_register(RegisterFile::temp, type, Dimension::vec4, idx);
}
inline SrcParam temp_x(uint32_t index)
{
    SrcParam s;
    s.reg = temp_reg(index, DataType::u32);
    s.swizzle = make_swizzle(0, 0, 0, 0);
    return s;
}
inline SrcParam imm(uint32_t value)
{
    SrcParam s;
    s.reg = make_immediate(DataType::u32, value);
    s.swizzle = make_swizzle(0, 0, 0, 0);
    return s;
}
inline SrcParam label_src(uint32_t id)
{
    SrcParam s;
    const uint32_t idx[] = {id};
    s.reg = make_register(RegisterFile::label, DataType::opaque, Dimension::none, idx);
    return s;
}

inline uint32_t add_ins(Program& p, Opcode op, std::vector<DstParam> dsts, std::vector<SrcParam> srcs,
    uint32_t flags = 0)
{
    uint32_t i = p.add_instruction(op, uint32_t(dsts.size()), uint32_t(srcs.size()), uint32_t(p.instructions.size()));
    p.instructions[i].flags = flags;
    for (size_t k = 0; k < dsts.size(); ++k)
        p.dsts[p.instructions[i].dst_first + k] = dsts[k];
    for (size_t k = 0; k < srcs.size(); ++k)
        p.srcs[p.instructions[i].src_first + k] = srcs[k];
    return i;
}

/// Appends block `label` with its marker and terminator.
inline void add_block(TestCfg& cfg, uint32_t label, const Terminator& term)
{
    Program& p = cfg.program;
    cfg.blocks[label] = term;
    if (p.label_count <= label)
        p.label_count = label + 1;
    for (uint32_t t : term.targets)
        if (p.label_count <= t)
            p.label_count = t + 1;
    add_ins(p, Opcode::label, {}, {label_src(label)});
    DstParam marker;
    marker.reg = temp_reg(0, DataType::u32);
    marker.write_mask = 1;
    add_ins(p, Opcode::mov, {marker}, {imm(label)});
    switch (term.kind) {
    case Terminator::ret: add_ins(p, Opcode::ret, {}, {}); break;
    case Terminator::jmp: add_ins(p, Opcode::branch, {}, {label_src(term.targets[0])}); break;
    case Terminator::br:
        add_ins(p, Opcode::branch, {}, {temp_x(1), label_src(term.targets[0]), label_src(term.targets[1])},
            flag_test_nonzero);
        break;
    case Terminator::sw: {
        std::vector<SrcParam> srcs{temp_x(1), label_src(term.targets[0])};
        for (size_t k = 0; k < term.values.size(); ++k) {
            srcs.push_back(imm(term.values[k]));
            srcs.push_back(label_src(term.targets[k + 1]));
        }
        add_ins(p, Opcode::switch_monolithic, {}, srcs);
        break;
    }
    }
}

/// An empty unstructured program with 2 temps (r0 markers, r1 decisions);
/// compute shaders get `dcl_thread_group 1, 1, 1`.
inline TestCfg empty_cfg(dxspv::ShaderStage stage = dxspv::ShaderStage::compute)
{
    TestCfg cfg;
    Program& p = cfg.program;
    p.model = {stage, 6, 0};
    p.control_flow = ControlFlow::unstructured;
    p.temp_count = 2;
    if (stage == dxspv::ShaderStage::compute) {
        uint32_t i = add_ins(p, Opcode::dcl_thread_group, {}, {});
        Declaration& d = p.add_declaration(i);
        d.thread_group[0] = d.thread_group[1] = d.thread_group[2] = 1;
    }
    return cfg;
}

inline TestCfg make_cfg(const std::string& text, dxspv::ShaderStage stage = dxspv::ShaderStage::compute)
{
    TestCfg cfg = empty_cfg(stage);
    Program& p = cfg.program;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream in(line);
        std::string head, kind;
        if (!(in >> head))
            continue;
        if (head == "phase") {
            add_ins(p, Opcode::hs_fork_phase, {}, {});
            continue;
        }
        if (head == "cp_phase") {
            add_ins(p, Opcode::hs_control_point_phase, {}, {});
            continue;
        }
        uint32_t label = uint32_t(std::stoul(head));
        in >> kind;
        Terminator term;
        std::string tok;
        if (kind == "ret") {
            term.kind = Terminator::ret;
        } else if (kind == "jmp" || kind == "br") {
            term.kind = kind == "jmp" ? Terminator::jmp : Terminator::br;
            while (in >> tok)
                term.targets.push_back(uint32_t(std::stoul(tok)));
        } else {
            term.kind = Terminator::sw;
            in >> tok;
            term.targets.push_back(uint32_t(std::stoul(tok)));
            while (in >> tok) {
                size_t eq = tok.find('=');
                term.values.push_back(uint32_t(std::stoul(tok.substr(0, eq))));
                term.targets.push_back(uint32_t(std::stoul(tok.substr(eq + 1))));
            }
        }
        add_block(cfg, label, term);
    }
    return cfg;
}

} // namespace cfg_test

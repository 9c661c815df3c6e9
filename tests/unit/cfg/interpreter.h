// Interpreters for the property test: run the unstructured test CFG
// (cfg_builder.h) and the structured program made from it on the same
// branch decisions, recording the blocks visited (their markers). The
// decision of a block's k-th visit is a hash of (seed, label, k), so it does
// not depend on how the program is structured.
#pragma once

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "cfg_builder.h"

namespace cfg_test {

inline uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

struct Decisions {
    uint64_t seed = 0;
    const std::map<uint32_t, Terminator>* blocks = nullptr;

    /// The value r1.x holds in block `label` on its k-th visit.
    uint32_t value(uint32_t label, uint32_t k) const
    {
        uint64_t h = mix(seed ^ mix(uint64_t(label) << 32 | k));
        const Terminator& term = blocks->at(label);
        if (term.kind == Terminator::br)
            return uint32_t(h % 3 != 0); // taken 2 times out of 3
        if (term.kind != Terminator::sw)
            return 0;
        size_t pick = h % (term.values.size() + 1);
        if (pick < term.values.size())
            return term.values[pick];
        uint32_t unused = 0;
        for (uint32_t v : term.values)
            unused = std::max(unused, v + 1);
        return unused;
    }
};

inline std::vector<uint32_t> run_unstructured(const TestCfg& cfg, uint32_t entry, const Decisions& d,
    uint32_t max_visits)
{
    std::vector<uint32_t> visits;
    std::map<uint32_t, uint32_t> count;
    uint32_t at = entry;
    while (visits.size() < max_visits) {
        visits.push_back(at);
        const Terminator& term = cfg.blocks.at(at);
        uint32_t v = d.value(at, count[at]++);
        switch (term.kind) {
        case Terminator::ret: return visits;
        case Terminator::jmp: at = term.targets[0]; break;
        case Terminator::br: at = v ? term.targets[0] : term.targets[1]; break;
        case Terminator::sw: {
            at = term.targets[0];
            for (size_t k = 0; k < term.values.size(); ++k)
                if (term.values[k] == v) {
                    at = term.targets[k + 1];
                    break;
                }
            break;
        }
        }
    }
    return visits;
}

/// Runs a structured program; `error` explains a malformed program or a
/// step limit hit.
inline std::vector<uint32_t> run_structured(const Program& p, const Decisions& d, uint32_t max_visits,
    std::string& error)
{
    const uint32_t n = uint32_t(p.instructions.size());
    std::vector<uint32_t> match(n, ~0u), else_of(n, ~0u);
    std::vector<std::vector<uint32_t>> cases(n);
    std::vector<uint32_t> open;
    for (uint32_t i = 0; i < n; ++i) {
        switch (p.instructions[i].opcode) {
        case Opcode::if_:
        case Opcode::loop:
        case Opcode::switch_: open.push_back(i); break;
        case Opcode::else_: else_of[open.back()] = i; break;
        case Opcode::case_:
        case Opcode::default_: cases[open.back()].push_back(i); break;
        case Opcode::endif:
        case Opcode::endloop:
        case Opcode::endswitch:
            match[open.back()] = i;
            match[i] = open.back();
            if (else_of[open.back()] != ~0u)
                match[else_of[open.back()]] = i;
            open.pop_back();
            break;
        default: break;
        }
    }
    std::map<uint32_t, std::array<uint32_t, 4>> regs;
    auto value = [&](const SrcParam& s) -> uint32_t {
        unsigned c = swizzle_component(s.swizzle, 0);
        if (s.reg.file == RegisterFile::immediate)
            return s.reg.u32[c];
        return regs[s.reg.idx[0].offset][c];
    };
    auto taken = [&](const Instruction& ins) {
        uint32_t v = value(p.src(ins, 0));
        return (ins.flags & flag_test_nonzero) ? v != 0 : v == 0;
    };
    std::vector<uint32_t> frames; // open loop / switch instructions
    std::vector<uint32_t> visits;
    std::map<uint32_t, uint32_t> count;
    auto leave_to = [&](bool loops_only) -> uint32_t {
        while (!frames.empty() && loops_only && p.instructions[frames.back()].opcode != Opcode::loop)
            frames.pop_back();
        if (frames.empty()) {
            error = "jump outside any construct";
            return n;
        }
        return frames.back();
    };
    uint32_t pc = 0;
    for (uint64_t steps = 0; pc < n && visits.size() < max_visits; ++steps) {
        if (steps > 10'000'000) {
            error = "step limit";
            break;
        }
        const Instruction& ins = p.instructions[pc];
        switch (ins.opcode) {
        case Opcode::mov: {
            const DstParam& dst = p.dst(ins, 0);
            uint32_t reg = dst.reg.idx[0].offset, v = value(p.src(ins, 0));
            if (reg == 0 && p.src(ins, 0).reg.file == RegisterFile::immediate) {
                visits.push_back(v);
                regs[1][0] = d.value(v, count[v]++);
            } else {
                for (unsigned c = 0; c < 4; ++c)
                    if (dst.write_mask & (1u << c))
                        regs[reg][c] = v;
            }
            ++pc;
            break;
        }
        case Opcode::ieq:
        case Opcode::ine: {
            const DstParam& dst = p.dst(ins, 0);
            bool eq = value(p.src(ins, 0)) == value(p.src(ins, 1));
            uint32_t v = (eq == (ins.opcode == Opcode::ieq)) ? ~0u : 0u;
            for (unsigned c = 0; c < 4; ++c)
                if (dst.write_mask & (1u << c))
                    regs[dst.reg.idx[0].offset][c] = v;
            ++pc;
            break;
        }
        case Opcode::if_:
            pc = taken(ins) ? pc + 1 : (else_of[pc] != ~0u ? else_of[pc] + 1 : match[pc] + 1);
            break;
        case Opcode::else_: pc = match[pc] + 1; break;
        case Opcode::loop:
        case Opcode::switch_:
            frames.push_back(pc);
            if (ins.opcode == Opcode::switch_) {
                const uint32_t sel = value(p.src(ins, 0)), end = match[pc];
                uint32_t to = end;
                for (uint32_t c : cases[pc])
                    if (p.instructions[c].opcode == Opcode::default_)
                        to = c;
                for (uint32_t c : cases[pc])
                    if (p.instructions[c].opcode == Opcode::case_ && value(p.src(p.instructions[c], 0)) == sel)
                        to = c;
                pc = to == end ? end : to + 1;
            } else {
                ++pc;
            }
            break;
        case Opcode::endloop: pc = match[pc] + 1; break;
        case Opcode::endswitch:
            frames.pop_back();
            ++pc;
            break;
        case Opcode::break_:
        case Opcode::breakc:
            if (ins.opcode == Opcode::breakc && !taken(ins)) {
                ++pc;
                break;
            }
            pc = leave_to(false);
            if (pc < n) {
                frames.pop_back();
                pc = match[pc] + 1;
            }
            break;
        case Opcode::continue_:
        case Opcode::continuec:
            if (ins.opcode == Opcode::continuec && !taken(ins)) {
                ++pc;
                break;
            }
            pc = leave_to(true);
            if (pc < n)
                pc = pc + 1;
            break;
        case Opcode::ret: pc = n; break;
        case Opcode::retc: pc = taken(ins) ? n : pc + 1; break;
        case Opcode::case_:
        case Opcode::default_:
        case Opcode::endif:
        default: ++pc; break;
        }
    }
    return visits;
}

} // namespace cfg_test

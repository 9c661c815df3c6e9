// Test helper: rewrites a structured program (as the TPF front end gives
// it) in unstructured form (labels, branch, switch_monolithic, ret), the
// shape the DXIL lowering produces, so that real shaders' control flow can
// go through the structurizer. Programs with subroutines are refused.
#pragma once

#include <vector>

#include "vsir/ir.h"

namespace cfg_test {

class Destructurer {
public:
    explicit Destructurer(dxspv::vsir::Program& p) : p_(p) {}

    bool run()
    {
        using dxspv::vsir::Opcode;
        const auto& in = p_.instructions;
        match_cases();
        for (uint32_t i = 0; i < in.size(); ++i) {
            const dxspv::vsir::Instruction ins = in[i];
            const dxspv::vsir::OpcodeKind kind = dxspv::vsir::opcode_info(ins.opcode).kind;
            if (ins.opcode == Opcode::label || ins.opcode == Opcode::call || ins.opcode == Opcode::callc)
                return false;
            if (kind == dxspv::vsir::OpcodeKind::phase) {
                if (open_)
                    ret();
                out_.push_back(ins);
                started_ = false;
                continue;
            }
            if (kind == dxspv::vsir::OpcodeKind::declaration && !started_) {
                out_.push_back(ins);
                continue;
            }
            if (!started_ || (!open_ && !closes_or_labels(ins.opcode)))
                label(fresh()); // code after a jump: an unreachable block
            started_ = true;
            if (!control_flow(i, ins))
                out_.push_back(ins);
            if (broken_)
                return false; // jumps or ends outside their constructs
        }
        if (open_)
            ret();
        p_.instructions = std::move(out_);
        p_.control_flow = dxspv::vsir::ControlFlow::unstructured;
        p_.label_count = next_label_;
        return true;
    }

private:
    struct Frame {
        dxspv::vsir::Opcode op;
        uint32_t head = 0, merge = 0, else_label = ~0u;
    };

    /// Case / default instructions of every switch, and their labels
    /// (consecutive ones share a block).
    void match_cases()
    {
        using dxspv::vsir::Opcode;
        const auto& in = p_.instructions;
        cases_.assign(in.size(), {});
        case_label_.assign(in.size(), ~0u);
        else_of_.assign(in.size(), ~0u);
        std::vector<uint32_t> open;
        for (uint32_t i = 0; i < in.size(); ++i) {
            Opcode op = in[i].opcode;
            if (op == Opcode::if_ || op == Opcode::loop || op == Opcode::switch_)
                open.push_back(i);
            else if ((op == Opcode::endif || op == Opcode::endloop || op == Opcode::endswitch) && !open.empty())
                open.pop_back();
            else if (op == Opcode::else_ && !open.empty())
                else_of_[open.back()] = i;
            else if ((op == Opcode::case_ || op == Opcode::default_) && !open.empty())
                cases_[open.back()].push_back(i);
        }
    }

    uint32_t fresh() { return next_label_++; }

    /// Structured opcodes that start a block themselves.
    static bool closes_or_labels(dxspv::vsir::Opcode op)
    {
        using dxspv::vsir::Opcode;
        return op == Opcode::else_ || op == Opcode::endif || op == Opcode::loop || op == Opcode::endloop ||
               op == Opcode::case_ || op == Opcode::default_ || op == Opcode::endswitch;
    }

    uint32_t add_label_src(uint32_t id)
    {
        dxspv::vsir::SrcParam s;
        const uint32_t idx[] = {id};
        s.reg = dxspv::vsir::make_register(dxspv::vsir::RegisterFile::label, dxspv::vsir::DataType::opaque,
            dxspv::vsir::Dimension::none, idx);
        p_.srcs.push_back(s);
        return uint32_t(p_.srcs.size() - 1);
    }

    void emit(dxspv::vsir::Opcode op, uint32_t src_first, uint32_t src_count, uint32_t flags = 0)
    {
        dxspv::vsir::Instruction ins;
        ins.opcode = op;
        ins.src_first = src_first;
        ins.src_count = uint8_t(src_count);
        ins.flags = flags;
        out_.push_back(ins);
    }

    void label(uint32_t id)
    {
        if (open_)
            branch(id);
        emit(dxspv::vsir::Opcode::label, add_label_src(id), 1);
        open_ = true;
    }
    void branch(uint32_t id)
    {
        if (!open_)
            return;
        emit(dxspv::vsir::Opcode::branch, add_label_src(id), 1);
        open_ = false;
    }
    void branch_if(const dxspv::vsir::Instruction& test, uint32_t if_true, uint32_t if_false)
    {
        uint32_t first = uint32_t(p_.srcs.size());
        p_.srcs.push_back(p_.src(test, 0));
        add_label_src(if_true);
        add_label_src(if_false);
        emit(dxspv::vsir::Opcode::branch, first, 3, test.flags & dxspv::vsir::flag_test_nonzero);
        open_ = false;
    }
    void ret()
    {
        emit(dxspv::vsir::Opcode::ret, 0, 0);
        open_ = false;
    }

    const Frame* innermost(bool loops_only) const
    {
        for (size_t k = frames_.size(); k-- > 0;)
            if (frames_[k].op == dxspv::vsir::Opcode::loop || (!loops_only && frames_[k].op == dxspv::vsir::Opcode::switch_))
                return &frames_[k];
        return nullptr;
    }

    bool control_flow(uint32_t i, const dxspv::vsir::Instruction& ins)
    {
        using dxspv::vsir::Opcode;
        const bool closes = ins.opcode == Opcode::else_ || ins.opcode == Opcode::endif ||
                            ins.opcode == Opcode::endloop || ins.opcode == Opcode::endswitch;
        const bool jumps = ins.opcode == Opcode::break_ || ins.opcode == Opcode::breakc ||
                           ins.opcode == Opcode::continue_ || ins.opcode == Opcode::continuec;
        if ((closes && frames_.empty()) ||
            (jumps && !innermost(ins.opcode == Opcode::continue_ || ins.opcode == Opcode::continuec))) {
            broken_ = true;
            return true;
        }
        switch (ins.opcode) {
        case Opcode::if_: {
            Frame f{Opcode::if_, 0, fresh()};
            uint32_t then_label = fresh();
            if (else_of_[i] != ~0u)
                f.else_label = fresh();
            branch_if(ins, then_label, f.else_label != ~0u ? f.else_label : f.merge);
            frames_.push_back(f);
            label(then_label);
            return true;
        }
        case Opcode::else_:
            branch(frames_.back().merge);
            label(frames_.back().else_label);
            return true;
        case Opcode::endif:
        case Opcode::endswitch:
            label(frames_.back().merge);
            frames_.pop_back();
            return true;
        case Opcode::loop: {
            Frame f{Opcode::loop, fresh(), fresh()};
            label(f.head);
            frames_.push_back(f);
            return true;
        }
        case Opcode::endloop:
            branch(frames_.back().head);
            label(frames_.back().merge);
            frames_.pop_back();
            return true;
        case Opcode::break_:
        case Opcode::continue_: {
            const Frame* f = innermost(ins.opcode == Opcode::continue_);
            branch(ins.opcode == Opcode::continue_ ? f->head : f->merge);
            return true;
        }
        case Opcode::breakc:
        case Opcode::continuec: {
            const Frame* f = innermost(ins.opcode == Opcode::continuec);
            uint32_t next = fresh();
            branch_if(ins, ins.opcode == Opcode::continuec ? f->head : f->merge, next);
            label(next);
            return true;
        }
        case Opcode::ret:
            ret();
            return true;
        case Opcode::retc: {
            uint32_t at = fresh(), next = fresh();
            branch_if(ins, at, next);
            label(at);
            ret();
            label(next);
            return true;
        }
        case Opcode::switch_: {
            Frame f{Opcode::switch_, 0, fresh()};
            uint32_t default_label = f.merge;
            std::vector<std::pair<uint32_t, uint32_t>> pairs; // value src, label
            uint32_t previous = ~0u;
            for (uint32_t c : cases_[i]) {
                uint32_t l = previous != ~0u && previous + 1 == c ? case_label_[previous] : fresh();
                case_label_[c] = l;
                previous = c;
                if (p_.instructions[c].opcode == Opcode::default_)
                    default_label = l;
                else
                    pairs.push_back({p_.instructions[c].src_first, l});
            }
            uint32_t first = uint32_t(p_.srcs.size());
            p_.srcs.push_back(p_.src(ins, 0));
            add_label_src(default_label);
            for (auto [value, l] : pairs) {
                p_.srcs.push_back(p_.srcs[value]);
                add_label_src(l);
            }
            emit(Opcode::switch_monolithic, first, uint32_t(p_.srcs.size()) - first);
            open_ = false;
            frames_.push_back(f);
            return true;
        }
        case Opcode::case_:
        case Opcode::default_:
            if (i == 0 || case_label_[i - 1] != case_label_[i])
                label(case_label_[i]);
            return true;
        default: return false;
        }
    }

    dxspv::vsir::Program& p_;
    std::vector<dxspv::vsir::Instruction> out_;
    std::vector<Frame> frames_;
    std::vector<std::vector<uint32_t>> cases_;
    std::vector<uint32_t> case_label_, else_of_;
    uint32_t next_label_ = 0;
    bool open_ = false;
    bool started_ = false;
    bool broken_ = false;
};

/// See Destructurer.
inline bool destructure(dxspv::vsir::Program& program)
{
    return Destructurer(program).run();
}

} // namespace cfg_test

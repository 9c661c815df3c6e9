// Structured control flow: if/else/endif, loop/endloop, break/continue (and
// their conditional forms), switch/case/default/endswitch, ret/retc.
//
// Every construct gets fresh blocks:
// - if: the header is the block current at `if`; its OpSelectionMerge and
//   OpBranchConditional are appended when the construct closes, once it is
//   known whether there is an else block;
// - loop: header (OpLoopMerge + branch to the body), body, continue target
//   (a branch back to the header) and merge;
// - switch: like `if`, the header's OpSelectionMerge and OpSwitch are
//   appended at endswitch, when every case label is known. A case that does
//   not end in break falls through to the next case's block;
// - a conditional jump (breakc, continuec, retc) is a selection of its own:
//   OpSelectionMerge next; OpBranchConditional cond, target, next.
// After an unconditional jump the emitter continues in a new block without
// predecessors; the builder drops such blocks and turns dead merge blocks and
// continue targets into their canonical forms (builder_layout.cpp).
#include "spirv/emitter.h"

#include <algorithm>
#include <cstdio>

namespace dxspv::spirv {

/// The condition of if/breakc/continuec/retc/discard/callc: a boolean as it
/// is, any other type tested against zero (flag_test_nonzero: true when
/// non-zero; without it the test is negated).
spv::Id Emitter::test_condition(const vsir::Instruction& ins)
{
    const vsir::SrcParam& src = prog_.src(ins, 0);
    return truth(load_scalar(src, kind_or_u32(src.reg.type)), (ins.flags & vsir::flag_test_nonzero) != 0);
}

Block* Emitter::new_block()
{
    return &b_.makeNewBlock();
}

void Emitter::start_dead_block()
{
    b_.setBuildPoint(new_block());
}

void Emitter::branch_if_open(Block* target)
{
    if (!b_.getBuildPoint()->isTerminated())
        b_.createBranch(target);
}

void Emitter::conditional_jump(spv::Id condition, Block* target)
{
    Block* next = new_block();
    b_.createSelectionMerge(next, spv::SelectionControlMaskNone);
    b_.createConditionalBranch(condition, target, next);
    b_.setBuildPoint(next);
}

CfFrame* Emitter::innermost(bool loops_only)
{
    for (size_t i = cf_.size(); i-- > 0;) {
        if (cf_[i].type == CfFrame::Type::loop || (!loops_only && cf_[i].type == CfFrame::Type::switch_))
            return &cf_[i];
    }
    return nullptr;
}

CfFrame* Emitter::top_frame(CfFrame::Type type)
{
    if (cf_.empty() || cf_.back().type != type) {
        error(Code::spirv_invalid_control_flow, "not inside the matching construct");
        return nullptr;
    }
    return &cf_.back();
}

bool Emitter::emit_case_label(const vsir::Instruction& ins)
{
    CfFrame* frame = top_frame(CfFrame::Type::switch_);
    if (!frame)
        return false;
    bool is_default = ins.opcode == vsir::Opcode::default_;
    uint32_t value = 0;
    if (!is_default) {
        const vsir::SrcParam& src = prog_.src(ins, 0);
        if (src.reg.file != vsir::RegisterFile::immediate) {
            error(Code::spirv_invalid_operand, "case label is not an immediate");
            return false;
        }
        value = src.reg.u32[0]; // a duplicate is refused at endswitch (close_switch)
    } else if (frame->default_block) {
        error(Code::spirv_invalid_control_flow, "two default labels in one switch");
        return false;
    }
    // Consecutive labels share one block; otherwise the previous case falls
    // through (when it did not end in a jump) into the new block.
    Block* current = b_.getBuildPoint();
    Block* block = frame->label_block;
    if (current != block || !block->empty()) {
        block = new_block();
        branch_if_open(block);
        b_.setBuildPoint(block);
        frame->label_block = block;
    }
    if (is_default)
        frame->default_block = block;
    else
        cases_.push_back({value, block});
    return true;
}

bool Emitter::close_switch(CfFrame& frame)
{
    // Duplicate case values, found by sorting them (a search per label
    // would be quadratic in the cases).
    ScratchVector<uint32_t> values;
    values.reserve(cases_.size() - frame.first_case);
    for (size_t i = frame.first_case; i < cases_.size(); ++i)
        values.push_back(cases_[i].first);
    std::sort(values.begin(), values.end());
    const auto duplicate = std::adjacent_find(values.begin(), values.end());
    if (duplicate != values.end()) {
        error(Code::spirv_invalid_control_flow, "duplicate case %u", *duplicate);
        return false;
    }
    branch_if_open(frame.merge);
    b_.setBuildPoint(frame.header);
    b_.createSelectionMerge(frame.merge, spv::SelectionControlMaskNone);
    b_.createSwitch(frame.header, frame.condition, frame.default_block ? frame.default_block : frame.merge,
        cases_.data() + frame.first_case, cases_.size() - frame.first_case);
    cases_.resize(frame.first_case);
    b_.setBuildPoint(frame.merge);
    return true;
}

bool Emitter::emit_control_flow(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    // The temps held in the block go back to their variables where the
    // block ends: at every construct's edge and jump. Not at retc, whose
    // next block the current one dominates (its values stand), nor at ret,
    // where the function ends.
    if (temp_blocks_ && ins.opcode != Opcode::retc)
        release_temps(ins.opcode != Opcode::ret);
    switch (ins.opcode) {
    case Opcode::if_: {
        CfFrame frame;
        frame.type = CfFrame::Type::if_;
        frame.condition = test_condition(ins);
        frame.header = b_.getBuildPoint();
        frame.then_block = new_block();
        frame.merge = new_block();
        cf_.push_back(frame);
        b_.setBuildPoint(frame.then_block);
        return true;
    }
    case Opcode::else_: {
        CfFrame* frame = top_frame(CfFrame::Type::if_);
        if (!frame || frame->else_block) {
            if (frame)
                error(Code::spirv_invalid_control_flow, "two else in one if");
            return false;
        }
        branch_if_open(frame->merge);
        frame->else_block = new_block();
        b_.setBuildPoint(frame->else_block);
        return true;
    }
    case Opcode::endif: {
        CfFrame* frame = top_frame(CfFrame::Type::if_);
        if (!frame)
            return false;
        branch_if_open(frame->merge);
        b_.setBuildPoint(frame->header);
        b_.createSelectionMerge(frame->merge, spv::SelectionControlMaskNone);
        b_.createConditionalBranch(frame->condition, frame->then_block,
            frame->else_block ? frame->else_block : frame->merge);
        b_.setBuildPoint(frame->merge);
        cf_.pop_back();
        return true;
    }
    case Opcode::loop: {
        CfFrame frame;
        frame.type = CfFrame::Type::loop;
        frame.header = new_block();
        Block* body = new_block();
        frame.continue_target = new_block();
        frame.merge = new_block();
        b_.createBranch(frame.header);
        b_.setBuildPoint(frame.header);
        b_.createLoopMerge(frame.merge, frame.continue_target, spv::LoopControlMaskNone);
        b_.createBranch(body);
        b_.setBuildPoint(body);
        cf_.push_back(frame);
        return true;
    }
    case Opcode::endloop: {
        CfFrame* frame = top_frame(CfFrame::Type::loop);
        if (!frame)
            return false;
        branch_if_open(frame->continue_target);
        b_.setBuildPoint(frame->continue_target);
        b_.createBranch(frame->header);
        b_.setBuildPoint(frame->merge);
        cf_.pop_back();
        return true;
    }
    case Opcode::break_:
    case Opcode::breakc:
    case Opcode::continue_:
    case Opcode::continuec: {
        bool is_continue = ins.opcode == Opcode::continue_ || ins.opcode == Opcode::continuec;
        CfFrame* frame = innermost(is_continue);
        if (!frame) {
            error(Code::spirv_invalid_control_flow, "outside any %s", is_continue ? "loop" : "loop or switch");
            return false;
        }
        Block* target = is_continue ? frame->continue_target : frame->merge;
        if (ins.opcode == Opcode::breakc || ins.opcode == Opcode::continuec) {
            conditional_jump(test_condition(ins), target);
        } else {
            b_.createBranch(target);
            start_dead_block();
        }
        return true;
    }
    case Opcode::ret:
        if (inline_entry_)
            emit_entry_epilogue();
        b_.makeReturn();
        if (ins_index_ + 1 < prog_.instructions.size()) // the program's last ret needs no block after it
            start_dead_block();
        return true;
    case Opcode::retc: {
        spv::Id condition = test_condition(ins);
        Block* ret_block = new_block();
        conditional_jump(condition, ret_block);
        Block* next = b_.getBuildPoint();
        b_.setBuildPoint(ret_block);
        b_.makeReturn();
        b_.setBuildPoint(next);
        return true;
    }
    case Opcode::call:
    case Opcode::callc:
        return emit_call(ins);
    case Opcode::label:
        return begin_subroutine(ins);
    case Opcode::switch_: {
        CfFrame frame;
        frame.type = CfFrame::Type::switch_;
        frame.condition = load_scalar(prog_.src(ins, 0), Kind::u32).id;
        frame.header = b_.getBuildPoint();
        frame.merge = new_block();
        frame.first_case = uint32_t(cases_.size());
        cf_.push_back(frame);
        start_dead_block();
        return true;
    }
    case Opcode::case_:
    case Opcode::default_:
        return emit_case_label(ins);
    case Opcode::endswitch: {
        CfFrame* frame = top_frame(CfFrame::Type::switch_);
        if (!frame)
            return false;
        if (!close_switch(*frame))
            return false;
        cf_.pop_back();
        return true;
    }
    default:
        refuse_opcode(ins);
        return false;
    }
}

/// The function of subroutine label `id` (created on first use; the build
/// point is kept).
Function* Emitter::subroutine(uint32_t id)
{
    if (id >= prog_.label_count || id >= 65536) {
        error(Code::spirv_invalid_operand, "label %u outside the program's labels", id);
        return nullptr;
    }
    ScratchVector<Function*>& subroutines = rare().subroutines;
    if (subroutines.size() <= id)
        subroutines.resize(id + 1);
    if (!subroutines[id]) {
        Block* here = b_.getBuildPoint();
        Block* entry = nullptr;
        subroutines[id] = b_.makeFunctionEntry(b_.makeVoidType(), NumberedName("l", id).c_str(), &entry);
        b_.setBuildPoint(here);
    }
    return subroutines[id];
}

/// call / callc: an OpFunctionCall of the label's function. The registers
/// subroutines share (temps, indexable temps) are Private in such programs.
bool Emitter::emit_call(const vsir::Instruction& ins)
{
    const vsir::Register& label = prog_.src(ins, ins.opcode == vsir::Opcode::callc ? 1 : 0).reg;
    if (label.file != vsir::RegisterFile::label || label.index_count < 1) {
        error(Code::spirv_invalid_operand, "call target is not a label");
        return false;
    }
    Function* fn = subroutine(label.idx[0].offset);
    if (!fn)
        return false;
    if (ins.opcode == vsir::Opcode::call) {
        b_.createFunctionCall(fn, {});
        return true;
    }
    Builder::If branch(test_condition(ins), spv::SelectionControlMaskNone, b_);
    b_.createFunctionCall(fn, {});
    branch.makeEndIf();
    return true;
}

/// label l#: the body of a subroutine starts (after the main program's ret).
/// Every called subroutine must have its label in the program.
bool Emitter::check_subroutines()
{
    if (!rare_)
        return true; // no call and no label
    for (uint32_t id = 0; id < rare_->subroutines.size(); ++id) {
        if (rare_->subroutines[id] && !subroutine_defined(id)) {
            error(Code::spirv_invalid_control_flow, "call to label l%u, which the program does not define", id);
            return false;
        }
    }
    return true;
}

bool Emitter::subroutine_defined(uint32_t id) const
{
    return rare_ && id < rare_->defined_subroutines.size() && rare_->defined_subroutines[id];
}

bool Emitter::begin_subroutine(const vsir::Instruction& ins)
{
    const vsir::Register& label = prog_.src(ins, 0).reg;
    if (!control_flow_closed() || label.index_count < 1 || prog_.model.stage == ShaderStage::hull) {
        error(Code::spirv_unsupported_opcode, "subroutine label here is not supported");
        return false;
    }
    Function* fn = subroutine(label.idx[0].offset);
    if (!fn)
        return false;
    if (subroutine_defined(label.idx[0].offset)) {
        error(Code::spirv_invalid_operand, "label l%u defined twice", label.idx[0].offset);
        return false;
    }
    if (!b_.getBuildPoint()->isTerminated())
        b_.makeReturn();
    b_.leaveFunction();
    b_.setBuildPoint(fn->getEntryBlock());
    RareState& rare_state = rare();
    rare_state.defined_subroutines.resize(rare_state.subroutines.size());
    rare_state.defined_subroutines[label.idx[0].offset] = true;
    return true;
}

bool Emitter::control_flow_closed()
{
    if (cf_.empty())
        return true;
    static constexpr const char* names[] = {"if", "loop", "switch"};
    error(Code::spirv_invalid_control_flow, "the program ends inside an open '%s'", names[size_t(cf_.back().type)]);
    return false;
}

} // namespace dxspv::spirv

// DXIL lowering: calls of functions defined in the module. DXC inlines
// nearly every function; some shaders (hand-written .ll, dxil-spirv's test
// shaders, -Od builds) keep internal functions and call them.
//
// A call is inlined while lowering: the caller's block ends with a branch to
// the callee's first block, the callee's blocks get labels of their own and
// its arguments are the caller's operands, each `ret` branches to a new
// continuation block, where a phi picks the returned value, and the caller
// goes on in the continuation. Phis of the caller that name the calling
// block as a predecessor name the continuation instead (block_exit_).
// Recursion is refused; calls nest at most max_inline_depth deep, and all
// inlined functions together at most max_inlined_instructions, so that a
// few bytes of bitcode cannot expand without bound.
#include "dxil/lower/context.h"

#include <string>
#include <utility>

namespace dxspv::dxil::lower {

namespace {

constexpr uint32_t max_inline_depth = 16;
constexpr uint64_t max_inlined_instructions = 1u << 18;

} // namespace

void Lowerer::inline_call(const Function& callee, const Instruction& inst)
{
    std::string name(callee.name);
    bool recursive = fn_ == &callee;
    for (const Function* f : inline_stack_)
        recursive = recursive || f == &callee;
    if (recursive) {
        error(Code::dxil_lower_unsupported, "recursive call of function %s (recursion is not supported)",
              name.c_str());
        return;
    }
    if (callee.blocks.empty()) {
        error(Code::dxil_lower_bad_operand, "call of function %s, which has no blocks", name.c_str());
        return;
    }
    // The limits are reported once: the calls after the first one over them are not inlined either.
    if (inline_stack_.size() >= max_inline_depth) {
        if (!inline_limit_reported_)
            error(Code::dxil_lower_limit, "calls of function %s nested deeper than %u", name.c_str(),
                  max_inline_depth);
        inline_limit_reported_ = true;
        return;
    }
    inlined_instructions_ += callee.instructions.size();
    if (inlined_instructions_ > max_inlined_instructions) {
        if (!inline_limit_reported_)
            error(Code::dxil_lower_limit, "inlining function %s: more than %llu inlined instructions in all",
                  name.c_str(), (unsigned long long)max_inlined_instructions);
        inline_limit_reported_ = true;
        return;
    }
    TypeId rt = inst.type;
    bool has_result = inst.result != no_id && type(rt).kind != TypeKind::void_;
    DataType t = has_result ? data_type(rt) : DataType::none;
    if (has_result && (t == DataType::none || is_vector(rt))) {
        unsupported("call of function", name.c_str(), "it returns a vector or an aggregate");
        return;
    }
    ScratchVector<Operand> args;
    for (size_t k = 1; k < inst.operands.size(); ++k)
        args.push_back(operand_whole(inst.operands[k]));

    // The caller's state, restored after the callee's blocks.
    const Function* caller = fn_;
    ScratchVector<Operand> values = std::move(values_);
    ScratchVector<PendingPhi> phis = std::move(phis_);
    ScratchVector<uint8_t> member_use = std::move(member_use_), reachable = std::move(reachable_);
    ScratchVector<uint32_t> block_exit = std::move(block_exit_);
    ScratchVector<Return> returns = std::move(returns_);
    uint32_t label_base = label_base_, block = current_block_, index = inst_index_, return_label = return_label_;

    uint32_t continuation = p_.label_count++;
    fn_ = &callee;
    values_.assign(callee.values.size(), Operand{});
    for (size_t local = 0; local < callee.values.size(); ++local)
        if (callee.values[local].kind == LocalValue::Kind::argument && callee.values[local].index < args.size())
            values_[local] = args[callee.values[local].index];
    label_base_ = p_.label_count;
    p_.label_count += uint32_t(callee.blocks.size());
    return_label_ = continuation;
    returns_.clear();
    inline_stack_.push_back(caller);
    lower_allocas(callee);
    emit(vsir::Opcode::branch, {}, {label_src(0)});
    lower_blocks(callee);
    inline_stack_.pop_back();
    ScratchVector<Return> results = std::move(returns_);

    fn_ = caller;
    values_ = std::move(values);
    phis_ = std::move(phis);
    member_use_ = std::move(member_use);
    reachable_ = std::move(reachable);
    block_exit_ = std::move(block_exit);
    returns_ = std::move(returns);
    label_base_ = label_base;
    current_block_ = block;
    inst_index_ = index;
    return_label_ = return_label;

    emit(vsir::Opcode::label, {}, {label_id_src(continuation)});
    current_label_ = continuation;
    if (current_block_ < block_exit_.size())
        block_exit_[current_block_] = continuation;
    if (!has_result)
        return;
    if (results.empty()) { // the callee never returns
        Operand& op = define(inst.result);
        op = {};
        op.kind = Operand::Kind::undef;
        op.type = t;
        return;
    }
    if (2 * results.size() > vsir::max_src_count) {
        error(Code::dxil_lower_limit, "a function with %zu returns inlined (at most %u)", results.size(),
            vsir::max_src_count / 2);
        return;
    }
    vsir::DstParam d = new_ssa(inst.result, t);
    uint32_t i = p_.add_instruction(vsir::Opcode::phi, 1, uint32_t(2 * results.size()), inst_index_);
    vsir::Instruction& phi = p_.instructions[i];
    p_.dsts[phi.dst_first] = d;
    for (size_t k = 0; k < results.size(); ++k) {
        p_.srcs[phi.src_first + 2 * k] = results[k].value;
        p_.srcs[phi.src_first + 2 * k + 1] = label_id_src(results[k].label);
    }
}

} // namespace dxspv::dxil::lower

// DXIL lowering: SM 6.9 native vectors (and the few vector values older
// DXIL has). A vector value is an aggregate Operand with one part per
// element, so VSIR sees scalars only, whatever the length (up to 1024):
// - element-wise instructions (arithmetic, casts, compares, select, phi,
//   dx.op calls with vector overloads) are lowered once per element with
//   `vector_lane_` set: operand() then reads that element of each vector
//   operand and define() writes that element of the result;
// - extractelement / insertelement / shufflevector move parts (a dynamic
//   index becomes a chain of compares and movc);
// - loads and stores through pointers (memory.cpp) and raw buffer vector
//   loads and stores move one element at a time;
// - FDot and VectorReduceAnd/Or fold the elements into a scalar.
#include "dxil/lower/context.h"

#include <algorithm>

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;
using ops::OpId;

bool is_elementwise(dxil::Opcode op)
{
    switch (op) {
    case dxil::Opcode::binop:
    case dxil::Opcode::cast:
    case dxil::Opcode::cmp:
    case dxil::Opcode::select:
    case dxil::Opcode::phi:
    case dxil::Opcode::call: return true;
    default: return false;
    }
}

} // namespace

Operand Lowerer::new_aggregate(uint32_t count, DataType type)
{
    Operand agg;
    agg.kind = Operand::Kind::aggregate;
    agg.first_part = uint32_t(aggregate_parts_.size());
    agg.part_count = count;
    Operand undef;
    undef.kind = Operand::Kind::undef;
    undef.type = type;
    aggregate_parts_.insert(aggregate_parts_.end(), count, undef);
    return agg;
}

Operand Lowerer::part(const Operand& agg, uint32_t k) const
{
    if (agg.kind == Operand::Kind::aggregate && k < agg.part_count)
        return aggregate_parts_[agg.first_part + k];
    Operand undef;
    undef.kind = Operand::Kind::undef;
    undef.type = agg.type;
    return undef;
}

/// Lowers `inst` when it produces or rearranges a vector; false when it is
/// not a vector instruction.
bool Lowerer::lower_vector_instruction(const Instruction& inst)
{
    switch (inst.op) {
    case dxil::Opcode::extractelement: lower_extractelement(inst); return true;
    case dxil::Opcode::insertelement: lower_insertelement(inst); return true;
    case dxil::Opcode::shufflevector: lower_shufflevector(inst); return true;
    default: break;
    }
    if (!is_vector(inst.type) || !is_elementwise(inst.op) || inst.result == no_id)
        return false;
    if (inst.op == dxil::Opcode::cast && CastOp(inst.sub) == CastOp::bitcast && !inst.operands.empty() &&
        vector_count(type_of(inst.operands[0])) != vector_count(inst.type)) {
        unsupported("bitcast between", "vectors of different lengths");
        return true;
    }
    uint32_t n = vector_count(inst.type);
    if (n > max_vector_elements) {
        error(Code::dxil_lower_limit, "a vector of %u elements (at most %u)", n, max_vector_elements);
        return true;
    }
    define(inst.result) = new_aggregate(n, data_type(inst.type)); // (vector_lane_ is -1 here)
    for (uint32_t k = 0; k < n; ++k) {
        vector_lane_ = int32_t(k);
        switch (inst.op) {
        case dxil::Opcode::binop: lower_binop(inst); break;
        case dxil::Opcode::cast: lower_cast(inst); break;
        case dxil::Opcode::cmp: lower_cmp(inst); break;
        case dxil::Opcode::select: lower_select(inst); break;
        case dxil::Opcode::phi: lower_phi(inst); break;
        default: lower_call(inst); break;
        }
    }
    vector_lane_ = -1;
    return true;
}

void Lowerer::lower_extractelement(const Instruction& inst)
{
    if (inst.operands.size() < 2)
        return;
    Operand vec = operand_whole(inst.operands[0]);
    DataType t = data_type(inst.type);
    uint32_t k = 0;
    if (constant_u32(inst.operands[1], k)) {
        define(inst.result) = part(vec, k);
        return;
    }
    // Dynamic index: r = e0; r = (i == k) ? ek : r for each further k.
    if (vec.kind != Operand::Kind::aggregate || !vec.part_count) {
        unsupported("extractelement from", "this vector");
        return;
    }
    vsir::SrcParam index = src(inst.operands[1], DataType::u32);
    vsir::SrcParam acc = src_of(part(vec, 0), t);
    for (uint32_t i = 1; i < vec.part_count; ++i) {
        vsir::SrcParam is_i, next;
        emit(Opcode::ieq, {temp_ssa(DataType::boolean, is_i)}, {index, immediate(DataType::u32, i)});
        is_i.reg.type = DataType::boolean;
        vsir::DstParam d = i + 1 == vec.part_count ? new_ssa(inst.result, t) : temp_ssa(t, next);
        emit(Opcode::movc, {d}, {is_i, src_of(part(vec, i), t), acc});
        acc = next;
        acc.reg.type = t;
    }
    if (vec.part_count == 1)
        define(inst.result) = part(vec, 0);
}

void Lowerer::lower_insertelement(const Instruction& inst)
{
    if (inst.operands.size() < 3)
        return;
    Operand vec = operand_whole(inst.operands[0]);
    uint32_t n = vector_count(inst.type);
    DataType t = data_type(inst.type);
    if (n > max_vector_elements)
        return;
    Operand result = new_aggregate(n, t);
    for (uint32_t i = 0; i < n; ++i)
        aggregate_parts_[result.first_part + i] = part(vec, i);
    Operand elt = operand_whole(inst.operands[1]);
    uint32_t k = 0;
    if (constant_u32(inst.operands[2], k)) {
        if (k < n)
            aggregate_parts_[result.first_part + k] = elt;
    } else {
        // Dynamic index: every element becomes (i == k) ? elt : old.
        vsir::SrcParam index = src(inst.operands[2], DataType::u32);
        for (uint32_t i = 0; i < n; ++i) {
            vsir::SrcParam is_i, v;
            emit(Opcode::ieq, {temp_ssa(DataType::boolean, is_i)}, {index, immediate(DataType::u32, i)});
            is_i.reg.type = DataType::boolean;
            emit(Opcode::movc, {temp_ssa(t, v)}, {is_i, src_of(elt, t), src_of(part(result, i), t)});
            v.reg.type = t;
            Operand& p = aggregate_parts_[result.first_part + i];
            p = {};
            p.kind = Operand::Kind::src;
            p.type = t;
            p.src = v;
        }
    }
    define(inst.result) = result;
}

void Lowerer::lower_shufflevector(const Instruction& inst)
{
    if (inst.operands.size() < 3)
        return;
    Operand a = operand_whole(inst.operands[0]), b = operand_whole(inst.operands[1]);
    uint32_t na = vector_count(type_of(inst.operands[0]));
    uint32_t n = vector_count(inst.type);
    const Constant* mask = constant_of(inst.operands[2]);
    if (!mask || n > max_vector_elements) {
        unsupported("shufflevector with", "a non-constant mask");
        return;
    }
    Operand result = new_aggregate(n, data_type(inst.type));
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t m = ~0u;
        if (mask->kind == ConstantKind::data && i < mask->data.size())
            m = uint32_t(mask->data[i]);
        else if (mask->kind == ConstantKind::aggregate && i < mask->operands.size() &&
                 !constant_u32(mask->operands[i], m))
            m = ~0u; // undef element
        else if (mask->kind == ConstantKind::null)
            m = 0;
        if (m == ~0u)
            continue;
        aggregate_parts_[result.first_part + i] = m < na ? part(a, m) : part(b, m - na);
    }
    define(inst.result) = result;
}

/// dx.op calls that take or return whole vectors (the element-wise ones go
/// through lower_vector_instruction).
bool Lowerer::lower_vector_op(ops::OpId op, const Instruction& inst)
{
    switch (op) {
    case OpId::FDot: {
        Operand a = operand_whole(arg(inst, 1)), b = operand_whole(arg(inst, 2));
        DataType t = data_type(inst.type);
        uint32_t n = std::min(a.part_count, b.part_count);
        if (a.kind != Operand::Kind::aggregate || b.kind != Operand::Kind::aggregate || !n) {
            error(Code::dxil_lower_bad_operand, "FDot of values that are not vectors");
            return true;
        }
        vsir::SrcParam acc;
        if (n == 1) {
            emit(Opcode::mul, {new_ssa(inst.result, t)}, {src_of(part(a, 0), t), src_of(part(b, 0), t)});
            return true;
        }
        emit(Opcode::mul, {temp_ssa(t, acc)}, {src_of(part(a, 0), t), src_of(part(b, 0), t)});
        for (uint32_t i = 1; i < n; ++i) {
            acc.reg.type = t;
            vsir::SrcParam next;
            vsir::DstParam d = i + 1 == n ? new_ssa(inst.result, t) : temp_ssa(t, next);
            emit(Opcode::mad, {d}, {src_of(part(a, i), t), src_of(part(b, i), t), acc});
            acc = next;
        }
        return true;
    }
    case OpId::VectorReduceAnd:
    case OpId::VectorReduceOr: {
        Operand v = operand_whole(arg(inst, 1));
        DataType t = data_type(inst.type);
        if (v.kind != Operand::Kind::aggregate || !v.part_count) {
            error(Code::dxil_lower_bad_operand, "a vector reduction of a value that is not a vector");
            return true;
        }
        Opcode o = op == OpId::VectorReduceAnd ? Opcode::and_ : Opcode::or_;
        if (v.part_count == 1) {
            define(inst.result) = part(v, 0);
            return true;
        }
        vsir::SrcParam acc = src_of(part(v, 0), t);
        for (uint32_t i = 1; i < v.part_count; ++i) {
            vsir::SrcParam next;
            vsir::DstParam d = i + 1 == v.part_count ? new_ssa(inst.result, t) : temp_ssa(t, next);
            emit(o, {d}, {acc, src_of(part(v, i), t)});
            acc = next;
            acc.reg.type = t;
        }
        return true;
    }
    default: return false;
    }
}

} // namespace dxspv::dxil::lower

// DXIL lowering: LLVM instructions (arithmetic, casts, compares, select,
// phi, terminators, aggregates). Memory instructions are in memory.cpp,
// dx.op calls in the ops_*.cpp files.
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;

bool is_float(DataType t) { return t == DataType::f16 || t == DataType::f32 || t == DataType::f64; }

unsigned width_of(DataType t)
{
    switch (t) {
    case DataType::boolean: return 1;
    case DataType::f16:
    case DataType::i16:
    case DataType::u16: return 16;
    case DataType::f64:
    case DataType::i64:
    case DataType::u64: return 64;
    default: return 32;
    }
}

vsir::DstParam null_dst()
{
    vsir::DstParam d;
    d.reg.file = RegisterFile::null;
    d.reg.type = DataType::none;
    return d;
}

vsir::SrcParam negated(vsir::SrcParam s)
{
    s.modifier = vsir::SrcModifier::neg;
    return s;
}

} // namespace

void Lowerer::lower_instruction(const Instruction& inst, uint32_t)
{
    if (lower_vector_instruction(inst))
        return;
    switch (inst.op) {
    case dxil::Opcode::binop: lower_binop(inst); break;
    case dxil::Opcode::cast: lower_cast(inst); break;
    case dxil::Opcode::cmp: lower_cmp(inst); break;
    case dxil::Opcode::select: lower_select(inst); break;
    case dxil::Opcode::phi: lower_phi(inst); break;
    case dxil::Opcode::br:
    case dxil::Opcode::switch_:
    case dxil::Opcode::ret:
    case dxil::Opcode::unreachable: lower_terminator(inst); break;
    case dxil::Opcode::extractvalue: lower_extractvalue(inst); break;
    case dxil::Opcode::insertvalue: lower_insertvalue(inst); break;
    case dxil::Opcode::gep: lower_gep(inst); break;
    case dxil::Opcode::load: lower_load(inst); break;
    case dxil::Opcode::store: lower_store(inst); break;
    case dxil::Opcode::atomicrmw: lower_atomicrmw(inst); break;
    case dxil::Opcode::cmpxchg: lower_cmpxchg(inst); break;
    case dxil::Opcode::call: lower_call(inst); break;
    case dxil::Opcode::alloca: break; // declared before the blocks (lower.cpp)
    case dxil::Opcode::extractelement:
    case dxil::Opcode::insertelement:
    case dxil::Opcode::shufflevector: break; // vectors.cpp
    case dxil::Opcode::fence: unsupported("instruction", "fence"); break;
    }
}

void Lowerer::lower_binop(const Instruction& inst)
{
    if (inst.operands.size() < 2)
        return;
    DataType t = data_type(inst.type);
    if (t == DataType::none) {
        unsupported("binary operation on", "vectors or aggregates");
        return;
    }
    ValueId a = inst.operands[0], b = inst.operands[1];
    BinOp op = BinOp(inst.sub);
    if (is_float(t)) {
        uint32_t i = 0;
        switch (op) {
        case BinOp::add: i = emit(Opcode::add, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
        case BinOp::sub: i = emit(Opcode::add, {new_ssa(inst.result, t)}, {src(a, t), negated(src(b, t))}); break;
        case BinOp::mul: i = emit(Opcode::mul, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
        case BinOp::sdiv: i = emit(Opcode::div, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
        case BinOp::srem: i = emit(Opcode::frem, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
        default: error(Code::dxil_lower_bad_operand, "integer operation on a float type"); return;
        }
        // DXC marks every float operation `fast` but the ones HLSL's
        // `precise` covers: those must not be contracted or reassociated.
        if (!inst.flags)
            p_.instructions[i].flags |= vsir::flag_precise_x;
        return;
    }
    DataType s = signed_of(t);
    if (t == DataType::boolean) {
        Opcode o = op == BinOp::and_ ? Opcode::and_ : op == BinOp::or_ ? Opcode::or_ : Opcode::xor_;
        if (op != BinOp::and_ && op != BinOp::or_ && op != BinOp::xor_) {
            unsupported("arithmetic on", "i1 values");
            return;
        }
        emit(o, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)});
        return;
    }
    switch (op) {
    case BinOp::add: emit(Opcode::iadd, {new_ssa(inst.result, s)}, {src(a, s), src(b, s)}); break;
    case BinOp::sub: emit(Opcode::iadd, {new_ssa(inst.result, s)}, {src(a, s), negated(src(b, s))}); break;
    case BinOp::mul: emit(Opcode::imul, {null_dst(), new_ssa(inst.result, s)}, {src(a, s), src(b, s)}); break;
    case BinOp::udiv: emit(Opcode::udiv, {new_ssa(inst.result, t), null_dst()}, {src(a, t), src(b, t)}); break;
    case BinOp::urem: emit(Opcode::udiv, {null_dst(), new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
    case BinOp::sdiv: emit(Opcode::idiv, {new_ssa(inst.result, s), null_dst()}, {src(a, s), src(b, s)}); break;
    case BinOp::srem: emit(Opcode::idiv, {null_dst(), new_ssa(inst.result, s)}, {src(a, s), src(b, s)}); break;
    case BinOp::shl: emit(Opcode::ishl, {new_ssa(inst.result, s)}, {src(a, s), src(b, t)}); break;
    case BinOp::lshr: emit(Opcode::ushr, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
    case BinOp::ashr: emit(Opcode::ishr, {new_ssa(inst.result, s)}, {src(a, s), src(b, t)}); break;
    case BinOp::and_: emit(Opcode::and_, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
    case BinOp::or_: emit(Opcode::or_, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
    case BinOp::xor_: emit(Opcode::xor_, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); break;
    }
}

void Lowerer::lower_cast(const Instruction& inst)
{
    if (inst.operands.empty())
        return;
    ValueId v = inst.operands[0];
    CastOp op = CastOp(inst.sub);
    TypeId from_ty = type_of(v);
    if (op == CastOp::bitcast && from_ty < m_.types.size() && type(from_ty).kind == TypeKind::pointer) {
        // Pointer casts keep pointing at the same memory; loads and stores
        // read the pointee type from the instruction.
        Operand ptr;
        if (pointer_operand(v, ptr)) {
            ptr.pointee = type(inst.type).kind == TypeKind::pointer ? type(inst.type).element : ptr.pointee;
            define(inst.result) = ptr;
        }
        return;
    }
    DataType to = data_type(inst.type), from = data_type(from_ty);
    if (to == DataType::none || from == DataType::none) {
        unsupported("cast of", "vectors, aggregates or pointers");
        return;
    }
    auto convert = [&](Opcode o, DataType dst_t, DataType src_t) {
        vsir::SrcParam s = src(v, src_t);
        if (src_t == DataType::boolean && o != Opcode::utou && o != Opcode::itoi) {
            // i1 → float: through a 0/1 or 0/-1 integer.
            vsir::SrcParam tmp;
            bool sign = o == Opcode::itof;
            emit(sign ? Opcode::itoi : Opcode::utou, {temp_ssa(sign ? DataType::i32 : DataType::u32, tmp)}, {s});
            s = tmp;
            s.reg.type = sign ? DataType::i32 : DataType::u32;
        }
        emit(o, {new_ssa(inst.result, dst_t)}, {s});
    };
    switch (op) {
    case CastOp::trunc:
    case CastOp::zext:
        if (width_of(to) == width_of(from))
            emit(Opcode::mov, {new_ssa(inst.result, to)}, {src(v, to)});
        else
            convert(Opcode::utou, to, from);
        break;
    case CastOp::sext:
        if (width_of(to) == width_of(from))
            emit(Opcode::mov, {new_ssa(inst.result, to)}, {src(v, to)});
        else
            convert(Opcode::itoi, signed_of(to), signed_of(from));
        break;
    case CastOp::fptoui: convert(Opcode::ftou, to, from); break;
    case CastOp::fptosi: convert(Opcode::ftoi, signed_of(to), from); break;
    case CastOp::uitofp: convert(Opcode::utof, to, from); break;
    case CastOp::sitofp: convert(Opcode::itof, to, signed_of(from)); break;
    case CastOp::fptrunc:
    case CastOp::fpext:
        if (to == from)
            emit(Opcode::mov, {new_ssa(inst.result, to)}, {src(v, to)});
        else
            convert(Opcode::ftof, to, from);
        break;
    case CastOp::bitcast:
        if (width_of(to) != width_of(from)) {
            error(Code::dxil_lower_bad_operand, "bitcast between types of different widths");
            return;
        }
        emit(Opcode::mov, {new_ssa(inst.result, to)}, {src(v, from)});
        break;
    default: unsupported("cast", "ptrtoint/inttoptr/addrspacecast"); break;
    }
}

void Lowerer::lower_cmp(const Instruction& inst)
{
    if (inst.operands.size() < 2)
        return;
    ValueId a = inst.operands[0], b = inst.operands[1];
    DataType t = data_type(type_of(a));
    if (t == DataType::none) {
        unsupported("compare of", "vectors or pointers");
        return;
    }
    uint32_t pred = inst.sub;
    auto cmp = [&](Opcode o, DataType st, bool swap) {
        vsir::SrcParam x = src(a, st), y = src(b, st);
        emit(o, {new_ssa(inst.result, DataType::boolean)}, {swap ? y : x, swap ? x : y});
    };
    if (pred <= 15) {
        switch (pred) {
        case 0:
        case 15: {
            vsir::SrcParam c = immediate(DataType::boolean, pred == 15 ? 1 : 0);
            emit(Opcode::mov, {new_ssa(inst.result, DataType::boolean)}, {c});
            return;
        }
        case 1: cmp(Opcode::eq, t, false); return;
        case 2: cmp(Opcode::lt, t, true); return;
        case 3: cmp(Opcode::ge, t, false); return;
        case 4: cmp(Opcode::lt, t, false); return;
        case 5: cmp(Opcode::ge, t, true); return;
        case 6: cmp(Opcode::ne_o, t, false); return;
        case 7: cmp(Opcode::ord, t, false); return;
        case 8: cmp(Opcode::unord, t, false); return;
        case 9: cmp(Opcode::eq_u, t, false); return;
        case 10: cmp(Opcode::lt_u, t, true); return;
        case 11: cmp(Opcode::ge_u, t, false); return;
        case 12: cmp(Opcode::lt_u, t, false); return;
        case 13: cmp(Opcode::ge_u, t, true); return;
        case 14: cmp(Opcode::ne, t, false); return;
        }
    }
    if (t == DataType::boolean) {
        // i1 equality: xor, negated for eq; orderings of i1 do not occur in DXIL.
        if (pred != 32 && pred != 33) {
            unsupported("compare", "ordering of i1 values");
            return;
        }
        if (pred == 33) {
            emit(Opcode::xor_, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)});
        } else {
            vsir::SrcParam tmp;
            emit(Opcode::xor_, {temp_ssa(t, tmp)}, {src(a, t), src(b, t)});
            tmp.reg.type = t;
            emit(Opcode::not_, {new_ssa(inst.result, t)}, {tmp});
        }
        return;
    }
    DataType s = signed_of(t);
    switch (pred) {
    case 32: cmp(Opcode::ieq, s, false); break;
    case 33: cmp(Opcode::ine, s, false); break;
    case 34: cmp(Opcode::ult, t, true); break;
    case 35: cmp(Opcode::uge, t, false); break;
    case 36: cmp(Opcode::ult, t, false); break;
    case 37: cmp(Opcode::uge, t, true); break;
    case 38: cmp(Opcode::ilt, s, true); break;
    case 39: cmp(Opcode::ige, s, false); break;
    case 40: cmp(Opcode::ilt, s, false); break;
    case 41: cmp(Opcode::ige, s, true); break;
    default: error(Code::dxil_lower_bad_operand, "unknown compare predicate %u", pred); break;
    }
}

void Lowerer::lower_select(const Instruction& inst)
{
    if (inst.operands.size() < 3)
        return;
    DataType t = data_type(inst.type);
    if (t == DataType::none) {
        const Operand& x = operand(inst.operands[1]);
        const Operand& y = operand(inst.operands[2]);
        if (x.kind == Operand::Kind::handle && y.kind == Operand::Kind::handle && x.file == y.file &&
            x.range_id == y.range_id) {
            // select between two descriptors of one range: a dynamic index.
            Operand h = x;
            vsir::SrcParam index;
            emit(Opcode::movc, {temp_ssa(DataType::u32, index)},
                 {src(inst.operands[0], DataType::boolean), handle_index(x), handle_index(y)});
            h.index_offset = 0;
            h.index_src = p_.add_src(index);
            h.non_uniform = x.non_uniform || y.non_uniform;
            define(inst.result) = h;
            return;
        }
        unsupported("select of", "aggregates, pointers or handles of different ranges");
        return;
    }
    emit(Opcode::movc, {new_ssa(inst.result, t)},
         {src(inst.operands[0], DataType::boolean), src(inst.operands[1], t), src(inst.operands[2], t)});
}

void Lowerer::lower_phi(const Instruction& inst)
{
    DataType t = data_type(inst.type);
    if (t == DataType::none) {
        unsupported("phi of", "handles, pointers or aggregates");
        return;
    }
    uint32_t count = 0;
    for (uint32_t k = 0; 2 * k + 1 < inst.operands.size(); ++k) {
        uint32_t pred = inst.operands[2 * k + 1];
        count += pred < reachable_.size() && reachable_[pred];
    }
    if (2 * uint64_t(count) > vsir::max_src_count) {
        error(Code::dxil_lower_limit, "a phi with %u incoming values (at most %u)", count, vsir::max_src_count / 2);
        return;
    }
    vsir::DstParam d = new_ssa(inst.result, t);
    uint32_t index = p_.add_instruction(Opcode::phi, 1, 2 * count, inst_index_);
    p_.dsts[p_.instructions[index].dst_first] = d;
    phis_.push_back({inst_index_, index, vector_lane_});
}

void Lowerer::lower_terminator(const Instruction& inst)
{
    switch (inst.op) {
    case dxil::Opcode::br:
        if (inst.operands.size() == 1) {
            emit(Opcode::branch, {}, {label_src(inst.operands[0])});
        } else if (inst.operands.size() == 3) {
            uint32_t i = emit(Opcode::branch, {},
                              {src(inst.operands[2], DataType::boolean), label_src(inst.operands[0]),
                               label_src(inst.operands[1])});
            p_.instructions[i].flags |= vsir::flag_test_nonzero;
        }
        break;
    case dxil::Opcode::switch_: {
        if (inst.operands.size() < 2)
            return;
        DataType t = data_type(type_of(inst.operands[0]));
        if (t == DataType::u64 || t == DataType::boolean) {
            unsupported("switch on", t == DataType::u64 ? "a 64-bit value" : "an i1 value");
            return;
        }
        uint32_t cases = uint32_t(inst.operands.size() - 2) / 2;
        if (2 + 2 * uint64_t(cases) > vsir::max_src_count) {
            error(Code::dxil_lower_limit, "a switch with %u cases (at most %u)", cases, (vsir::max_src_count - 2) / 2);
            return;
        }
        uint32_t index = p_.add_instruction(Opcode::switch_monolithic, 0, 2 + 2 * cases, inst_index_);
        vsir::SrcParam sel = src(inst.operands[0], DataType::i32);
        vsir::SrcParam def = label_src(inst.operands[1]);
        uint32_t first = p_.instructions[index].src_first;
        p_.srcs[first] = sel;
        p_.srcs[first + 1] = def;
        for (uint32_t k = 0; k < cases; ++k) {
            uint32_t value = 0;
            if (!constant_u32(inst.operands[2 + 2 * k], value))
                error(Code::dxil_lower_bad_operand, "a switch case value is not a constant");
            if (t == DataType::u16 || (type_of(inst.operands[0]) < m_.types.size() &&
                                       type(type_of(inst.operands[0])).width == 16 && !native_16bit_))
                value = uint32_t(int32_t(int16_t(uint16_t(value))));
            p_.srcs[first + 2 + 2 * k] = immediate(DataType::i32, value);
            p_.srcs[first + 3 + 2 * k] = label_src(inst.operands[3 + 2 * k]);
        }
        break;
    }
    case dxil::Opcode::ret:
        if (return_label_ != ~0u) { // an inlined function: to the caller's continuation
            if (!inst.operands.empty())
                returns_.push_back({src(inst.operands[0], data_type(type_of(inst.operands[0]))), current_label_});
            emit(Opcode::branch, {}, {label_id_src(return_label_)});
            break;
        }
        emit(Opcode::ret, {}, {});
        break;
    default: emit(Opcode::ret, {}, {}); break;
    }
}

void Lowerer::lower_extractvalue(const Instruction& inst)
{
    if (inst.operands.size() < 2)
        return;
    const Operand& agg = operand(inst.operands[0]);
    uint32_t k = inst.operands[1];
    if (agg.kind == Operand::Kind::undef) {
        Operand& op = define(inst.result);
        op = {};
        op.kind = Operand::Kind::undef;
        op.type = data_type(inst.type);
        return;
    }
    if (agg.kind != Operand::Kind::aggregate || k >= agg.part_count || inst.operands.size() != 2) {
        if (!errors_ || agg.kind == Operand::Kind::aggregate)
            unsupported("extractvalue from", "this aggregate");
        return;
    }
    Operand part = aggregate_parts_[agg.first_part + k];
    define(inst.result) = part;
}

void Lowerer::lower_insertvalue(const Instruction& inst)
{
    if (inst.operands.size() != 3 || inst.type >= m_.types.size() || type(inst.type).kind != TypeKind::struct_) {
        unsupported("insertvalue into", "nested aggregates");
        return;
    }
    const Operand base = operand(inst.operands[0]);
    uint32_t count = uint32_t(type(inst.type).members.size()), k = inst.operands[2];
    if (k >= count || (base.kind != Operand::Kind::aggregate && base.kind != Operand::Kind::undef) ||
        (base.kind == Operand::Kind::aggregate && base.part_count != count)) {
        unsupported("insertvalue into", "this aggregate");
        return;
    }
    uint32_t first = uint32_t(aggregate_parts_.size());
    for (uint32_t i = 0; i < count; ++i) {
        Operand part;
        if (i == k)
            part = operand(inst.operands[1]);
        else if (base.kind == Operand::Kind::aggregate)
            part = aggregate_parts_[base.first_part + i];
        else {
            part.kind = Operand::Kind::undef;
            part.type = data_type(type(inst.type).members[i]);
        }
        aggregate_parts_.push_back(part);
    }
    Operand& op = define(inst.result);
    op = {};
    op.kind = Operand::Kind::aggregate;
    op.first_part = first;
    op.part_count = count;
}

} // namespace dxspv::dxil::lower

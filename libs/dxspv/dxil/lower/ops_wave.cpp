// DXIL lowering: wave and quad ops (SM 6.0+), as the VSIR wave_* / quad_*
// opcodes (VSIR.md, "DXIL" section).
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;
using ops::OpId;

} // namespace

/// The mask operand of the WaveMultiPrefix ops (args first..first+3) as
/// one u32 vector: WaveMatch's result as it is when the four words are its
/// components in order, else the words gathered.
vsir::SrcParam Lowerer::wave_mask(const Instruction& inst, uint32_t first)
{
    vsir::SrcParam words[4];
    bool whole = true;
    for (uint32_t k = 0; k < 4; ++k) {
        words[k] = src(arg(inst, first + k), DataType::u32);
        whole = whole && words[k].reg.file == RegisterFile::ssa && words[k].reg.dimension == vsir::Dimension::vec4 &&
                words[k].reg.idx[0].offset == words[0].reg.idx[0].offset &&
                words[k].swizzle == uint8_t(k * 0x55) && words[k].modifier == vsir::SrcModifier::none;
    }
    if (!whole)
        return build_vec_from(words, 4, DataType::u32, 0);
    vsir::SrcParam s = words[0];
    s.swizzle = vsir::swizzle_identity;
    return s;
}

bool Lowerer::lower_wave_op(ops::OpId op, const Instruction& inst)
{
    DataType t = data_type(inst.type);
    ValueId a = arg(inst, 1);
    auto unary = [&](Opcode o, DataType dt, DataType st) { emit(o, {new_ssa(inst.result, dt)}, {src(a, st)}); };
    switch (op) {
    case OpId::ExperimentalNop: return true;
    case OpId::GetGroupWaveIndex:
    case OpId::GetGroupWaveCount: {
        // Experimental (feature 0x8000): the wave's index in the group and the wave count.
        Operand& o = define(inst.result);
        o = {};
        o.kind = Operand::Kind::src;
        o.type = DataType::u32;
        o.src.reg = vsir::make_register(op == OpId::GetGroupWaveIndex ? RegisterFile::wave_index
                                                                       : RegisterFile::wave_count,
                                        DataType::u32, vsir::Dimension::scalar, {});
        o.src.swizzle = 0;
        return true;
    }
    case OpId::WaveIsFirstLane: emit(Opcode::wave_is_first_lane, {new_ssa(inst.result, DataType::boolean)}, {}); return true;
    case OpId::WaveGetLaneIndex: emit(Opcode::wave_lane_index, {new_ssa(inst.result, DataType::u32)}, {}); return true;
    case OpId::WaveGetLaneCount: emit(Opcode::wave_lane_count, {new_ssa(inst.result, DataType::u32)}, {}); return true;
    case OpId::WaveAnyTrue: unary(Opcode::wave_any_true, DataType::boolean, DataType::boolean); return true;
    case OpId::WaveAllTrue: unary(Opcode::wave_all_true, DataType::boolean, DataType::boolean); return true;
    case OpId::WaveActiveAllEqual: unary(Opcode::wave_all_equal, DataType::boolean, data_type(type_of(a))); return true;
    case OpId::WaveActiveBallot: {
        vsir::DstParam d = new_ssa_vec(no_id, DataType::u32, 0xf);
        emit(Opcode::wave_ballot, {d}, {src(a, DataType::boolean)});
        set_result_vec(inst.result, d.reg.idx[0].offset, DataType::u32, 4);
        return true;
    }
    case OpId::WaveReadLaneAt:
        emit(Opcode::wave_read_lane_at, {new_ssa(inst.result, t)}, {src(a, t), src(arg(inst, 2), DataType::u32)});
        return true;
    case OpId::WaveReadLaneFirst: unary(Opcode::wave_read_lane_first, t, t); return true;
    case OpId::WaveActiveOp:
    case OpId::WavePrefixOp: {
        // (value, op kind: 0 sum, 1 product, 2 min, 3 max; sign: 0 signed, 1 unsigned)
        uint32_t kind = 0, sign = 1;
        constant_u32(arg(inst, 2), kind);
        constant_u32(arg(inst, 3), sign);
        bool prefix = op == OpId::WavePrefixOp;
        Opcode o;
        switch (kind) {
        case 0: o = prefix ? Opcode::wave_prefix_sum : Opcode::wave_active_sum; break;
        case 1: o = prefix ? Opcode::wave_prefix_product : Opcode::wave_active_product; break;
        case 2: o = Opcode::wave_active_min; break;
        case 3: o = Opcode::wave_active_max; break;
        default: error(Code::dxil_lower_bad_operand, "unknown wave operation %u", kind); return true;
        }
        if (prefix && kind > 1) {
            unsupported("DXIL op", "WavePrefixOp min/max");
            return true;
        }
        DataType vt = t == DataType::f16 || t == DataType::f32 || t == DataType::f64 || sign ? t : signed_of(t);
        emit(o, {new_ssa(inst.result, vt)}, {src(a, vt)});
        return true;
    }
    case OpId::WaveActiveBit: {
        uint32_t kind = 0;
        constant_u32(arg(inst, 2), kind);
        Opcode o = kind == 0 ? Opcode::wave_active_and : kind == 1 ? Opcode::wave_active_or : Opcode::wave_active_xor;
        unary(o, t, t);
        return true;
    }
    case OpId::WaveAllBitCount: unary(Opcode::wave_active_count_bits, DataType::u32, DataType::boolean); return true;
    case OpId::WavePrefixBitCount: unary(Opcode::wave_prefix_count_bits, DataType::u32, DataType::boolean); return true;
    case OpId::WaveMatch: {
        // (value): the mask of the active lanes holding the same value; of a vector, the lanes
        // holding the same value in every element (the masks of the elements and-ed).
        TypeId vt = type_of(a);
        DataType et = data_type(vt);
        uint32_t n = vector_count(vt);
        Operand whole = n > 1 ? operand_whole(a) : Operand{};
        if (n > 1 && (whole.kind != Operand::Kind::aggregate || whole.part_count < n)) {
            error(Code::dxil_lower_bad_operand, "WaveMatch of a vector that is not an aggregate");
            return true;
        }
        vsir::DstParam mask;
        for (uint32_t k = 0; k < n; ++k) {
            vsir::DstParam m = new_ssa_vec(no_id, DataType::u32, 0xf);
            emit(Opcode::wave_match, {m}, {n > 1 ? src_of(part(whole, k), et) : src(a, et)});
            if (k > 0) {
                vsir::SrcParam x, y;
                x.reg = mask.reg;
                y.reg = m.reg;
                m = new_ssa_vec(no_id, DataType::u32, 0xf);
                emit(Opcode::and_, {m}, {x, y});
            }
            mask = m;
        }
        set_result_vec(inst.result, mask.reg.idx[0].offset, DataType::u32, 4);
        return true;
    }
    case OpId::WaveMultiPrefixOp: {
        // (value, mask x y z w, op: 0 sum, 1 and, 2 or, 3 xor, 4 product, signed): sums and products are
        // the same for signed and unsigned values (two's complement), so the sign operand does not matter.
        uint32_t kind = 0;
        constant_u32(arg(inst, 6), kind);
        static constexpr Opcode kinds[] = {Opcode::wave_multi_prefix_sum, Opcode::wave_multi_prefix_and,
            Opcode::wave_multi_prefix_or, Opcode::wave_multi_prefix_xor, Opcode::wave_multi_prefix_product};
        bool fp = t == DataType::f16 || t == DataType::f32 || t == DataType::f64;
        if (kind >= 5 || (fp && kind >= 1 && kind <= 3)) {
            error(Code::dxil_lower_bad_operand, "WaveMultiPrefixOp: operation %u does not apply to %s values", kind,
                vsir::data_type_name(t));
            return true;
        }
        vsir::SrcParam mask = wave_mask(inst, 2);
        emit(kinds[kind], {new_ssa(inst.result, t)}, {src(a, t), mask});
        return true;
    }
    case OpId::WaveMultiPrefixBitCount: {
        // (condition, mask x y z w)
        vsir::SrcParam mask = wave_mask(inst, 2);
        emit(Opcode::wave_multi_prefix_count_bits, {new_ssa(inst.result, DataType::u32)},
            {src(a, DataType::boolean), mask});
        return true;
    }
    case OpId::QuadReadLaneAt:
        emit(Opcode::quad_read_lane_at, {new_ssa(inst.result, t)}, {src(a, t), src(arg(inst, 2), DataType::u32)});
        return true;
    case OpId::QuadOp: {
        uint32_t kind = 0;
        constant_u32(arg(inst, 2), kind);
        Opcode o = kind == 0 ? Opcode::quad_read_across_x
                   : kind == 1 ? Opcode::quad_read_across_y
                               : Opcode::quad_read_across_diagonal;
        unary(o, t, t);
        return true;
    }
    case OpId::QuadVote: {
        // (cond, op: 0 any, 1 all): fold the quad's four values with the quad reads.
        uint32_t kind = 0;
        constant_u32(arg(inst, 2), kind);
        vsir::SrcParam v, x, y, d, r1, r2, r3;
        emit(Opcode::utou, {temp_ssa(DataType::u32, v)}, {src(a, DataType::boolean)});
        v.reg.type = DataType::u32;
        emit(Opcode::quad_read_across_x, {temp_ssa(DataType::u32, x)}, {v});
        emit(Opcode::quad_read_across_y, {temp_ssa(DataType::u32, y)}, {v});
        emit(Opcode::quad_read_across_diagonal, {temp_ssa(DataType::u32, d)}, {v});
        x.reg.type = y.reg.type = d.reg.type = DataType::u32;
        Opcode fold = kind == 1 ? Opcode::and_ : Opcode::or_;
        emit(fold, {temp_ssa(DataType::u32, r1)}, {v, x});
        r1.reg.type = DataType::u32;
        emit(fold, {temp_ssa(DataType::u32, r2)}, {r1, y});
        r2.reg.type = DataType::u32;
        emit(fold, {temp_ssa(DataType::u32, r3)}, {r2, d});
        r3.reg.type = DataType::u32;
        emit(Opcode::ine, {new_ssa(inst.result, DataType::boolean)}, {r3, immediate(DataType::u32, 0)});
        return true;
    }
    default: return false;
    }
}

} // namespace dxspv::dxil::lower

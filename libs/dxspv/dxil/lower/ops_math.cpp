// DXIL lowering: arithmetic dx.op families (Unary, UnaryBits, Binary,
// Tertiary, Quaternary, Dot*, IsSpecialFloat, two-result ops, conversions,
// bitcasts, derivatives).
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;
using ops::OpId;

vsir::DstParam null_dst()
{
    return vsir::DstParam{};
}

/// Float unary ops that map to one VSIR opcode.
Opcode float_unary(OpId op)
{
    switch (op) {
    case OpId::Tan: return Opcode::tan;
    case OpId::Acos: return Opcode::acos;
    case OpId::Asin: return Opcode::asin;
    case OpId::Atan: return Opcode::atan;
    case OpId::Hcos: return Opcode::hcos;
    case OpId::Hsin: return Opcode::hsin;
    case OpId::Htan: return Opcode::htan;
    case OpId::Exp: return Opcode::exp;
    case OpId::Frc: return Opcode::frc;
    case OpId::Log: return Opcode::log;
    case OpId::Sqrt: return Opcode::sqrt;
    case OpId::Rsqrt: return Opcode::rsq;
    case OpId::Round_ne: return Opcode::round_ne;
    case OpId::Round_ni: return Opcode::round_ni;
    case OpId::Round_pi: return Opcode::round_pi;
    case OpId::Round_z: return Opcode::round_z;
    case OpId::DerivCoarseX: return Opcode::deriv_rtx_coarse;
    case OpId::DerivCoarseY: return Opcode::deriv_rty_coarse;
    case OpId::DerivFineX: return Opcode::deriv_rtx_fine;
    case OpId::DerivFineY: return Opcode::deriv_rty_fine;
    default: return Opcode::nop;
    }
}

} // namespace

bool Lowerer::lower_math_op(ops::OpId op, const Instruction& inst)
{
    DataType t = data_type(inst.type);
    ValueId a = arg(inst, 1), b = arg(inst, 2), c = arg(inst, 3);
    DataType s = signed_of(t);
    if (Opcode o = float_unary(op); o != Opcode::nop) {
        emit(o, {new_ssa(inst.result, t)}, {src(a, t)});
        return true;
    }
    switch (op) {
    case OpId::FAbs: {
        vsir::SrcParam x = src(a, t);
        x.modifier = vsir::SrcModifier::abs;
        emit(Opcode::mov, {new_ssa(inst.result, t)}, {x});
        return true;
    }
    case OpId::Saturate: {
        vsir::DstParam d = new_ssa(inst.result, t);
        d.modifiers = vsir::dst_saturate;
        emit(Opcode::mov, {d}, {src(a, t)});
        return true;
    }
    case OpId::Cos: emit(Opcode::sincos, {null_dst(), new_ssa(inst.result, t)}, {src(a, t)}); return true;
    case OpId::Sin: emit(Opcode::sincos, {new_ssa(inst.result, t), null_dst()}, {src(a, t)}); return true;
    case OpId::IsNaN:
    case OpId::IsInf:
    case OpId::IsFinite:
    case OpId::IsNormal: {
        Opcode o = op == OpId::IsNaN ? Opcode::isnan
                   : op == OpId::IsInf ? Opcode::isinf
                   : op == OpId::IsFinite ? Opcode::isfinite
                                          : Opcode::isnormal;
        DataType ft = data_type(type_of(a));
        emit(o, {new_ssa(inst.result, DataType::boolean)}, {src(a, ft)});
        return true;
    }
    case OpId::Bfrev: emit(Opcode::bfrev, {new_ssa(inst.result, t)}, {src(a, t)}); return true;
    case OpId::Countbits:
    case OpId::FirstbitLo:
    case OpId::FirstbitHi:
    case OpId::FirstbitSHi: {
        Opcode o = op == OpId::Countbits ? Opcode::countbits
                   : op == OpId::FirstbitLo ? Opcode::firstbit_lo
                   : op == OpId::FirstbitHi ? Opcode::firstbit_hi
                                            : Opcode::firstbit_shi;
        DataType at = data_type(type_of(a));
        emit(o, {new_ssa(inst.result, DataType::u32)}, {src(a, o == Opcode::firstbit_shi ? signed_of(at) : at)});
        return true;
    }
    case OpId::FMax: emit(Opcode::max, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); return true;
    case OpId::FMin: emit(Opcode::min, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); return true;
    case OpId::IMax: emit(Opcode::imax, {new_ssa(inst.result, s)}, {src(a, s), src(b, s)}); return true;
    case OpId::IMin: emit(Opcode::imin, {new_ssa(inst.result, s)}, {src(a, s), src(b, s)}); return true;
    case OpId::UMax: emit(Opcode::umax, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); return true;
    case OpId::UMin: emit(Opcode::umin, {new_ssa(inst.result, t)}, {src(a, t), src(b, t)}); return true;
    case OpId::IMul:
    case OpId::UMul:
    case OpId::UDiv: {
        // { hi, lo } or { quotient, remainder }
        DataType et = op == OpId::IMul ? DataType::i32 : DataType::u32;
        Opcode o = op == OpId::IMul ? Opcode::imul : op == OpId::UMul ? Opcode::umul : Opcode::udiv;
        vsir::SrcParam r0, r1;
        emit(o, {temp_ssa(et, r0), temp_ssa(et, r1)}, {src(a, et), src(b, et)});
        Operand p0, p1;
        p0.kind = p1.kind = Operand::Kind::src;
        p0.type = p1.type = et;
        p0.src = r0;
        p1.src = r1;
        set_aggregate(inst.result, {p0, p1});
        return true;
    }
    case OpId::UAddc:
    case OpId::USubb: {
        vsir::SrcParam r, carry, flag;
        emit(op == OpId::UAddc ? Opcode::uaddc : Opcode::usubb,
             {temp_ssa(DataType::u32, r), temp_ssa(DataType::u32, carry)},
             {src(a, DataType::u32), src(b, DataType::u32)});
        emit(Opcode::ine, {temp_ssa(DataType::boolean, flag)}, {carry, immediate(DataType::u32, 0)});
        Operand p0, p1;
        p0.kind = p1.kind = Operand::Kind::src;
        p0.type = DataType::u32;
        p0.src = r;
        p1.type = DataType::boolean;
        p1.src = flag;
        set_aggregate(inst.result, {p0, p1});
        return true;
    }
    case OpId::FMad:
        emit(Opcode::mad, {new_ssa(inst.result, t)}, {src(a, t), src(b, t), src(c, t)});
        return true;
    case OpId::Fma:
        emit(Opcode::dfma, {new_ssa(inst.result, t)}, {src(a, t), src(b, t), src(c, t)});
        return true;
    case OpId::IMad:
        emit(Opcode::imad, {new_ssa(inst.result, s)}, {src(a, s), src(b, s), src(c, s)});
        return true;
    case OpId::UMad:
        emit(Opcode::umad, {new_ssa(inst.result, t)}, {src(a, t), src(b, t), src(c, t)});
        return true;
    case OpId::Msad:
        emit(Opcode::msad, {new_ssa(inst.result, t)}, {src(a, t), src(b, t), src(c, t)});
        return true;
    case OpId::Ibfe:
        emit(Opcode::ibfe, {new_ssa(inst.result, s)}, {src(a, DataType::u32), src(b, DataType::u32), src(c, s)});
        return true;
    case OpId::Ubfe:
        emit(Opcode::ubfe, {new_ssa(inst.result, t)}, {src(a, t), src(b, t), src(c, t)});
        return true;
    case OpId::Bfi:
        emit(Opcode::bfi, {new_ssa(inst.result, t)}, {src(a, t), src(b, t), src(c, t), src(arg(inst, 4), t)});
        return true;
    case OpId::Dot2:
    case OpId::Dot3:
    case OpId::Dot4: {
        // dot(a, b) = a0*b0 + a1*b1 + ...: arguments are a0..an-1, b0..bn-1.
        uint32_t n = op == OpId::Dot2 ? 2 : op == OpId::Dot3 ? 3 : 4;
        vsir::SrcParam acc;
        emit(Opcode::mul, {temp_ssa(t, acc)}, {src(arg(inst, 1), t), src(arg(inst, 1 + n), t)});
        for (uint32_t i = 1; i < n; ++i) {
            acc.reg.type = t;
            vsir::SrcParam next;
            vsir::DstParam d = i + 1 == n ? new_ssa(inst.result, t) : temp_ssa(t, next);
            emit(Opcode::mad, {d}, {src(arg(inst, 1 + i), t), src(arg(inst, 1 + n + i), t), acc});
            acc = next;
        }
        return true;
    }
    case OpId::MakeDouble:
        emit(Opcode::pack64, {new_ssa(inst.result, DataType::f64)}, {src(a, DataType::u32), src(b, DataType::u32)});
        return true;
    case OpId::SplitDouble: {
        vsir::SrcParam lo, hi;
        emit(Opcode::unpack64, {temp_ssa(DataType::u32, lo), temp_ssa(DataType::u32, hi)}, {src(a, DataType::f64)});
        Operand p0, p1;
        p0.kind = p1.kind = Operand::Kind::src;
        p0.type = p1.type = DataType::u32;
        p0.src = lo;
        p1.src = hi;
        set_aggregate(inst.result, {p0, p1});
        return true;
    }
    case OpId::LegacyF32ToF16:
        emit(Opcode::f32tof16, {new_ssa(inst.result, DataType::u32)}, {src(a, DataType::f32)});
        return true;
    case OpId::LegacyF16ToF32:
        emit(Opcode::f16tof32, {new_ssa(inst.result, DataType::f32)}, {src(a, DataType::u32)});
        return true;
    case OpId::LegacyDoubleToFloat:
        emit(Opcode::ftof, {new_ssa(inst.result, DataType::f32)}, {src(a, DataType::f64)});
        return true;
    case OpId::LegacyDoubleToSInt32:
        emit(Opcode::ftoi, {new_ssa(inst.result, DataType::i32)}, {src(a, DataType::f64)});
        return true;
    case OpId::LegacyDoubleToUInt32:
        emit(Opcode::ftou, {new_ssa(inst.result, DataType::u32)}, {src(a, DataType::f64)});
        return true;
    case OpId::BitcastI16toF16:
    case OpId::BitcastF16toI16:
    case OpId::BitcastI32toF32:
    case OpId::BitcastF32toI32:
    case OpId::BitcastI64toF64:
    case OpId::BitcastF64toI64:
        emit(Opcode::mov, {new_ssa(inst.result, t)}, {src(a, data_type(type_of(a)))});
        return true;
    case OpId::Dot2AddHalf:
    case OpId::Dot4AddI8Packed:
    case OpId::Dot4AddU8Packed:
    case OpId::Unpack4x8:
    case OpId::Pack4x8: lower_packed_op(op, inst); return true;
    default: return false;
    }
}

/// The packed ops of SM 6.4 / 6.6: Dot2AddHalf, Dot4Add{I,U}8Packed, Pack4x8,
/// Unpack4x8, as bit-field extracts/inserts and multiply-adds.
void Lowerer::lower_packed_op(ops::OpId op, const Instruction& inst)
{
    switch (op) {
    case OpId::Dot2AddHalf: {
        // acc + ax*bx + ay*by, in float (arguments: acc, ax, ay, bx, by).
        vsir::SrcParam v[4];
        for (uint32_t i = 0; i < 4; ++i) {
            v[i] = src(arg(inst, 2 + i), data_type(type_of(arg(inst, 2 + i))));
            if (v[i].reg.type == DataType::f16) {
                vsir::SrcParam w;
                emit(Opcode::ftof, {temp_ssa(DataType::f32, w)}, {v[i]});
                v[i] = w;
                v[i].reg.type = DataType::f32;
            }
        }
        vsir::SrcParam acc;
        emit(Opcode::mad, {temp_ssa(DataType::f32, acc)}, {v[0], v[2], src(arg(inst, 1), DataType::f32)});
        acc.reg.type = DataType::f32;
        emit(Opcode::mad, {new_ssa(inst.result, DataType::f32)}, {v[1], v[3], acc});
        return;
    }
    case OpId::Dot4AddI8Packed:
    case OpId::Dot4AddU8Packed: {
        // acc + sum of the products of the 4 bytes of a and b (arguments: acc, a, b).
        bool sign = op == OpId::Dot4AddI8Packed;
        DataType it = sign ? DataType::i32 : DataType::u32;
        vsir::SrcParam acc = src(arg(inst, 1), it);
        for (uint32_t i = 0; i < 4; ++i) {
            vsir::SrcParam x, y, next;
            Opcode bfe = sign ? Opcode::ibfe : Opcode::ubfe;
            emit(bfe, {temp_ssa(it, x)}, {immediate(DataType::u32, 8), immediate(DataType::u32, 8 * i), src(arg(inst, 2), it)});
            emit(bfe, {temp_ssa(it, y)}, {immediate(DataType::u32, 8), immediate(DataType::u32, 8 * i), src(arg(inst, 3), it)});
            x.reg.type = y.reg.type = it;
            vsir::DstParam d = i == 3 ? new_ssa(inst.result, it) : temp_ssa(it, next);
            emit(sign ? Opcode::imad : Opcode::umad, {d}, {x, y, acc});
            acc = next;
            acc.reg.type = it;
        }
        return;
    }
    case OpId::Unpack4x8: {
        // (mode: 0 zero-extend, 1 sign-extend; packed i32) → 4 x T
        uint32_t mode = 0;
        constant_u32(arg(inst, 1), mode);
        DataType pt = data_type(type(inst.type).members.empty() ? inst.type : type(inst.type).members[0]);
        bool sign = mode != 0;
        DataType wide = sign ? DataType::i32 : DataType::u32;
        Operand parts[4];
        for (uint32_t i = 0; i < 4; ++i) {
            vsir::SrcParam v;
            emit(sign ? Opcode::ibfe : Opcode::ubfe, {temp_ssa(wide, v)},
                 {immediate(DataType::u32, 8), immediate(DataType::u32, 8 * i), src(arg(inst, 2), wide)});
            v.reg.type = wide;
            if (pt == DataType::u16) {
                vsir::SrcParam n;
                emit(sign ? Opcode::itoi : Opcode::utou, {temp_ssa(sign ? DataType::i16 : DataType::u16, n)}, {v});
                v = n;
            }
            v.reg.type = pt;
            parts[i].kind = Operand::Kind::src;
            parts[i].type = pt;
            parts[i].src = v;
        }
        set_aggregate(inst.result, {parts[0], parts[1], parts[2], parts[3]});
        return;
    }
    case OpId::Pack4x8: {
        // (mode: 0 truncate, 1 clamp to u8, 2 clamp to s8; x, y, z, w) → i32
        uint32_t mode = 0;
        constant_u32(arg(inst, 1), mode);
        vsir::SrcParam acc = immediate(DataType::u32, 0);
        for (uint32_t i = 0; i < 4; ++i) {
            ValueId comp = arg(inst, 2 + i);
            vsir::SrcParam v = src(comp, data_type(type_of(comp)));
            if (v.reg.type == DataType::u16) {
                vsir::SrcParam w;
                v.reg.type = DataType::i16;
                emit(Opcode::itoi, {temp_ssa(DataType::i32, w)}, {v});
                v = w;
            }
            v.reg.type = DataType::i32;
            if (mode) {
                vsir::SrcParam lo, hi;
                emit(Opcode::imax, {temp_ssa(DataType::i32, lo)}, {v, immediate(DataType::i32, mode == 1 ? 0 : uint32_t(-128))});
                lo.reg.type = DataType::i32;
                emit(Opcode::imin, {temp_ssa(DataType::i32, hi)}, {lo, immediate(DataType::i32, mode == 1 ? 255 : 127)});
                v = hi;
            }
            v.reg.type = DataType::u32;
            vsir::SrcParam next;
            vsir::DstParam d = i == 3 ? new_ssa(inst.result, DataType::u32) : temp_ssa(DataType::u32, next);
            emit(Opcode::bfi, {d}, {immediate(DataType::u32, 8), immediate(DataType::u32, 8 * i), v, acc});
            acc = next;
            acc.reg.type = DataType::u32;
        }
        return;
    }
    default: return;
    }
}

} // namespace dxspv::dxil::lower

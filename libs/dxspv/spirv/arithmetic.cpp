// Arithmetic, comparison, integer, bit and double opcodes (conversions:
// conversions.cpp).
//
// Operands are loaded per destination component (load_src) in the kind
// their Register::type gives and converted (bitcast) to the kind the
// operation computes in: the opcode fixes float or integer (OpClass), the
// destination's type the width (16, 32 or 64 bits) and signedness where the
// opcode leaves them open (add and dadd share one path); booleans make
// and/or/xor/not logical. Results of two-destination opcodes are all
// computed before anything is stored, so a destination may alias a source.
#include "spirv/alu.h"

namespace dxspv::spirv {

namespace {

using namespace alu;

/// What an opcode computes in: floating point (the destination's float
/// width, f32 otherwise), or integers (the destination's kind, or its width
/// with a fixed signedness).
enum class OpClass : uint8_t { floating, integer, sint, uint };

/// The kind an operation of `cls` computes in for destination `dst`; the
/// destination's own kind when it fits the class.
Kind op_kind(Emitter& e, const DstParam& dst, OpClass cls)
{
    Kind kind = dst_kind(e, dst);
    uint32_t width = is_int(kind) ? bit_width(kind) : 32;
    switch (cls) {
    case OpClass::floating: return is_float(kind) ? kind : Kind::f32;
    case OpClass::integer: return is_int(kind) ? kind : Kind::u32;
    case OpClass::sint: return int_kind(width, true);
    case OpClass::uint: return int_kind(width, false);
    }
    return kind;
}

/// The kind an operation that leaves its operands' signedness free
/// (load_int_for) computes in: the destination's integer kind, but u32 for
/// a 32-bit register, which holds u32 words (no bitcast to store it).
Kind sign_free_kind(Emitter& e, const DstParam& dst)
{
    Kind kind = op_kind(e, dst, OpClass::integer);
    return kind == Kind::i32 && dst.reg.file != vsir::RegisterFile::ssa ? Kind::u32 : kind;
}

/// One SPIR-V instruction over all sources (OpClass::integer: an operation
/// that leaves its operands' signedness free).
void emit_op(Emitter& e, const Instruction& ins, spv::Op op, OpClass cls)
{
    const DstParam& dst = dst0(e, ins);
    const bool sign_free = cls == OpClass::integer;
    Kind kind = sign_free ? sign_free_kind(e, dst) : op_kind(e, dst, cls);
    spv::Id args[3] = {};
    uint8_t count = 1;
    for (uint32_t i = 0; i < ins.src_count && i < 3; ++i) {
        const SrcParam& s = src(e, ins, i);
        Value v = sign_free ? load_int_for(e, s, dst, kind) : load_for(e, s, dst, kind);
        args[i] = v.id;
        count = v.count;
    }
    spv::Id t = e.type(kind, count);
    spv::Id r;
    if (ins.src_count == 1)
        r = e.b_.createUnaryOp(op, t, args[0]);
    else if (ins.src_count == 2)
        r = sign_free ? e.integer_op(op, kind, count, args[0], args[1]) : e.b_.createBinOp(op, t, args[0], args[1]);
    else
        r = e.b_.createTriOp(op, t, args[0], args[1], args[2]);
    if (is_float(kind))
        e.decorate_precise(ins, r);
    e.store_dst(dst, {r, kind, count});
}

/// One GLSL.std.450 instruction over all sources.
void emit_ext(Emitter& e, const Instruction& ins, GLSLstd450 op, OpClass cls)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = op_kind(e, dst, cls);
    Value a = load_for(e, src(e, ins, 0), dst, kind);
    spv::Id t = e.type(kind, a.count);
    spv::Id r;
    if (ins.src_count == 1)
        r = e.glsl(op, t, {a.id});
    else if (ins.src_count == 2)
        r = e.glsl(op, t, {a.id, load_for(e, src(e, ins, 1), dst, kind).id});
    else
        r = e.glsl(op, t, {a.id, load_for(e, src(e, ins, 1), dst, kind).id, load_for(e, src(e, ins, 2), dst, kind).id});
    if (is_float(kind))
        e.decorate_precise(ins, r);
    e.store_dst(dst, {r, kind, a.count});
}

/// and/or/xor/not: bitwise on integers, logical on booleans.
void emit_bitwise(Emitter& e, const Instruction& ins, spv::Op op)
{
    const DstParam& dst = dst0(e, ins);
    if (dst_kind(e, dst) != Kind::boolean)
        return emit_op(e, ins, op, OpClass::integer);
    Value a = load_for(e, src(e, ins, 0), dst, Kind::boolean);
    spv::Id t = e.type(Kind::boolean, a.count);
    spv::Id r;
    if (op == spv::OpNot) {
        r = e.b_.createUnaryOp(spv::OpLogicalNot, t, a.id);
    } else {
        spv::Op logical = op == spv::OpBitwiseAnd ? spv::OpLogicalAnd
                          : op == spv::OpBitwiseOr ? spv::OpLogicalOr
                                                   : spv::OpLogicalNotEqual;
        r = e.b_.createBinOp(logical, t, a.id, load_for(e, src(e, ins, 1), dst, Kind::boolean).id);
    }
    e.store_dst(dst, {r, Kind::boolean, a.count});
}

/// The kind a comparison of class `cls` reads its sources in: the first
/// source's float width, or its integer width with the class's signedness.
Kind compare_kind(Emitter& e, const Instruction& ins, OpClass cls)
{
    Kind kind = src_kind(e, src(e, ins, 0));
    if (cls == OpClass::floating)
        return is_float(kind) ? kind : Kind::f32;
    return int_kind(bit_width(kind) == 1 ? 32 : bit_width(kind), cls == OpClass::sint);
}

/// Comparison writing a bool (boolean destination) or 0 / 0xffffffff.
/// ieq / ine also compare booleans (LLVM icmp on i1).
void emit_compare(Emitter& e, const Instruction& ins, spv::Op op, OpClass cls)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = compare_kind(e, ins, cls);
    if ((op == spv::OpIEqual || op == spv::OpINotEqual) && src_kind(e, src(e, ins, 0)) == Kind::boolean) {
        kind = Kind::boolean;
        op = op == spv::OpIEqual ? spv::OpLogicalEqual : spv::OpLogicalNotEqual;
    }
    // Integer comparisons leave their operands' signedness free.
    auto load = is_int(kind) ? load_int_for : load_for;
    Value a = load(e, src(e, ins, 0), dst, kind);
    Value b = load(e, src(e, ins, 1), dst, kind);
    store_condition(e, dst, e.b_.createBinOp(op, e.type(Kind::boolean, a.count), a.id, b.id), a.count);
}

/// ord / unord: neither / either source is NaN (OpOrdered and OpUnordered
/// need the Kernel capability).
void emit_ordered(Emitter& e, const Instruction& ins, bool ordered)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = compare_kind(e, ins, OpClass::floating);
    Value a = load_for(e, src(e, ins, 0), dst, kind);
    Value b = load_for(e, src(e, ins, 1), dst, kind);
    spv::Id tb = e.type(Kind::boolean, a.count);
    spv::Id either = e.b_.createBinOp(spv::OpLogicalOr, tb, e.b_.createUnaryOp(spv::OpIsNan, tb, a.id),
        e.b_.createUnaryOp(spv::OpIsNan, tb, b.id));
    store_condition(e, dst, ordered ? e.b_.createUnaryOp(spv::OpLogicalNot, tb, either) : either, a.count);
}

/// isnan / isinf / isfinite / isnormal (exponent neither 0 nor all ones).
void emit_float_class(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = compare_kind(e, ins, OpClass::floating);
    Value x = load_for(e, src(e, ins, 0), dst, kind);
    uint8_t n = x.count;
    spv::Id tb = e.type(Kind::boolean, n);
    auto& b = e.b_;
    spv::Id r;
    switch (ins.opcode) {
    case vsir::Opcode::isnan: r = b.createUnaryOp(spv::OpIsNan, tb, x.id); break;
    case vsir::Opcode::isinf: r = b.createUnaryOp(spv::OpIsInf, tb, x.id); break;
    case vsir::Opcode::isfinite:
        r = b.createUnaryOp(spv::OpLogicalNot, tb,
            b.createBinOp(spv::OpLogicalOr, tb, b.createUnaryOp(spv::OpIsNan, tb, x.id),
                b.createUnaryOp(spv::OpIsInf, tb, x.id)));
        break;
    default: {
        uint32_t width = bit_width(kind);
        uint32_t mantissa_bits = width == 16 ? 10 : width == 32 ? 23 : 52;
        uint64_t exponent_mask = width == 16 ? 0x1f : width == 32 ? 0xff : 0x7ff;
        Kind uk = int_kind(width, false);
        spv::Id t = e.type(uk, n);
        spv::Id bits = e.as_kind(x, uk).id;
        spv::Id exponent = b.createBinOp(spv::OpBitwiseAnd, t,
            b.createBinOp(spv::OpShiftRightLogical, t, bits, e.splat_constant(uk, n, mantissa_bits)),
            e.splat_constant(uk, n, exponent_mask));
        r = b.createBinOp(spv::OpLogicalAnd, tb, b.createBinOp(spv::OpINotEqual, tb, exponent, e.splat_constant(uk, n, 0)),
            b.createBinOp(spv::OpINotEqual, tb, exponent, e.splat_constant(uk, n, exponent_mask)));
    }
    }
    store_condition(e, dst, r, n);
}

/// The condition operand of movc/swapc as a bool vector.
spv::Id nonzero(Emitter& e, const SrcParam& condition, const DstParam& dst)
{
    return e.truth(e.load_for_dst(condition, dst), true);
}

void emit_movc(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = e.kind_or_u32(dst.reg.type);
    spv::Id condition = nonzero(e, src(e, ins, 0), dst);
    Value a = load_for(e, src(e, ins, 1), dst, kind);
    Value b = load_for(e, src(e, ins, 2), dst, kind);
    e.store_dst(dst, {e.b_.createTriOp(spv::OpSelect, e.type(kind, a.count), condition, a.id, b.id), kind, a.count});
}

void emit_swapc(Emitter& e, const Instruction& ins)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Kind kind = e.kind_or_u32(dst.reg.type);
        spv::Id condition = nonzero(e, src(e, ins, 0), dst);
        Value a = load_for(e, src(e, ins, 1), dst, kind);
        Value b = load_for(e, src(e, ins, 2), dst, kind);
        // dst0 = cond ? src2 : src1; dst1 = cond ? src1 : src2
        spv::Id r = e.b_.createTriOp(spv::OpSelect, e.type(kind, a.count), condition, d == 0 ? b.id : a.id,
            d == 0 ? a.id : b.id);
        return Value{r, kind, a.count};
    });
}

void emit_dot(Emitter& e, const Instruction& ins, uint32_t n)
{
    uint8_t mask = uint8_t((1u << n) - 1);
    Kind kind = op_kind(e, dst0(e, ins), OpClass::floating);
    Value a = e.as_kind(e.load_src(src(e, ins, 0), mask, vsir::DataType::f32), kind);
    Value b = e.as_kind(e.load_src(src(e, ins, 1), mask, vsir::DataType::f32), kind);
    spv::Id r = e.b_.createBinOp(spv::OpDot, e.type(kind), a.id, b.id);
    e.decorate_precise(ins, r);
    e.store_dst(dst0(e, ins), {r, kind, 1});
}

void emit_rcp(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = op_kind(e, dst, OpClass::floating);
    Value a = load_for(e, src(e, ins, 0), dst, kind);
    spv::Id one = e.float_constant(kind, 1.0, a.count);
    e.store_dst(dst, {e.b_.createBinOp(spv::OpFDiv, e.type(kind, a.count), one, a.id), kind, a.count});
}

void emit_sincos(Emitter& e, const Instruction& ins)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Kind kind = op_kind(e, dst, OpClass::floating);
        Value a = load_for(e, src(e, ins, 0), dst, kind);
        spv::Id r = e.glsl(d == 0 ? GLSLstd450Sin : GLSLstd450Cos, e.type(kind, a.count), {a.id});
        return Value{r, kind, a.count};
    });
}

void emit_int_mad(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = op_kind(e, dst, OpClass::integer);
    Value a = load_for(e, src(e, ins, 0), dst, kind);
    Value b = load_for(e, src(e, ins, 1), dst, kind);
    Value c = load_for(e, src(e, ins, 2), dst, kind);
    spv::Id t = e.type(kind, a.count);
    spv::Id r = e.b_.createBinOp(spv::OpIAdd, t, e.b_.createBinOp(spv::OpIMul, t, a.id, b.id), c.id);
    e.store_dst(dst, {r, kind, a.count});
}

/// imul/umul: dst0 the high half, dst1 the low half of the double-width
/// product.
void emit_mul_extended(Emitter& e, const Instruction& ins, bool is_signed)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Kind kind = op_kind(e, dst, is_signed ? OpClass::sint : OpClass::uint);
        Value a = load_for(e, src(e, ins, 0), dst, kind);
        Value b = load_for(e, src(e, ins, 1), dst, kind);
        spv::Id t = e.type(kind, a.count);
        spv::Id r;
        if (d == 0) {
            spv::Id both = e.b_.createBinOp(is_signed ? spv::OpSMulExtended : spv::OpUMulExtended,
                e.b_.makeStructResultType(t, t), a.id, b.id);
            r = e.b_.createCompositeExtract(both, t, 1);
        } else {
            r = e.b_.createBinOp(spv::OpIMul, t, a.id, b.id);
        }
        return Value{r, kind, a.count};
    });
}

/// udiv: dst0 quotient, dst1 remainder; both all ones for a zero divisor.
void emit_udiv(Emitter& e, const Instruction& ins)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Kind kind = op_kind(e, dst, OpClass::uint);
        Value a = load_for(e, src(e, ins, 0), dst, kind);
        Value b = load_for(e, src(e, ins, 1), dst, kind);
        spv::Id t = e.type(kind, a.count);
        spv::Id zero = e.b_.createBinOp(spv::OpIEqual, e.type(Kind::boolean, a.count), b.id,
            e.splat_constant(kind, a.count, 0));
        spv::Id r = e.b_.createBinOp(d == 0 ? spv::OpUDiv : spv::OpUMod, t, a.id, b.id);
        r = e.b_.createTriOp(spv::OpSelect, t, zero, e.splat_constant(kind, a.count, ~0ull), r);
        return Value{r, kind, a.count};
    });
}

/// idiv: dst0 quotient (OpSDiv), dst1 remainder with the sign of the
/// dividend (OpSRem), as LLVM sdiv / srem.
void emit_idiv(Emitter& e, const Instruction& ins)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Kind kind = op_kind(e, dst, OpClass::sint);
        Value a = load_for(e, src(e, ins, 0), dst, kind);
        Value b = load_for(e, src(e, ins, 1), dst, kind);
        spv::Id r = e.b_.createBinOp(d == 0 ? spv::OpSDiv : spv::OpSRem, e.type(kind, a.count), a.id, b.id);
        return Value{r, kind, a.count};
    });
}

/// uaddc/usubb: dst0 the result, dst1 the carry or borrow.
void emit_carry(Emitter& e, const Instruction& ins, spv::Op op)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Value a = load_for(e, src(e, ins, 0), dst, Kind::u32);
        Value b = load_for(e, src(e, ins, 1), dst, Kind::u32);
        spv::Id t = e.type(Kind::u32, a.count);
        spv::Id both = e.b_.createBinOp(op, e.b_.makeStructResultType(t, t), a.id, b.id);
        return Value{e.b_.createCompositeExtract(both, t, d), Kind::u32, a.count};
    });
}

/// Shift counts (of `width`-bit values) use their low log2(width) bits, as
/// in D3D; the count is read as an unsigned integer of that width.
spv::Id shift_count(Emitter& e, const SrcParam& count_src, const DstParam& dst, uint32_t width = 32)
{
    Kind kind = int_kind(width, false);
    Value s = load_int_for(e, count_src, dst, kind);
    return e.integer_op(spv::OpBitwiseAnd, kind, s.count, s.id, e.splat_constant(kind, s.count, width - 1));
}

/// Shifts leave their operands' signedness free (load_int_for): the opcode
/// says whether the sign bit fills.
void emit_shift(Emitter& e, const Instruction& ins, spv::Op op)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = sign_free_kind(e, dst);
    Value a = load_int_for(e, src(e, ins, 0), dst, kind);
    spv::Id s = shift_count(e, src(e, ins, 1), dst, bit_width(kind));
    e.store_dst(dst, {e.integer_op(op, kind, a.count, a.id, s), kind, a.count});
}

/// bfi width, offset, insert, base: mask = ((1 << width) - 1) << offset;
/// ((insert << offset) & mask) | (base & ~mask), as the D3D spec defines it.
/// msad: accumulator + the sum over the bytes i where the reference byte is
/// not 0 of |reference byte - source byte|.
void emit_msad(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Value ref = load_for(e, src(e, ins, 0), dst, Kind::u32);
    Value source = load_for(e, src(e, ins, 1), dst, Kind::u32);
    Value accum = load_for(e, src(e, ins, 2), dst, Kind::u32);
    uint8_t n = ref.count;
    spv::Id t = e.type(Kind::u32, n);
    spv::Id tb = e.type(Kind::boolean, n);
    spv::Id byte = e.splat_constant(Kind::u32, n, 0xff);
    spv::Id zero = e.splat_constant(Kind::u32, n, 0);
    auto& b = e.b_;
    spv::Id sum = accum.id;
    for (uint32_t i = 0; i < 4; ++i) {
        spv::Id shift = e.splat_constant(Kind::u32, n, 8 * i);
        spv::Id r = b.createBinOp(spv::OpBitwiseAnd, t, b.createBinOp(spv::OpShiftRightLogical, t, ref.id, shift), byte);
        spv::Id s = b.createBinOp(spv::OpBitwiseAnd, t, b.createBinOp(spv::OpShiftRightLogical, t, source.id, shift), byte);
        spv::Id diff = b.createTriOp(spv::OpSelect, t, b.createBinOp(spv::OpUGreaterThan, tb, r, s),
            b.createBinOp(spv::OpISub, t, r, s), b.createBinOp(spv::OpISub, t, s, r));
        diff = b.createTriOp(spv::OpSelect, t, b.createBinOp(spv::OpINotEqual, tb, r, zero), diff, zero);
        sum = b.createBinOp(spv::OpIAdd, t, sum, diff);
    }
    e.store_dst(dst, {sum, Kind::u32, n});
}

void emit_bfi(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    spv::Id width = shift_count(e, src(e, ins, 0), dst);
    spv::Id offset = shift_count(e, src(e, ins, 1), dst);
    Value insert = load_for(e, src(e, ins, 2), dst, Kind::u32);
    Value base = load_for(e, src(e, ins, 3), dst, Kind::u32);
    uint8_t n = insert.count;
    spv::Id t = e.type(Kind::u32, n);
    spv::Id one = e.splat_constant(Kind::u32, n, 1);
    auto& b = e.b_;
    spv::Id ones = b.createBinOp(spv::OpISub, t, b.createBinOp(spv::OpShiftLeftLogical, t, one, width), one);
    spv::Id mask = b.createBinOp(spv::OpShiftLeftLogical, t, ones, offset);
    spv::Id field = b.createBinOp(spv::OpBitwiseAnd, t, b.createBinOp(spv::OpShiftLeftLogical, t, insert.id, offset), mask);
    spv::Id kept = b.createBinOp(spv::OpBitwiseAnd, t, base.id, b.createUnaryOp(spv::OpNot, t, mask));
    e.store_dst(dst, {b.createBinOp(spv::OpBitwiseOr, t, field, kept), Kind::u32, n});
}

/// The value every one of the `n` lanes of a 32-bit constant `id` holds,
/// when they all hold the same.
bool uniform_constant(const Builder& b, spv::Id id, uint32_t n, uint32_t& value)
{
    uint32_t bits[4];
    if (!b.constant_lanes(id, n, bits))
        return false;
    for (uint32_t i = 1; i < n; ++i)
        if (bits[i] != bits[0])
            return false;
    value = bits[0];
    return true;
}

/// ubfe/ibfe width, offset, value with the D3D rules: width 0 gives 0; a
/// field reaching bit 31 is value >> offset.
void emit_bfe(Emitter& e, const Instruction& ins, bool is_signed)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = is_signed ? Kind::i32 : Kind::u32;
    spv::Id width = shift_count(e, src(e, ins, 0), dst);
    spv::Id offset = shift_count(e, src(e, ins, 1), dst);
    Value value = load_for(e, src(e, ins, 2), dst, kind);
    uint8_t n = value.count;
    spv::Id ut = e.type(Kind::u32, n), t = e.type(kind, n), bt = e.type(Kind::boolean, n);
    spv::Op shr = is_signed ? spv::OpShiftRightArithmetic : spv::OpShiftRightLogical;
    auto& b = e.b_;
    uint32_t w = 0, o = 0; // as masked by shift_count()
    if (uniform_constant(b, width, n, w) && uniform_constant(b, offset, n, o)) {
        // A width and offset known (the usual case: unpacking fixed fields)
        // pick one of the three results below at translation time.
        spv::Id r = w == 0 ? e.splat_constant(kind, n, 0)
            : w + o < 32   ? b.createTriOp(is_signed ? spv::OpBitFieldSExtract : spv::OpBitFieldUExtract, t, value.id,
                                 e.constant(Kind::u32, o), e.constant(Kind::u32, w))
                           : e.integer_op(shr, kind, n, value.id, offset);
        e.store_dst(dst, {r, kind, n});
        return;
    }
    spv::Id c32 = e.splat_constant(Kind::u32, n, 32);
    spv::Id end = b.createBinOp(spv::OpIAdd, ut, width, offset);
    spv::Id left = b.createBinOp(spv::OpShiftLeftLogical, t, value.id, b.createBinOp(spv::OpISub, ut, c32, end));
    spv::Id field = b.createBinOp(shr, t, left, b.createBinOp(spv::OpISub, ut, c32, width));
    spv::Id tail = b.createBinOp(shr, t, value.id, offset);
    spv::Id r = b.createTriOp(spv::OpSelect, t, b.createBinOp(spv::OpULessThan, bt, end, c32), field, tail);
    spv::Id empty = b.createBinOp(spv::OpIEqual, bt, width, e.splat_constant(Kind::u32, n, 0));
    r = b.createTriOp(spv::OpSelect, t, empty, e.splat_constant(kind, n, 0), r);
    e.store_dst(dst, {r, kind, n});
}

/// The source of a bit-scan opcode (countbits, firstbit_*, bfrev) as an
/// integer of its own width, unsigned unless `is_signed`.
Value bit_source(Emitter& e, const Instruction& ins, bool is_signed)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = src_kind(e, src(e, ins, 0));
    uint32_t width = is_int(kind) ? bit_width(kind) : 32;
    return load_for(e, src(e, ins, 0), dst, int_kind(width, is_signed));
}

/// The unsigned 32-bit halves of integer `x`: 16-bit values zero-extended
/// into `lo`; `hi` only for 64-bit values. Vulkan allows the bit
/// instructions (OpBitCount, OpBitReverse, FindILsb, FindUMsb) on 32-bit
/// integers only.
struct Halves {
    spv::Id lo = NoResult, hi = NoResult;
};

Halves split_words(Emitter& e, Value x)
{
    uint32_t width = bit_width(x.kind);
    Kind uk = int_kind(width, false);
    spv::Id u = e.as_kind(x, uk).id;
    if (width == 32)
        return {u, NoResult};
    spv::Id t = e.type(Kind::u32, x.count);
    Halves h{e.b_.createUnaryOp(spv::OpUConvert, t, u), NoResult};
    if (width == 64) {
        spv::Id high = e.b_.createBinOp(spv::OpShiftRightLogical, e.type(uk, x.count), u,
            e.splat_constant(uk, x.count, 32));
        h.hi = e.b_.createUnaryOp(spv::OpUConvert, t, high);
    }
    return h;
}

/// `lo_result` where `lo_wins`, else (`hi_result` + 32) where hi has a bit,
/// else ~0: the bit index found in a 64-bit value's halves.
spv::Id combine_halves(Emitter& e, uint8_t n, spv::Id lo_wins, spv::Id lo_result, spv::Id hi, spv::Id hi_result)
{
    spv::Id t = e.type(Kind::u32, n), tb = e.type(Kind::boolean, n);
    auto& b = e.b_;
    spv::Id in_hi = b.createBinOp(spv::OpIAdd, t, hi_result, e.splat_constant(Kind::u32, n, 32));
    spv::Id hi_set = b.createBinOp(spv::OpINotEqual, tb, hi, e.splat_constant(Kind::u32, n, 0));
    in_hi = b.createTriOp(spv::OpSelect, t, hi_set, in_hi, e.splat_constant(Kind::u32, n, ~0u));
    return b.createTriOp(spv::OpSelect, t, lo_wins, lo_result, in_hi);
}

void emit_countbits(Emitter& e, const Instruction& ins)
{
    Value x = bit_source(e, ins, false);
    spv::Id t = e.type(Kind::u32, x.count);
    Halves h = split_words(e, x);
    spv::Id r = e.b_.createUnaryOp(spv::OpBitCount, t, h.lo);
    if (h.hi)
        r = e.b_.createBinOp(spv::OpIAdd, t, r, e.b_.createUnaryOp(spv::OpBitCount, t, h.hi));
    e.store_dst(dst0(e, ins), e.as_kind({r, Kind::u32, x.count}, op_kind(e, dst0(e, ins), OpClass::integer)));
}

void emit_firstbit_lo(Emitter& e, const Instruction& ins)
{
    Value x = bit_source(e, ins, false);
    uint8_t n = x.count;
    spv::Id t = e.type(Kind::u32, n);
    Halves h = split_words(e, x);
    spv::Id r = e.glsl(GLSLstd450FindILsb, t, {h.lo});
    if (h.hi) {
        spv::Id lo_set = e.b_.createBinOp(spv::OpINotEqual, e.type(Kind::boolean, n), h.lo, e.splat_constant(Kind::u32, n, 0));
        r = combine_halves(e, n, lo_set, r, h.hi, e.glsl(GLSLstd450FindILsb, t, {h.hi}));
    }
    e.store_dst(dst0(e, ins), e.as_kind({r, Kind::u32, n}, op_kind(e, dst0(e, ins), OpClass::integer)));
}

/// firstbit_hi / firstbit_shi count from the most significant bit (of the
/// source's width); ~0 when no bit is found. firstbit_shi looks for the
/// first bit differing from the sign bit: FindUMsb of x, or of ~x when x is
/// negative.
void emit_firstbit_hi(Emitter& e, const Instruction& ins, bool is_signed)
{
    Value x = bit_source(e, ins, is_signed);
    uint8_t n = x.count;
    uint32_t width = bit_width(x.kind);
    spv::Id t = e.type(Kind::u32, n), tb = e.type(Kind::boolean, n);
    auto& b = e.b_;
    spv::Id msb;
    if (width == 32) {
        msb = e.glsl(is_signed ? GLSLstd450FindSMsb : GLSLstd450FindUMsb, t, {x.id});
    } else {
        if (is_signed) {
            spv::Id negative = b.createBinOp(spv::OpSLessThan, tb, x.id, e.splat_constant(x.kind, n, 0));
            x.id = b.createTriOp(spv::OpSelect, e.type(x.kind, n), negative,
                b.createUnaryOp(spv::OpNot, e.type(x.kind, n), x.id), x.id);
        }
        Halves h = split_words(e, x);
        msb = e.glsl(GLSLstd450FindUMsb, t, {h.lo});
        if (h.hi) {
            spv::Id hi_clear = b.createBinOp(spv::OpIEqual, tb, h.hi, e.splat_constant(Kind::u32, n, 0));
            msb = combine_halves(e, n, hi_clear, msb, h.hi, e.glsl(GLSLstd450FindUMsb, t, {h.hi}));
        }
    }
    spv::Id none = e.splat_constant(Kind::u32, n, ~0u);
    spv::Id missing = b.createBinOp(spv::OpIEqual, tb, msb, none);
    spv::Id from_top = b.createBinOp(spv::OpISub, t, e.splat_constant(Kind::u32, n, width - 1), msb);
    Value r{b.createTriOp(spv::OpSelect, t, missing, none, from_top), Kind::u32, n};
    e.store_dst(dst0(e, ins), e.as_kind(r, op_kind(e, dst0(e, ins), OpClass::integer)));
}

/// bfrev of 16-, 32- and 64-bit integers through 32-bit OpBitReverse.
void emit_bfrev(Emitter& e, const Instruction& ins)
{
    Value x = bit_source(e, ins, false);
    uint8_t n = x.count;
    uint32_t width = bit_width(x.kind);
    spv::Id t = e.type(Kind::u32, n), tw = e.type(x.kind, n);
    auto& b = e.b_;
    Halves h = split_words(e, x);
    spv::Id lo = b.createUnaryOp(spv::OpBitReverse, t, h.lo);
    spv::Id r = lo;
    if (width == 16) {
        r = b.createBinOp(spv::OpShiftRightLogical, t, lo, e.splat_constant(Kind::u32, n, 16));
        r = b.createUnaryOp(spv::OpUConvert, tw, r);
    } else if (width == 64) {
        spv::Id high = b.createBinOp(spv::OpShiftLeftLogical, tw, b.createUnaryOp(spv::OpUConvert, tw, lo),
            e.splat_constant(x.kind, n, 32));
        spv::Id low = b.createUnaryOp(spv::OpUConvert, tw, b.createUnaryOp(spv::OpBitReverse, t, h.hi));
        r = b.createBinOp(spv::OpBitwiseOr, tw, high, low);
    }
    e.store_dst(dst0(e, ins), e.as_kind({r, x.kind, n}, op_kind(e, dst0(e, ins), OpClass::integer)));
}

void emit_mov(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    if (ins.opcode == vsir::Opcode::mov && e.mov_lanes(dst, src(e, ins, 0)))
        return;
    e.store_dst(dst, load_for(e, src(e, ins, 0), dst, e.kind_or_u32(dst.reg.type)));
}

} // namespace

bool Emitter::emit_alu(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    if (ins.dst_count == 1 && skipped(prog_.dst(ins, 0)))
        return true;
    Emitter& e = *this;
    switch (ins.opcode) {
    case Opcode::mov:
    case Opcode::dmov: emit_mov(e, ins); break;
    case Opcode::movc:
    case Opcode::dmovc: emit_movc(e, ins); break;
    case Opcode::swapc: emit_swapc(e, ins); break;

    case Opcode::add:
    case Opcode::dadd: emit_op(e, ins, spv::OpFAdd, OpClass::floating); break;
    case Opcode::mul:
    case Opcode::dmul: emit_op(e, ins, spv::OpFMul, OpClass::floating); break;
    case Opcode::div:
    case Opcode::ddiv: emit_op(e, ins, spv::OpFDiv, OpClass::floating); break;
    case Opcode::mad:
    case Opcode::dfma: emit_ext(e, ins, GLSLstd450Fma, OpClass::floating); break;
    case Opcode::dp2: emit_dot(e, ins, 2); break;
    case Opcode::dp3: emit_dot(e, ins, 3); break;
    case Opcode::dp4: emit_dot(e, ins, 4); break;
    case Opcode::min:
    case Opcode::dmin: emit_ext(e, ins, GLSLstd450NMin, OpClass::floating); break;
    case Opcode::max:
    case Opcode::dmax: emit_ext(e, ins, GLSLstd450NMax, OpClass::floating); break;
    case Opcode::frc: emit_ext(e, ins, GLSLstd450Fract, OpClass::floating); break;
    case Opcode::round_ne: emit_ext(e, ins, GLSLstd450RoundEven, OpClass::floating); break;
    case Opcode::round_ni: emit_ext(e, ins, GLSLstd450Floor, OpClass::floating); break;
    case Opcode::round_pi: emit_ext(e, ins, GLSLstd450Ceil, OpClass::floating); break;
    case Opcode::round_z: emit_ext(e, ins, GLSLstd450Trunc, OpClass::floating); break;
    case Opcode::exp: emit_ext(e, ins, GLSLstd450Exp2, OpClass::floating); break;
    case Opcode::log: emit_ext(e, ins, GLSLstd450Log2, OpClass::floating); break;
    case Opcode::sqrt: emit_ext(e, ins, GLSLstd450Sqrt, OpClass::floating); break;
    case Opcode::rsq: emit_ext(e, ins, GLSLstd450InverseSqrt, OpClass::floating); break;
    case Opcode::rcp:
    case Opcode::drcp: emit_rcp(e, ins); break;
    case Opcode::sincos: emit_sincos(e, ins); break;
    case Opcode::frem: emit_op(e, ins, spv::OpFRem, OpClass::floating); break;
    case Opcode::tan: emit_ext(e, ins, GLSLstd450Tan, OpClass::floating); break;
    case Opcode::acos: emit_ext(e, ins, GLSLstd450Acos, OpClass::floating); break;
    case Opcode::asin: emit_ext(e, ins, GLSLstd450Asin, OpClass::floating); break;
    case Opcode::atan: emit_ext(e, ins, GLSLstd450Atan, OpClass::floating); break;
    case Opcode::hcos: emit_ext(e, ins, GLSLstd450Cosh, OpClass::floating); break;
    case Opcode::hsin: emit_ext(e, ins, GLSLstd450Sinh, OpClass::floating); break;
    case Opcode::htan: emit_ext(e, ins, GLSLstd450Tanh, OpClass::floating); break;

    case Opcode::eq:
    case Opcode::deq: emit_compare(e, ins, spv::OpFOrdEqual, OpClass::floating); break;
    case Opcode::ne:
    case Opcode::dne: emit_compare(e, ins, spv::OpFUnordNotEqual, OpClass::floating); break;
    case Opcode::lt:
    case Opcode::dlt: emit_compare(e, ins, spv::OpFOrdLessThan, OpClass::floating); break;
    case Opcode::ge:
    case Opcode::dge: emit_compare(e, ins, spv::OpFOrdGreaterThanEqual, OpClass::floating); break;
    case Opcode::eq_u: emit_compare(e, ins, spv::OpFUnordEqual, OpClass::floating); break;
    case Opcode::ne_o: emit_compare(e, ins, spv::OpFOrdNotEqual, OpClass::floating); break;
    case Opcode::lt_u: emit_compare(e, ins, spv::OpFUnordLessThan, OpClass::floating); break;
    case Opcode::ge_u: emit_compare(e, ins, spv::OpFUnordGreaterThanEqual, OpClass::floating); break;
    case Opcode::ord: emit_ordered(e, ins, true); break;
    case Opcode::unord: emit_ordered(e, ins, false); break;
    case Opcode::isnan:
    case Opcode::isinf:
    case Opcode::isfinite:
    case Opcode::isnormal: emit_float_class(e, ins); break;
    case Opcode::ieq: emit_compare(e, ins, spv::OpIEqual, OpClass::uint); break;
    case Opcode::ine: emit_compare(e, ins, spv::OpINotEqual, OpClass::uint); break;
    case Opcode::ilt: emit_compare(e, ins, spv::OpSLessThan, OpClass::sint); break;
    case Opcode::ige: emit_compare(e, ins, spv::OpSGreaterThanEqual, OpClass::sint); break;
    case Opcode::ult: emit_compare(e, ins, spv::OpULessThan, OpClass::uint); break;
    case Opcode::uge: emit_compare(e, ins, spv::OpUGreaterThanEqual, OpClass::uint); break;

    case Opcode::iadd: emit_op(e, ins, spv::OpIAdd, OpClass::integer); break;
    case Opcode::ineg: emit_op(e, ins, spv::OpSNegate, OpClass::integer); break;
    case Opcode::imad:
    case Opcode::umad: emit_int_mad(e, ins); break;
    case Opcode::imul: emit_mul_extended(e, ins, true); break;
    case Opcode::umul: emit_mul_extended(e, ins, false); break;
    case Opcode::udiv: emit_udiv(e, ins); break;
    case Opcode::idiv: emit_idiv(e, ins); break;
    case Opcode::imin: emit_ext(e, ins, GLSLstd450SMin, OpClass::sint); break;
    case Opcode::imax: emit_ext(e, ins, GLSLstd450SMax, OpClass::sint); break;
    case Opcode::umin: emit_ext(e, ins, GLSLstd450UMin, OpClass::uint); break;
    case Opcode::umax: emit_ext(e, ins, GLSLstd450UMax, OpClass::uint); break;
    case Opcode::ishl: emit_shift(e, ins, spv::OpShiftLeftLogical); break;
    case Opcode::ishr: emit_shift(e, ins, spv::OpShiftRightArithmetic); break;
    case Opcode::ushr: emit_shift(e, ins, spv::OpShiftRightLogical); break;
    case Opcode::and_: emit_bitwise(e, ins, spv::OpBitwiseAnd); break;
    case Opcode::or_: emit_bitwise(e, ins, spv::OpBitwiseOr); break;
    case Opcode::xor_: emit_bitwise(e, ins, spv::OpBitwiseXor); break;
    case Opcode::not_: emit_bitwise(e, ins, spv::OpNot); break;
    case Opcode::bfi: emit_bfi(e, ins); break;
    case Opcode::msad: emit_msad(e, ins); break;
    case Opcode::ubfe: emit_bfe(e, ins, false); break;
    case Opcode::ibfe: emit_bfe(e, ins, true); break;
    case Opcode::bfrev: emit_bfrev(e, ins); break;
    case Opcode::countbits: emit_countbits(e, ins); break;
    case Opcode::firstbit_lo: emit_firstbit_lo(e, ins); break;
    case Opcode::firstbit_hi: emit_firstbit_hi(e, ins, false); break;
    case Opcode::firstbit_shi: emit_firstbit_hi(e, ins, true); break;
    case Opcode::uaddc: emit_carry(e, ins, spv::OpIAddCarry); break;
    case Opcode::usubb: emit_carry(e, ins, spv::OpISubBorrow); break;

    default: return false;
    }
    return true;
}

} // namespace dxspv::spirv

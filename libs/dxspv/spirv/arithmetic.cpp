// Arithmetic, comparison, integer, bit, conversion and double opcodes.
//
// Operands are loaded per destination component (load_src) in the kind
// their Register::type gives and converted (bitcast) to the kind the
// operation computes in: the opcode fixes float or integer (OpClass), the
// destination's type the width and signedness where the opcode leaves them
// open (add and dadd share one path). Results of two-destination opcodes are all computed before
// anything is stored, so a destination may alias a source.
#include "spirv/emitter.h"

#include <bit>

namespace dxspv::spirv {

namespace {

using vsir::DstParam;
using vsir::Instruction;
using vsir::SrcParam;

/// Loads `src` for the components `dst` writes, as `kind`.
Value load_for(Emitter& e, const SrcParam& src, const DstParam& dst, Kind kind)
{
    return e.as_kind(e.load_src(src, dst.write_mask, dst.reg.type), kind);
}

const DstParam& dst0(Emitter& e, const Instruction& ins) { return e.prog_.dst(ins, 0); }
const SrcParam& src(Emitter& e, const Instruction& ins, uint32_t i) { return e.prog_.src(ins, i); }

bool skipped(const DstParam& dst)
{
    return dst.reg.file == vsir::RegisterFile::null || !(dst.write_mask & 0xf);
}

/// Bits of `v` as a constant of `kind` (f32, f64 or a 32-bit integer).
uint64_t float_bits(Kind kind, double v)
{
    return kind == Kind::f64 ? std::bit_cast<uint64_t>(v) : std::bit_cast<uint32_t>(float(v));
}

/// What an opcode computes in: floating point (f32, or f64 for a 64-bit
/// destination), or integers (the destination's signedness, or a fixed one).
enum class OpClass : uint8_t { floating, integer, sint, uint };

/// The kind an operation of `cls` computes in for destination `dst`; the
/// destination's own kind when it fits the class.
Kind op_kind(Emitter& e, const DstParam& dst, OpClass cls)
{
    Kind kind = e.kind_or_u32(dst.reg.type);
    switch (cls) {
    case OpClass::floating: return is_float(kind) ? kind : Kind::f32;
    case OpClass::integer: return is_int(kind) ? kind : Kind::u32;
    case OpClass::sint: return Kind::i32;
    case OpClass::uint: return Kind::u32;
    }
    return kind;
}

/// One SPIR-V instruction over all sources.
void emit_op(Emitter& e, const Instruction& ins, spv::Op op, OpClass cls)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = op_kind(e, dst, cls);
    spv::Id args[3] = {};
    uint8_t count = 1;
    for (uint32_t i = 0; i < ins.src_count && i < 3; ++i) {
        Value v = load_for(e, src(e, ins, i), dst, kind);
        args[i] = v.id;
        count = v.count;
    }
    spv::Id t = e.type(kind, count);
    spv::Id r;
    if (ins.src_count == 1)
        r = e.b_.createUnaryOp(op, t, args[0]);
    else if (ins.src_count == 2)
        r = e.b_.createBinOp(op, t, args[0], args[1]);
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

/// Comparison writing 0 / 0xffffffff; `kind` is the operand kind
/// (Kind::count: the kind of the first source, for float compares).
void emit_compare(Emitter& e, const Instruction& ins, spv::Op op, Kind kind)
{
    const DstParam& dst = dst0(e, ins);
    if (kind == Kind::count) {
        kind = e.kind_or_u32(src(e, ins, 0).reg.type);
        kind = is_float(kind) ? kind : Kind::f32;
    }
    Value a = load_for(e, src(e, ins, 0), dst, kind);
    Value b = load_for(e, src(e, ins, 1), dst, kind);
    spv::Id condition = e.b_.createBinOp(op, e.type(Kind::boolean, a.count), a.id, b.id);
    e.store_dst(dst, {e.select_mask(condition, a.count), Kind::u32, a.count});
}

/// The condition operand of movc/swapc as a bool vector.
spv::Id nonzero(Emitter& e, const SrcParam& condition, const DstParam& dst)
{
    Value c = load_for(e, condition, dst, Kind::u32);
    return e.b_.createBinOp(spv::OpINotEqual, e.type(Kind::boolean, c.count), c.id,
        e.splat_constant(Kind::u32, c.count, 0));
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

/// Runs `compute(dst index, dst)` for each written destination of a
/// two-destination opcode, then stores the results.
template <typename F>
void emit_two_results(Emitter& e, const Instruction& ins, F compute)
{
    Value results[2];
    for (uint32_t d = 0; d < 2; ++d) {
        const DstParam& dst = e.prog_.dst(ins, d);
        if (!skipped(dst))
            results[d] = compute(d, dst);
    }
    for (uint32_t d = 0; d < 2; ++d)
        if (results[d].id)
            e.store_dst(e.prog_.dst(ins, d), results[d]);
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
    Value a = e.as_kind(e.load_src(src(e, ins, 0), mask, vsir::DataType::f32), Kind::f32);
    Value b = e.as_kind(e.load_src(src(e, ins, 1), mask, vsir::DataType::f32), Kind::f32);
    spv::Id r = e.b_.createBinOp(spv::OpDot, e.type(Kind::f32), a.id, b.id);
    e.decorate_precise(ins, r);
    e.store_dst(dst0(e, ins), {r, Kind::f32, 1});
}

void emit_rcp(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = op_kind(e, dst, OpClass::floating);
    Value a = load_for(e, src(e, ins, 0), dst, kind);
    spv::Id one = e.splat_constant(kind, a.count, float_bits(kind, 1.0));
    e.store_dst(dst, {e.b_.createBinOp(spv::OpFDiv, e.type(kind, a.count), one, a.id), kind, a.count});
}

void emit_sincos(Emitter& e, const Instruction& ins)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Value a = load_for(e, src(e, ins, 0), dst, Kind::f32);
        spv::Id r = e.glsl(d == 0 ? GLSLstd450Sin : GLSLstd450Cos, e.type(Kind::f32, a.count), {a.id});
        return Value{r, Kind::f32, a.count};
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

/// imul/umul: dst0 the high 32 bits, dst1 the low 32 bits.
void emit_mul_extended(Emitter& e, const Instruction& ins, bool is_signed)
{
    Kind kind = is_signed ? Kind::i32 : Kind::u32;
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
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

/// udiv: dst0 quotient, dst1 remainder; both 0xffffffff for a zero divisor.
void emit_udiv(Emitter& e, const Instruction& ins)
{
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Value a = load_for(e, src(e, ins, 0), dst, Kind::u32);
        Value b = load_for(e, src(e, ins, 1), dst, Kind::u32);
        spv::Id t = e.type(Kind::u32, a.count);
        spv::Id zero = e.b_.createBinOp(spv::OpIEqual, e.type(Kind::boolean, a.count), b.id,
            e.splat_constant(Kind::u32, a.count, 0));
        spv::Id r = e.b_.createBinOp(d == 0 ? spv::OpUDiv : spv::OpUMod, t, a.id, b.id);
        r = e.b_.createTriOp(spv::OpSelect, t, zero, e.splat_constant(Kind::u32, a.count, ~0u), r);
        return Value{r, Kind::u32, a.count};
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

/// Shift counts use their low 5 bits, as in D3D.
spv::Id shift_count(Emitter& e, const SrcParam& count_src, const DstParam& dst)
{
    Value s = load_for(e, count_src, dst, Kind::u32);
    return e.b_.createBinOp(spv::OpBitwiseAnd, e.type(Kind::u32, s.count), s.id, e.splat_constant(Kind::u32, s.count, 31));
}

void emit_shift(Emitter& e, const Instruction& ins, spv::Op op)
{
    const DstParam& dst = dst0(e, ins);
    Kind kind = op_kind(e, dst, OpClass::integer);
    Value a = load_for(e, src(e, ins, 0), dst, kind);
    spv::Id s = shift_count(e, src(e, ins, 1), dst);
    e.store_dst(dst, {e.b_.createBinOp(op, e.type(kind, a.count), a.id, s), kind, a.count});
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
    spv::Id c32 = e.splat_constant(Kind::u32, n, 32);
    spv::Op shr = is_signed ? spv::OpShiftRightArithmetic : spv::OpShiftRightLogical;
    auto& b = e.b_;
    spv::Id end = b.createBinOp(spv::OpIAdd, ut, width, offset);
    spv::Id left = b.createBinOp(spv::OpShiftLeftLogical, t, value.id, b.createBinOp(spv::OpISub, ut, c32, end));
    spv::Id field = b.createBinOp(shr, t, left, b.createBinOp(spv::OpISub, ut, c32, width));
    spv::Id tail = b.createBinOp(shr, t, value.id, offset);
    spv::Id r = b.createTriOp(spv::OpSelect, t, b.createBinOp(spv::OpULessThan, bt, end, c32), field, tail);
    spv::Id empty = b.createBinOp(spv::OpIEqual, bt, width, e.splat_constant(Kind::u32, n, 0));
    r = b.createTriOp(spv::OpSelect, t, empty, e.splat_constant(kind, n, 0), r);
    e.store_dst(dst, {r, kind, n});
}

/// firstbit_hi / firstbit_shi count from the most significant bit; ~0 when
/// no bit is found.
void emit_firstbit_hi(Emitter& e, const Instruction& ins, bool is_signed)
{
    const DstParam& dst = dst0(e, ins);
    Value x = load_for(e, src(e, ins, 0), dst, is_signed ? Kind::i32 : Kind::u32);
    spv::Id t = e.type(Kind::u32, x.count);
    spv::Id msb = e.glsl(is_signed ? GLSLstd450FindSMsb : GLSLstd450FindUMsb, t, {x.id});
    spv::Id none = e.splat_constant(Kind::u32, x.count, ~0u);
    spv::Id missing = e.b_.createBinOp(spv::OpIEqual, e.type(Kind::boolean, x.count), msb, none);
    spv::Id from_top = e.b_.createBinOp(spv::OpISub, t, e.splat_constant(Kind::u32, x.count, 31), msb);
    e.store_dst(dst, {e.b_.createTriOp(spv::OpSelect, t, missing, none, from_top), Kind::u32, x.count});
}

/// ftoi/ftou/dtoi/dtou with D3D's saturating rules (NaN gives 0).
void emit_float_to_int(Emitter& e, const Instruction& ins, bool is_signed)
{
    const DstParam& dst = dst0(e, ins);
    Kind from = e.kind_or_u32(src(e, ins, 0).reg.type);
    if (!is_float(from)) {
        e.error(Code::spirv_invalid_operand, "source is not floating point");
        return;
    }
    Value x = e.as_kind(e.load_src(src(e, ins, 0), dst.write_mask, dst.reg.type), from);
    uint8_t n = x.count;
    Kind to = is_signed ? Kind::i32 : Kind::u32;
    spv::Id ft = e.type(from, n), t = e.type(to, n), bt = e.type(Kind::boolean, n);
    auto& b = e.b_;
    spv::Id low = e.splat_constant(from, n, float_bits(from, is_signed ? -2147483648.0 : 0.0));
    spv::Id high = e.splat_constant(from, n, float_bits(from, is_signed ? 2147483648.0 : 4294967296.0));
    spv::Id r = b.createUnaryOp(is_signed ? spv::OpConvertFToS : spv::OpConvertFToU, t,
        e.glsl(GLSLstd450NMax, ft, {x.id, low}));
    spv::Id too_big = b.createBinOp(spv::OpFOrdGreaterThanEqual, bt, x.id, high);
    r = b.createTriOp(spv::OpSelect, t, too_big, e.splat_constant(to, n, is_signed ? 0x7fffffffu : ~0u), r);
    if (is_signed)
        r = b.createTriOp(spv::OpSelect, t, b.createUnaryOp(spv::OpIsNan, bt, x.id), e.splat_constant(to, n, 0), r);
    e.store_dst(dst, e.as_kind({r, to, n}, e.kind_or_u32(dst.reg.type)));
}

/// itof/utof/itod/utod/ftod/dtof; `from` is the source kind (Kind::count:
/// the source's own kind).
void emit_convert(Emitter& e, const Instruction& ins, spv::Op op, Kind from)
{
    const DstParam& dst = dst0(e, ins);
    Kind to = e.kind_or_u32(dst.reg.type);
    if (from == Kind::count)
        from = e.kind_or_u32(src(e, ins, 0).reg.type);
    if (!is_float(to) || (op == spv::OpFConvert && !is_float(from))) {
        e.error(Code::spirv_invalid_operand, "conversion between unexpected types");
        return;
    }
    Value x = e.as_kind(e.load_src(src(e, ins, 0), dst.write_mask, dst.reg.type), from);
    e.store_dst(dst, {e.b_.createUnaryOp(op, e.type(to, x.count), x.id), to, x.count});
}

/// f32tof16 / f16tof32, one component at a time (the packing instructions
/// are scalar).
void emit_half(Emitter& e, const Instruction& ins, bool to_half)
{
    const DstParam& dst = dst0(e, ins);
    Value x = load_for(e, src(e, ins, 0), dst, to_half ? Kind::f32 : Kind::u32);
    spv::Id vec2 = e.type(Kind::f32, 2);
    spv::Id parts[4];
    for (uint32_t i = 0; i < x.count; ++i) {
        spv::Id c = e.extract(x, i);
        if (to_half) {
            spv::Id pair = e.b_.createCompositeConstruct(vec2, {c, e.constant_f32(0.0f)});
            parts[i] = e.glsl(GLSLstd450PackHalf2x16, e.type(Kind::u32), {pair});
        } else {
            parts[i] = e.b_.createCompositeExtract(e.glsl(GLSLstd450UnpackHalf2x16, vec2, {c}), e.type(Kind::f32), 0);
        }
    }
    Kind kind = to_half ? Kind::u32 : Kind::f32;
    e.store_dst(dst, {e.construct(kind, parts, x.count), kind, x.count});
}

void emit_mov(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
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

    case Opcode::eq:
    case Opcode::deq: emit_compare(e, ins, spv::OpFOrdEqual, Kind::count); break;
    case Opcode::ne:
    case Opcode::dne: emit_compare(e, ins, spv::OpFUnordNotEqual, Kind::count); break;
    case Opcode::lt:
    case Opcode::dlt: emit_compare(e, ins, spv::OpFOrdLessThan, Kind::count); break;
    case Opcode::ge:
    case Opcode::dge: emit_compare(e, ins, spv::OpFOrdGreaterThanEqual, Kind::count); break;
    case Opcode::ieq: emit_compare(e, ins, spv::OpIEqual, Kind::u32); break;
    case Opcode::ine: emit_compare(e, ins, spv::OpINotEqual, Kind::u32); break;
    case Opcode::ilt: emit_compare(e, ins, spv::OpSLessThan, Kind::i32); break;
    case Opcode::ige: emit_compare(e, ins, spv::OpSGreaterThanEqual, Kind::i32); break;
    case Opcode::ult: emit_compare(e, ins, spv::OpULessThan, Kind::u32); break;
    case Opcode::uge: emit_compare(e, ins, spv::OpUGreaterThanEqual, Kind::u32); break;

    case Opcode::iadd: emit_op(e, ins, spv::OpIAdd, OpClass::integer); break;
    case Opcode::ineg: emit_op(e, ins, spv::OpSNegate, OpClass::integer); break;
    case Opcode::imad:
    case Opcode::umad: emit_int_mad(e, ins); break;
    case Opcode::imul: emit_mul_extended(e, ins, true); break;
    case Opcode::umul: emit_mul_extended(e, ins, false); break;
    case Opcode::udiv: emit_udiv(e, ins); break;
    case Opcode::imin: emit_ext(e, ins, GLSLstd450SMin, OpClass::sint); break;
    case Opcode::imax: emit_ext(e, ins, GLSLstd450SMax, OpClass::sint); break;
    case Opcode::umin: emit_ext(e, ins, GLSLstd450UMin, OpClass::uint); break;
    case Opcode::umax: emit_ext(e, ins, GLSLstd450UMax, OpClass::uint); break;
    case Opcode::ishl: emit_shift(e, ins, spv::OpShiftLeftLogical); break;
    case Opcode::ishr: emit_shift(e, ins, spv::OpShiftRightArithmetic); break;
    case Opcode::ushr: emit_shift(e, ins, spv::OpShiftRightLogical); break;
    case Opcode::and_: emit_op(e, ins, spv::OpBitwiseAnd, OpClass::integer); break;
    case Opcode::or_: emit_op(e, ins, spv::OpBitwiseOr, OpClass::integer); break;
    case Opcode::xor_: emit_op(e, ins, spv::OpBitwiseXor, OpClass::integer); break;
    case Opcode::not_: emit_op(e, ins, spv::OpNot, OpClass::integer); break;
    case Opcode::bfi: emit_bfi(e, ins); break;
    case Opcode::msad: emit_msad(e, ins); break;
    case Opcode::ubfe: emit_bfe(e, ins, false); break;
    case Opcode::ibfe: emit_bfe(e, ins, true); break;
    case Opcode::bfrev: emit_op(e, ins, spv::OpBitReverse, OpClass::integer); break;
    case Opcode::countbits: emit_op(e, ins, spv::OpBitCount, OpClass::integer); break;
    case Opcode::firstbit_lo: emit_ext(e, ins, GLSLstd450FindILsb, OpClass::integer); break;
    case Opcode::firstbit_hi: emit_firstbit_hi(e, ins, false); break;
    case Opcode::firstbit_shi: emit_firstbit_hi(e, ins, true); break;
    case Opcode::uaddc: emit_carry(e, ins, spv::OpIAddCarry); break;
    case Opcode::usubb: emit_carry(e, ins, spv::OpISubBorrow); break;

    case Opcode::ftoi:
    case Opcode::dtoi: emit_float_to_int(e, ins, true); break;
    case Opcode::ftou:
    case Opcode::dtou: emit_float_to_int(e, ins, false); break;
    case Opcode::itof:
    case Opcode::itod: emit_convert(e, ins, spv::OpConvertSToF, Kind::i32); break;
    case Opcode::utof:
    case Opcode::utod: emit_convert(e, ins, spv::OpConvertUToF, Kind::u32); break;
    case Opcode::ftod:
    case Opcode::dtof: emit_convert(e, ins, spv::OpFConvert, Kind::count); break;
    case Opcode::f32tof16: emit_half(e, ins, true); break;
    case Opcode::f16tof32: emit_half(e, ins, false); break;
    default: return false;
    }
    return true;
}

} // namespace dxspv::spirv

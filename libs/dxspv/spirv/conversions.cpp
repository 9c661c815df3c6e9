// Conversions between kinds and widths: float ↔ integer (ftoi ftou itof
// utof and the double forms), float widths (ftod dtof ftof), integer widths
// and booleans (itoi utou), the f16 packing opcodes (f32tof16 f16tof32) and
// 64-bit packing (pack64 unpack64).
//
// The widths come from the operand types: the source's type gives the
// width read, the destination's the width written; the opcode gives the
// signedness.
#include "spirv/alu.h"

#include <algorithm>

namespace dxspv::spirv {

namespace {

using namespace alu;

/// The integer kind of `kind`'s width (32 bits for non-integers: a source
/// typed f32 read as an integer is a bit copy) with the given signedness.
Kind int_of(Kind kind, bool is_signed) { return int_kind(is_int(kind) ? bit_width(kind) : 32, is_signed); }

/// ftoi/ftou/dtoi/dtou: float (any width) to integer (any width). A 32-bit
/// result from an f32 or f64 source follows D3D's saturating rules (NaN
/// gives 0), which are also a valid result of LLVM's fptosi/fptoui (their
/// result is undefined out of range); other widths convert directly.
void emit_float_to_int(Emitter& e, const Instruction& ins, bool is_signed)
{
    const DstParam& dst = dst0(e, ins);
    Kind from = src_kind(e, src(e, ins, 0));
    if (!is_float(from)) {
        e.error(Code::spirv_invalid_operand, "source is not floating point");
        return;
    }
    Value x = load_for(e, src(e, ins, 0), dst, from);
    uint8_t n = x.count;
    Kind to = int_of(dst_kind(e, dst), is_signed);
    spv::Id ft = e.type(from, n), t = e.type(to, n), bt = e.type(Kind::boolean, n);
    auto& b = e.b_;
    spv::Op op = is_signed ? spv::OpConvertFToS : spv::OpConvertFToU;
    if (bit_width(to) != 32 || from == Kind::f16) {
        e.store_dst(dst, e.as_kind({b.createUnaryOp(op, t, x.id), to, n}, dst_kind(e, dst)));
        return;
    }
    spv::Id low = e.float_constant(from, is_signed ? -2147483648.0 : 0.0, n);
    spv::Id high = e.float_constant(from, is_signed ? 2147483648.0 : 4294967296.0, n);
    spv::Id r = b.createUnaryOp(op, t, e.glsl(GLSLstd450NMax, ft, {x.id, low}));
    spv::Id too_big = b.createBinOp(spv::OpFOrdGreaterThanEqual, bt, x.id, high);
    r = b.createTriOp(spv::OpSelect, t, too_big, e.splat_constant(to, n, is_signed ? 0x7fffffffu : ~0u), r);
    if (is_signed)
        r = b.createTriOp(spv::OpSelect, t, b.createUnaryOp(spv::OpIsNan, bt, x.id), e.splat_constant(to, n, 0), r);
    e.store_dst(dst, e.as_kind({r, to, n}, dst_kind(e, dst)));
}

/// itof/utof/itod/utod: integer (any width, the opcode's signedness) to
/// float (the destination's width).
void emit_int_to_float(Emitter& e, const Instruction& ins, bool is_signed)
{
    const DstParam& dst = dst0(e, ins);
    Kind to = dst_kind(e, dst);
    if (!is_float(to)) {
        e.error(Code::spirv_invalid_operand, "destination is not floating point");
        return;
    }
    Value x = load_for(e, src(e, ins, 0), dst, int_of(src_kind(e, src(e, ins, 0)), is_signed));
    spv::Op op = is_signed ? spv::OpConvertSToF : spv::OpConvertUToF;
    e.store_dst(dst, {e.b_.createUnaryOp(op, e.type(to, x.count), x.id), to, x.count});
}

/// ftod/dtof/ftof: between float widths (a bit copy at equal widths).
void emit_float_to_float(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind to = dst_kind(e, dst), from = src_kind(e, src(e, ins, 0));
    if (!is_float(to) || !is_float(from)) {
        e.error(Code::spirv_invalid_operand, "conversion between unexpected types");
        return;
    }
    Value x = load_for(e, src(e, ins, 0), dst, from);
    if (from != to)
        x = {e.b_.createUnaryOp(spv::OpFConvert, e.type(to, x.count), x.id), to, x.count};
    e.store_dst(dst, x);
}

/// itoi / utou: integer width changes (sign- or zero-extension, or
/// truncation) and booleans: a boolean source gives 0 and all ones (itoi)
/// or 1 (utou); a boolean destination takes the source's low bit.
void emit_int_resize(Emitter& e, const Instruction& ins, bool is_signed)
{
    const DstParam& dst = dst0(e, ins);
    Kind to = dst_kind(e, dst), from = src_kind(e, src(e, ins, 0));
    if ((!is_int(to) && to != Kind::boolean) || (!is_int(from) && from != Kind::boolean)) {
        e.error(Code::spirv_invalid_operand, "conversion between unexpected types");
        return;
    }
    Value x = load_for(e, src(e, ins, 0), dst, from);
    uint8_t n = x.count;
    auto& b = e.b_;
    if (from == Kind::boolean || to == Kind::boolean) {
        if (from == to) {
            e.store_dst(dst, x);
        } else if (from == Kind::boolean) {
            spv::Id r = b.createTriOp(spv::OpSelect, e.type(to, n), x.id, e.splat_constant(to, n, is_signed ? ~0ull : 1),
                e.splat_constant(to, n, 0));
            e.store_dst(dst, {r, to, n});
        } else {
            Kind uk = int_of(from, false);
            spv::Id t = e.type(uk, n);
            spv::Id low = b.createBinOp(spv::OpBitwiseAnd, t, e.as_kind(x, uk).id, e.splat_constant(uk, n, 1));
            store_condition(e, dst, b.createBinOp(spv::OpINotEqual, e.type(Kind::boolean, n), low, e.splat_constant(uk, n, 0)), n);
        }
        return;
    }
    Kind source = int_kind(bit_width(from), is_signed), result = int_kind(bit_width(to), is_signed);
    x = e.as_kind(x, source);
    if (source != result)
        x = {b.createUnaryOp(is_signed ? spv::OpSConvert : spv::OpUConvert, e.type(result, n), x.id), result, n};
    e.store_dst(dst, e.as_kind(x, to));
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

/// pack64: a 64-bit value (the destination's kind) from u32 low and high
/// words (OpBitcast of a uvec2, low word first).
void emit_pack64(Emitter& e, const Instruction& ins)
{
    const DstParam& dst = dst0(e, ins);
    Kind to = dst_kind(e, dst);
    if (bit_width(to) != 64) {
        e.error(Code::spirv_invalid_operand, "destination is not 64-bit");
        return;
    }
    Value lo = load_for(e, src(e, ins, 0), dst, Kind::u32);
    Value hi = load_for(e, src(e, ins, 1), dst, Kind::u32);
    spv::Id parts[4];
    uint8_t n = std::min(lo.count, hi.count);
    for (uint32_t i = 0; i < n; ++i) {
        spv::Id pair = e.b_.createCompositeConstruct(e.type(Kind::u32, 2), {e.extract(lo, i), e.extract(hi, i)});
        parts[i] = e.bitcast(pair, e.type(to));
    }
    e.store_dst(dst, {e.construct(to, parts, n), to, n});
}

/// unpack64: dst0 the low, dst1 the high u32 word of a 64-bit value.
void emit_unpack64(Emitter& e, const Instruction& ins)
{
    Kind from = src_kind(e, src(e, ins, 0));
    if (bit_width(from) != 64) {
        e.error(Code::spirv_invalid_operand, "source is not 64-bit");
        return;
    }
    emit_two_results(e, ins, [&](uint32_t d, const DstParam& dst) {
        Value x = load_for(e, src(e, ins, 0), dst, from);
        spv::Id parts[4];
        for (uint32_t i = 0; i < x.count; ++i) {
            spv::Id pair = e.bitcast(e.extract(x, i), e.type(Kind::u32, 2));
            parts[i] = e.b_.createCompositeExtract(pair, e.type(Kind::u32), d);
        }
        return e.as_kind({e.construct(Kind::u32, parts, x.count), Kind::u32, x.count}, dst_kind(e, dst));
    });
}

} // namespace

bool Emitter::emit_conversion(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    Emitter& e = *this;
    switch (ins.opcode) {
    case Opcode::ftoi:
    case Opcode::dtoi: emit_float_to_int(e, ins, true); break;
    case Opcode::ftou:
    case Opcode::dtou: emit_float_to_int(e, ins, false); break;
    case Opcode::itof:
    case Opcode::itod: emit_int_to_float(e, ins, true); break;
    case Opcode::utof:
    case Opcode::utod: emit_int_to_float(e, ins, false); break;
    case Opcode::ftod:
    case Opcode::dtof:
    case Opcode::ftof: emit_float_to_float(e, ins); break;
    case Opcode::itoi: emit_int_resize(e, ins, true); break;
    case Opcode::utou: emit_int_resize(e, ins, false); break;
    case Opcode::f32tof16: emit_half(e, ins, true); break;
    case Opcode::f16tof32: emit_half(e, ins, false); break;
    case Opcode::pack64: emit_pack64(e, ins); break;
    case Opcode::unpack64: emit_unpack64(e, ins); break;
    default: return false;
    }
    return true;
}

} // namespace dxspv::spirv

// Helpers shared by the files that emit one VSIR instruction per call
// (arithmetic.cpp, conversions.cpp, wave.cpp): operand loads for a
// destination, two-destination opcodes, condition results.
#pragma once

#include "spirv/emitter.h"

namespace dxspv::spirv::alu {

using vsir::DstParam;
using vsir::Instruction;
using vsir::SrcParam;

/// Loads `src` for the components `dst` writes, as `kind`.
inline Value load_for(Emitter& e, const SrcParam& src, const DstParam& dst, Kind kind)
{
    return e.as_kind(e.load_for_dst(src, dst), kind);
}

/// Loads an integer operand of an operation that leaves its operands'
/// signedness free (SPIR-V's OpIAdd, OpSNegate, bitwise operations, shifts
/// and integer comparisons: the opcode or the result type decides it): as
/// `kind`, or as it is held when that is the other integer kind of the same
/// width (no bitcast). Immediates are made in `kind`, like other constants.
inline Value load_int_for(Emitter& e, const SrcParam& src, const DstParam& dst, Kind kind)
{
    Value v = e.load_for_dst(src, dst, true);
    const bool immediate =
        src.reg.file == vsir::RegisterFile::immediate || src.reg.file == vsir::RegisterFile::immediate64;
    return !immediate && is_int(v.kind) && bit_width(v.kind) == bit_width(kind) ? v : e.as_kind(v, kind);
}

inline const DstParam& dst0(Emitter& e, const Instruction& ins) { return e.prog_.dst(ins, 0); }
inline const SrcParam& src(Emitter& e, const Instruction& ins, uint32_t i) { return e.prog_.src(ins, i); }
inline Kind dst_kind(Emitter& e, const DstParam& dst) { return e.kind_or_u32(dst.reg.type); }
inline Kind src_kind(Emitter& e, const SrcParam& src) { return e.kind_or_u32(src.reg.type); }

inline bool skipped(const DstParam& dst)
{
    return dst.reg.file == vsir::RegisterFile::null || !(dst.write_mask & 0xf);
}

/// Runs `compute(dst index, dst)` for each written destination of a
/// two-destination opcode, then stores the results (so a destination may
/// alias a source).
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

/// Stores a bool (vector) result: as is into a boolean destination, as the
/// 0 / 0xffffffff mask into any other.
inline void store_condition(Emitter& e, const DstParam& dst, spv::Id condition, uint8_t count)
{
    if (dst_kind(e, dst) == Kind::boolean)
        e.store_dst(dst, {condition, Kind::boolean, count});
    else
        e.store_dst(dst, {e.select_mask(condition, count), Kind::u32, count});
}

} // namespace dxspv::spirv::alu

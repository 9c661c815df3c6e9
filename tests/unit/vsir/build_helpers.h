// Small helpers for building VSIR programs in tests.
#pragma once

#include <bit>
#include <cstring>
#include <initializer_list>

#include "vsir/ir.h"

namespace dxspv::vsir::test {

inline constexpr uint8_t X = 1, Y = 2, Z = 4, W = 8, XYZW = 0xf;
inline constexpr uint8_t XXXX = make_swizzle(0, 0, 0, 0);

inline Register reg(RegisterFile file, DataType type, Dimension dim, std::initializer_list<uint32_t> indices)
{
    return make_register(file, type, dim, std::span<const uint32_t>(indices.begin(), indices.size()));
}

inline DstParam dst(Register r, uint8_t mask)
{
    DstParam d;
    d.reg = r;
    d.write_mask = mask;
    return d;
}

inline SrcParam src(Register r, uint8_t swizzle = swizzle_identity, SrcModifier modifier = SrcModifier::none)
{
    SrcParam s;
    s.reg = r;
    s.swizzle = swizzle;
    s.modifier = modifier;
    return s;
}

inline Register temp(uint32_t n, DataType type = DataType::f32)
{
    return reg(RegisterFile::temp, type, Dimension::vec4, {n});
}
inline Register ssa(uint32_t n, DataType type = DataType::u32)
{
    return reg(RegisterFile::ssa, type, Dimension::scalar, {n});
}
inline SrcParam label(uint32_t n) { return src(reg(RegisterFile::label, DataType::opaque, Dimension::none, {n})); }
inline SrcParam imm_u(uint32_t v) { return src(make_immediate(DataType::u32, v)); }
inline SrcParam imm_i(int32_t v) { return src(make_immediate(DataType::i32, uint32_t(v))); }
inline SrcParam imm_f(float f) { return src(make_immediate(DataType::f32, std::bit_cast<uint32_t>(f))); }

/// Appends an instruction with the given operands; returns its index.
inline uint32_t add(Program& p, Opcode op, std::initializer_list<DstParam> dsts = {},
                    std::initializer_list<SrcParam> srcs = {}, uint32_t flags = 0)
{
    uint32_t i = p.add_instruction(op, uint32_t(dsts.size()), uint32_t(srcs.size()));
    Instruction& ins = p.instructions[i];
    ins.flags = flags;
    uint32_t k = 0;
    for (const DstParam& d : dsts)
        p.dsts[ins.dst_first + k++] = d;
    k = 0;
    for (const SrcParam& s : srcs)
        p.srcs[ins.src_first + k++] = s;
    return i;
}

/// Appends a declaration instruction (with an optional register) and
/// returns its payload.
inline Declaration& add_decl(Program& p, Opcode op, std::initializer_list<DstParam> dsts = {})
{
    return p.add_declaration(add(p, op, dsts));
}

inline Program make_program(ShaderStage stage, uint8_t major = 5, uint8_t minor = 0,
                            ControlFlow cf = ControlFlow::structured)
{
    Program p;
    p.model = {stage, major, minor};
    p.control_flow = cf;
    return p;
}

} // namespace dxspv::vsir::test

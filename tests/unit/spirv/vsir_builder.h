// Builds VSIR programs in code for the emitter tests, following VSIR.md's
// conventions the way a front end would (typed operands, SM5.1 descriptor
// indices, scalar immediates with .xxxx swizzles).
#pragma once

#include <cstring>
#include <initializer_list>
#include <span>
#include <vector>

#include "vsir/ir.h"

namespace spirv_test {

using namespace dxspv::vsir;

inline Register mk(RegisterFile file, DataType type, Dimension dim, std::initializer_list<uint32_t> idx = {})
{
    return make_register(file, type, dim, std::span<const uint32_t>(idx.begin(), idx.size()));
}

/// "xyz" → write mask 0x7.
inline uint8_t mask(const char* m)
{
    uint8_t r = 0;
    for (; *m; ++m)
        r |= uint8_t(1u << (std::strchr("xyzw", *m) - "xyzw"));
    return r;
}

/// "xy" → .xyyy (the last component repeats, as in d3d-asm).
inline uint8_t swz(const char* s)
{
    unsigned c[4];
    size_t n = std::strlen(s);
    for (size_t i = 0; i < 4; ++i)
        c[i] = unsigned(std::strchr("xyzw", s[i < n ? i : n - 1]) - "xyzw");
    return make_swizzle(c[0], c[1], c[2], c[3]);
}

inline DstParam dst(Register reg, const char* m = "xyzw", uint8_t modifiers = 0)
{
    DstParam d;
    d.reg = reg;
    d.write_mask = mask(m);
    d.modifiers = modifiers;
    return d;
}

inline SrcParam src(Register reg, const char* s = "xyzw", SrcModifier modifier = SrcModifier::none)
{
    SrcParam p;
    p.reg = reg;
    p.swizzle = swz(s);
    p.modifier = modifier;
    return p;
}

inline Register temp(uint32_t i, DataType type) { return mk(RegisterFile::temp, type, Dimension::vec4, {i}); }
inline DstParam r(uint32_t i, const char* m, DataType type = DataType::u32, uint8_t modifiers = 0)
{
    return dst(temp(i, type), m, modifiers);
}
inline SrcParam rs(uint32_t i, const char* s, DataType type = DataType::u32, SrcModifier mod = SrcModifier::none)
{
    return src(temp(i, type), s, mod);
}
inline SrcParam lu(uint32_t v) { return src(make_immediate(DataType::u32, v), "x"); }
inline SrcParam li(int32_t v) { return src(make_immediate(DataType::i32, uint32_t(v)), "x"); }
inline SrcParam lf(float v)
{
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return src(make_immediate(DataType::f32, bits), "x");
}
inline SrcParam lu4(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    return src(make_immediate_vec4(DataType::u32, x, y, z, w));
}
inline SrcParam ld64(double x, double y)
{
    Register reg;
    reg.file = RegisterFile::immediate64;
    reg.type = DataType::f64;
    reg.dimension = Dimension::vec4;
    std::memcpy(&reg.u64[0], &x, 8);
    std::memcpy(&reg.u64[1], &y, 8);
    return src(reg);
}
inline SrcParam sysval(RegisterFile file, const char* s, DataType type = DataType::u32)
{
    Dimension dim = file == RegisterFile::local_thread_index ? Dimension::scalar : Dimension::vec4;
    return src(mk(file, type, dim), s);
}
inline SrcParam tid(const char* s, DataType type = DataType::u32) { return sysval(RegisterFile::thread_id, s, type); }
inline Register uav(uint32_t i) { return mk(RegisterFile::uav, DataType::opaque, Dimension::none, {i, i}); }
inline Register srv(uint32_t i) { return mk(RegisterFile::resource, DataType::opaque, Dimension::none, {i, i}); }
inline Register tgsm(uint32_t i) { return mk(RegisterFile::groupshared, DataType::opaque, Dimension::none, {i}); }
inline SrcParam cb(uint32_t range, uint32_t element, const char* s, DataType type = DataType::f32)
{
    return src(mk(RegisterFile::constant_buffer, type, Dimension::vec4, {range, range, element}), s);
}
inline DstParam null_dst(DataType type = DataType::u32)
{
    return dst(mk(RegisterFile::null, type, Dimension::vec4), "x");
}

/// SSA values (VSIR.md "DXIL conventions"): `sr#` scalars (mask x, swizzle
/// .xxxx), or vec4 registers with a write mask / swizzle.
inline Register ssa_reg(uint32_t id, DataType type, bool vec4 = false)
{
    return mk(RegisterFile::ssa, type, vec4 ? Dimension::vec4 : Dimension::scalar, {id});
}
inline DstParam sd(uint32_t id, DataType type) { return dst(ssa_reg(id, type), "x"); }
inline DstParam sd4(uint32_t id, DataType type, const char* m = "xyzw") { return dst(ssa_reg(id, type, true), m); }
inline SrcParam ss(uint32_t id, DataType type, SrcModifier modifier = SrcModifier::none)
{
    return src(ssa_reg(id, type), "x", modifier);
}
inline SrcParam ss4(uint32_t id, DataType type, const char* s) { return src(ssa_reg(id, type, true), s); }
/// A scalar immediate of any type from its bits: 64-bit types in a `d()`
/// register, the others (16-bit values in the low bits) in an `l()`.
inline SrcParam imm(DataType type, uint64_t bits)
{
    Register reg;
    bool wide = type == DataType::f64 || type == DataType::i64 || type == DataType::u64;
    reg.file = wide ? RegisterFile::immediate64 : RegisterFile::immediate;
    reg.type = type;
    reg.dimension = Dimension::scalar;
    if (wide)
        reg.u64[0] = reg.u64[1] = bits;
    else
        reg.u32[0] = reg.u32[1] = reg.u32[2] = reg.u32[3] = uint32_t(bits);
    return src(reg, "x");
}
inline SrcParam lb(bool v) { return imm(DataType::boolean, v ? 1 : 0); }

/// A copy of `from`'s instructions, operands and counts (Program owns an
/// arena and is not copyable).
inline Program copy_program(const Program& from)
{
    Program p;
    p.model = from.model;
    p.control_flow = from.control_flow;
    p.instructions = from.instructions;
    p.dsts = from.dsts;
    p.srcs = from.srcs;
    p.decls = from.decls;
    p.u32_pool = from.u32_pool;
    p.temp_count = from.temp_count;
    p.ssa_count = from.ssa_count;
    p.label_count = from.label_count;
    return p;
}

struct VsirBuilder {
    Program p;

    explicit VsirBuilder(dxspv::ShaderStage stage = dxspv::ShaderStage::compute)
    {
        p.model.stage = stage;
        p.model.major = 5;
        p.model.minor = 0;
    }

    uint32_t op(Opcode opcode, std::initializer_list<DstParam> dsts, std::initializer_list<SrcParam> srcs,
        uint32_t flags = 0)
    {
        uint32_t i = p.add_instruction(opcode, uint32_t(dsts.size()), uint32_t(srcs.size()),
            uint32_t(p.instructions.size()) + 1);
        Instruction& ins = p.instructions[i];
        ins.flags = flags;
        uint32_t k = 0;
        for (const DstParam& d : dsts) {
            p.dsts[ins.dst_first + k++] = d;
            if (d.reg.file == RegisterFile::ssa && d.reg.idx[0].offset >= p.ssa_count)
                p.ssa_count = d.reg.idx[0].offset + 1; // as a front end counts its values
        }
        k = 0;
        for (const SrcParam& s : srcs)
            p.srcs[ins.src_first + k++] = s;
        return i;
    }

    /// A declaration; `reg` (if given) is its dst 0.
    Declaration& decl(Opcode opcode, const Register* reg = nullptr, uint8_t write_mask = 0)
    {
        uint32_t i = p.add_instruction(opcode, reg ? 1 : 0, 0, uint32_t(p.instructions.size()) + 1);
        if (reg) {
            p.dsts[p.instructions[i].dst_first].reg = *reg;
            p.dsts[p.instructions[i].dst_first].write_mask = write_mask;
        }
        return p.add_declaration(i);
    }

    /// Descriptor declaration (SM5.0 form: range id = register, space 0).
    Declaration& dcl_descriptor(Opcode opcode, RegisterFile file, uint32_t reg)
    {
        Register r = mk(file, DataType::none, Dimension::none, {reg});
        Declaration& d = decl(opcode, &r);
        d.range_first = d.range_last = reg;
        return d;
    }

    void dcl_thread_group(uint32_t x, uint32_t y, uint32_t z)
    {
        Declaration& d = decl(Opcode::dcl_thread_group);
        d.thread_group[0] = x;
        d.thread_group[1] = y;
        d.thread_group[2] = z;
    }
    void dcl_temps(uint32_t n)
    {
        decl(Opcode::dcl_temps).count = n;
        if (p.temp_count < n)
            p.temp_count = n;
    }
    void dcl_uav_raw(uint32_t u) { dcl_descriptor(Opcode::dcl_uav_raw, RegisterFile::uav, u); }
    void dcl_uav_structured(uint32_t u, uint32_t stride)
    {
        dcl_descriptor(Opcode::dcl_uav_structured, RegisterFile::uav, u).structure_stride = stride;
    }
    void dcl_resource_raw(uint32_t t) { dcl_descriptor(Opcode::dcl_resource_raw, RegisterFile::resource, t); }
    void dcl_resource_structured(uint32_t t, uint32_t stride)
    {
        dcl_descriptor(Opcode::dcl_resource_structured, RegisterFile::resource, t).structure_stride = stride;
    }
    void dcl_constant_buffer(uint32_t cb, uint32_t vec4s)
    {
        dcl_descriptor(Opcode::dcl_constant_buffer, RegisterFile::constant_buffer, cb).count = vec4s;
    }
    void dcl_tgsm_raw(uint32_t g, uint32_t bytes)
    {
        Register reg = tgsm(g);
        decl(Opcode::dcl_tgsm_raw, &reg).byte_count = bytes;
    }
    void dcl_tgsm_structured(uint32_t g, uint32_t stride, uint32_t count)
    {
        Register reg = tgsm(g);
        Declaration& d = decl(Opcode::dcl_tgsm_structured, &reg);
        d.structure_stride = stride;
        d.count = count;
    }
    void dcl_indexable_temp(uint32_t x, uint32_t count)
    {
        Declaration& d = decl(Opcode::dcl_indexable_temp);
        d.index = x;
        d.count = count;
        d.component_count = 4;
    }
    void dcl_immediate_constant_buffer(std::initializer_list<uint32_t> words)
    {
        Declaration& d = decl(Opcode::dcl_immediate_constant_buffer);
        d.data_first = uint32_t(p.u32_pool.size());
        d.data_count = uint32_t(words.size());
        d.count = uint32_t(words.size() / 4);
        p.u32_pool.insert(p.u32_pool.end(), words);
    }
    void dcl_input(RegisterFile file, const char* m)
    {
        Dimension dim = file == RegisterFile::local_thread_index ? Dimension::scalar : Dimension::vec4;
        Register reg = mk(file, DataType::none, dim);
        decl(Opcode::dcl_input, &reg, mask(m));
    }

    /// Condition-testing control flow (if/breakc/continuec/retc) on `cond`.
    uint32_t test(Opcode opcode, SrcParam cond, bool nonzero = true)
    {
        return op(opcode, {}, {cond}, nonzero ? uint32_t(flag_test_nonzero) : 0u);
    }
};

} // namespace spirv_test

#include "vsir/ir.h"

namespace dxspv::vsir {

static constexpr OpcodeKind kind_of(char k)
{
    switch (k) {
    case 'D': return OpcodeKind::declaration;
    case 'A': return OpcodeKind::arithmetic;
    case 'R': return OpcodeKind::resource;
    case 'C': return OpcodeKind::structured_cf;
    case 'U': return OpcodeKind::unstructured_cf;
    case 'P': return OpcodeKind::phase;
    default: return OpcodeKind::other;
    }
}

extern const OpcodeInfo opcode_table[size_t(Opcode::count) + 1] = {
#define VSIR_OP(name, text, ndst, nsrc, kind) {text, ndst, nsrc, kind_of(#kind[0])},
#include "vsir/opcodes.def"
#undef VSIR_OP
    {"<invalid>", 0, 0, OpcodeKind::other},
};

const char* register_prefix(RegisterFile file)
{
    static constexpr const char* prefixes[] = {
#define VSIR_REG(name, prefix) prefix,
#include "vsir/registers.def"
#undef VSIR_REG
    };
    return size_t(file) < size_t(RegisterFile::count) ? prefixes[size_t(file)] : "<invalid>";
}

const char* data_type_name(DataType type)
{
    switch (type) {
    case DataType::none: return "none";
    case DataType::f16: return "f16";
    case DataType::f32: return "f32";
    case DataType::f64: return "f64";
    case DataType::i16: return "i16";
    case DataType::u16: return "u16";
    case DataType::i32: return "i32";
    case DataType::u32: return "u32";
    case DataType::i64: return "i64";
    case DataType::u64: return "u64";
    case DataType::u8: return "u8";
    case DataType::boolean: return "bool";
    case DataType::unorm: return "unorm";
    case DataType::snorm: return "snorm";
    case DataType::mixed: return "mixed";
    case DataType::continued: return "continued";
    case DataType::opaque: return "opaque";
    }
    return "<invalid>";
}

const char* resource_dimension_name(ResourceDimension dim)
{
    switch (dim) {
    case ResourceDimension::unknown: return "unknown";
    case ResourceDimension::buffer: return "buffer";
    case ResourceDimension::texture_1d: return "texture1d";
    case ResourceDimension::texture_2d: return "texture2d";
    case ResourceDimension::texture_2dms: return "texture2dms";
    case ResourceDimension::texture_3d: return "texture3d";
    case ResourceDimension::texture_cube: return "texturecube";
    case ResourceDimension::texture_1d_array: return "texture1darray";
    case ResourceDimension::texture_2d_array: return "texture2darray";
    case ResourceDimension::texture_2dms_array: return "texture2dmsarray";
    case ResourceDimension::texture_cube_array: return "texturecubearray";
    case ResourceDimension::raw_buffer: return "raw_buffer";
    case ResourceDimension::structured_buffer: return "structured_buffer";
    }
    return "<invalid>";
}

namespace {

/// Appends `count` default parameters: resize's generic path (an out-of-line
/// call, a loop that copies the first element) costs more than the one to
/// three parameters of most instructions.
template <typename Param>
void append_default(std::vector<Param>& pool, uint32_t count)
{
    for (uint32_t i = 0; i < count; ++i)
        pool.emplace_back();
}

} // namespace

uint32_t Program::add_instruction(Opcode op, uint32_t dst_count, uint32_t src_count, uint32_t location)
{
    Instruction& ins = instructions.emplace_back();
    ins.opcode = op;
    ins.dst_count = uint8_t(dst_count);
    ins.src_count = uint16_t(src_count); // callers keep to max_src_count
    ins.dst_first = uint32_t(dsts.size());
    ins.src_first = uint32_t(srcs.size());
    ins.location = location;
    append_default(dsts, dst_count);
    append_default(srcs, src_count);
    return uint32_t(instructions.size() - 1);
}

uint32_t Program::add_instruction(Opcode op, std::span<const DstParam> dst, std::span<const SrcParam> src,
                                  uint32_t location)
{
    Instruction& ins = instructions.emplace_back();
    ins.opcode = op;
    ins.dst_count = uint8_t(dst.size());
    ins.src_count = uint16_t(src.size()); // callers keep to max_src_count
    ins.dst_first = uint32_t(dsts.size());
    ins.src_first = uint32_t(srcs.size());
    ins.location = location;
    for (const DstParam& param : dst) // (insert's generic path costs more for the usual one or two)
        dsts.push_back(param);
    for (const SrcParam& param : src)
        srcs.push_back(param);
    return uint32_t(instructions.size() - 1);
}

Declaration& Program::add_declaration(uint32_t inst)
{
    instructions[inst].decl = uint32_t(decls.size());
    return decls.emplace_back();
}

void Program::add_declaration(uint32_t inst, const Declaration& decl)
{
    instructions[inst].decl = uint32_t(decls.size());
    decls.push_back(decl);
}

uint32_t Program::add_src(const SrcParam& src)
{
    srcs.push_back(src);
    return uint32_t(srcs.size() - 1);
}

Register make_register(RegisterFile file, DataType type, Dimension dim, std::span<const uint32_t> indices)
{
    Register r;
    r.file = file;
    r.type = type;
    r.dimension = dim;
    r.index_count = uint8_t(indices.size() > 3 ? 3 : indices.size());
    for (size_t i = 0; i < r.index_count; ++i)
        r.idx[i].offset = indices[i];
    return r;
}

Register make_immediate(DataType type, uint32_t value)
{
    Register r;
    r.file = RegisterFile::immediate;
    r.type = type;
    r.dimension = Dimension::scalar;
    r.u32[0] = r.u32[1] = r.u32[2] = r.u32[3] = value;
    return r;
}

Register make_immediate_vec4(DataType type, uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    Register r;
    r.file = RegisterFile::immediate;
    r.type = type;
    r.dimension = Dimension::vec4;
    r.u32[0] = x;
    r.u32[1] = y;
    r.u32[2] = z;
    r.u32[3] = w;
    return r;
}

} // namespace dxspv::vsir

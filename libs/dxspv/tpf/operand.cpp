#include "tpf/operand.h"

#include "tpf/tokens.h"

#include <array>

namespace dxspv::tpf {

namespace {

using vsir::DataType;
using vsir::Dimension;
using vsir::RegisterFile;

/// Relative addresses may themselves be relatively addressed; real shaders
/// use at most two levels (cb0[x0[r0.x].x]).
constexpr unsigned max_relative_depth = 4;

constexpr uint8_t idx0 = 1u << 0, idx1 = 1u << 1, idx2 = 1u << 2, idx3 = 1u << 3;

enum class Shape : uint8_t {
    vec4,   ///< per-component register (dimension from VSIR.md convention 2)
    scalar, ///< always one component
    opaque, ///< resource-like: dimension none, type opaque
    token,  ///< immediates and null: shape from the operand token
    refused,///< class linkage
};

struct FileInfo {
    RegisterFile file;
    Shape shape;
    uint8_t index_counts; ///< bit n: n indices allowed
};

/// Indexed by OperandType.
constexpr FileInfo file_table[operand_type_count] = {
    {RegisterFile::temp, Shape::vec4, idx1},
    {RegisterFile::input, Shape::vec4, idx1 | idx2},
    {RegisterFile::output, Shape::vec4, idx1},
    {RegisterFile::indexable_temp, Shape::vec4, idx2},
    {RegisterFile::immediate, Shape::token, idx0},
    {RegisterFile::immediate64, Shape::token, idx0},
    {RegisterFile::sampler, Shape::opaque, idx1 | idx2 | idx3},
    {RegisterFile::resource, Shape::opaque, idx1 | idx2 | idx3},
    {RegisterFile::constant_buffer, Shape::vec4, idx2 | idx3},
    {RegisterFile::immediate_constant_buffer, Shape::vec4, idx1},
    {RegisterFile::label, Shape::opaque, idx1},
    {RegisterFile::primitive_id, Shape::scalar, idx0},
    {RegisterFile::depth_out, Shape::scalar, idx0},
    {RegisterFile::null, Shape::token, idx0},
    {RegisterFile::rasterizer, Shape::opaque, idx0},
    {RegisterFile::coverage_out, Shape::scalar, idx0},
    {RegisterFile::stream, Shape::opaque, idx1},
    {RegisterFile::function_body, Shape::refused, 0},
    {RegisterFile::function_pointer, Shape::refused, 0},
    {RegisterFile::function_pointer, Shape::refused, 0},
    {RegisterFile::null, Shape::refused, 0},
    {RegisterFile::null, Shape::refused, 0},
    {RegisterFile::output_control_point_id, Shape::scalar, idx0},
    {RegisterFile::fork_instance_id, Shape::scalar, idx0},
    {RegisterFile::join_instance_id, Shape::scalar, idx0},
    {RegisterFile::input_control_point, Shape::vec4, idx2},
    {RegisterFile::output_control_point, Shape::vec4, idx2},
    {RegisterFile::patch_constant, Shape::vec4, idx1},
    {RegisterFile::tess_coord, Shape::vec4, idx0},
    {RegisterFile::this_pointer, Shape::refused, 0},
    {RegisterFile::uav, Shape::opaque, idx1 | idx2 | idx3},
    {RegisterFile::groupshared, Shape::opaque, idx1},
    {RegisterFile::thread_id, Shape::vec4, idx0},
    {RegisterFile::thread_group_id, Shape::vec4, idx0},
    {RegisterFile::local_thread_id, Shape::vec4, idx0},
    {RegisterFile::coverage_in, Shape::scalar, idx0},
    {RegisterFile::local_thread_index, Shape::scalar, idx0},
    {RegisterFile::gs_instance_id, Shape::scalar, idx0},
    {RegisterFile::depth_out_ge, Shape::scalar, idx0},
    {RegisterFile::depth_out_le, Shape::scalar, idx0},
    {RegisterFile::cycle_counter, Shape::vec4, idx0},
    {RegisterFile::stencil_ref, Shape::scalar, idx0},
    {RegisterFile::inner_coverage, Shape::scalar, idx0},
};

constexpr const char* operand_type_names[operand_type_count] = {
    "r", "v", "o", "x", "l", "d", "s", "t", "cb", "icb", "label", "vPrim", "oDepth", "null",
    "rasterizer", "oMask", "m", "fb", "ft", "fp", "function input", "function output",
    "vOutputControlPointID", "vForkInstanceID", "vJoinInstanceID", "vicp", "vocp", "vpc",
    "vDomain", "this", "u", "g", "vThreadID", "vThreadGroupID", "vThreadIDInGroup", "vCoverage",
    "vThreadIDInGroupFlattened", "vGSInstanceID", "oDepthGE", "oDepthLE", "vCycleCounter",
    "oStencilRef", "vInnerCoverage",
};

/// Swizzle reading the components of `mask` in order, repeating the last.
constexpr uint8_t swizzle_from_mask(uint8_t mask)
{
    if (!mask)
        return vsir::swizzle_identity;
    unsigned comps[4] = {};
    unsigned n = 0;
    for (unsigned c = 0; c < 4; ++c)
        if (mask & (1u << c))
            comps[n++] = c;
    while (n < 4) {
        comps[n] = comps[n - 1];
        ++n;
    }
    return vsir::make_swizzle(comps[0], comps[1], comps[2], comps[3]);
}

constexpr uint8_t mask_from_swizzle(uint8_t swizzle)
{
    uint8_t mask = 0;
    for (unsigned i = 0; i < 4; ++i)
        mask |= uint8_t(1u << vsir::swizzle_component(swizzle, i));
    return mask;
}

/// The two above for every mask and swizzle (operand token bits [11:04]).
constexpr auto mask_swizzles = [] {
    std::array<uint8_t, 16> t{};
    for (unsigned m = 0; m < 16; ++m)
        t[m] = swizzle_from_mask(uint8_t(m));
    return t;
}();
constexpr auto swizzle_masks = [] {
    std::array<uint8_t, 256> t{};
    for (unsigned s = 0; s < 256; ++s)
        t[s] = mask_from_swizzle(uint8_t(s));
    return t;
}();

/// The register files a decoded operand is rewritten for (VSIR.md convention 3).
constexpr bool is_descriptor_file(RegisterFile file)
{
    return file == RegisterFile::resource || file == RegisterFile::uav || file == RegisterFile::sampler ||
           file == RegisterFile::constant_buffer;
}

class OperandDecoder {
public:
    OperandDecoder(Context& ctx, Cursor& cur) : ctx_(ctx), cur_(cur) {}

    /// Inlined into read_src, read_dst, read_operand and read_other_index:
    /// no call and wrapper frame per operand, and the constant form and
    /// depth of the first three fold.
    [[gnu::always_inline]] bool decode(DataType type, DescriptorForm form, unsigned depth, Operand& out);

private:
    bool next(uint32_t& value, const char* what)
    {
        if (cur_.next(value))
            return true;
        return report_truncated(ctx_, cur_, what);
    }
    /// Inlined into decode (GCC keeps it out of line once decode is inlined
    /// four times: a call per operand for a few table lookups).
    [[gnu::always_inline]] bool read_selection(uint32_t token, Operand& out);
    bool read_extended(uint32_t token, Operand& out);
    bool read_immediate(Operand& out);
    bool read_index(unsigned repr, unsigned depth, vsir::RegisterIndex& out, uint8_t& flags, unsigned i);
    /// read_index past the usual immediate: out of line, so that the
    /// decoder's frame does not carry the relative address's operand.
    [[gnu::noinline]] bool read_other_index(unsigned repr, unsigned depth, vsir::RegisterIndex& out, uint8_t& flags,
                                            unsigned i);
    bool normalise_descriptor(Operand& out);

    Context& ctx_;
    Cursor& cur_;
    uint32_t token_ = 0; ///< index of the operand token (for diagnostics)
};

bool OperandDecoder::read_extended(uint32_t token, Operand& out)
{
    while (token & extended_bit) {
        if (!next(token, "extended operand token"))
            return false;
        switch (bits(token, 0, 6)) {
        case ext_operand_empty: break;
        case ext_operand_modifier: {
            if (bits(token, 6, 25) == 0)
                out.token_flags |= vsir::token_empty_modifier;
            uint32_t modifier = bits(token, 6, 8);
            if (modifier > 3)
                return ctx_.fail(Code::tpf_bad_modifier, token_, "unknown operand modifier %u", modifier);
            out.modifier = vsir::SrcModifier(modifier); // none, neg, abs, abs_neg in TPF order
            uint32_t precision = bits(token, 14, 3);
            if (precision == 3 || precision > 5)
                return ctx_.fail(Code::tpf_bad_modifier, token_, "unknown minimum precision %u", precision);
            out.reg.precision = MinPrecision(precision);
            if (token & (1u << 17))
                out.reg.flags |= vsir::register_non_uniform;
            break;
        }
        default:
            return ctx_.fail(Code::tpf_unknown_extended_token, token_, "unknown extended operand type %u",
                             bits(token, 0, 6));
        }
    }
    return true;
}

bool OperandDecoder::read_immediate(Operand& out)
{
    if (out.components != components_1 && out.components != components_4)
        return ctx_.fail(Code::tpf_bad_components, token_, "immediate operand with %u components", out.components);
    bool scalar = out.components == components_1;
    uint32_t words = out.reg.file == RegisterFile::immediate64 ? (scalar ? 2 : 4) : (scalar ? 1 : 4);
    if (cur_.remaining() < words) // (checked once, not per word)
        return report_truncated(ctx_, cur_, "immediate value");
    uint32_t values[4] = {};
    for (uint32_t i = 0; i < words; ++i)
        values[i] = load_le32(cur_.bytes + size_t(cur_.pos + i) * 4);
    cur_.pos += words;
    if (scalar && words == 1)
        values[1] = values[2] = values[3] = values[0];
    else if (scalar)
        values[2] = values[0], values[3] = values[1];
    // 64-bit immediates: low word first (little-endian u64 pairs).
    for (unsigned i = 0; i < 4; ++i)
        out.reg.u32[i] = values[i];
    out.reg.dimension = scalar ? Dimension::scalar : Dimension::vec4;
    out.swizzle = scalar ? vsir::make_swizzle(0, 0, 0, 0) : vsir::swizzle_identity;
    return true;
}

bool OperandDecoder::read_index(unsigned repr, unsigned depth, vsir::RegisterIndex& out, uint8_t& flags, unsigned i)
{
    if (repr == index_imm32) // the usual one
        return next(out.offset, "register index");
    return read_other_index(repr, depth, out, flags, i);
}

bool OperandDecoder::read_other_index(unsigned repr, unsigned depth, vsir::RegisterIndex& out, uint8_t& flags,
                                      unsigned i)
{
    bool has_imm = repr != index_relative;
    bool has_rel = repr == index_relative || repr == index_imm32_relative || repr == index_imm64_relative;
    if (repr > index_imm64_relative)
        return ctx_.fail(Code::tpf_bad_index_representation, token_, "unknown index representation %u", repr);
    if (has_imm) {
        uint32_t lo = 0;
        if (repr == index_imm64 || repr == index_imm64_relative) {
            uint32_t hi = 0;
            if (!next(hi, "register index") || !next(lo, "register index"))
                return false;
            if (hi)
                return ctx_.fail(Code::tpf_index_out_of_range, token_, "64-bit register index 0x%x%08x", hi, lo);
        } else if (!next(lo, "register index")) {
            return false;
        }
        out.offset = lo;
        if (repr == index_imm64 || repr == index_imm64_relative)
            flags |= uint8_t(vsir::token_index0_imm64 << i);
        if (repr != index_imm32 && repr != index_imm64 && lo == 0)
            flags |= uint8_t(vsir::token_index0_imm_relative << i);
    }
    if (has_rel) {
        if (depth + 1 >= max_relative_depth)
            return ctx_.fail(Code::tpf_relative_address_too_deep, token_, "relative addresses nested %u deep",
                             depth + 1);
        Operand rel;
        if (!OperandDecoder(ctx_, cur_).decode(DataType::u32, DescriptorForm::instruction, depth + 1, rel))
            return false;
        if (rel.reg.file == RegisterFile::immediate64 || rel.reg.dimension == Dimension::none)
            return ctx_.fail(Code::tpf_bad_operand, token_, "%s cannot be a relative address",
                             operand_type_names[rel.tpf_type]);
        out.rel_addr = ctx_.program->add_src(src_param(rel));
    }
    return true;
}

/// VSIR.md convention 3: t/u/s carry (range id, register), cb (range id,
/// register, element); before SM5.1 the range id is the register number.
bool OperandDecoder::normalise_descriptor(Operand& out)
{
    vsir::Register& reg = out.reg;
    bool cb = reg.file == RegisterFile::constant_buffer;
    uint8_t want = uint8_t((cb ? 2 : 1) + (ctx_.sm51 ? 1 : 0));
    if (reg.index_count != want)
        return ctx_.fail(Code::tpf_bad_index_count, token_, "%s operand with %u indices (%u expected)",
                         operand_type_names[out.tpf_type], reg.index_count, want);
    if (!ctx_.sm51) {
        if (cb)
            reg.idx[2] = reg.idx[1];
        reg.idx[1] = reg.idx[0];
        reg.idx[0].rel_addr = vsir::invalid_index;
        reg.index_count = uint8_t(want + 1);
    }
    return true;
}

/// Operand token bits [11:00]: the component count and selection.
inline bool OperandDecoder::read_selection(uint32_t token, Operand& out)
{
    out.components = uint8_t(bits(token, 0, 2));
    switch (out.components) {
    case components_0:
        out.form = vsir::OperandForm::none;
        out.swizzle = vsir::make_swizzle(0, 0, 0, 0);
        return true;
    case components_1:
        out.form = vsir::OperandForm::one;
        out.mask = 0x1;
        out.swizzle = vsir::make_swizzle(0, 0, 0, 0);
        return true;
    case components_4: break;
    default:
        return ctx_.fail(Code::tpf_bad_components, token_, "N-component operand (%s)",
                         operand_type_names[out.tpf_type]);
    }
    switch (bits(token, 2, 2)) {
    case select_mask:
        out.form = vsir::OperandForm::mask;
        out.mask = out.raw_mask = uint8_t(bits(token, 4, 4));
        out.swizzle = mask_swizzles[out.mask];
        return true;
    case select_swizzle:
        out.form = vsir::OperandForm::swizzle;
        out.swizzle = uint8_t(bits(token, 4, 8));
        out.mask = swizzle_masks[out.swizzle];
        return true;
    case select_one: {
        unsigned c = bits(token, 4, 2);
        out.form = vsir::OperandForm::select;
        out.swizzle = vsir::make_swizzle(c, c, c, c);
        out.mask = uint8_t(1u << c);
        return true;
    }
    default:
        return ctx_.fail(Code::tpf_bad_components, token_, "unknown component selection mode %u", bits(token, 2, 2));
    }
}

inline bool OperandDecoder::decode(DataType type, DescriptorForm form, unsigned depth, Operand& out)
{
    token_ = cur_.pos;
    uint32_t token = 0;
    if (!next(token, "operand"))
        return false;

    out = Operand{};
    out.tpf_type = uint8_t(bits(token, 12, 8));
    if (out.tpf_type >= operand_type_count)
        return ctx_.fail(Code::tpf_unknown_operand_type, token_, "unknown operand type %u", out.tpf_type);
    const FileInfo& info = file_table[out.tpf_type];
    if (info.shape == Shape::refused) {
        ctx_.refused = true;
        return ctx_.fail(Code::tpf_interfaces_unsupported, token_,
                         "interfaces and class linkage are not supported (operand %s)",
                         operand_type_names[out.tpf_type]);
    }
    if (!read_selection(token, out))
        return false;

    vsir::Register& reg = out.reg;
    reg.file = info.file;
    out.opaque = info.shape == Shape::opaque;
    reg.type = out.opaque ? DataType::opaque : type;
    uint32_t index_count = bits(token, 20, 2);
    if (!(info.index_counts & (1u << index_count)))
        return ctx_.fail(Code::tpf_bad_index_count, token_, "%s operand with %u indices",
                         operand_type_names[out.tpf_type], index_count);

    if ((token & extended_bit) && !read_extended(token, out))
        return false;

    reg.index_count = uint8_t(index_count);
    for (uint32_t i = 0; i < index_count; ++i)
        if (!read_index(bits(token, 22 + 3 * i, 3), depth, reg.idx[i], out.token_flags, i))
            return false;

    switch (info.shape) {
    case Shape::token:
        if (reg.file == RegisterFile::null)
            reg.dimension = out.components == components_4 ? Dimension::vec4
                            : out.components == components_1 ? Dimension::scalar : Dimension::none;
        else if (!read_immediate(out))
            return false;
        break;
    case Shape::scalar:
        reg.dimension = Dimension::scalar;
        out.mask = 0x1;
        out.swizzle = vsir::make_swizzle(0, 0, 0, 0);
        break;
    case Shape::vec4: reg.dimension = Dimension::vec4; break;
    case Shape::opaque: reg.dimension = Dimension::none; break;
    case Shape::refused: break;
    }
    if (form == DescriptorForm::instruction && is_descriptor_file(reg.file))
        return normalise_descriptor(out);
    return true;
}

} // namespace

bool report_truncated(const Context& ctx, const Cursor& cur, const char* what)
{
    return ctx.fail(Code::tpf_operand_past_end, cur.start, "%s runs past the end of the instruction (length %u)",
                    what, cur.end - cur.start);
}

bool is_opaque_file(vsir::RegisterFile file)
{
    // By register file: the shape of its first (not refused) operand type.
    static constexpr auto opaque = [] {
        std::array<uint8_t, size_t(RegisterFile::count)> t{}; // 0: unseen, 1: opaque, 2: not
        for (const FileInfo& info : file_table)
            if (info.shape != Shape::refused && !t[size_t(info.file)])
                t[size_t(info.file)] = info.shape == Shape::opaque ? 1 : 2;
        return t;
    }();
    return size_t(file) < opaque.size() && opaque[size_t(file)] == 1;
}

bool read_operand(Context& ctx, Cursor& cur, vsir::DataType type, DescriptorForm form, Operand& out)
{
    return OperandDecoder(ctx, cur).decode(type, form, 0, out);
}

bool read_src(Context& ctx, Cursor& cur, vsir::DataType type, Operand& out)
{
    return OperandDecoder(ctx, cur).decode(type, DescriptorForm::instruction, 0, out);
}

bool read_dst(Context& ctx, Cursor& cur, vsir::DataType type, Operand& out)
{
    uint32_t token = cur.pos;
    if (!OperandDecoder(ctx, cur).decode(type, DescriptorForm::instruction, 0, out))
        return false;
    switch (out.reg.file) {
    case RegisterFile::immediate:
    case RegisterFile::immediate64:
    case RegisterFile::constant_buffer:
    case RegisterFile::immediate_constant_buffer:
    case RegisterFile::resource:
    case RegisterFile::sampler:
    case RegisterFile::label:
        return ctx.fail(Code::tpf_bad_operand, token, "%s cannot be a destination", operand_type_names[out.tpf_type]);
    default: return true;
    }
}

} // namespace dxspv::tpf

#include "vsir/printer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <vector>

#include "common/diagnostics.h"

namespace dxspv::vsir {

namespace {

constexpr unsigned indent_width = 2;
constexpr unsigned max_rel_depth = 4; ///< deeper (or cyclic) relative addresses print as <...>

const char* const component_names = "xyzw";

/// Float literal that reads back to the same bits: shortest round-trip
/// digits, always with a '.' or an exponent; non-finite values are `inf`,
/// `-inf` or `nan(0xbits)`.
template <typename Float, typename Bits> void append_float(std::string& out, Bits bits)
{
    Float f;
    std::memcpy(&f, &bits, sizeof(f));
    if (std::isnan(f)) {
        out += strformat("nan(0x%llx)", static_cast<unsigned long long>(bits));
        return;
    }
    if (std::isinf(f)) {
        out += f < 0 ? "-inf" : "inf";
        return;
    }
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof(buf), f);
    std::string_view s(buf, size_t(res.ptr - buf));
    out += s;
    if (s.find_first_of(".e") == std::string_view::npos)
        out += ".0";
}

const char* return_type_name(DataType type)
{
    switch (type) {
    case DataType::f32: return "float";
    case DataType::i32: return "sint";
    case DataType::u32: return "uint";
    case DataType::f64: return "double";
    default: return data_type_name(type);
    }
}

const char* component_type_name(ComponentType type)
{
    switch (type) {
    case ComponentType::unknown: return "unknown";
    case ComponentType::uint32: return "uint";
    case ComponentType::sint32: return "int";
    case ComponentType::float32: return "float";
    case ComponentType::uint16: return "uint16";
    case ComponentType::sint16: return "int16";
    case ComponentType::float16: return "float16";
    case ComponentType::uint64: return "uint64";
    case ComponentType::sint64: return "int64";
    case ComponentType::float64: return "float64";
    }
    return "invalid";
}

const char* min_precision_name(MinPrecision p)
{
    switch (p) {
    case MinPrecision::none: return nullptr;
    case MinPrecision::float16: return "min16f";
    case MinPrecision::float2_8: return "min2_8f";
    case MinPrecision::sint16: return "min16i";
    case MinPrecision::uint16: return "min16u";
    case MinPrecision::any16: return "any16";
    case MinPrecision::any10: return "any10";
    }
    return "min_invalid";
}

const char* interpolation_name(InterpolationMode mode)
{
    switch (mode) {
    case InterpolationMode::undefined: return "undefined";
    case InterpolationMode::constant: return "constant";
    case InterpolationMode::linear: return "linear";
    case InterpolationMode::linear_centroid: return "linear centroid";
    case InterpolationMode::linear_noperspective: return "linear noperspective";
    case InterpolationMode::linear_noperspective_centroid: return "linear noperspective centroid";
    case InterpolationMode::linear_sample: return "linear sample";
    case InterpolationMode::linear_noperspective_sample: return "linear noperspective sample";
    }
    return "invalid";
}

void append_mask(std::string& out, unsigned mask)
{
    for (unsigned i = 0; i < 4; ++i)
        if (mask & (1u << i))
            out += component_names[i];
}

/// Name of an enum value from a table indexed by value, or the number.
void append_enum(std::string& out, std::span<const char* const> names, uint32_t value)
{
    if (value < names.size() && names[value])
        out += names[value];
    else
        out += strformat("%u", value);
}

/// Names of set bits joined by " | ", unknown bits as one hex number.
void append_bit_names(std::string& out, std::span<const char* const> names, uint32_t value)
{
    const size_t start = out.size();
    for (size_t i = 0; i < names.size(); ++i) {
        if (!(value & (1u << i)))
            continue;
        out += out.size() == start ? "" : " | ";
        out += names[i];
        value &= ~(1u << i);
    }
    if (value || out.size() == start)
        out += strformat("%s0x%x", out.size() == start ? "" : " | ", value);
}

bool has_test_flag(const Instruction& ins)
{
    switch (ins.opcode) {
    case Opcode::if_:
    case Opcode::breakc:
    case Opcode::continuec:
    case Opcode::retc:
    case Opcode::discard:
    case Opcode::callc: return true;
    case Opcode::branch: return ins.src_count == 3;
    default: return false;
    }
}

bool is_descriptor_declaration(Opcode op)
{
    switch (op) {
    case Opcode::dcl_constant_buffer:
    case Opcode::dcl_sampler:
    case Opcode::dcl_resource:
    case Opcode::dcl_resource_raw:
    case Opcode::dcl_resource_structured:
    case Opcode::dcl_uav_typed:
    case Opcode::dcl_uav_raw:
    case Opcode::dcl_uav_structured: return true;
    default: return false;
    }
}

class Printer {
public:
    Printer(const Program& program, const PrintOptions& options, std::string& out)
        : p_(program), options_(options), out_(out)
    {
    }

    void instruction(const Instruction& ins);
    void signature(const char* title, const char* prefix, std::span<const SignatureElement> elements);

private:
    void opcode_name(const Instruction& ins);
    void operands(const Instruction& ins);
    void declaration(const Instruction& ins);
    void declaration_payload(const Instruction& ins, const Declaration& d);
    void register_name(const Register& reg, unsigned depth);
    void register_index(const RegisterIndex& index, unsigned depth);
    void immediate(const Register& reg);
    void register_suffixes(const Register& reg);
    void dst(const DstParam& param);
    void src(const SrcParam& param, unsigned depth = 0, bool one_component = false);
    void resource_types(const DataType (&types)[4]);
    void decl_register(const Instruction& ins, bool with_range, const Declaration& d);

    bool operands_in_range(const Instruction& ins) const
    {
        return uint64_t(ins.dst_first) + ins.dst_count <= p_.dsts.size() &&
               uint64_t(ins.src_first) + ins.src_count <= p_.srcs.size();
    }

    const Program& p_;
    const PrintOptions& options_;
    std::string& out_;
};

void Printer::immediate(const Register& reg)
{
    // Values come from u32[] (l) or u64[] (d) whatever the type says; f32
    // literals always show a '.', an exponent, inf or nan, a plain integer
    // in l(...) is u32 and a float literal in d(...) is f64. Every other
    // type is named by a suffix.
    const bool is64 = reg.file == RegisterFile::immediate64;
    const unsigned count = reg.dimension == Dimension::vec4 ? (is64 ? 2 : 4) : 1;
    out_ += is64 ? "d(" : "l(";
    for (unsigned i = 0; i < count; ++i) {
        if (i)
            out_ += ", ";
        const uint32_t v32 = reg.u32[i];
        const uint64_t v64 = reg.u64[is64 ? i : 0];
        switch (is64 ? reg.type : DataType::none) {
        case DataType::f64: append_float<double>(out_, v64); continue;
        case DataType::i64: out_ += strformat("%lld", static_cast<long long>(v64)); continue;
        case DataType::u64: out_ += strformat("%llu", static_cast<unsigned long long>(v64)); continue;
        default: break;
        }
        switch (is64 ? DataType::none : reg.type) {
        case DataType::f32: append_float<float>(out_, v32); break;
        case DataType::i32: out_ += strformat("%d", int32_t(v32)); break;
        case DataType::u32: out_ += strformat("%u", v32); break;
        default:
            out_ += is64 ? strformat("0x%llx", static_cast<unsigned long long>(v64)) : strformat("0x%x", v32);
            break;
        }
    }
    out_ += ')';
    if (reg.type != (is64 ? DataType::f64 : DataType::f32) && (is64 || reg.type != DataType::u32)) {
        out_ += ':';
        out_ += data_type_name(reg.type);
    }
}

void Printer::register_index(const RegisterIndex& index, unsigned depth)
{
    if (index.rel_addr == invalid_index) {
        out_ += strformat("%u", index.offset);
        return;
    }
    if (index.rel_addr >= p_.srcs.size())
        out_ += strformat("<invalid rel %u>", index.rel_addr);
    else if (depth >= max_rel_depth)
        out_ += "<...>";
    else
        src(p_.srcs[index.rel_addr], depth + 1, true);
    if (index.offset)
        out_ += strformat(" + %u", index.offset);
}

void Printer::register_name(const Register& reg, unsigned depth)
{
    if (reg.file == RegisterFile::immediate || reg.file == RegisterFile::immediate64) {
        immediate(reg);
        return;
    }
    const unsigned count = reg.index_count > 3 ? 3 : reg.index_count;
    out_ += reg.file == RegisterFile::label ? "l" : register_prefix(reg.file);
    // The first index is written right after the prefix when it is a
    // register number; element and vertex indices are always bracketed.
    bool element_first = reg.file == RegisterFile::immediate_constant_buffer ||
                         reg.file == RegisterFile::input_control_point ||
                         reg.file == RegisterFile::output_control_point ||
                         ((reg.file == RegisterFile::input || reg.file == RegisterFile::output) && count == 2);
    for (unsigned i = 0; i < count; ++i) {
        const bool glued = i == 0 && !element_first && reg.idx[0].rel_addr == invalid_index;
        if (!glued)
            out_ += '[';
        register_index(reg.idx[i], depth);
        if (!glued)
            out_ += ']';
    }
}

void Printer::register_suffixes(const Register& reg)
{
    const char* precision = min_precision_name(reg.precision);
    const bool non_uniform = reg.flags & register_non_uniform;
    if (precision || reg.flags) {
        out_ += " {";
        if (precision)
            out_ += precision;
        if (non_uniform)
            out_ += precision ? ", nonuniform" : "nonuniform";
        if (reg.flags & ~register_non_uniform)
            out_ += strformat("%sflags=0x%x", precision || non_uniform ? ", " : "", reg.flags & ~register_non_uniform);
        out_ += '}';
    }
    if (options_.show_types && reg.file != RegisterFile::immediate && reg.file != RegisterFile::immediate64) {
        out_ += ':';
        out_ += data_type_name(reg.type);
    }
}

void Printer::dst(const DstParam& param)
{
    register_name(param.reg, 0);
    if (param.reg.dimension == Dimension::vec4 || (param.reg.dimension == Dimension::none && param.write_mask)) {
        out_ += '.';
        append_mask(out_, param.write_mask);
    }
    register_suffixes(param.reg);
}

void Printer::src(const SrcParam& param, unsigned depth, bool one_component)
{
    switch (param.modifier) {
    case SrcModifier::none: break;
    case SrcModifier::neg: out_ += '-'; break;
    case SrcModifier::abs: out_ += '|'; break;
    case SrcModifier::abs_neg: out_ += "-|"; break;
    case SrcModifier::bitwise_not: out_ += '~'; break;
    default: out_ += "<invalid modifier>"; break;
    }
    register_name(param.reg, depth);
    const uint8_t sw = param.swizzle;
    const bool replicated = sw == make_swizzle(sw & 3, sw & 3, sw & 3, sw & 3);
    // vec4 registers always show their swizzle; immediates and registers
    // without components only when it is not the identity.
    const bool is_immediate =
        param.reg.file == RegisterFile::immediate || param.reg.file == RegisterFile::immediate64;
    const bool show = param.reg.dimension == Dimension::vec4 ? !is_immediate || sw != swizzle_identity
                                                             : param.reg.dimension == Dimension::none && sw != swizzle_identity;
    if (show) {
        out_ += '.';
        for (unsigned i = 0; i < (replicated || one_component ? 1u : 4u); ++i)
            out_ += component_names[swizzle_component(sw, i)];
    }
    if (param.modifier == SrcModifier::abs || param.modifier == SrcModifier::abs_neg)
        out_ += '|';
    register_suffixes(param.reg);
}

void Printer::resource_types(const DataType (&types)[4])
{
    out_ += '(';
    for (unsigned i = 0; i < 4; ++i) {
        out_ += i ? "," : "";
        out_ += return_type_name(types[i]);
    }
    out_ += ')';
}

void Printer::opcode_name(const Instruction& ins)
{
    out_ += opcode_info(ins.opcode).name;
    uint32_t flags = ins.flags;
    if (has_test_flag(ins)) {
        out_ += flags & flag_test_nonzero ? "_nz" : "_z";
        flags &= ~flag_test_nonzero;
    }
    if (ins.opcode == Opcode::sync) {
        static const std::pair<uint32_t, const char*> sync_names[] = {
            {flag_sync_uav_global, "_uglobal"}, {flag_sync_uav_group, "_ugroup"},
            {flag_sync_tgsm, "_g"}, {flag_sync_thread_group, "_t"}};
        for (auto [bit, name] : sync_names)
            if (flags & bit)
                out_ += name;
        flags &= ~(flag_sync_uav_global | flag_sync_uav_group | flag_sync_tgsm | flag_sync_thread_group);
    }
    if (ins.opcode == Opcode::resinfo || ins.opcode == Opcode::sampleinfo) {
        if (flags & flag_resinfo_uint)
            out_ += "_uint";
        if (flags & flag_resinfo_rcp_float)
            out_ += "_rcpFloat";
        flags &= ~(flag_resinfo_uint | flag_resinfo_rcp_float);
    }
    if (flags & flag_precise_mask) {
        out_ += "_precise(";
        append_mask(out_, (flags & flag_precise_mask) / flag_precise_x);
        out_ += ')';
        flags &= ~flag_precise_mask;
    }
    if (flags)
        out_ += strformat("_flags(0x%x)", flags);

    uint8_t dst_modifiers = 0;
    if (operands_in_range(ins))
        for (const DstParam& d : p_.dsts_of(ins))
            dst_modifiers |= d.modifiers;
    if (dst_modifiers & dst_saturate)
        out_ += "_sat";
    if (dst_modifiers & dst_partial_precision)
        out_ += "_pp";
    if (dst_modifiers & dst_centroid)
        out_ += "_centroid";
    if (const unsigned unknown = dst_modifiers & ~(dst_saturate | dst_partial_precision | dst_centroid))
        out_ += strformat("_dstmod(0x%x)", unknown);

    if (ins.texel_offset[0] || ins.texel_offset[1] || ins.texel_offset[2])
        out_ += strformat("_aoffimmi(%d,%d,%d)", ins.texel_offset[0], ins.texel_offset[1], ins.texel_offset[2]);
    if (ins.resource_dimension != ResourceDimension::unknown) {
        out_ += "_indexable(";
        out_ += resource_dimension_name(ins.resource_dimension);
        if (ins.resource_stride)
            out_ += strformat(", stride=%u", ins.resource_stride);
        out_ += ')';
    }
    if (ins.resource_type[0] != DataType::none)
        resource_types(ins.resource_type);
}

void Printer::operands(const Instruction& ins)
{
    if (!operands_in_range(ins)) {
        out_ += strformat(" <operands out of range: dst %u+%u, src %u+%u>", ins.dst_first, unsigned(ins.dst_count),
                          ins.src_first, unsigned(ins.src_count));
        return;
    }
    const char* sep = " ";
    for (const DstParam& d : p_.dsts_of(ins)) {
        out_ += sep;
        dst(d);
        sep = ", ";
    }
    // phi and switch_monolithic list (value, label) pairs after their
    // fixed sources; print each pair in brackets.
    uint32_t first_pair = ins.opcode == Opcode::phi ? 0 : ins.opcode == Opcode::switch_monolithic ? 2 : ~0u;
    auto srcs = p_.srcs_of(ins);
    for (uint32_t i = 0; i < srcs.size(); ++i) {
        out_ += sep;
        sep = ", ";
        const bool pair = i >= first_pair && i + 1 < srcs.size() && (i - first_pair) % 2 == 0;
        if (!pair) {
            src(srcs[i]);
            continue;
        }
        out_ += '[';
        src(srcs[i]);
        out_ += ", ";
        src(srcs[++i]);
        out_ += ']';
    }
}

void Printer::instruction(const Instruction& ins)
{
    if (ins.opcode == Opcode::label && ins.dst_count == 0 && ins.src_count == 1 && operands_in_range(ins)) {
        out_ += "label ";
        src(p_.src(ins, 0));
        out_ += ':';
        return;
    }
    if (opcode_info(ins.opcode).kind == OpcodeKind::declaration) {
        declaration(ins);
        return;
    }
    if (size_t(ins.opcode) >= size_t(Opcode::count))
        out_ += strformat("<invalid opcode %u>", unsigned(ins.opcode));
    else
        opcode_name(ins);
    operands(ins);
    if (ins.decl != invalid_index)
        out_ += strformat(" <decl %u>", ins.decl);
}

void Printer::decl_register(const Instruction& ins, bool with_range, const Declaration& d)
{
    if (ins.dst_count < 1 || !operands_in_range(ins)) {
        out_ += " <no register>";
        return;
    }
    out_ += ' ';
    const DstParam& param = p_.dst(ins, 0);
    if (!with_range) {
        dst(param);
        return;
    }
    register_name(param.reg, 0);
    if (d.range_last == ~0u)
        out_ += strformat("[%u:*]", d.range_first);
    else
        out_ += strformat("[%u:%u]", d.range_first, d.range_last);
    register_suffixes(param.reg);
}

void Printer::declaration(const Instruction& ins)
{
    out_ += opcode_info(ins.opcode).name;
    if (ins.flags)
        out_ += strformat("_flags(0x%x)", ins.flags);
    if (ins.decl >= p_.decls.size()) {
        out_ += ins.decl == invalid_index ? " <no declaration>" : strformat(" <invalid decl %u>", ins.decl);
        return;
    }
    const Declaration& d = p_.decls[ins.decl];
    if (ins.dst_count)
        decl_register(ins, is_descriptor_declaration(ins.opcode), d);
    declaration_payload(ins, d);
    if (is_descriptor_declaration(ins.opcode))
        out_ += strformat(", space=%u", d.space);
}

void Printer::declaration_payload(const Instruction& ins, const Declaration& d)
{
    static const char* const global_flags[] = {
        "refactoringAllowed", "enableDoublePrecisionFloatOps", "forceEarlyDepthStencil",
        "enableRawAndStructuredBuffers", "skipOptimization", "enableMinimumPrecision",
        "enable11_1DoubleExtensions", "enable11_1ShaderExtensions"};
    static const char* const uav_flags[] = {"globallycoherent", "rasterizerordered", "counter"};
    static const char* const sampler_modes[] = {"mode_default", "mode_comparison", "mode_mono"};
    static const char* const primitives[] = {nullptr, "point", "line", "triangle", nullptr, nullptr, "lineadj",
                                             "triangleadj"};
    static const char* const topologies[] = {nullptr, "pointlist", "linelist", "linestrip", "trianglelist",
                                             "trianglestrip"};
    static const char* const domains[] = {nullptr, "domain_isoline", "domain_tri", "domain_quad"};
    static const char* const partitionings[] = {nullptr, "partitioning_integer", "partitioning_pow2",
                                                "partitioning_fractional_odd", "partitioning_fractional_even"};
    static const char* const output_primitives[] = {nullptr, "output_point", "output_line", "output_triangle_cw",
                                                    "output_triangle_ccw"};
    auto uav_flag_list = [&] {
        if (d.value) {
            out_ += ", ";
            append_bit_names(out_, uav_flags, d.value);
        }
    };
    auto system_value = [&] {
        const char* name = system_value_name(d.system_value);
        out_ += name ? strformat(", %s", name) : strformat(", sv(%u)", unsigned(d.system_value));
    };

    switch (ins.opcode) {
    case Opcode::dcl_global_flags:
        out_ += ' ';
        append_bit_names(out_, global_flags, d.value);
        break;
    case Opcode::dcl_temps:
    case Opcode::dcl_max_output_vertex_count:
    case Opcode::dcl_gs_instances:
    case Opcode::dcl_input_control_point_count:
    case Opcode::dcl_output_control_point_count:
    case Opcode::dcl_hs_fork_phase_instance_count:
    case Opcode::dcl_hs_join_phase_instance_count: out_ += strformat(" %u", d.count); break;
    case Opcode::dcl_indexable_temp:
        out_ += strformat(" x%u[%u], %u", d.index, d.count, d.component_count);
        break;
    case Opcode::dcl_constant_buffer:
        out_ += strformat(", %u", d.count);
        if (d.value & 1)
            out_ += ", dynamicIndexed";
        break;
    case Opcode::dcl_immediate_constant_buffer: {
        out_ += " {";
        if (uint64_t(d.data_first) + d.data_count > p_.u32_pool.size()) {
            out_ += strformat(" <data out of range %u+%u> }", d.data_first, d.data_count);
            break;
        }
        for (uint32_t i = 0; i < d.data_count; ++i)
            out_ += strformat("%s0x%08x", i % 4 ? ", " : i ? "}, {" : " {", p_.u32_pool[d.data_first + i]);
        out_ += d.data_count ? "} }" : " }";
        break;
    }
    case Opcode::dcl_sampler:
        out_ += ", ";
        append_enum(out_, sampler_modes, d.value);
        break;
    case Opcode::dcl_resource:
    case Opcode::dcl_uav_typed:
        out_ += ", ";
        out_ += resource_dimension_name(d.dimension);
        out_ += ", ";
        resource_types(d.return_type);
        if (d.sample_count)
            out_ += strformat(", samples=%u", d.sample_count);
        if (ins.opcode == Opcode::dcl_uav_typed)
            uav_flag_list();
        break;
    case Opcode::dcl_resource_structured: out_ += strformat(", %u", d.structure_stride); break;
    case Opcode::dcl_uav_raw: uav_flag_list(); break;
    case Opcode::dcl_uav_structured:
        out_ += strformat(", %u", d.structure_stride);
        uav_flag_list();
        break;
    case Opcode::dcl_tgsm_raw: out_ += strformat(", %u", d.byte_count); break;
    case Opcode::dcl_tgsm_structured: out_ += strformat(", %u, %u", d.structure_stride, d.count); break;
    case Opcode::dcl_input_sgv:
    case Opcode::dcl_input_siv:
    case Opcode::dcl_output_sgv:
    case Opcode::dcl_output_siv: system_value(); break;
    case Opcode::dcl_input_ps_sgv:
    case Opcode::dcl_input_ps_siv:
        system_value();
        [[fallthrough]];
    case Opcode::dcl_input_ps:
        out_ += ", ";
        out_ += interpolation_name(d.interpolation);
        break;
    case Opcode::dcl_index_range: out_ += strformat(", %u", d.count); break;
    case Opcode::dcl_thread_group:
        out_ += strformat(" %u, %u, %u", d.thread_group[0], d.thread_group[1], d.thread_group[2]);
        break;
    case Opcode::dcl_gs_input_primitive:
        out_ += ' ';
        if (d.value >= 8 && d.value <= 39)
            out_ += strformat("patch%u", d.value - 7);
        else
            append_enum(out_, primitives, d.value);
        break;
    case Opcode::dcl_gs_output_topology: out_ += ' '; append_enum(out_, topologies, d.value); break;
    case Opcode::dcl_tessellator_domain: out_ += ' '; append_enum(out_, domains, d.value); break;
    case Opcode::dcl_tessellator_partitioning: out_ += ' '; append_enum(out_, partitionings, d.value); break;
    case Opcode::dcl_tessellator_output_primitive:
        out_ += ' ';
        append_enum(out_, output_primitives, d.value);
        break;
    case Opcode::dcl_hs_max_tessfactor: {
        uint32_t bits;
        std::memcpy(&bits, &d.float_value, 4);
        out_ += " l(";
        append_float<float>(out_, bits);
        out_ += ')';
        break;
    }
    case Opcode::dcl_function_body:
    case Opcode::dcl_function_table:
    case Opcode::dcl_interface: out_ += strformat(" %u, %u", d.index, d.count); break;
    default: break; // dcl_input, dcl_output, dcl_resource_raw, dcl_stream: the register says it all
    }
}

void Printer::signature(const char* title, const char* prefix, std::span<const SignatureElement> elements)
{
    if (elements.empty())
        return;
    out_ += strformat("; %s\n", title);
    for (const SignatureElement& e : elements) {
        out_ += strformat(";   %s%u.", prefix, e.register_index);
        append_mask(out_, e.mask);
        out_ += strformat(" %.*s%u %s used=", int(e.semantic_name.size()), e.semantic_name.data(), e.semantic_index,
                          component_type_name(e.component_type));
        append_mask(out_, e.used_mask);
        if (e.system_value != SystemValue::none) {
            const char* name = system_value_name(e.system_value);
            out_ += name ? strformat(" %s", name) : strformat(" sv(%u)", unsigned(e.system_value));
        }
        if (e.stream)
            out_ += strformat(" stream=%u", e.stream);
        if (const char* precision = min_precision_name(e.min_precision))
            out_ += strformat(" %s", precision);
        out_ += '\n';
    }
}

/// Structured nesting: how the indentation changes around one instruction.
struct Indent {
    int before = 0; ///< applied before printing the line
    int after = 0;  ///< applied after
};

/// `in_case` tracks, per open switch, whether a case body is open (case
/// bodies are indented one level below their case label).
Indent structured_indent(Opcode op, std::vector<bool>& in_case)
{
    switch (op) {
    case Opcode::if_:
    case Opcode::loop: return {0, 1};
    case Opcode::else_: return {-1, 1};
    case Opcode::endif:
    case Opcode::endloop: return {-1, 0};
    case Opcode::switch_: in_case.push_back(false); return {0, 1};
    case Opcode::case_:
    case Opcode::default_: {
        if (in_case.empty())
            return {};
        const bool close = in_case.back();
        in_case.back() = true;
        return {close ? -1 : 0, 1};
    }
    case Opcode::endswitch: {
        const bool close = !in_case.empty() && in_case.back();
        if (!in_case.empty())
            in_case.pop_back();
        return {close ? -2 : -1, 0};
    }
    default: return {};
    }
}

} // namespace

std::string print_instruction(const Program& program, uint32_t index, const PrintOptions& options)
{
    std::string out;
    if (index >= program.instructions.size())
        return strformat("<invalid instruction %u>", index);
    Printer(program, options, out).instruction(program.instructions[index]);
    return out;
}

std::string print_program(const Program& program, const PrintOptions& options)
{
    std::string out;
    out += strformat("%s_%u_%u %s\n", stage_short_name(program.model.stage), program.model.major,
                     program.model.minor,
                     program.control_flow == ControlFlow::structured ? "structured" : "unstructured");
    if (program.temp_count || program.ssa_count || program.label_count)
        out += strformat("; temps=%u ssa=%u labels=%u\n", program.temp_count, program.ssa_count,
                         program.label_count);
    Printer printer(program, options, out);
    printer.signature("input signature", "v", program.inputs);
    printer.signature("output signature", "o", program.outputs);
    printer.signature("patch constant signature", "pc", program.patch_constants);

    const bool structured = program.control_flow == ControlFlow::structured;
    std::vector<bool> in_case;
    int depth = 0;
    bool in_block = false; // unstructured: after a label
    for (const Instruction& ins : program.instructions) {
        Indent indent;
        const OpcodeKind kind = opcode_info(ins.opcode).kind;
        if (kind == OpcodeKind::phase || ins.opcode == Opcode::label) {
            depth = 0;
            in_case.clear();
            in_block = !structured && ins.opcode == Opcode::label;
        } else if (structured) {
            indent = structured_indent(ins.opcode, in_case);
        }
        depth = std::max(0, depth + indent.before);
        const int extra = in_block && ins.opcode != Opcode::label ? 1 : 0;
        out.append(size_t(depth + extra) * indent_width, ' ');
        printer.instruction(ins);
        out += '\n';
        depth = std::max(0, depth + indent.after);
    }
    return out;
}

} // namespace dxspv::vsir

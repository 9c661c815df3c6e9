#include "text/disassembler.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "common/diagnostics.h"
#include "text/names.h"
#include "text/signature_text.h"
#include "tpf/writer.h"

namespace dxspv::text {

namespace {

using vsir::DataType;
using vsir::Dimension;
using vsir::Opcode;
using vsir::RegisterFile;

constexpr char components[] = "xyzw";

bool is_descriptor(RegisterFile file)
{
    return file == RegisterFile::resource || file == RegisterFile::uav || file == RegisterFile::sampler ||
           file == RegisterFile::constant_buffer;
}

bool is_opaque(RegisterFile file)
{
    switch (file) {
    case RegisterFile::sampler:
    case RegisterFile::resource:
    case RegisterFile::uav:
    case RegisterFile::groupshared:
    case RegisterFile::label:
    case RegisterFile::stream:
    case RegisterFile::rasterizer: return true;
    default: return false;
    }
}

bool tests_condition(Opcode op)
{
    return op == Opcode::if_ || op == Opcode::breakc || op == Opcode::continuec || op == Opcode::retc ||
           op == Opcode::discard || op == Opcode::callc;
}

/// f32 bits as fxc prints them (`1.000000`), with more digits when those
/// do not read back to the same bits; zero as `0`, non-finite values as hex.
std::string format_f32(uint32_t bits)
{
    if (bits == 0)
        return "0.000000";
    float f = 0;
    std::memcpy(&f, &bits, 4);
    if (!std::isfinite(f))
        return strformat("0x%08x", bits);
    std::string s = strformat("%f", double(f));
    float back = std::strtof(s.c_str(), nullptr);
    if (std::memcmp(&back, &f, 4) != 0)
        s = strformat("%.9g", double(f));
    if (s.find_first_of(".e") == std::string::npos)
        s += ".0";
    return s;
}

std::string format_f64(uint64_t bits)
{
    if (bits == 0)
        return "0.000000";
    double d = 0;
    std::memcpy(&d, &bits, 8);
    if (!std::isfinite(d))
        return strformat("0x%016llx", static_cast<unsigned long long>(bits));
    std::string s = strformat("%f", d);
    double back = std::strtod(s.c_str(), nullptr);
    if (std::memcmp(&back, &d, 8) != 0)
        s = strformat("%.17g", d);
    if (s.find_first_of(".e") == std::string::npos)
        s += ".0";
    return s;
}

/// A 32-bit value of unknown type (immediate constant buffers): integers
/// stay integers, plausible floats print as floats, the rest as hex.
std::string format_untyped(uint32_t bits)
{
    if (bits < 0x10000)
        return strformat("%u", bits);
    if (bits >= 0xffff0000u)
        return strformat("%d", int32_t(bits));
    float f = 0;
    std::memcpy(&f, &bits, 4);
    float a = std::fabs(f);
    if (std::isfinite(f) && a >= 1e-4f && a < 1e7f)
        return format_f32(bits);
    return strformat("0x%08x", bits);
}

std::string format_u32(DataType type, uint32_t value, bool untyped)
{
    if (untyped && type == DataType::f32)
        return format_untyped(value);
    switch (type) {
    case DataType::f32: return format_f32(value);
    case DataType::i32: return strformat("%d", int32_t(value));
    default: return value < 0x10000 ? strformat("%u", value) : strformat("0x%08x", value);
    }
}

class Disassembler {
public:
    explicit Disassembler(const vsir::Program& program)
        : p_(program), sm51_(program.model.major == 5 && program.model.minor == 1)
    {
    }

    std::string run();

private:
    void instruction(const vsir::Instruction& ins);
    void opcode_name(const vsir::Instruction& ins);
    void declaration(const vsir::Instruction& ins);
    void declaration_payload(const vsir::Instruction& ins, const vsir::Declaration& d);
    void descriptor_declaration(const vsir::Instruction& ins, const vsir::Declaration& d);
    void return_types(const DataType (&types)[4]);
    void reg(const vsir::Register& reg, unsigned depth);
    void index(const vsir::RegisterIndex& index, unsigned depth);
    void immediate(const vsir::Register& reg);
    void src(const vsir::SrcParam& src, unsigned depth);
    void dst(const vsir::DstParam& dst, bool declaration = false);
    void form_annotation(const vsir::Register& reg, vsir::OperandForm recorded, vsir::OperandForm implied, bool is_dst,
                         bool declaration, uint8_t mask, uint8_t swizzle);
    void decl_dst(const vsir::Instruction& ins);
    void swizzle(uint8_t swizzle, bool collapse);
    void mask(uint8_t mask);
    void annotations(const vsir::Register& reg);

    const vsir::Program& p_;
    bool sm51_;
    bool untyped_ = false; ///< the current instruction moves bits (mov, movc, swapc): fxc's immediate spelling
    std::string out_;
};

void Disassembler::swizzle(uint8_t s, bool collapse)
{
    out_ += '.';
    unsigned c0 = vsir::swizzle_component(s, 0);
    if (collapse && s == vsir::make_swizzle(c0, c0, c0, c0)) {
        out_ += components[c0];
        return;
    }
    for (unsigned i = 0; i < 4; ++i)
        out_ += components[vsir::swizzle_component(s, i)];
}

void Disassembler::mask(uint8_t m)
{
    out_ += '.';
    for (unsigned i = 0; i < 4; ++i)
        if (m & (1u << i))
            out_ += components[i];
}

void Disassembler::index(const vsir::RegisterIndex& idx, unsigned depth)
{
    if (idx.rel_addr == vsir::invalid_index) {
        out_ += strformat("%u", idx.offset);
        return;
    }
    if (idx.rel_addr >= p_.srcs.size() || depth >= 4) {
        out_ += "<invalid>";
        return;
    }
    src(p_.srcs[idx.rel_addr], depth + 1);
    out_ += strformat(" + %u", idx.offset);
}

void Disassembler::immediate(const vsir::Register& r)
{
    bool scalar = r.dimension != Dimension::vec4;
    if (r.file == RegisterFile::immediate) {
        out_ += "l(";
        for (unsigned i = 0; i < (scalar ? 1u : 4u); ++i)
            out_ += (i ? ", " : "") + format_u32(r.type, r.u32[i], untyped_);
    } else {
        out_ += "d(";
        for (unsigned i = 0; i < (scalar ? 1u : 2u); ++i) {
            out_ += i ? ", " : "";
            if (r.type == DataType::f64)
                out_ += format_f64(r.u64[i]);
            else if (r.type == DataType::i64)
                out_ += strformat("%lld", static_cast<long long>(r.u64[i]));
            else
                out_ += strformat("%llu", static_cast<unsigned long long>(r.u64[i]));
        }
    }
    out_ += ')';
}

void Disassembler::reg(const vsir::Register& r, unsigned depth)
{
    if (r.file == RegisterFile::immediate || r.file == RegisterFile::immediate64) {
        immediate(r);
        return;
    }
    unsigned count = r.index_count > 3 ? 3 : r.index_count;
    unsigned first = 0;
    if (is_descriptor(r.file)) {
        static const char* const upper[] = {"T", "U", "S", "CB"};
        unsigned which = r.file == RegisterFile::resource ? 0 : r.file == RegisterFile::uav ? 1
                         : r.file == RegisterFile::sampler ? 2 : 3;
        out_ += sm51_ ? upper[which] : vsir::register_prefix(r.file);
        if (!sm51_ && count >= 2)
            first = 1;
    } else {
        out_ += r.file == RegisterFile::label ? "l" : vsir::register_prefix(r.file);
    }
    bool bracket_all = r.file == RegisterFile::immediate_constant_buffer ||
                       r.file == RegisterFile::input_control_point || r.file == RegisterFile::output_control_point ||
                       ((r.file == RegisterFile::input || r.file == RegisterFile::output) && count == 2);
    for (unsigned i = first; i < count; ++i) {
        bool glued = i == first && !bracket_all && r.idx[i].rel_addr == vsir::invalid_index;
        out_ += glued ? "" : "[";
        index(r.idx[i], depth);
        out_ += glued ? "" : "]";
    }
}

void Disassembler::annotations(const vsir::Register& r)
{
    if (const char* name = min_precision_names.name_of(uint32_t(r.precision)))
        out_ += strformat(" {%s}", name);
    if (r.flags & vsir::register_non_uniform)
        out_ += " {nonuniform}";
}

/// ` {c0}`, ` {c1}`, ` {mask}`, ` {swz}`, ` {sel}` when the token form the
/// text implies (letters, else the writer's default) is not the recorded one.
void Disassembler::form_annotation(const vsir::Register& r, vsir::OperandForm recorded, vsir::OperandForm implied,
                                   bool is_dst, bool declaration, uint8_t mask, uint8_t swizzle)
{
    using vsir::OperandForm;
    if (recorded == OperandForm::unspecified)
        return;
    if (implied == OperandForm::unspecified)
        implied = tpf::default_operand_form(r, is_dst, declaration, mask, swizzle, sm51_);
    if (implied == recorded)
        return;
    static const char* const names[] = {"", "c0", "c1", "mask", "swz", "sel"};
    out_ += strformat(" {%s}", names[unsigned(recorded) % 6]);
}

void Disassembler::src(const vsir::SrcParam& s, unsigned depth)
{
    using vsir::OperandForm;
    switch (s.modifier) {
    case vsir::SrcModifier::neg: out_ += '-'; break;
    case vsir::SrcModifier::abs: out_ += '|'; break;
    case vsir::SrcModifier::abs_neg: out_ += "-|"; break;
    case vsir::SrcModifier::bitwise_not: out_ += '~'; break;
    case vsir::SrcModifier::none: break;
    }
    reg(s.reg, depth);
    const vsir::Register& r = s.reg;
    bool immediate = r.file == RegisterFile::immediate || r.file == RegisterFile::immediate64;
    OperandForm implied = OperandForm::unspecified;
    if (!immediate) {
        switch (s.form) {
        case OperandForm::select:
            out_ += '.';
            out_ += components[vsir::swizzle_component(s.swizzle, 0)];
            implied = OperandForm::select;
            break;
        case OperandForm::swizzle:
            swizzle(s.swizzle, false);
            implied = OperandForm::swizzle;
            break;
        case OperandForm::mask:
            if (s.form_mask) {
                mask(s.form_mask);
                implied = OperandForm::swizzle; // letters read as a swizzle unless annotated
            }
            break;
        case OperandForm::none:
        case OperandForm::one: break;
        case OperandForm::unspecified:
            if (r.dimension == Dimension::vec4)
                swizzle(s.swizzle, true);
            else if (is_opaque(r.file) && s.swizzle != 0)
                swizzle(s.swizzle, false);
            break;
        }
    }
    if (s.modifier == vsir::SrcModifier::abs || s.modifier == vsir::SrcModifier::abs_neg)
        out_ += '|';
    form_annotation(r, s.form, implied, false, false, 0, s.swizzle);
    if (s.token_flags & vsir::token_empty_modifier)
        out_ += " {ext}";
    annotations(r);
}

void Disassembler::dst(const vsir::DstParam& d, bool declaration)
{
    using vsir::OperandForm;
    reg(d.reg, 0);
    OperandForm implied = OperandForm::unspecified;
    bool letters = d.form == OperandForm::unspecified
                       ? d.write_mask && (d.reg.dimension == Dimension::vec4 || d.reg.dimension == Dimension::none)
                       : d.form == OperandForm::mask && d.write_mask;
    if (letters) {
        mask(d.write_mask);
        implied = OperandForm::mask;
    }
    form_annotation(d.reg, d.form, implied, true, declaration, letters ? d.write_mask : 0, vsir::swizzle_identity);
    if (d.token_flags & vsir::token_empty_modifier)
        out_ += " {ext}";
    annotations(d.reg);
}

void Disassembler::return_types(const DataType (&types)[4])
{
    out_ += '(';
    for (unsigned c = 0; c < 4; ++c) {
        const char* name = return_type_names.name_of(uint32_t(types[c]));
        out_ += strformat("%s%s", c ? "," : "", name ? name : "unused");
    }
    out_ += ')';
}

void Disassembler::opcode_name(const vsir::Instruction& ins)
{
    out_ += ins.opcode == Opcode::ld2dms     ? "ldms"
            : ins.opcode == Opcode::ld2dms_s ? "ldms_s"
                                             : vsir::opcode_info(ins.opcode).name;
    uint32_t f = ins.flags;
    if (tests_condition(ins.opcode))
        out_ += f & vsir::flag_test_nonzero ? "_nz" : "_z";
    if (ins.opcode == Opcode::sync) {
        out_ += f & vsir::flag_sync_uav_global ? "_uglobal" : "";
        out_ += f & vsir::flag_sync_uav_group ? "_ugroup" : "";
        out_ += f & vsir::flag_sync_tgsm ? "_g" : "";
        out_ += f & vsir::flag_sync_thread_group ? "_t" : "";
    }
    if (f & vsir::flag_precise_mask) {
        out_ += "_precise(";
        for (unsigned c = 0; c < 4; ++c)
            if (f & (vsir::flag_precise_x << c))
                out_ += components[c];
        out_ += ')';
    }
    bool saturate = false;
    for (uint32_t i = 0; i < ins.dst_count && ins.dst_first + i < p_.dsts.size(); ++i)
        saturate |= (p_.dsts[ins.dst_first + i].modifiers & vsir::dst_saturate) != 0;
    if (saturate)
        out_ += "_sat";
    // fxc's order: _aoffimmi_indexable(offsets)(dimension)(return types)_uint
    bool offset = ins.texel_offset[0] || ins.texel_offset[1] || ins.texel_offset[2];
    bool indexable = ins.resource_dimension != vsir::ResourceDimension::unknown || ins.resource_stride;
    out_ += offset ? "_aoffimmi" : "";
    out_ += indexable ? "_indexable" : "";
    if (offset)
        out_ += strformat("(%d,%d,%d)", ins.texel_offset[0], ins.texel_offset[1], ins.texel_offset[2]);
    if (indexable) {
        const char* name = resource_dimension_names.name_of(uint32_t(ins.resource_dimension));
        out_ += strformat("(%s", name ? name : "unknown");
        if (ins.resource_stride || ins.resource_dimension == vsir::ResourceDimension::structured_buffer)
            out_ += strformat(", stride=%u", ins.resource_stride);
        out_ += ')';
    }
    bool typed = false;
    for (DataType t : ins.resource_type)
        typed |= t != DataType::none;
    if (typed)
        return_types(ins.resource_type);
    if (f & vsir::flag_resinfo_uint)
        out_ += "_uint";
    if (f & vsir::flag_resinfo_rcp_float)
        out_ += "_rcpFloat";
    if (ins.tail_count && uint64_t(ins.tail_first) + ins.tail_count <= p_.u32_pool.size()) {
        out_ += "_tail(";
        for (uint32_t i = 0; i < ins.tail_count; ++i)
            out_ += strformat("%s0x%x", i ? "," : "", p_.u32_pool[ins.tail_first + i]);
        out_ += ')';
    }
}

void Disassembler::decl_dst(const vsir::Instruction& ins)
{
    if (ins.dst_count == 1 && ins.dst_first < p_.dsts.size())
        dst(p_.dsts[ins.dst_first], true);
    else
        out_ += "<no register>";
}

/// `t0` / `T0[0:3]` (or `[0:*]`), the declared register of a t/u/s/cb.
void Disassembler::descriptor_declaration(const vsir::Instruction& ins, const vsir::Declaration& d)
{
    RegisterFile file = ins.dst_count == 1 && ins.dst_first < p_.dsts.size() ? p_.dsts[ins.dst_first].reg.file
                                                                               : RegisterFile::resource;
    static const char* const upper[] = {"T", "U", "S", "CB"};
    unsigned which = file == RegisterFile::resource ? 0 : file == RegisterFile::uav ? 1
                     : file == RegisterFile::sampler ? 2 : 3;
    if (!sm51_) {
        out_ += strformat("%s%u", vsir::register_prefix(file), d.range_first);
    } else {
        out_ += strformat("%s%u[%u:", upper[which], d.index, d.range_first);
        out_ += d.range_last == ~0u ? std::string("*") : strformat("%u", d.range_last);
        out_ += ']';
    }
    if (file == RegisterFile::constant_buffer)
        out_ += strformat("[%u]", d.count ? d.count : d.byte_count / 16);
    if (ins.dst_count == 1 && ins.dst_first < p_.dsts.size()) {
        const vsir::DstParam& reg = p_.dsts[ins.dst_first];
        form_annotation(reg.reg, reg.form, vsir::OperandForm::unspecified, true, true, 0, vsir::swizzle_identity);
    }
}

void Disassembler::declaration_payload(const vsir::Instruction& ins, const vsir::Declaration& d)
{
    auto space = [&] {
        if (sm51_)
            out_ += strformat(", space=%u", d.space);
    };
    auto named = [&](const NameTable& table, uint32_t value) {
        const char* name = table.name_of(value);
        out_ += name ? std::string(name) : strformat("%u", value);
    };
    switch (ins.opcode) {
    case Opcode::dcl_temps:
    case Opcode::dcl_max_output_vertex_count:
    case Opcode::dcl_gs_instances:
    case Opcode::dcl_input_control_point_count:
    case Opcode::dcl_output_control_point_count:
    case Opcode::dcl_hs_fork_phase_instance_count:
    case Opcode::dcl_hs_join_phase_instance_count: out_ += strformat("%u", d.count); break;
    case Opcode::dcl_indexable_temp: out_ += strformat("x%u[%u], %u", d.index, d.count, d.component_count); break;
    case Opcode::dcl_constant_buffer: {
        descriptor_declaration(ins, d);
        out_ += strformat(", %s", d.value & 1 ? "dynamicIndexed" : "immediateIndexed");
        space();
        break;
    }
    case Opcode::dcl_sampler:
        descriptor_declaration(ins, d);
        out_ += ", ";
        named(sampler_mode_names, d.value);
        space();
        break;
    case Opcode::dcl_resource:
    case Opcode::dcl_uav_typed:
        return_types(d.return_type);
        out_ += ' ';
        descriptor_declaration(ins, d);
        space();
        break;
    case Opcode::dcl_resource_raw:
    case Opcode::dcl_uav_raw: descriptor_declaration(ins, d); space(); break;
    case Opcode::dcl_resource_structured:
    case Opcode::dcl_uav_structured:
        descriptor_declaration(ins, d);
        out_ += strformat(", %u", d.structure_stride);
        space();
        break;
    case Opcode::dcl_tgsm_raw: decl_dst(ins); out_ += strformat(", %u", d.byte_count); break;
    case Opcode::dcl_tgsm_structured: decl_dst(ins); out_ += strformat(", %u, %u", d.structure_stride, d.count); break;
    case Opcode::dcl_input_ps:
    case Opcode::dcl_input_ps_sgv:
    case Opcode::dcl_input_ps_siv:
        if (const char* name = interpolation_names.name_of(uint32_t(d.interpolation)))
            out_ += strformat("%s ", name);
        decl_dst(ins);
        if (ins.opcode != Opcode::dcl_input_ps) {
            out_ += ", ";
            named(system_value_names, d.value);
        }
        break;
    case Opcode::dcl_input_sgv:
    case Opcode::dcl_input_siv:
    case Opcode::dcl_output_sgv:
    case Opcode::dcl_output_siv:
        decl_dst(ins);
        out_ += ", ";
        named(system_value_names, d.value);
        break;
    case Opcode::dcl_input:
    case Opcode::dcl_output:
    case Opcode::dcl_stream: decl_dst(ins); break;
    case Opcode::dcl_index_range: decl_dst(ins); out_ += strformat(", %u", d.count); break;
    case Opcode::dcl_thread_group:
        out_ += strformat("%u, %u, %u", d.thread_group[0], d.thread_group[1], d.thread_group[2]);
        break;
    case Opcode::dcl_gs_input_primitive:
        if (d.value >= 8 && d.value <= 39)
            out_ += strformat("patch%u", d.value - 7);
        else
            named(primitive_names, d.value);
        break;
    case Opcode::dcl_gs_output_topology: named(topology_names, d.value); break;
    case Opcode::dcl_tessellator_domain: named(domain_names, d.value); break;
    case Opcode::dcl_tessellator_partitioning: named(partitioning_names, d.value); break;
    case Opcode::dcl_tessellator_output_primitive: named(output_primitive_names, d.value); break;
    case Opcode::dcl_hs_max_tessfactor: {
        uint32_t bits = 0;
        std::memcpy(&bits, &d.float_value, 4);
        out_ += "l(" + format_f32(bits) + ")";
        break;
    }
    default: out_ += strformat("%u, %u", d.index, d.count); break;
    }
}

void Disassembler::declaration(const vsir::Instruction& ins)
{
    if (ins.decl >= p_.decls.size()) {
        out_ += strformat("%s <no declaration>", vsir::opcode_info(ins.opcode).name);
        return;
    }
    const vsir::Declaration& d = p_.decls[ins.decl];
    out_ += vsir::opcode_info(ins.opcode).name;
    if (ins.opcode == Opcode::dcl_global_flags) {
        out_ += ' ';
        bool first = true;
        for (unsigned bit = 0; bit < 13; ++bit)
            if (d.value & (1u << bit)) {
                const char* name = global_flag_names.name_of(1u << bit);
                out_ += (first ? "" : " | ") + (name ? std::string(name) : strformat("0x%x", 1u << bit));
                first = false;
            }
        if (first)
            out_ += '0';
        return;
    }
    if (ins.opcode == Opcode::dcl_immediate_constant_buffer) {
        out_ += " {";
        for (uint32_t i = 0; i < d.data_count && uint64_t(d.data_first) + i < p_.u32_pool.size(); ++i) {
            out_ += i % 4 ? ", " : i ? "},\n                              { " : " { ";
            out_ += format_untyped(p_.u32_pool[d.data_first + i]);
        }
        out_ += d.data_count ? "} }" : " }";
        return;
    }
    if (ins.opcode == Opcode::dcl_resource || ins.opcode == Opcode::dcl_uav_typed) {
        const char* name = resource_dimension_names.name_of(uint32_t(d.dimension));
        out_ += strformat("_%s", name ? name : "unknown");
        bool ms = d.dimension == vsir::ResourceDimension::texture_2dms ||
                  d.dimension == vsir::ResourceDimension::texture_2dms_array;
        if (ms || d.sample_count)
            out_ += strformat("(%u)", d.sample_count);
    }
    if (ins.opcode == Opcode::dcl_uav_typed || ins.opcode == Opcode::dcl_uav_raw ||
        ins.opcode == Opcode::dcl_uav_structured) {
        out_ += d.value & vsir::uav_globally_coherent ? "_glc" : "";
        out_ += d.value & vsir::uav_rasterizer_ordered ? "_rov" : "";
        out_ += d.value & vsir::uav_has_counter ? "_opc" : "";
    }
    out_ += ' ';
    declaration_payload(ins, d);
}

void Disassembler::instruction(const vsir::Instruction& ins)
{
    if (vsir::opcode_info(ins.opcode).kind == vsir::OpcodeKind::declaration) {
        declaration(ins);
        return;
    }
    opcode_name(ins);
    untyped_ = ins.opcode == Opcode::mov || ins.opcode == Opcode::movc || ins.opcode == Opcode::swapc;
    if (size_t(ins.dst_first) + ins.dst_count > p_.dsts.size() || size_t(ins.src_first) + ins.src_count > p_.srcs.size()) {
        out_ += " <operands out of range>";
        return;
    }
    bool first = true;
    for (const vsir::DstParam& d : p_.dsts_of(ins)) {
        out_ += first ? " " : ", ";
        first = false;
        dst(d);
    }
    for (const vsir::SrcParam& s : p_.srcs_of(ins)) {
        out_ += first ? " " : ", ";
        first = false;
        src(s, 0);
    }
}

std::string Disassembler::run()
{
    out_.clear();
    print_signatures(p_, out_);
    out_ += strformat("%s_%u_%u\n", stage_short_name(p_.model.stage), p_.model.major, p_.model.minor);
    int depth = 0;
    for (const vsir::Instruction& ins : p_.instructions) {
        if (uint32_t(ins.opcode) >= uint32_t(Opcode::count)) {
            out_ += strformat("<invalid opcode %u>\n", unsigned(ins.opcode));
            continue;
        }
        switch (ins.opcode) {
        case Opcode::else_:
        case Opcode::endif:
        case Opcode::endloop:
        case Opcode::endswitch: depth = depth > 0 ? depth - 1 : 0; break;
        case Opcode::label:
        case Opcode::hs_decls:
        case Opcode::hs_control_point_phase:
        case Opcode::hs_fork_phase:
        case Opcode::hs_join_phase: depth = 0; break;
        default: break;
        }
        out_.append(size_t(depth) * 2, ' ');
        instruction(ins);
        out_ += '\n';
        if (ins.opcode == Opcode::if_ || ins.opcode == Opcode::else_ || ins.opcode == Opcode::loop ||
            ins.opcode == Opcode::switch_)
            ++depth;
    }
    return out_;
}

} // namespace

std::string disassemble(const vsir::Program& program)
{
    return Disassembler(program).run();
}

} // namespace dxspv::text

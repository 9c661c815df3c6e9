#include "container/describe.h"

#include "container/checksum.h"
#include "container/container.h"
#include "container/program_header.h"
#include "container/rdef.h"
#include "container/root_signature.h"
#include "container/sfi0.h"
#include "container/signature.h"

namespace dxspv::container {

namespace {

std::string mask_string(uint8_t mask)
{
    std::string s;
    for (int i = 0; i < 4; ++i)
        if (mask & (1u << i))
            s += "xyzw"[i];
    if (mask & 0xf0)
        s += strformat("+0x%x", unsigned(mask & 0xf0));
    return s.empty() ? "-" : s;
}

const char* component_type_name(ComponentType type)
{
    static const char* const names[] = {"unknown", "uint32", "sint32", "float32", "uint16",
                                        "sint16",  "float16", "uint64", "sint64",  "float64"};
    return size_t(type) < std::size(names) ? names[size_t(type)] : "?";
}

const char* min_precision_name(MinPrecision p)
{
    switch (p) {
    case MinPrecision::none: return "default";
    case MinPrecision::float16: return "float16";
    case MinPrecision::float2_8: return "float2_8";
    case MinPrecision::sint16: return "sint16";
    case MinPrecision::uint16: return "uint16";
    case MinPrecision::any16: return "any16";
    case MinPrecision::any10: return "any10";
    }
    return "?";
}

std::string system_value_string(SystemValue sv)
{
    const char* name = system_value_name(sv);
    return name ? std::string(name) : strformat("%u", unsigned(sv));
}

std::string model_string(const ShaderModel& m)
{
    return strformat("%s_%u_%u", stage_short_name(m.stage), unsigned(m.major), unsigned(m.minor));
}

void describe_program(const Container& c, std::string& out, Diagnostics& diags)
{
    ProgramHeader program;
    if (!find_program_chunk(c)) {
        out.insert(0, "stage: none\nmodel: none\n");
        return;
    }
    if (!parse_program_header(c, program, diags)) {
        out.insert(0, "stage: ??\nmodel: ??\n");
        return;
    }
    out.insert(0, strformat("stage: %s\nmodel: %u.%u\n", stage_short_name(program.model.stage),
                            unsigned(program.model.major), unsigned(program.model.minor)));
    std::string name = fourcc_name(program.chunk.fourcc);
    if (program.format == ProgramFormat::tpf)
        out += strformat("\n%s: %s, %zu dwords\n", name.c_str(), model_string(program.model).c_str(),
                         program.tokens.size() / 4);
    else
        out += strformat("\n%s: %s, DXIL %u.%u, bitcode at 0x%x, %zu bytes\n", name.c_str(),
                         model_string(program.model).c_str(), unsigned(program.dxil_major),
                         unsigned(program.dxil_minor), program.bitcode_offset, program.bitcode.size());
}

void describe_signature(const Chunk& chunk, std::string& out, Diagnostics& diags)
{
    std::vector<SignatureElement> elements;
    std::string name = fourcc_name(chunk.fourcc);
    if (!parse_signature(chunk, elements, diags)) {
        out += strformat("\n%s: malformed\n", name.c_str());
        return;
    }
    SignatureFormat format = SignatureFormat::sgn;
    signature_format_of(chunk.fourcc, format);
    out += strformat("\n%s: %zu elements\n", name.c_str(), elements.size());
    for (size_t i = 0; i < elements.size(); ++i) {
        const SignatureElement& e = elements[i];
        out += strformat("  %zu: %.*s %u, register %d, mask %s, used %s, sysval %s, %s", i,
                         int(e.semantic_name.size()), e.semantic_name.data(), e.semantic_index, int(e.register_index),
                         mask_string(e.mask).c_str(), mask_string(e.used_mask).c_str(),
                         system_value_string(e.system_value).c_str(), component_type_name(e.component_type));
        if (format != SignatureFormat::sgn)
            out += strformat(", stream %u", e.stream);
        if (format == SignatureFormat::sg1)
            out += strformat(", min precision %s", min_precision_name(e.min_precision));
        out += '\n';
    }
}

void describe_sfi0(const Chunk& chunk, std::string& out, Diagnostics& diags)
{
    uint64_t flags = 0;
    if (!parse_sfi0(chunk, flags, diags)) {
        out += "\nSFI0: malformed\n";
        return;
    }
    out += strformat("\nSFI0: 0x%llx (%s)\n", static_cast<unsigned long long>(flags), sfi0_flags_string(flags).c_str());
}

char register_prefix(uint32_t input_type)
{
    switch (input_type) {
    case 0: return 'b';
    case 3: return 's';
    case 4: case 6: case 8: case 9: case 10: case 11: case 13: return 'u';
    default: return 't';
    }
}

std::string type_string(const Rdef& rdef, uint32_t index)
{
    if (index >= rdef.types.size())
        return "?";
    const RdefType& t = rdef.types[index];
    return strformat("%.*s(class %u, base %u, %ux%u, %u elements, %u members)", int(t.name.size()), t.name.data(),
                     t.type_class, t.base_type, t.rows, t.columns, t.elements, t.member_count);
}

/// A variable's type and, one level deep, its members.
void describe_type(const Rdef& rdef, uint32_t index, std::string& out)
{
    out += ", type " + type_string(rdef, index) + "\n";
    if (index >= rdef.types.size())
        return;
    const RdefType& t = rdef.types[index];
    for (uint32_t m = 0; m < t.member_count; ++m) {
        const RdefMember& member = rdef.members[t.first_member + m];
        out += strformat("      .%.*s: offset %u, type %s\n", int(member.name.size()), member.name.data(),
                         member.offset, type_string(rdef, member.type).c_str());
    }
}

void describe_rdef(const Chunk& chunk, std::string& out, Diagnostics& diags)
{
    Rdef rdef;
    if (!parse_rdef(chunk, rdef, diags)) {
        out += "\nRDEF: malformed\n";
        return;
    }
    out += strformat("\nRDEF: target %u.%u (type 0x%x), compile flags 0x%x, creator \"%.*s\"\n", unsigned(rdef.major),
                     unsigned(rdef.minor), unsigned(rdef.program_type), rdef.compile_flags, int(rdef.creator.size()),
                     rdef.creator.data());
    for (const RdefConstantBuffer& cb : rdef.constant_buffers) {
        out += strformat("  %s %.*s: %u bytes, flags 0x%x, %zu variables\n", rdef_cbuffer_type_name(cb.type),
                         int(cb.name.size()), cb.name.data(), cb.size, cb.flags, cb.variables.size());
        for (const RdefVariable& v : cb.variables) {
            out += strformat("    %.*s: offset %u, size %u, flags 0x%x", int(v.name.size()), v.name.data(), v.offset,
                             v.size, v.flags);
            describe_type(rdef, v.type, out);
        }
    }
    for (const RdefBinding& b : rdef.bindings) {
        out += strformat("  binding %.*s: %s, %c%u, count %d, return %s, dimension %s, samples %d, flags 0x%x",
                         int(b.name.size()), b.name.data(), rdef_input_type_name(b.type), register_prefix(b.type),
                         b.bind_point, int(b.bind_count), rdef_return_type_name(b.return_type),
                         rdef_dimension_name(b.dimension), int(b.sample_count), b.flags);
        if (rdef.has_spaces)
            out += strformat(", space %u, id %u", b.space, b.id);
        out += '\n';
    }
}

void describe_parameter(const dxspv_root_parameter& p, size_t i, std::string& out)
{
    out += strformat("  parameter %zu: %s, visibility %s", i, root_parameter_type_name(uint32_t(p.parameter_type)),
                     shader_visibility_name(p.shader_visibility));
    switch (p.parameter_type) {
    case DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
        out += strformat(", %u ranges\n", p.u.descriptor_table.range_count);
        for (unsigned r = 0; r < p.u.descriptor_table.range_count; ++r) {
            const dxspv_descriptor_range& range = p.u.descriptor_table.ranges[r];
            out += strformat("    %s: base register %u, space %u, count %d, flags 0x%x, offset %d\n",
                             descriptor_range_type_name(uint32_t(range.range_type)), range.base_register,
                             range.register_space, int(range.descriptor_count), range.flags,
                             int(range.descriptor_table_offset));
        }
        return;
    case DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
        out += strformat(", register %u, space %u, %u values\n", p.u.constants.shader_register,
                         p.u.constants.register_space, p.u.constants.value_count);
        return;
    default:
        out += strformat(", register %u, space %u, flags 0x%x\n", p.u.descriptor.shader_register,
                         p.u.descriptor.register_space, p.u.descriptor.flags);
        return;
    }
}

void describe_root_signature(const Chunk& chunk, std::string& out, Diagnostics& diags)
{
    RootSignature rs;
    if (!parse_root_signature(chunk, rs, diags)) {
        out += "\nRTS0: malformed\n";
        return;
    }
    const dxspv_root_signature_desc& d = rs.desc;
    out += strformat("\nRTS0: version %s, flags 0x%x, %u parameters, %u static samplers\n",
                     root_signature_version_name(uint32_t(d.version)), d.flags, d.parameter_count,
                     d.static_sampler_count);
    for (size_t i = 0; i < d.parameter_count; ++i)
        describe_parameter(d.parameters[i], i, out);
    for (size_t i = 0; i < d.static_sampler_count; ++i) {
        const dxspv_static_sampler& s = d.static_samplers[i];
        out += strformat("  static sampler %zu: register %u, space %u, visibility %s, filter 0x%x, address %u/%u/%u, "
                         "lod bias %g, anisotropy %u, comparison %u, border %u, lod %g..%g, flags 0x%x\n",
                         i, s.shader_register, s.register_space, shader_visibility_name(s.shader_visibility),
                         s.filter, s.address_u, s.address_v, s.address_w, double(s.mip_lod_bias), s.max_anisotropy,
                         s.comparison_func, s.border_color, double(s.min_lod), double(s.max_lod), s.flags);
    }
}

void describe_chunk(const Chunk& chunk, std::string& out, Diagnostics& diags)
{
    SignatureFormat format;
    if (signature_format_of(chunk.fourcc, format))
        describe_signature(chunk, out, diags);
    else if (chunk.fourcc == fourcc("SFI0"))
        describe_sfi0(chunk, out, diags);
    else if (chunk.fourcc == fourcc("RDEF"))
        describe_rdef(chunk, out, diags);
    else if (chunk.fourcc == fourcc("RTS0"))
        describe_root_signature(chunk, out, diags);
}

} // namespace

std::string describe_container(std::span<const uint8_t> bytes, Diagnostics& diags)
{
    Container c;
    if (!parse_container(bytes, c, diags))
        return {};

    ChecksumStatus status = verify_checksum(c.bytes);
    if (status == ChecksumStatus::mismatch)
        diags.warning(Code::container_checksum_mismatch, Location::offset(checksum_offset),
                      "the stored checksum does not match the container");
    std::string out = strformat("checksum: %s\nchunks: ", checksum_status_name(status));
    for (size_t i = 0; i < c.chunks.size(); ++i) {
        out += i ? "," : "";
        out += fourcc_name(c.chunks[i].fourcc);
    }
    out += strformat("\n\ncontainer: version %u.%u, %zu bytes, %zu chunks\n", unsigned(c.major), unsigned(c.minor),
                     c.bytes.size(), c.chunks.size());
    for (const Chunk& chunk : c.chunks)
        out += strformat("  %s: offset 0x%x, %zu bytes\n", fourcc_name(chunk.fourcc).c_str(), chunk.header_offset(),
                         chunk.data.size());

    describe_program(c, out, diags); // also puts the stage and model lines first
    for (const Chunk& chunk : c.chunks)
        describe_chunk(chunk, out, diags);
    return out;
}

} // namespace dxspv::container

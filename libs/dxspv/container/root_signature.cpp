#include "container/root_signature.h"

#include <cstring>

#include "common/byte_writer.h"
#include "container/chunk_util.h"

namespace dxspv::container {

namespace {

constexpr size_t rts0_header_size = 24;
constexpr size_t parameter_header_size = 12;
constexpr uint32_t max_parameter_type = DXSPV_ROOT_PARAMETER_TYPE_UAV;
constexpr uint32_t max_range_type = DXSPV_DESCRIPTOR_RANGE_TYPE_SAMPLER;
constexpr uint32_t max_visibility = 7; // D3D12_SHADER_VISIBILITY_MESH

size_t range_size(uint32_t version) { return version == DXSPV_ROOT_SIGNATURE_VERSION_1_0 ? 20 : 24; }
size_t descriptor_size(uint32_t version) { return version == DXSPV_ROOT_SIGNATURE_VERSION_1_0 ? 8 : 12; }
size_t sampler_size(uint32_t version) { return version == DXSPV_ROOT_SIGNATURE_VERSION_1_2 ? 56 : 52; }

float f32_at(std::span<const uint8_t> data, size_t offset)
{
    uint32_t u = u32_at(data, offset);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

/// A table's ranges while parsing: pointers are set once `ranges` stops growing.
struct PendingTable {
    size_t parameter;
    size_t first;
};

class Rts0Parser {
public:
    Rts0Parser(std::span<const uint8_t> data, uint32_t base, RootSignature& out, Diagnostics& diags)
        : data_(data), base_(base), out_(out), diags_(diags), range_budget_(data.size() / 20 + 1)
    {
    }

    bool parse();

private:
    bool fits(uint64_t offset, uint64_t count, uint64_t size, size_t field, const char* what);
    bool parse_parameter(size_t index);
    bool parse_table(size_t index, uint32_t offset);
    bool parse_samplers(uint32_t count, uint32_t offset);
    bool check_visibility(uint32_t visibility, size_t field);
    size_t parameter_header(size_t index) const { return parameters_offset_ + parameter_header_size * index; }

    std::span<const uint8_t> data_;
    uint32_t base_;
    RootSignature& out_;
    Diagnostics& diags_;
    uint32_t version_ = 0;
    size_t parameters_offset_ = 0;
    size_t range_budget_;
    std::vector<PendingTable> tables_;
};

bool Rts0Parser::fits(uint64_t offset, uint64_t count, uint64_t size, size_t field, const char* what)
{
    return require_in_bounds(data_, offset, count, size, diags_, Code::rts0_bad_offset, base_ + field, "RTS0", what);
}

bool Rts0Parser::check_visibility(uint32_t visibility, size_t field)
{
    if (visibility <= max_visibility)
        return true;
    diags_.error(Code::rts0_bad_visibility, Location::offset(base_ + field), "unknown shader visibility %u",
                 visibility);
    return false;
}

bool Rts0Parser::parse_table(size_t index, uint32_t offset)
{
    if (!fits(offset, 2, 4, parameter_header(index) + 8, "table header dwords"))
        return false;
    uint32_t count = u32_at(data_, offset);
    uint32_t ranges = u32_at(data_, offset + 4);
    tables_.push_back({index, out_.ranges.size()});
    out_.parameters[index].u.descriptor_table.range_count = count;
    if (!count)
        return true;
    if (!fits(ranges, count, range_size(version_), offset + 4, "descriptor ranges"))
        return false;
    if (count > range_budget_) {
        diags_.error(Code::rts0_bad_offset, Location::offset(base_ + offset),
                     "more descriptor ranges than the %zu-byte RTS0 chunk can hold", data_.size());
        return false;
    }
    range_budget_ -= count;
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = ranges + size_t(i) * range_size(version_);
        dxspv_descriptor_range r{};
        uint32_t type = u32_at(data_, at);
        if (type > max_range_type) {
            diags_.error(Code::rts0_bad_range_type, Location::offset(base_ + at), "unknown descriptor range type %u",
                         type);
            return false;
        }
        r.range_type = dxspv_descriptor_range_type(type);
        r.descriptor_count = u32_at(data_, at + 4);
        r.base_register = u32_at(data_, at + 8);
        r.register_space = u32_at(data_, at + 12);
        if (version_ == DXSPV_ROOT_SIGNATURE_VERSION_1_0) {
            r.descriptor_table_offset = u32_at(data_, at + 16);
        } else {
            r.flags = u32_at(data_, at + 16);
            r.descriptor_table_offset = u32_at(data_, at + 20);
        }
        out_.ranges.push_back(r);
    }
    return true;
}

bool Rts0Parser::parse_parameter(size_t index)
{
    size_t header = parameter_header(index);
    uint32_t type = u32_at(data_, header);
    uint32_t visibility = u32_at(data_, header + 4);
    uint32_t offset = u32_at(data_, header + 8);
    if (type > max_parameter_type) {
        diags_.error(Code::rts0_bad_parameter_type, Location::offset(base_ + header), "unknown root parameter type %u",
                     type);
        return false;
    }
    if (!check_visibility(visibility, header + 4))
        return false;
    dxspv_root_parameter& p = out_.parameters[index];
    p.parameter_type = dxspv_root_parameter_type(type);
    p.shader_visibility = visibility;
    switch (p.parameter_type) {
    case DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
        return parse_table(index, offset);
    case DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
        if (!fits(offset, 3, 4, header + 8, "root constant dwords"))
            return false;
        p.u.constants = {u32_at(data_, offset), u32_at(data_, offset + 4), u32_at(data_, offset + 8)};
        return true;
    default:
        if (!fits(offset, descriptor_size(version_), 1, header + 8, "root descriptor bytes"))
            return false;
        p.u.descriptor.shader_register = u32_at(data_, offset);
        p.u.descriptor.register_space = u32_at(data_, offset + 4);
        if (version_ != DXSPV_ROOT_SIGNATURE_VERSION_1_0)
            p.u.descriptor.flags = u32_at(data_, offset + 8);
        return true;
    }
}

bool Rts0Parser::parse_samplers(uint32_t count, uint32_t offset)
{
    if (!count)
        return true;
    if (!fits(offset, count, sampler_size(version_), 16, "static samplers"))
        return false;
    out_.static_samplers.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = offset + size_t(i) * sampler_size(version_);
        dxspv_static_sampler& s = out_.static_samplers[i];
        s.filter = u32_at(data_, at);
        s.address_u = u32_at(data_, at + 4);
        s.address_v = u32_at(data_, at + 8);
        s.address_w = u32_at(data_, at + 12);
        s.mip_lod_bias = f32_at(data_, at + 16);
        s.max_anisotropy = u32_at(data_, at + 20);
        s.comparison_func = u32_at(data_, at + 24);
        s.border_color = u32_at(data_, at + 28);
        s.min_lod = f32_at(data_, at + 32);
        s.max_lod = f32_at(data_, at + 36);
        s.shader_register = u32_at(data_, at + 40);
        s.register_space = u32_at(data_, at + 44);
        s.shader_visibility = u32_at(data_, at + 48);
        if (!check_visibility(s.shader_visibility, at + 48))
            return false;
        if (version_ == DXSPV_ROOT_SIGNATURE_VERSION_1_2)
            s.flags = u32_at(data_, at + 52);
    }
    return true;
}

bool Rts0Parser::parse()
{
    if (data_.size() < rts0_header_size) {
        diags_.error(Code::rts0_truncated_header, Location::offset(base_),
                     "the RTS0 chunk is %zu bytes, its header needs %zu", data_.size(), rts0_header_size);
        return false;
    }
    version_ = u32_at(data_, 0);
    if (version_ < DXSPV_ROOT_SIGNATURE_VERSION_1_0 || version_ > DXSPV_ROOT_SIGNATURE_VERSION_1_2) {
        diags_.error(Code::rts0_bad_version, Location::offset(base_), "unknown root signature version %u", version_);
        return false;
    }
    uint32_t parameter_count = u32_at(data_, 4);
    parameters_offset_ = u32_at(data_, 8);
    if (parameter_count && !fits(parameters_offset_, parameter_count, parameter_header_size, 8, "root parameters"))
        return false;
    out_.parameters.resize(parameter_count);
    for (size_t i = 0; i < parameter_count; ++i)
        if (!parse_parameter(i))
            return false;
    if (!parse_samplers(u32_at(data_, 12), u32_at(data_, 16)))
        return false;

    for (const PendingTable& t : tables_)
        out_.parameters[t.parameter].u.descriptor_table.ranges = out_.ranges.data() + t.first;
    dxspv_root_signature_desc& d = out_.desc;
    d.version = dxspv_root_signature_version(version_);
    d.parameter_count = parameter_count;
    d.parameters = out_.parameters.data();
    d.static_sampler_count = unsigned(out_.static_samplers.size());
    d.static_samplers = out_.static_samplers.data();
    d.flags = u32_at(data_, 20);
    return true;
}

} // namespace

bool parse_root_signature(std::span<const uint8_t> data, uint32_t base, RootSignature& out, Diagnostics& diags)
{
    out = RootSignature{};
    return Rts0Parser(data, base, out, diags).parse();
}

namespace {

bool invalid_desc(Diagnostics& diags, const std::string& what)
{
    diags.error(Code::rts0_invalid_desc, Location::none(), "%s", what.c_str());
    return false;
}

bool validate_parameter(const dxspv_root_parameter& p, unsigned i, Diagnostics& diags)
{
    if (uint32_t(p.parameter_type) > max_parameter_type)
        return invalid_desc(diags, strformat("parameter %u has an unknown type", i));
    if (p.shader_visibility > max_visibility)
        return invalid_desc(diags, strformat("parameter %u has an unknown shader visibility", i));
    if (p.parameter_type != DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
        return true;
    const dxspv_root_descriptor_table& t = p.u.descriptor_table;
    if (t.range_count && !t.ranges)
        return invalid_desc(diags, strformat("parameter %u has descriptor ranges but a null range pointer", i));
    for (unsigned r = 0; r < t.range_count; ++r)
        if (uint32_t(t.ranges[r].range_type) > max_range_type)
            return invalid_desc(diags, strformat("a descriptor range of parameter %u has an unknown type", i));
    return true;
}

void write_parameter_data(ByteWriter& w, const dxspv_root_parameter& p, uint32_t version)
{
    switch (p.parameter_type) {
    case DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE: {
        const dxspv_root_descriptor_table& t = p.u.descriptor_table;
        w.u32(t.range_count);
        w.u32(uint32_t(w.size() + 4));
        for (unsigned r = 0; r < t.range_count; ++r) {
            const dxspv_descriptor_range& range = t.ranges[r];
            w.u32(uint32_t(range.range_type));
            w.u32(range.descriptor_count);
            w.u32(range.base_register);
            w.u32(range.register_space);
            if (version != DXSPV_ROOT_SIGNATURE_VERSION_1_0)
                w.u32(range.flags);
            w.u32(range.descriptor_table_offset);
        }
        break;
    }
    case DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
        w.u32(p.u.constants.shader_register);
        w.u32(p.u.constants.register_space);
        w.u32(p.u.constants.value_count);
        break;
    default:
        w.u32(p.u.descriptor.shader_register);
        w.u32(p.u.descriptor.register_space);
        if (version != DXSPV_ROOT_SIGNATURE_VERSION_1_0)
            w.u32(p.u.descriptor.flags);
        break;
    }
}

void write_sampler(ByteWriter& w, const dxspv_static_sampler& s, uint32_t version)
{
    w.u32(s.filter);
    w.u32(s.address_u);
    w.u32(s.address_v);
    w.u32(s.address_w);
    w.f32(s.mip_lod_bias);
    w.u32(s.max_anisotropy);
    w.u32(s.comparison_func);
    w.u32(s.border_color);
    w.f32(s.min_lod);
    w.f32(s.max_lod);
    w.u32(s.shader_register);
    w.u32(s.register_space);
    w.u32(s.shader_visibility);
    if (version == DXSPV_ROOT_SIGNATURE_VERSION_1_2)
        w.u32(s.flags);
}

/// The serialised size, to refuse descriptions past 4 GiB before writing.
uint64_t serialized_size(const dxspv_root_signature_desc& desc)
{
    uint32_t version = uint32_t(desc.version);
    uint64_t size = rts0_header_size + uint64_t(desc.parameter_count) * parameter_header_size;
    for (unsigned i = 0; i < desc.parameter_count; ++i) {
        const dxspv_root_parameter& p = desc.parameters[i];
        if (p.parameter_type == DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            size += 8 + uint64_t(p.u.descriptor_table.range_count) * range_size(version);
        else if (p.parameter_type == DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS)
            size += 12;
        else
            size += descriptor_size(version);
    }
    return size + uint64_t(desc.static_sampler_count) * sampler_size(version);
}

} // namespace

bool validate_root_signature(const dxspv_root_signature_desc& desc, Diagnostics& diags)
{
    uint32_t version = uint32_t(desc.version);
    if (version < DXSPV_ROOT_SIGNATURE_VERSION_1_0 || version > DXSPV_ROOT_SIGNATURE_VERSION_1_2)
        return invalid_desc(diags, strformat("unknown root signature version %u", version));
    if (desc.parameter_count && !desc.parameters)
        return invalid_desc(diags, strformat("%u parameters but a null parameter pointer", desc.parameter_count));
    if (desc.static_sampler_count && !desc.static_samplers)
        return invalid_desc(diags, strformat("%u static samplers but a null sampler pointer", desc.static_sampler_count));
    for (unsigned i = 0; i < desc.parameter_count; ++i)
        if (!validate_parameter(desc.parameters[i], i, diags))
            return false;
    for (unsigned i = 0; i < desc.static_sampler_count; ++i)
        if (desc.static_samplers[i].shader_visibility > max_visibility)
            return invalid_desc(diags, strformat("static sampler %u has an unknown shader visibility", i));
    if (serialized_size(desc) > UINT32_MAX)
        return invalid_desc(diags, strformat("the root signature would exceed 4 GiB (%u parameters)", desc.parameter_count));
    return true;
}

bool serialize_root_signature(const dxspv_root_signature_desc& desc, std::vector<uint8_t>& out, Diagnostics& diags)
{
    out.clear();
    if (!validate_root_signature(desc, diags))
        return false;
    uint32_t version = uint32_t(desc.version);
    ByteWriter w;
    w.bytes().reserve(size_t(serialized_size(desc)));
    w.u32(version);
    w.u32(desc.parameter_count);
    w.u32(uint32_t(rts0_header_size));
    w.u32(desc.static_sampler_count);
    w.u32(0); // static samplers offset, patched below
    w.u32(desc.flags);
    for (unsigned i = 0; i < desc.parameter_count; ++i) {
        w.u32(uint32_t(desc.parameters[i].parameter_type));
        w.u32(desc.parameters[i].shader_visibility);
        w.u32(0); // data offset, patched below
    }
    for (unsigned i = 0; i < desc.parameter_count; ++i) {
        w.patch_u32(rts0_header_size + parameter_header_size * i + 8, uint32_t(w.size()));
        write_parameter_data(w, desc.parameters[i], version);
    }
    w.patch_u32(16, uint32_t(w.size()));
    for (unsigned i = 0; i < desc.static_sampler_count; ++i)
        write_sampler(w, desc.static_samplers[i], version);
    out = std::move(w.bytes());
    return true;
}

const char* root_signature_version_name(uint32_t version)
{
    switch (version) {
    case DXSPV_ROOT_SIGNATURE_VERSION_1_0: return "1.0";
    case DXSPV_ROOT_SIGNATURE_VERSION_1_1: return "1.1";
    case DXSPV_ROOT_SIGNATURE_VERSION_1_2: return "1.2";
    default: return "?";
    }
}

const char* root_parameter_type_name(uint32_t type)
{
    static const char* const names[] = {"table", "constants", "cbv", "srv", "uav"};
    return type < std::size(names) ? names[type] : "?";
}

const char* descriptor_range_type_name(uint32_t type)
{
    static const char* const names[] = {"srv", "uav", "cbv", "sampler"};
    return type < std::size(names) ? names[type] : "?";
}

const char* shader_visibility_name(uint32_t visibility)
{
    static const char* const names[] = {"all", "vertex", "hull", "domain", "geometry", "pixel", "amplification", "mesh"};
    return visibility < std::size(names) ? names[visibility] : "?";
}

} // namespace dxspv::container

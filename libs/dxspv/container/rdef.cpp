#include "container/rdef.h"

#include <algorithm>
#include <unordered_map>

#include "container/chunk_util.h"

namespace dxspv::container {

namespace {

constexpr size_t rdef_header_size = 28;
constexpr uint32_t rd11_magic = fourcc("RD11");
constexpr uint32_t rd11_magic_sm51 = 0x25441313;

/// Sizes of the table records; SM4 defaults, or what the RD11 header says.
struct RecordSizes {
    uint32_t cbuffer = 24;
    uint32_t binding = 32;
    uint32_t variable = 24;
    uint32_t type = 16;
    uint32_t member = 12;
};

class RdefParser {
public:
    RdefParser(const Chunk& chunk, Rdef& out, Diagnostics& diags)
        : chunk_(chunk), data_(chunk.data), out_(out), diags_(diags),
          record_budget_(chunk.data.size() / 12 + 1)
    {
    }

    bool parse();

private:
    bool parse_rd11();
    bool parse_bindings(uint32_t count, uint32_t offset);
    bool parse_constant_buffers(uint32_t count, uint32_t offset);
    bool parse_variable(size_t at, RdefVariable& v);
    bool parse_type(uint32_t offset, uint32_t depth, uint32_t& index);
    bool parse_members(RdefType& type, uint32_t index, uint32_t table, uint32_t depth);
    bool name(size_t field, std::string_view& out);
    bool table(uint32_t offset, uint32_t count, uint32_t size, size_t field, const char* what);
    bool take_records(uint32_t count, size_t field);

    const Chunk& chunk_;
    std::span<const uint8_t> data_;
    Rdef& out_;
    Diagnostics& diags_;
    RecordSizes sizes_;
    bool sm5_ = false;
    size_t record_budget_;  ///< variables + members still allowed (shared tables must not multiply)
    std::unordered_map<uint32_t, uint32_t> type_by_offset_;
};

/// Reads the name whose offset is stored at byte `field` of the chunk.
bool RdefParser::name(size_t field, std::string_view& out)
{
    uint32_t offset = u32_at(data_, field);
    if (string_at(data_, offset, out))
        return true;
    diags_.error(Code::rdef_bad_string, Location::offset(chunk_.offset + field),
                 "name offset 0x%x lies outside the %zu-byte RDEF chunk or is unterminated", offset, data_.size());
    return false;
}

bool RdefParser::table(uint32_t offset, uint32_t count, uint32_t size, size_t field, const char* what)
{
    return require_in_bounds(data_, offset, count, size, diags_, Code::rdef_bad_table, chunk_.offset + field, "RDEF",
                             what);
}

bool RdefParser::take_records(uint32_t count, size_t field)
{
    if (count <= record_budget_) {
        record_budget_ -= count;
        return true;
    }
    diags_.error(Code::rdef_bad_table, Location::offset(chunk_.offset + field),
                 "more variables and members than the %zu-byte RDEF chunk can hold", data_.size());
    return false;
}

bool RdefParser::parse_rd11()
{
    constexpr size_t at = rdef_header_size;
    if (!in_bounds(data_, at, 8, 4)) {
        diags_.error(Code::rdef_truncated_header, Location::offset(chunk_.offset + at),
                     "the RDEF chunk is %zu bytes, too small for the RD11 header", data_.size());
        return false;
    }
    uint32_t magic = u32_at(data_, at);
    if (magic != rd11_magic && magic != rd11_magic_sm51) {
        diags_.error(Code::rdef_bad_rd11, Location::offset(chunk_.offset + at), "expected 'RD11', found '%s'",
                     fourcc_name(magic).c_str());
        return false;
    }
    sizes_.cbuffer = u32_at(data_, at + 8);
    sizes_.binding = u32_at(data_, at + 12);
    sizes_.variable = u32_at(data_, at + 16);
    sizes_.type = u32_at(data_, at + 20);
    sizes_.member = u32_at(data_, at + 24);
    if (sizes_.cbuffer < 24 || sizes_.binding < 32 || sizes_.variable < 40 || sizes_.type < 36 ||
        sizes_.member < 12) {
        diags_.error(Code::rdef_bad_rd11, Location::offset(chunk_.offset + at + 8),
                     "RD11 record sizes %u/%u/%u/%u/%u are below 24/32/40/36/12", sizes_.cbuffer, sizes_.binding,
                     sizes_.variable, sizes_.type, sizes_.member);
        return false;
    }
    out_.has_rd11 = true;
    out_.has_spaces = sizes_.binding >= 40;
    return true;
}

bool RdefParser::parse_bindings(uint32_t count, uint32_t offset)
{
    if (!table(offset, count, sizes_.binding, 12, "resource bindings"))
        return false;
    out_.bindings.resize(count);
    bool ok = true;
    for (uint32_t i = 0; i < count; ++i) {
        size_t at = offset + size_t(i) * sizes_.binding;
        RdefBinding& b = out_.bindings[i];
        ok = name(at, b.name) && ok;
        b.type = u32_at(data_, at + 4);
        b.return_type = u32_at(data_, at + 8);
        b.dimension = u32_at(data_, at + 12);
        b.sample_count = u32_at(data_, at + 16);
        b.bind_point = u32_at(data_, at + 20);
        b.bind_count = u32_at(data_, at + 24);
        b.flags = u32_at(data_, at + 28);
        if (out_.has_spaces) {
            b.space = u32_at(data_, at + 32);
            b.id = u32_at(data_, at + 36);
        }
    }
    return ok;
}

bool RdefParser::parse_variable(size_t at, RdefVariable& v)
{
    bool ok = name(at, v.name);
    v.offset = u32_at(data_, at + 4);
    v.size = u32_at(data_, at + 8);
    v.flags = u32_at(data_, at + 12);
    ok = parse_type(u32_at(data_, at + 16), 0, v.type) && ok;
    uint32_t default_offset = u32_at(data_, at + 20);
    if (default_offset) {
        if (table(default_offset, v.size, 1, at + 20, "default value bytes"))
            v.default_value = data_.subspan(default_offset, v.size);
        else
            ok = false;
    }
    if (sm5_) {
        v.start_texture = u32_at(data_, at + 24);
        v.texture_size = u32_at(data_, at + 28);
        v.start_sampler = u32_at(data_, at + 32);
        v.sampler_size = u32_at(data_, at + 36);
    }
    return ok;
}

bool RdefParser::parse_constant_buffers(uint32_t count, uint32_t offset)
{
    if (!table(offset, count, sizes_.cbuffer, 4, "constant buffers"))
        return false;
    out_.constant_buffers.resize(count);
    bool ok = true;
    for (uint32_t i = 0; i < count && ok; ++i) {
        size_t at = offset + size_t(i) * sizes_.cbuffer;
        RdefConstantBuffer& cb = out_.constant_buffers[i];
        ok = name(at, cb.name);
        uint32_t var_count = u32_at(data_, at + 4);
        uint32_t var_offset = u32_at(data_, at + 8);
        cb.size = u32_at(data_, at + 12);
        cb.flags = u32_at(data_, at + 16);
        cb.type = u32_at(data_, at + 20);
        if (!ok || !table(var_offset, var_count, sizes_.variable, at + 8, "variables") ||
            !take_records(var_count, at + 4))
            return false;
        cb.variables.resize(var_count);
        for (uint32_t v = 0; v < var_count && ok; ++v)
            ok = parse_variable(var_offset + size_t(v) * sizes_.variable, cb.variables[v]);
    }
    return ok;
}

bool RdefParser::parse_type(uint32_t offset, uint32_t depth, uint32_t& index)
{
    if (depth >= rdef_max_type_depth) {
        diags_.error(Code::rdef_type_too_deep, Location::offset(chunk_.offset + offset),
                     "types are nested more than %u levels deep", rdef_max_type_depth);
        return false;
    }
    if (auto it = type_by_offset_.find(offset); it != type_by_offset_.end()) {
        const RdefType& known = out_.types[it->second];
        if (known.height == 0 || depth + known.height > rdef_max_type_depth) {
            diags_.error(Code::rdef_type_too_deep, Location::offset(chunk_.offset + offset),
                         known.height == 0 ? "type at 0x%x contains itself"
                                           : "type at 0x%x is nested too deeply",
                         offset);
            return false;
        }
        index = it->second;
        return true;
    }
    if (!in_bounds(data_, offset, sizes_.type)) {
        diags_.error(Code::rdef_bad_type, Location::offset(chunk_.offset + offset),
                     "type description at 0x%x lies outside the %zu-byte RDEF chunk", offset, data_.size());
        return false;
    }
    RdefType type;
    type.offset = offset;
    type.type_class = load_le16(data_.data() + offset);
    type.base_type = load_le16(data_.data() + offset + 2);
    type.rows = load_le16(data_.data() + offset + 4);
    type.columns = load_le16(data_.data() + offset + 6);
    type.elements = load_le16(data_.data() + offset + 8);
    type.member_count = load_le16(data_.data() + offset + 10);
    if (sm5_ && u32_at(data_, offset + 32) && !name(offset + 32, type.name))
        return false;

    index = uint32_t(out_.types.size());
    type_by_offset_.emplace(offset, index);
    out_.types.push_back(type); // height 0 marks it as being parsed
    return parse_members(type, index, u32_at(data_, offset + 12), depth);
}

bool RdefParser::parse_members(RdefType& type, uint32_t index, uint32_t table_offset, uint32_t depth)
{
    if (type.member_count) {
        if (!table(table_offset, type.member_count, sizes_.member, type.offset + 12, "struct members") ||
            !take_records(type.member_count, type.offset + 10))
            return false;
        type.first_member = uint32_t(out_.members.size());
        out_.members.resize(out_.members.size() + type.member_count);
    }
    uint32_t height = 0;
    for (uint32_t m = 0; m < type.member_count; ++m) {
        size_t at = table_offset + size_t(m) * sizes_.member;
        RdefMember member;
        member.offset = u32_at(data_, at + 8);
        if (!name(at, member.name) || !parse_type(u32_at(data_, at + 4), depth + 1, member.type))
            return false;
        height = std::max(height, out_.types[member.type].height);
        out_.members[type.first_member + m] = member;
    }
    type.height = height + 1;
    out_.types[index] = type;
    return true;
}

bool RdefParser::parse()
{
    if (data_.size() < rdef_header_size) {
        diags_.error(Code::rdef_truncated_header, Location::offset(chunk_.offset),
                     "the RDEF chunk is %zu bytes, its header needs %zu", data_.size(), rdef_header_size);
        return false;
    }
    uint32_t version = u32_at(data_, 16);
    out_.minor = uint8_t(version);
    out_.major = uint8_t(version >> 8);
    out_.program_type = uint16_t(version >> 16);
    out_.compile_flags = u32_at(data_, 20);
    sm5_ = out_.major >= 5;
    if (sm5_ && !parse_rd11())
        return false;
    if (!name(24, out_.creator))
        return false;
    if (!parse_bindings(u32_at(data_, 8), u32_at(data_, 12)))
        return false;
    return parse_constant_buffers(u32_at(data_, 0), u32_at(data_, 4));
}

} // namespace

bool parse_rdef(const Chunk& chunk, Rdef& out, Diagnostics& diags)
{
    out = Rdef{};
    return RdefParser(chunk, out, diags).parse();
}

const char* rdef_input_type_name(uint32_t type)
{
    static const char* const names[] = {
        "cbuffer", "tbuffer", "texture", "sampler", "uav_rwtyped", "structured", "uav_rwstructured",
        "byteaddress", "uav_rwbyteaddress", "uav_append_structured", "uav_consume_structured",
        "uav_rwstructured_with_counter", "rtaccelerationstructure", "uav_feedbacktexture",
    };
    return type < std::size(names) ? names[type] : "?";
}

const char* rdef_return_type_name(uint32_t type)
{
    static const char* const names[] = {"none", "unorm", "snorm", "sint", "uint", "float", "mixed", "double", "continued"};
    return type < std::size(names) ? names[type] : "?";
}

const char* rdef_dimension_name(uint32_t dimension)
{
    static const char* const names[] = {
        "unknown", "buffer", "texture1d", "texture1darray", "texture2d", "texture2darray", "texture2dms",
        "texture2dmsarray", "texture3d", "texturecube", "texturecubearray", "bufferex",
    };
    return dimension < std::size(names) ? names[dimension] : "?";
}

const char* rdef_cbuffer_type_name(uint32_t type)
{
    static const char* const names[] = {"cbuffer", "tbuffer", "interface_pointers", "resource_bind_info"};
    return type < std::size(names) ? names[type] : "?";
}

} // namespace dxspv::container

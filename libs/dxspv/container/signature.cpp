#include "container/signature.h"

#include <unordered_map>

#include "common/byte_writer.h"
#include "container/chunk_util.h"

namespace dxspv::container {

bool signature_format_of(uint32_t code, SignatureFormat& out)
{
    if (code == fourcc("ISGN") || code == fourcc("OSGN") || code == fourcc("PCSG"))
        out = SignatureFormat::sgn;
    else if (code == fourcc("OSG5"))
        out = SignatureFormat::sg5;
    else if (code == fourcc("ISG1") || code == fourcc("OSG1") || code == fourcc("PSG1"))
        out = SignatureFormat::sg1;
    else
        return false;
    return true;
}

size_t signature_element_size(SignatureFormat format)
{
    switch (format) {
    case SignatureFormat::sgn: return 24;
    case SignatureFormat::sg5: return 28;
    case SignatureFormat::sg1: return 32;
    }
    return 24;
}

namespace {

constexpr size_t signature_header_size = 8;

bool has_stream(SignatureFormat format) { return format != SignatureFormat::sgn; }

bool parse_element(const Chunk& chunk, SignatureFormat format, size_t at, SignatureElement& e, Diagnostics& diags)
{
    std::span<const uint8_t> data = chunk.data;
    size_t p = at;
    if (has_stream(format)) {
        e.stream = u32_at(data, p);
        p += 4;
    }
    uint32_t name_offset = u32_at(data, p);
    if (!string_at(data, name_offset, e.semantic_name)) {
        diags.error(Code::signature_bad_name, Location::offset(chunk.offset + p),
                    "element name offset 0x%x lies outside the %zu-byte '%s' chunk or is unterminated", name_offset,
                    data.size(), fourcc_name(chunk.fourcc).c_str());
        return false;
    }
    e.semantic_index = u32_at(data, p + 4);
    e.system_value = SystemValue(u32_at(data, p + 8));
    e.component_type = ComponentType(u32_at(data, p + 12));
    e.register_index = u32_at(data, p + 16);
    e.mask = data[p + 20];
    e.used_mask = data[p + 21];
    e.reserved = uint16_t(data[p + 22] | data[p + 23] << 8);
    if (format == SignatureFormat::sg1)
        e.min_precision = MinPrecision(u32_at(data, p + 24));
    return true;
}

} // namespace

bool parse_signature(const Chunk& chunk, std::vector<SignatureElement>& out, Diagnostics& diags)
{
    out.clear();
    SignatureFormat format;
    if (!signature_format_of(chunk.fourcc, format)) {
        diags.error(Code::signature_unknown_kind, Location::offset(chunk.header_offset()),
                    "'%s' is not a signature chunk", fourcc_name(chunk.fourcc).c_str());
        return false;
    }
    std::span<const uint8_t> data = chunk.data;
    if (data.size() < signature_header_size) {
        diags.error(Code::signature_truncated, Location::offset(chunk.offset),
                    "the '%s' chunk is %zu bytes, its header needs 8", fourcc_name(chunk.fourcc).c_str(), data.size());
        return false;
    }
    uint32_t count = u32_at(data, 0);
    uint32_t first = u32_at(data, 4);
    size_t element_size = signature_element_size(format);
    if (!in_bounds(data, first, count, element_size) && // (fourcc_name makes a string: only for the message)
        !require_in_bounds(data, first, count, element_size, diags, Code::signature_truncated, chunk.offset,
                           fourcc_name(chunk.fourcc).c_str(), "elements"))
        return false;
    out.resize(count);
    bool ok = true;
    for (uint32_t i = 0; i < count; ++i)
        ok = parse_element(chunk, format, first + size_t(i) * element_size, out[i], diags) && ok;
    return ok;
}

std::vector<uint8_t> serialize_signature(std::span<const SignatureElement> elements, SignatureFormat format,
                                         std::optional<uint8_t> padding)
{
    size_t element_size = signature_element_size(format);
    size_t names_start = signature_header_size + elements.size() * element_size;

    // The name table, each distinct name once in order of first use.
    std::vector<std::string_view> names;
    std::unordered_map<std::string_view, uint32_t> name_offsets;
    std::vector<uint32_t> element_name(elements.size());
    size_t names_size = 0;
    for (size_t i = 0; i < elements.size(); ++i) {
        std::string_view name = elements[i].semantic_name;
        auto [it, inserted] = name_offsets.try_emplace(name, uint32_t(names_start + names_size));
        if (inserted) {
            names.push_back(name);
            names_size += name.size() + 1;
        }
        element_name[i] = it->second;
    }

    ByteWriter w;
    w.u32(uint32_t(elements.size()));
    w.u32(uint32_t(signature_header_size));
    for (size_t i = 0; i < elements.size(); ++i) {
        const SignatureElement& e = elements[i];
        if (has_stream(format))
            w.u32(e.stream);
        w.u32(element_name[i]);
        w.u32(e.semantic_index);
        w.u32(uint32_t(e.system_value));
        w.u32(uint32_t(e.component_type));
        w.u32(e.register_index);
        w.u8(e.mask);
        w.u8(e.used_mask);
        w.u16(e.reserved);
        if (format == SignatureFormat::sg1)
            w.u32(uint32_t(e.min_precision));
    }
    for (std::string_view name : names)
        w.cstring(name);
    if (padding)
        w.align(4, *padding);
    return std::move(w.bytes());
}

} // namespace dxspv::container

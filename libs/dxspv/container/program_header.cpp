#include "container/program_header.h"

#include "container/chunk_util.h"
#include "common/byte_writer.h"

namespace dxspv::container {

namespace {

constexpr uint32_t max_tpf_program_type = uint32_t(ShaderStage::compute);
constexpr uint32_t max_dxil_shader_kind = uint32_t(ShaderStage::node);
constexpr uint32_t dxil_magic = fourcc("DXIL");
constexpr size_t dxil_header_size = 24;
constexpr size_t dxil_magic_offset = 8; ///< the bitcode offset counts from here

/// Splits a version token (kind << 16 | major << 4 | minor) into `out`.
bool read_version(const Chunk& chunk, uint32_t version, uint32_t max_type, ShaderModel& out, Diagnostics& diags)
{
    uint32_t type = version >> 16;
    if (type > max_type) {
        diags.error(Code::program_bad_type, Location::offset(chunk.offset), "unknown program type %u in '%s'", type,
                    fourcc_name(chunk.fourcc).c_str());
        return false;
    }
    out.stage = ShaderStage(type);
    out.major = uint8_t((version >> 4) & 0xf);
    out.minor = uint8_t(version & 0xf);
    return true;
}

} // namespace

const Chunk* find_program_chunk(const Container& container)
{
    for (uint32_t code : {fourcc("DXIL"), fourcc("SHEX"), fourcc("SHDR")})
        if (const Chunk* c = container.find(code))
            return c;
    return nullptr;
}

bool parse_tpf_header(const Chunk& chunk, ProgramHeader& out, Diagnostics& diags)
{
    out = ProgramHeader{};
    out.format = ProgramFormat::tpf;
    out.chunk = chunk;
    std::span<const uint8_t> data = chunk.data;
    if (data.size() < 8) {
        diags.error(Code::program_truncated, Location::offset(chunk.offset),
                    "the '%s' chunk is %zu bytes, too small for its version and length tokens",
                    fourcc_name(chunk.fourcc).c_str(), data.size());
        return false;
    }
    if (!read_version(chunk, u32_at(data, 0), max_tpf_program_type, out.model, diags))
        return false;
    uint32_t length = u32_at(data, 4);
    if (length < 2 || !in_bounds(data, 0, length, 4)) {
        diags.error(Code::program_truncated, Location::offset(chunk.offset + 4),
                    "the program declares %u dwords, the '%s' chunk holds %zu", length,
                    fourcc_name(chunk.fourcc).c_str(), data.size() / 4);
        return false;
    }
    out.tokens = data.first(size_t(length) * 4);
    return true;
}

bool parse_dxil_header(const Chunk& chunk, ProgramHeader& out, Diagnostics& diags)
{
    out = ProgramHeader{};
    out.format = ProgramFormat::dxil;
    out.chunk = chunk;
    std::span<const uint8_t> data = chunk.data;
    if (data.size() < dxil_header_size) {
        diags.error(Code::program_truncated, Location::offset(chunk.offset),
                    "the '%s' chunk is %zu bytes, its program header needs %zu", fourcc_name(chunk.fourcc).c_str(),
                    data.size(), dxil_header_size);
        return false;
    }
    if (!read_version(chunk, u32_at(data, 0), max_dxil_shader_kind, out.model, diags))
        return false;
    uint32_t size_dwords = u32_at(data, 4);
    if (!in_bounds(data, 0, size_dwords, 4) || size_t(size_dwords) * 4 < dxil_header_size) {
        diags.error(Code::program_truncated, Location::offset(chunk.offset + 4),
                    "the program declares %u dwords, the chunk holds %zu", size_dwords, data.size() / 4);
        return false;
    }
    std::span<const uint8_t> program = data.first(size_t(size_dwords) * 4);
    if (u32_at(data, 8) != dxil_magic) {
        diags.error(Code::program_bad_dxil_header, Location::offset(chunk.offset + 8), "expected 'DXIL', found '%s'",
                    fourcc_name(u32_at(data, 8)).c_str());
        return false;
    }
    uint32_t dxil_version = u32_at(data, 12);
    out.dxil_major = uint8_t(dxil_version >> 8);
    out.dxil_minor = uint8_t(dxil_version);
    uint64_t bitcode_start = dxil_magic_offset + uint64_t(u32_at(data, 16));
    uint32_t bitcode_size = u32_at(data, 20);
    if (bitcode_start < dxil_header_size || !in_bounds(program, bitcode_start, bitcode_size)) {
        diags.error(Code::program_bad_dxil_header, Location::offset(chunk.offset + 16),
                    "bitcode of %u bytes at 0x%llx lies outside the %zu-byte program", bitcode_size,
                    static_cast<unsigned long long>(bitcode_start), program.size());
        return false;
    }
    out.bitcode = program.subspan(size_t(bitcode_start), bitcode_size);
    out.bitcode_offset = chunk.offset + uint32_t(bitcode_start);
    return true;
}

bool serialize_dxil_program(const ShaderModel& model, uint8_t dxil_major, uint8_t dxil_minor,
                            std::span<const uint8_t> bitcode, std::vector<uint8_t>& out, Diagnostics& diags)
{
    uint64_t size = (dxil_header_size + uint64_t(bitcode.size()) + 3) & ~uint64_t(3);
    if (size > 0xFFFFFFFFu || uint32_t(model.stage) > max_dxil_shader_kind || model.major > 15 || model.minor > 15) {
        diags.error(Code::program_bad_dxil_header, Location::none(),
                    "a DXIL program of %zu bytes for shader kind %u, model %u.%u cannot be encoded", bitcode.size(),
                    unsigned(model.stage), unsigned(model.major), unsigned(model.minor));
        return false;
    }
    ByteWriter w;
    w.u32(uint32_t(model.stage) << 16 | uint32_t(model.major) << 4 | model.minor);
    w.u32(uint32_t(size / 4));
    w.u32(dxil_magic);
    w.u32(uint32_t(dxil_major) << 8 | dxil_minor);
    w.u32(uint32_t(dxil_header_size - dxil_magic_offset));
    w.u32(uint32_t(bitcode.size()));
    w.append(bitcode);
    while (w.size() % 4)
        w.u8(0);
    out = std::move(w.bytes());
    return true;
}

bool parse_program_header(const Container& container, ProgramHeader& out, Diagnostics& diags)
{
    const Chunk* chunk = find_program_chunk(container);
    if (!chunk) {
        out = ProgramHeader{};
        diags.error(Code::program_missing, Location::none(), "the container holds no SHDR, SHEX or DXIL chunk");
        return false;
    }
    if (chunk->fourcc == fourcc("DXIL"))
        return parse_dxil_header(*chunk, out, diags);
    return parse_tpf_header(*chunk, out, diags);
}

} // namespace dxspv::container

// The DXBC container: a header (magic, checksum, version, total size, chunk
// offset table) followed by chunks (fourcc, size, data). Parsing borrows the
// input bytes; nothing is copied.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"

namespace dxspv::container {

/// A fourcc as stored little-endian in the container: "DXBC" -> 'D' | 'X' << 8 ...
/// Characters past the fourth are ignored, missing ones are 0.
constexpr uint32_t fourcc(std::string_view s)
{
    uint32_t code = 0;
    for (size_t i = 0; i < 4 && i < s.size(); ++i)
        code |= uint32_t(uint8_t(s[i])) << (8 * i);
    return code;
}


/// The four characters of a fourcc; non-printable bytes become '?'.
std::string fourcc_name(uint32_t code);

inline constexpr uint32_t dxbc_magic = fourcc("DXBC");
inline constexpr size_t header_size = 32;       ///< up to and including the chunk count
inline constexpr size_t chunk_header_size = 8;  ///< fourcc + size
inline constexpr size_t checksum_offset = 4;
inline constexpr size_t checksum_size = 16;

struct Chunk {
    uint32_t fourcc = 0;
    uint32_t offset = 0;             ///< offset of the chunk's data in the container
    std::span<const uint8_t> data;   ///< borrowed from the input
    /// Offset of the chunk header (what the offset table holds).
    uint32_t header_offset() const { return offset >= chunk_header_size ? offset - uint32_t(chunk_header_size) : 0; }
};

struct Container {
    std::span<const uint8_t> bytes;  ///< the container, cut to its declared total size
    std::array<uint8_t, checksum_size> checksum{};
    uint16_t major = 0;
    uint16_t minor = 0;
    std::vector<Chunk> chunks;       ///< in offset-table order

    /// The first chunk with this fourcc, or nullptr.
    const Chunk* find(uint32_t code) const;
};

/// True when the bytes start with the DXBC magic.
bool is_dxbc(std::span<const uint8_t> bytes);

/// Parses the header and the chunk table. On failure reports every problem
/// found and returns false; `out` is then unspecified.
bool parse_container(std::span<const uint8_t> bytes, Container& out, Diagnostics& diags);

struct ChunkInput {
    uint32_t fourcc = 0;
    std::span<const uint8_t> data;
};

/// Builds a container (version 1.0) holding `chunks` in order, each padded
/// to 4 bytes, with the checksum computed. Fails only past 4 GiB.
bool serialize_container(std::span<const ChunkInput> chunks, std::vector<uint8_t>& out, Diagnostics& diags);

} // namespace dxspv::container

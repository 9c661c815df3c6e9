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

/// The chunks of a container: compilers write at most eight (fxc five or
/// six, dxc up to eight), held in place so that parsing a container costs
/// no heap allocation; a longer table goes to the heap.
class ChunkList {
public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Chunk* data() { return heap_.empty() ? in_place_.chunks : heap_.data(); }
    const Chunk* data() const { return heap_.empty() ? in_place_.chunks : heap_.data(); }
    Chunk* begin() { return data(); }
    Chunk* end() { return data() + size_; }
    const Chunk* begin() const { return data(); }
    const Chunk* end() const { return data() + size_; }
    Chunk& operator[](size_t i) { return data()[i]; }
    const Chunk& operator[](size_t i) const { return data()[i]; }
    operator std::span<const Chunk>() const { return {data(), size_}; }

    void clear()
    {
        heap_.clear();
        size_ = 0;
    }
    /// As std::vector::resize: keeps the first chunks, new ones are default.
    void resize(size_t n)
    {
        if (n <= in_place_count && heap_.empty()) {
            for (size_t i = size_; i < n; ++i)
                in_place_.chunks[i] = Chunk{};
        } else {
            if (heap_.empty())
                heap_.assign(in_place_.chunks, in_place_.chunks + size_);
            heap_.resize(n);
        }
        size_ = n;
    }

private:
    static constexpr size_t in_place_count = 8;
    /// Not initialised on construction (zeroing all eight cost more than
    /// parsing a small container): resize() makes the first size_ live.
    union InPlace {
        InPlace() {}
        Chunk chunks[in_place_count];
    } in_place_;
    std::vector<Chunk> heap_; ///< all chunks once there are more than in_place_count
    size_t size_ = 0;
};

struct Container {
    std::span<const uint8_t> bytes;  ///< the container, cut to its declared total size
    std::array<uint8_t, checksum_size> checksum{};
    uint16_t major = 0;
    uint16_t minor = 0;
    ChunkList chunks;                ///< in offset-table order

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

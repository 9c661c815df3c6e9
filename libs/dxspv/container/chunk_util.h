// Bounds-checked access to a chunk's bytes, shared by the chunk parsers.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/byte_reader.h"
#include "common/diagnostics.h"

namespace dxspv::container {

/// True when [offset, offset + count * elem_size) lies inside `data`.
/// count and elem_size are at most 32-bit, so the product cannot overflow.
inline bool in_bounds(std::span<const uint8_t> data, uint64_t offset, uint64_t count, uint64_t elem_size = 1)
{
    return offset <= data.size() && count * elem_size <= data.size() - offset;
}

/// in_bounds(), or reports `code` at container offset `location` and returns
/// false: "<count> <what> of <elem_size> bytes at <offset> do not fit in the
/// <size>-byte <chunk> chunk".
inline bool require_in_bounds(std::span<const uint8_t> data, uint64_t offset, uint64_t count, uint64_t elem_size,
                              Diagnostics& diags, Code code, uint64_t location, const char* chunk, const char* what)
{
    if (in_bounds(data, offset, count, elem_size))
        return true;
    diags.error(code, Location::offset(location), "%llu %s of %llu bytes at 0x%llx do not fit in the %zu-byte %s chunk",
                static_cast<unsigned long long>(count), what, static_cast<unsigned long long>(elem_size),
                static_cast<unsigned long long>(offset), data.size(), chunk);
    return false;
}

/// Little-endian u32 at `offset`; the caller has checked the bounds.
inline uint32_t u32_at(std::span<const uint8_t> data, size_t offset) { return load_le32(data.data() + offset); }

/// The NUL-terminated string at `offset`; false if it leaves `data`.
inline bool string_at(std::span<const uint8_t> data, uint64_t offset, std::string_view& out)
{
    return offset < data.size() && ByteReader(data).string_at(size_t(offset), out);
}

} // namespace dxspv::container

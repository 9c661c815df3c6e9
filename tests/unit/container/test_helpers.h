// Helpers shared by the container unit tests.
#pragma once

#include <cstdint>
#include <doctest/doctest.h>
#include <string>
#include <utility>
#include <vector>

#include "common/byte_reader.h"
#include "common/byte_writer.h"
#include "common/diagnostics.h"
#include "container/container.h"

namespace dxspv::container::test {

using Bytes = std::vector<uint8_t>;

/// A checksummed container holding `chunks` in order.
inline Bytes make_container(const std::vector<std::pair<uint32_t, Bytes>>& chunks)
{
    std::vector<ChunkInput> inputs;
    for (const auto& [code, data] : chunks)
        inputs.push_back({code, data});
    Bytes out;
    Diagnostics diags;
    serialize_container(inputs, out, diags);
    return out;
}

inline void put_u32(Bytes& bytes, size_t offset, uint32_t v)
{
    REQUIRE(offset + 4 <= bytes.size()); // (GCC 12 warns of a write past the end without it)
    for (int i = 0; i < 4; ++i)
        bytes[offset + size_t(i)] = uint8_t(v >> (8 * i));
}

/// The first message's code and offset, to check a malformed input's report.
inline bool reported(const Diagnostics& diags, Code code, uint32_t offset)
{
    for (const Message& m : diags.messages())
        if (m.code == code && m.location.kind == Location::Kind::offset && m.location.a == offset)
            return true;
    return false;
}

/// An SHEX chunk: version token, length, `ret`.
inline Bytes make_shex(uint32_t program_type, uint32_t major, uint32_t minor)
{
    ByteWriter w;
    w.u32(program_type << 16 | major << 4 | minor);
    w.u32(3);
    w.u32(0x0100003e); // ret
    return w.bytes();
}

} // namespace dxspv::container::test

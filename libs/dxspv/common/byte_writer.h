// Little-endian byte writer for serialisers.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <vector>

namespace dxspv {

class ByteWriter {
public:
    std::vector<uint8_t>& bytes() { return bytes_; }
    const std::vector<uint8_t>& bytes() const { return bytes_; }
    size_t size() const { return bytes_.size(); }

    void u8(uint8_t v) { bytes_.push_back(v); }
    void u16(uint16_t v)
    {
        bytes_.push_back(uint8_t(v));
        bytes_.push_back(uint8_t(v >> 8));
    }
    void u32(uint32_t v)
    {
        for (int i = 0; i < 4; ++i)
            bytes_.push_back(uint8_t(v >> (8 * i)));
    }
    void u64(uint64_t v)
    {
        u32(uint32_t(v));
        u32(uint32_t(v >> 32));
    }
    void f32(float f)
    {
        uint32_t v;
        std::memcpy(&v, &f, 4);
        u32(v);
    }
    void append(std::span<const uint8_t> data) { bytes_.insert(bytes_.end(), data.begin(), data.end()); }
    /// Writes the string and its terminating NUL.
    void cstring(std::string_view s)
    {
        bytes_.insert(bytes_.end(), s.begin(), s.end());
        bytes_.push_back(0);
    }
    void align(size_t alignment, uint8_t fill = 0)
    {
        while (bytes_.size() % alignment)
            bytes_.push_back(fill);
    }
    /// Overwrites a 32-bit value already written at `offset`.
    void patch_u32(size_t offset, uint32_t v)
    {
        for (int i = 0; i < 4; ++i)
            bytes_[offset + size_t(i)] = uint8_t(v >> (8 * i));
    }

private:
    std::vector<uint8_t> bytes_;
};

} // namespace dxspv

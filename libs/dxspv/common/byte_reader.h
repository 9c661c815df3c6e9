// Bounds-checked little-endian reader over borrowed bytes. Every read
// reports failure instead of reading past the end.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace dxspv {

inline uint16_t load_le16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
inline uint32_t load_le32(const uint8_t* p)
{
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}
inline uint64_t load_le64(const uint8_t* p) { return uint64_t(load_le32(p)) | (uint64_t(load_le32(p + 4)) << 32); }

class ByteReader {
public:
    ByteReader() = default;
    explicit ByteReader(std::span<const uint8_t> bytes) : data_(bytes.data()), size_(bytes.size()) {}

    size_t size() const { return size_; }
    size_t pos() const { return pos_; }
    size_t remaining() const { return size_ - pos_; }
    bool can_read(size_t n) const { return n <= size_ - pos_; }
    std::span<const uint8_t> bytes() const { return {data_, size_}; }

    bool seek(size_t pos)
    {
        if (pos > size_)
            return false;
        pos_ = pos;
        return true;
    }
    bool skip(size_t n)
    {
        if (!can_read(n))
            return false;
        pos_ += n;
        return true;
    }
    bool read_u8(uint8_t& v)
    {
        if (!can_read(1))
            return false;
        v = data_[pos_++];
        return true;
    }
    bool read_u16(uint16_t& v)
    {
        if (!can_read(2))
            return false;
        v = load_le16(data_ + pos_);
        pos_ += 2;
        return true;
    }
    bool read_u32(uint32_t& v)
    {
        if (!can_read(4))
            return false;
        v = load_le32(data_ + pos_);
        pos_ += 4;
        return true;
    }
    bool read_u64(uint64_t& v)
    {
        if (!can_read(8))
            return false;
        v = load_le64(data_ + pos_);
        pos_ += 8;
        return true;
    }
    bool read_f32(float& v)
    {
        uint32_t u;
        if (!read_u32(u))
            return false;
        std::memcpy(&v, &u, 4);
        return true;
    }
    bool read_bytes(size_t n, std::span<const uint8_t>& out)
    {
        if (!can_read(n))
            return false;
        out = {data_ + pos_, n};
        pos_ += n;
        return true;
    }

    /// Reads a NUL-terminated string starting at absolute offset `offset`
    /// without moving the cursor; fails if no NUL occurs before the end.
    bool string_at(size_t offset, std::string_view& out) const
    {
        if (offset >= size_)
            return false;
        const void* nul = std::memchr(data_ + offset, 0, size_ - offset);
        if (!nul)
            return false;
        out = std::string_view(reinterpret_cast<const char*>(data_ + offset),
                               size_t(static_cast<const uint8_t*>(nul) - (data_ + offset)));
        return true;
    }

private:
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    size_t pos_ = 0;
};

} // namespace dxspv

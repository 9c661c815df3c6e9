#include "container/checksum.h"

#include <cstring>

#include "common/byte_reader.h"

namespace dxspv::container {

namespace {

constexpr size_t skipped_bytes = 20;
constexpr size_t block_size = 64;

constexpr uint32_t sine_table[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};


uint32_t rotl(uint32_t x, unsigned n) { return (x << n) | (x >> (32 - n)); }

/// a = b + ((a + f + x + t) <<< s): one MD5 step.
inline void step(uint32_t& a, uint32_t b, uint32_t f, uint32_t x, uint32_t t, unsigned s)
{
    a = b + rotl(a + f + x + t, s);
}

/// One MD5 compression of a 64-byte block: four rounds of sixteen steps,
/// unrolled so that the message indices and shifts are constants.
void md5_block(uint32_t state[4], const uint8_t* block)
{
    uint32_t m[16];
    for (size_t i = 0; i < 16; ++i)
        m[i] = load_le32(block + 4 * i);
    const uint32_t* k = sine_table;
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
#pragma GCC unroll 4
    for (unsigned i = 0; i < 16; i += 4) { // F(x, y, z) = z ^ (x & (y ^ z)), message i
        step(a, b, d ^ (b & (c ^ d)), m[i], k[i], 7);
        step(d, a, c ^ (a & (b ^ c)), m[i + 1], k[i + 1], 12);
        step(c, d, b ^ (d & (a ^ b)), m[i + 2], k[i + 2], 17);
        step(b, c, a ^ (c & (d ^ a)), m[i + 3], k[i + 3], 22);
    }
#pragma GCC unroll 4
    for (unsigned i = 16; i < 32; i += 4) { // G(x, y, z) = y ^ (z & (x ^ y)), message 5i + 1
        step(a, b, c ^ (d & (b ^ c)), m[(5 * i + 1) % 16], k[i], 5);
        step(d, a, b ^ (c & (a ^ b)), m[(5 * i + 6) % 16], k[i + 1], 9);
        step(c, d, a ^ (b & (d ^ a)), m[(5 * i + 11) % 16], k[i + 2], 14);
        step(b, c, d ^ (a & (c ^ d)), m[(5 * i + 16) % 16], k[i + 3], 20);
    }
#pragma GCC unroll 4
    for (unsigned i = 32; i < 48; i += 4) { // H(x, y, z) = x ^ y ^ z, message 3i + 5
        step(a, b, b ^ c ^ d, m[(3 * i + 5) % 16], k[i], 4);
        step(d, a, a ^ b ^ c, m[(3 * i + 8) % 16], k[i + 1], 11);
        step(c, d, d ^ a ^ b, m[(3 * i + 11) % 16], k[i + 2], 16);
        step(b, c, c ^ d ^ a, m[(3 * i + 14) % 16], k[i + 3], 23);
    }
#pragma GCC unroll 4
    for (unsigned i = 48; i < 64; i += 4) { // I(x, y, z) = y ^ (x | ~z), message 7i
        step(a, b, c ^ (b | ~d), m[(7 * i) % 16], k[i], 6);
        step(d, a, b ^ (a | ~c), m[(7 * i + 7) % 16], k[i + 1], 10);
        step(c, d, a ^ (d | ~b), m[(7 * i + 14) % 16], k[i + 2], 15);
        step(b, c, d ^ (c | ~a), m[(7 * i + 21) % 16], k[i + 3], 21);
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void store_le32(uint8_t* p, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        p[i] = uint8_t(v >> (8 * i));
}

} // namespace

Checksum compute_checksum(std::span<const uint8_t> container)
{
    Checksum out{};
    if (container.size() < skipped_bytes)
        return out;
    std::span<const uint8_t> data = container.subspan(skipped_bytes);
    uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};

    size_t full = data.size() & ~(block_size - 1);
    for (size_t pos = 0; pos < full; pos += block_size)
        md5_block(state, data.data() + pos);

    // The length is a 32-bit bit count, as Microsoft's implementation has it.
    uint32_t bits = uint32_t(data.size()) * 8;
    size_t rest = data.size() - full;
    uint8_t block[block_size] = {};
    if (rest >= 56) {
        // Standard padding in this block; the counts go in a block of their own.
        std::memcpy(block, data.data() + full, rest);
        block[rest] = 0x80;
        md5_block(state, block);
        std::memset(block, 0, sizeof(block));
        store_le32(block, bits);
        store_le32(block + 60, (bits >> 2) | 1);
    } else {
        // The bit count leads the last block, then the data, then the padding.
        store_le32(block, bits);
        if (rest)
            std::memcpy(block + 4, data.data() + full, rest);
        block[4 + rest] = 0x80;
        store_le32(block + 60, (bits >> 2) | 1);
    }
    md5_block(state, block);

    for (size_t i = 0; i < 4; ++i)
        store_le32(out.data() + 4 * i, state[i]);
    return out;
}

Checksum md5(std::span<const uint8_t> data)
{
    uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
    size_t full = data.size() & ~(block_size - 1);
    for (size_t pos = 0; pos < full; pos += block_size)
        md5_block(state, data.data() + pos);
    uint64_t bits = uint64_t(data.size()) * 8;
    size_t rest = data.size() - full;
    uint8_t block[block_size] = {};
    if (rest)
        std::memcpy(block, data.data() + full, rest);
    block[rest] = 0x80;
    if (rest >= 56) {
        md5_block(state, block);
        std::memset(block, 0, sizeof(block));
    }
    store_le32(block + 56, uint32_t(bits));
    store_le32(block + 60, uint32_t(bits >> 32));
    md5_block(state, block);
    Checksum out{};
    for (size_t i = 0; i < 4; ++i)
        store_le32(out.data() + 4 * i, state[i]);
    return out;
}

ChecksumStatus verify_checksum(std::span<const uint8_t> container)
{
    if (container.size() < skipped_bytes)
        return ChecksumStatus::mismatch;
    const uint8_t* stored = container.data() + 4;
    bool all_zero = true;
    for (size_t i = 0; i < 16; ++i)
        all_zero = all_zero && stored[i] == 0;
    if (all_zero)
        return ChecksumStatus::zero;
    Checksum computed = compute_checksum(container);
    return std::memcmp(stored, computed.data(), computed.size()) == 0 ? ChecksumStatus::ok : ChecksumStatus::mismatch;
}

const char* checksum_status_name(ChecksumStatus status)
{
    switch (status) {
    case ChecksumStatus::ok: return "ok";
    case ChecksumStatus::zero: return "zero";
    case ChecksumStatus::mismatch: return "mismatch";
    }
    return "mismatch";
}

} // namespace dxspv::container

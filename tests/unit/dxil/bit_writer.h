// Test helper: writes LLVM bitstreams by hand (fixed, VBR, blocks,
// abbreviation definitions, records) to feed the reader.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <initializer_list>
#include <vector>

namespace dxspv_test {

struct BitWriter {
    std::vector<uint8_t> bytes;
    uint64_t bit = 0;
    unsigned width = 2; ///< current abbreviation id width
    std::vector<std::pair<size_t, unsigned>> blocks; ///< length word byte offset, outer width

    void emit(uint64_t v, unsigned w)
    {
        for (unsigned i = 0; i < w; ++i, ++bit) {
            if ((bit >> 3) >= bytes.size())
                bytes.push_back(0);
            if ((v >> i) & 1)
                bytes[bit >> 3] |= uint8_t(1u << (bit & 7));
        }
    }
    void vbr(uint64_t v, unsigned w)
    {
        uint64_t hi = uint64_t(1) << (w - 1);
        while (v >= hi) {
            emit((v & (hi - 1)) | hi, w);
            v >>= w - 1;
        }
        emit(v, w);
    }
    void align32()
    {
        while (bit & 31)
            emit(0, 1);
    }
    void magic()
    {
        emit('B', 8);
        emit('C', 8);
        emit(0x0, 4);
        emit(0xC, 4);
        emit(0xE, 4);
        emit(0xD, 4);
    }
    void enter(uint32_t block_id, unsigned new_width)
    {
        emit(1, width);
        vbr(block_id, 8);
        vbr(new_width, 4);
        align32();
        blocks.push_back({size_t(bit >> 3), width});
        emit(0, 32);
        width = new_width;
    }
    void end()
    {
        emit(0, width);
        align32();
        auto [at, outer] = blocks.back();
        blocks.pop_back();
        uint32_t words = uint32_t((bytes.size() - at - 4) / 4);
        for (int i = 0; i < 4; ++i)
            bytes[at + i] = uint8_t(words >> (8 * i));
        width = outer;
    }
    void record(uint32_t code, std::initializer_list<uint64_t> ops)
    {
        record(code, std::vector<uint64_t>(ops));
    }
    void record(uint32_t code, const std::vector<uint64_t>& ops)
    {
        emit(3, width);
        vbr(code, 6);
        vbr(ops.size(), 6);
        for (uint64_t op : ops)
            vbr(op, 6);
    }
    /// Operand encodings for define_abbrev: {kind, value}; kinds as in the
    /// bitstream: 0 literal, 1 fixed, 2 vbr, 3 array, 4 char6, 5 blob.
    void define_abbrev(std::initializer_list<std::pair<int, uint64_t>> ops)
    {
        emit(2, width);
        vbr(ops.size(), 5);
        for (auto [kind, value] : ops) {
            if (kind == 0) {
                emit(1, 1);
                vbr(value, 8);
            } else {
                emit(0, 1);
                emit(uint64_t(kind), 3);
                if (kind == 1 || kind == 2)
                    vbr(value, 5);
            }
        }
    }
};

inline std::vector<uint64_t> chars(const char* s)
{
    std::vector<uint64_t> v;
    for (; *s; ++s)
        v.push_back(uint8_t(*s));
    return v;
}

} // namespace dxspv_test

#include <doctest/doctest.h>

#include "common/byte_reader.h"
#include "common/byte_writer.h"

using namespace dxspv;

TEST_CASE("byte writer and reader round trip")
{
    ByteWriter w;
    w.u8(1);
    w.u16(0x0302);
    w.u32(0x07060504);
    w.u64(0x0f0e0d0c0b0a0908ull);
    w.f32(1.5f);
    w.cstring("abc");
    w.align(4, 0xab);
    size_t patch_at = w.size();
    w.u32(0);
    w.patch_u32(patch_at, 0xdeadbeef);

    ByteReader r(w.bytes());
    uint8_t b;
    uint16_t h;
    uint32_t u;
    uint64_t q;
    float f;
    REQUIRE(r.read_u8(b));
    CHECK(b == 1);
    REQUIRE(r.read_u16(h));
    CHECK(h == 0x0302);
    REQUIRE(r.read_u32(u));
    CHECK(u == 0x07060504);
    REQUIRE(r.read_u64(q));
    CHECK(q == 0x0f0e0d0c0b0a0908ull);
    REQUIRE(r.read_f32(f));
    CHECK(f == 1.5f);
    std::string_view s;
    REQUIRE(r.string_at(r.pos(), s));
    CHECK(s == "abc");
    REQUIRE(r.skip(4));
    CHECK(r.pos() == 23);
    REQUIRE(r.skip(1)); // the alignment byte
    REQUIRE(r.read_u32(u));
    CHECK(u == 0xdeadbeef);
    CHECK(r.remaining() == 0);
}

TEST_CASE("byte reader refuses reads past the end")
{
    const uint8_t data[6] = {1, 2, 3, 4, 5, 'x'};
    ByteReader r({data, sizeof(data)});
    uint64_t q;
    uint32_t u;
    CHECK_FALSE(r.read_u64(q));
    CHECK(r.pos() == 0);
    CHECK(r.read_u32(u));
    CHECK_FALSE(r.read_u32(u));
    CHECK_FALSE(r.skip(3));
    CHECK_FALSE(r.seek(7));
    CHECK(r.seek(6));
    std::string_view s;
    CHECK_FALSE(r.string_at(5, s)); // no NUL before the end
    CHECK_FALSE(r.string_at(100, s));
    std::span<const uint8_t> bytes;
    CHECK_FALSE(r.read_bytes(1, bytes));
}

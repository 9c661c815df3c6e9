#include <doctest/doctest.h>

#include "container/checksum.h"
#include "container/container.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

Bytes three_chunks()
{
    return make_container({{fourcc("ISGN"), Bytes{0, 0, 0, 0, 8, 0, 0, 0}},
                           {fourcc("ABCD"), Bytes{1, 2, 3, 4, 5}},
                           {fourcc("SHEX"), make_shex(5, 5, 0)}});
}

bool parse_fails_with(const Bytes& bytes, Code code, uint32_t offset)
{
    Container c;
    Diagnostics diags;
    bool ok = parse_container(bytes, c, diags);
    INFO(diags.to_string());
    return !ok && reported(diags, code, offset);
}

} // namespace

TEST_CASE("fourcc helpers")
{
    CHECK(fourcc("DXBC") == 0x43425844u);
    CHECK(fourcc_name(fourcc("RTS0")) == "RTS0");
    CHECK(fourcc_name(0x00414243) == "CBA?");
}

TEST_CASE("container serialize and parse round trip")
{
    Bytes bytes = three_chunks();
    REQUIRE(bytes.size() == 32 + 3 * 4 + (8 + 8) + (8 + 8) + (8 + 12));
    CHECK(verify_checksum(bytes) == ChecksumStatus::ok);

    Container c;
    Diagnostics diags;
    REQUIRE(parse_container(bytes, c, diags));
    CHECK(diags.messages().empty());
    CHECK(c.major == 1);
    CHECK(c.minor == 0);
    CHECK(c.bytes.size() == bytes.size());
    REQUIRE(c.chunks.size() == 3);
    CHECK(c.chunks[0].fourcc == fourcc("ISGN"));
    CHECK(c.chunks[0].offset == 44 + 8);
    CHECK(c.chunks[0].header_offset() == 44);
    CHECK(c.chunks[1].data.size() == 5);
    CHECK(c.chunks[1].data[4] == 5);
    CHECK(c.chunks[2].offset % 4 == 0);
    CHECK(c.chunks[2].data.data() == bytes.data() + c.chunks[2].offset); // borrowed, not copied
    REQUIRE(c.find(fourcc("SHEX")) == &c.chunks[2]);
    CHECK(c.find(fourcc("RDEF")) == nullptr);

    // Serialising the parsed chunks again gives the same bytes.
    std::vector<ChunkInput> inputs;
    for (const Chunk& chunk : c.chunks)
        inputs.push_back({chunk.fourcc, chunk.data});
    Bytes again;
    REQUIRE(serialize_container(inputs, again, diags));
    CHECK(again == bytes);
}

TEST_CASE("empty container")
{
    Bytes bytes = make_container({});
    REQUIRE(bytes.size() == 32);
    Container c;
    Diagnostics diags;
    CHECK(parse_container(bytes, c, diags));
    CHECK(c.chunks.empty());
    CHECK(verify_checksum(bytes) == ChecksumStatus::ok);
}

TEST_CASE("malformed containers")
{
    Bytes good = three_chunks();

    SUBCASE("truncated header")
    {
        CHECK(parse_fails_with(Bytes(good.begin(), good.begin() + 31), Code::container_truncated_header, 0));
        CHECK(parse_fails_with(Bytes{}, Code::container_truncated_header, 0));
    }
    SUBCASE("wrong magic")
    {
        Bytes b = good;
        b[0] = 'X';
        CHECK(parse_fails_with(b, Code::container_bad_magic, 0));
    }
    SUBCASE("wrong version")
    {
        Bytes b = good;
        b[20] = 2;
        CHECK(parse_fails_with(b, Code::container_bad_version, 20));
    }
    SUBCASE("declared size larger than the input")
    {
        Bytes b(good.begin(), good.end() - 4);
        CHECK(parse_fails_with(b, Code::container_truncated, 24));
    }
    SUBCASE("declared size smaller than the header")
    {
        Bytes b = good;
        put_u32(b, 24, 16);
        CHECK(parse_fails_with(b, Code::container_truncated_header, 24));
    }
    SUBCASE("input larger than the declared size is a warning")
    {
        Bytes b = good;
        b.resize(b.size() + 7, 0xcc);
        Container c;
        Diagnostics diags;
        REQUIRE(parse_container(b, c, diags));
        CHECK(!diags.has_errors());
        CHECK(reported(diags, Code::container_trailing_bytes, uint32_t(good.size())));
        CHECK(c.bytes.size() == good.size());
        CHECK(verify_checksum(c.bytes) == ChecksumStatus::ok);
    }
    SUBCASE("absurd chunk count")
    {
        Bytes b = good;
        put_u32(b, 28, 0xffffffff);
        CHECK(parse_fails_with(b, Code::container_bad_chunk_count, 28));
        put_u32(b, 28, 6); // a table of 6 fits, but not 6 chunk headers too
        CHECK(parse_fails_with(b, Code::container_bad_chunk_count, 28));
    }
    SUBCASE("chunk offset inside the header or past the end")
    {
        Bytes b = good;
        put_u32(b, 32, 8);
        CHECK(parse_fails_with(b, Code::container_bad_chunk_offset, 32));
        put_u32(b, 32, uint32_t(good.size()) - 4);
        CHECK(parse_fails_with(b, Code::container_bad_chunk_offset, 32));
        put_u32(b, 32, 0xfffffff0);
        CHECK(parse_fails_with(b, Code::container_bad_chunk_offset, 32));
    }
    SUBCASE("unaligned chunk offset is a warning")
    {
        // Move the last chunk up by two bytes (older dxc releases do this).
        uint32_t last = load_le32(good.data() + 40);
        Bytes b(good.begin(), good.begin() + last);
        b.insert(b.end(), 2, 0);
        b.insert(b.end(), good.begin() + last, good.end());
        put_u32(b, 40, last + 2);
        put_u32(b, 24, uint32_t(b.size()));
        Container c;
        Diagnostics diags;
        REQUIRE(parse_container(b, c, diags));
        CHECK(!diags.has_errors());
        CHECK(reported(diags, Code::container_unaligned_chunk, 40));
        CHECK(c.chunks[2].offset == last + 2 + 8);
        CHECK(c.chunks[2].data.size() == 12);
    }
    SUBCASE("chunk data past the end")
    {
        Bytes b = good;
        uint32_t last = load_le32(good.data() + 40);
        put_u32(b, last + 4, 13);
        CHECK(parse_fails_with(b, Code::container_chunk_past_end, last + 4));
        put_u32(b, last + 4, 0xffffffff);
        CHECK(parse_fails_with(b, Code::container_chunk_past_end, last + 4));
    }
    SUBCASE("overlapping chunks")
    {
        Bytes b = good;
        uint32_t first = load_le32(good.data() + 32);
        put_u32(b, first + 4, 12); // the first chunk now runs into the second
        CHECK(parse_fails_with(b, Code::container_overlapping_chunks, load_le32(good.data() + 36)));
        b = good;
        put_u32(b, 40, first); // two entries for one chunk
        CHECK(parse_fails_with(b, Code::container_overlapping_chunks, first));
    }
    SUBCASE("a table out of offset order")
    {
        // The overlap check sorts such a table by offset (no table-order
        // shortcut): swapped entries are fine...
        Bytes b = good;
        put_u32(b, 32, load_le32(good.data() + 36));
        put_u32(b, 36, load_le32(good.data() + 32));
        Container c;
        Diagnostics diags;
        REQUIRE(parse_container(b, c, diags));
        CHECK(!diags.has_errors());
        CHECK(c.chunks[0].fourcc == fourcc("ABCD"));
        CHECK(c.chunks[1].fourcc == fourcc("ISGN"));
        // ... unless neighbours by offset overlap.
        uint32_t first = load_le32(good.data() + 32);
        put_u32(b, first + 4, 12); // ISGN now runs into ABCD
        CHECK(parse_fails_with(b, Code::container_overlapping_chunks, load_le32(good.data() + 36)));
    }
}

TEST_CASE("every truncation and byte flip of a container is handled")
{
    Bytes good = three_chunks();
    for (size_t n = 0; n < good.size(); ++n) {
        Container c;
        Diagnostics diags;
        CHECK_FALSE(parse_container(Bytes(good.begin(), good.begin() + long(n)), c, diags));
        CHECK(diags.has_errors());
    }
    for (size_t i = 0; i < good.size(); ++i) {
        for (uint8_t v : {uint8_t(0), uint8_t(0x80), uint8_t(0xff)}) {
            Bytes b = good;
            b[i] = v;
            Container c;
            Diagnostics diags;
            bool ok = parse_container(b, c, diags);
            CHECK(ok != diags.has_errors());
            if (ok)
                for (const Chunk& chunk : c.chunks)
                    CHECK(chunk.offset + chunk.data.size() <= b.size());
        }
    }
}

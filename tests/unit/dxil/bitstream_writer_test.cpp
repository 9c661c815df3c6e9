// The bitstream writer, checked by reading its output back with the
// project's bitstream reader: fixed and VBR fields, char6, arrays, blobs,
// abbreviations (defined in a block and through BLOCKINFO), nested blocks
// and their backpatched lengths, the fallback to unabbreviated records, and
// misuse reported through ok().
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "dxil/bitcode/bitstream_writer.h"
#include "dxil/bitstream/bitstream.h"

using dxspv::Diagnostics;
using dxspv::dxil::AbbrevOp;
using dxspv::dxil::BitReader;
using dxspv::dxil::BitstreamCursor;
using dxspv::dxil::BitstreamEntry;
using dxspv::dxil::BitstreamWriter;

namespace {

constexpr AbbrevOp lit(uint64_t v) { return {AbbrevOp::Kind::literal, v}; }
constexpr AbbrevOp fixed(uint64_t w) { return {AbbrevOp::Kind::fixed, w}; }
constexpr AbbrevOp vbr(uint64_t w) { return {AbbrevOp::Kind::vbr, w}; }
constexpr AbbrevOp array{AbbrevOp::Kind::array, 0};
constexpr AbbrevOp char6{AbbrevOp::Kind::char6, 0};
constexpr AbbrevOp blob{AbbrevOp::Kind::blob, 0};

struct Record {
    uint32_t code = 0;
    std::vector<uint64_t> ops;
    std::vector<uint8_t> blob;
    uint32_t abbrev = 0;
};

/// Reads the block at the cursor (already entered) into `out`; nested
/// blocks are entered and their records appended too, with `depth` bumped.
bool read_all(BitstreamCursor& c, std::vector<Record>& out, std::vector<uint32_t>& blocks)
{
    for (;;) {
        BitstreamEntry e = c.advance();
        switch (e.kind) {
        case BitstreamEntry::Kind::error: return false;
        case BitstreamEntry::Kind::end_block: return true;
        case BitstreamEntry::Kind::subblock:
            blocks.push_back(e.id);
            if (!c.enter_block(e.id))
                return false;
            if (e.id == 0) {
                if (!c.read_blockinfo())
                    return false;
                break;
            }
            if (!read_all(c, out, blocks))
                return false;
            break;
        case BitstreamEntry::Kind::record: {
            Record r;
            r.abbrev = e.id;
            std::span<const uint8_t> b;
            dxspv::dxil::RecordOps ops;
            if (!c.read_record(e.id, r.code, ops, &b))
                return false;
            r.ops.assign(ops.begin(), ops.end());
            r.blob.assign(b.begin(), b.end());
            out.push_back(r);
            break;
        }
        }
    }
}

/// The records of a stream of top-level blocks.
std::vector<Record> read_back(const std::vector<uint8_t>& bytes, std::vector<uint32_t>& blocks, Diagnostics& diags)
{
    std::vector<Record> out;
    BitstreamCursor c(bytes, 0, diags);
    REQUIRE(c.read_header());
    while (!c.at_top_level_end()) {
        BitstreamEntry e = c.advance();
        REQUIRE(e.kind == BitstreamEntry::Kind::subblock);
        blocks.push_back(e.id);
        REQUIRE(c.enter_block(e.id));
        if (e.id == 0)
            REQUIRE(c.read_blockinfo());
        else
            REQUIRE(read_all(c, out, blocks));
    }
    REQUIRE_MESSAGE(!diags.has_errors(), diags.to_string());
    return out;
}

} // namespace

TEST_CASE("bitstream writer: fixed and VBR fields read back bit for bit")
{
    std::vector<uint8_t> bytes;
    BitstreamWriter w(bytes);
    const uint64_t values[] = {0, 1, 5, 31, 32, 1000, 0xFFFFFFFFull, 0x123456789ABCDEFull, ~uint64_t(0)};
    for (uint64_t v : values) {
        w.emit(v & 0x7, 3);
        w.emit(v, 64);
        w.emit_vbr(v, 6);
        w.emit_vbr(v, 32);
        w.emit(v & 0xFFFF, 17);
    }
    w.align32();
    CHECK(bytes.size() % 4 == 0);
    CHECK(w.bit_size() == bytes.size() * 8);
    BitReader r(bytes);
    for (uint64_t v : values) {
        bool overflow = false;
        CHECK(r.read(3) == (v & 0x7));
        CHECK(r.read(64) == v);
        CHECK(r.read_vbr(6, overflow) == v);
        CHECK(r.read_vbr(32, overflow) == v);
        CHECK(r.read(17) == (v & 0xFFFF));
        CHECK(!overflow);
    }
    CHECK(!r.failed());
    CHECK(w.ok());
}

TEST_CASE("bitstream writer: nested blocks, unabbreviated records, lengths the reader accepts")
{
    std::vector<uint8_t> bytes;
    BitstreamWriter w(bytes);
    w.magic();
    w.enter_block(8, 3);
    w.record(1, std::vector<uint64_t>{1});
    w.enter_block(17, 5);
    w.record(7, std::vector<uint64_t>{32, 0xFFFFFFFFFFull});
    w.enter_block(11, 2);
    w.record(300, std::vector<uint64_t>{});
    w.exit_block();
    w.exit_block();
    w.record(2, std::vector<uint64_t>{'a', 'b'});
    w.exit_block();
    REQUIRE(w.ok());
    Diagnostics diags;
    std::vector<uint32_t> blocks;
    auto records = read_back(bytes, blocks, diags);
    CHECK(blocks == std::vector<uint32_t>{8, 17, 11});
    REQUIRE(records.size() == 4);
    CHECK(records[0].code == 1);
    CHECK(records[0].ops == std::vector<uint64_t>{1});
    CHECK(records[1].code == 7);
    CHECK(records[1].ops == std::vector<uint64_t>{32, 0xFFFFFFFFFFull});
    CHECK(records[2].code == 300);
    CHECK(records[2].ops.empty());
    CHECK(records[3].ops == std::vector<uint64_t>{'a', 'b'});
    for (const Record& r : records)
        CHECK(r.abbrev == 3);
}

TEST_CASE("bitstream writer: abbreviations with literals, fixed, VBR, char6, arrays and blobs")
{
    std::vector<uint8_t> bytes;
    BitstreamWriter w(bytes);
    w.magic();
    w.enter_block(9, 4);
    const AbbrevOp a1[] = {lit(5), fixed(3), vbr(4), lit(9)};
    const AbbrevOp a2[] = {fixed(4), array, char6};
    const AbbrevOp a3[] = {lit(12), vbr(6), array, fixed(8)};
    const AbbrevOp a4[] = {lit(13), fixed(2), blob};
    CHECK(w.define_abbrev(a1) == 4);
    CHECK(w.define_abbrev(a2) == 5);
    CHECK(w.define_abbrev(a3) == 6);
    CHECK(w.define_abbrev(a4) == 7);
    std::vector<uint64_t> name = {'x', 'Y', '_', '.', '9'};
    std::vector<uint64_t> bad_name = {'x', '-'}; // '-' is no char6
    const uint8_t data[] = {1, 2, 3, 4, 5};
    CHECK(w.fits(4, 5, std::vector<uint64_t>{7, 100, 9}));
    CHECK(!w.fits(4, 5, std::vector<uint64_t>{8, 100, 9}));  // 8 needs 4 bits
    CHECK(!w.fits(4, 5, std::vector<uint64_t>{7, 100, 10})); // the literal is 9
    CHECK(!w.fits(5, 3, bad_name));
    w.record(5, std::vector<uint64_t>{7, 100, 9}, 4);
    w.record(5, std::vector<uint64_t>{8, 100, 9}, 4); // does not fit: written unabbreviated
    w.record(3, name, 5);
    w.record(3, bad_name, 5);
    w.record(12, std::vector<uint64_t>{70000, 0, 255, 128}, 6);
    w.record(13, std::vector<uint64_t>{2}, 7, data);
    w.record(13, std::vector<uint64_t>{1}, 7, {}); // an empty blob
    w.exit_block();
    REQUIRE(w.ok());
    Diagnostics diags;
    std::vector<uint32_t> blocks;
    auto r = read_back(bytes, blocks, diags);
    REQUIRE(r.size() == 7);
    CHECK(r[0].abbrev == 4);
    CHECK(r[0].code == 5);
    CHECK(r[0].ops == std::vector<uint64_t>{7, 100, 9});
    CHECK(r[1].abbrev == 3);
    CHECK(r[1].ops == std::vector<uint64_t>{8, 100, 9});
    CHECK(r[2].abbrev == 5);
    CHECK(r[2].code == 3);
    CHECK(r[2].ops == name);
    CHECK(r[3].abbrev == 3);
    CHECK(r[3].ops == bad_name);
    CHECK(r[4].abbrev == 6);
    CHECK(r[4].ops == std::vector<uint64_t>{70000, 0, 255, 128});
    CHECK(r[5].abbrev == 7);
    CHECK(r[5].ops == std::vector<uint64_t>{2});
    CHECK(r[5].blob == std::vector<uint8_t>(std::begin(data), std::end(data)));
    CHECK(r[6].abbrev == 7);
    CHECK(r[6].blob.empty());
}

TEST_CASE("bitstream writer: BLOCKINFO abbreviations apply to every block of their id, after local ones")
{
    std::vector<uint8_t> bytes;
    BitstreamWriter w(bytes);
    w.magic();
    w.enter_block(8, 3);
    w.enter_block(0, 2);
    const AbbrevOp info1[] = {lit(1), vbr(8), array, fixed(7)};
    const AbbrevOp info2[] = {lit(2)};
    const AbbrevOp other[] = {lit(3), fixed(1)};
    CHECK(w.define_blockinfo_abbrev(14, info1) == 4);
    CHECK(w.define_blockinfo_abbrev(14, info2) == 5);
    CHECK(w.define_blockinfo_abbrev(11, other) == 4);
    w.exit_block();
    for (int k = 0; k < 2; ++k) {
        w.enter_block(14, 4);
        const AbbrevOp local[] = {lit(7), fixed(8)};
        CHECK(w.define_abbrev(local) == 6); // after the two BLOCKINFO ones
        w.record(1, std::vector<uint64_t>{uint64_t(k), 'h', 'i'}, 4);
        w.record(2, std::vector<uint64_t>{}, 5);
        w.record(7, std::vector<uint64_t>{200}, 6);
        w.exit_block();
    }
    w.enter_block(11, 4);
    w.record(3, std::vector<uint64_t>{1}, 4);
    w.record(3, std::vector<uint64_t>{1}, 5); // no abbreviation 5 in this block: unabbreviated
    w.exit_block();
    w.exit_block();
    REQUIRE(w.ok());
    Diagnostics diags;
    std::vector<uint32_t> blocks;
    auto r = read_back(bytes, blocks, diags);
    CHECK(blocks == std::vector<uint32_t>{8, 0, 14, 14, 11});
    REQUIRE(r.size() == 8);
    for (int k = 0; k < 2; ++k) {
        CHECK(r[3 * k].abbrev == 4);
        CHECK(r[3 * k].ops == std::vector<uint64_t>{uint64_t(k), 'h', 'i'});
        CHECK(r[3 * k + 1].abbrev == 5);
        CHECK(r[3 * k + 1].code == 2);
        CHECK(r[3 * k + 2].abbrev == 6);
        CHECK(r[3 * k + 2].ops == std::vector<uint64_t>{200});
    }
    CHECK(r[6].abbrev == 4);
    CHECK(r[6].code == 3);
    CHECK(r[7].abbrev == 3);
}

TEST_CASE("bitstream writer: misuse turns ok() false instead of crashing")
{
    SUBCASE("END_BLOCK outside a block")
    {
        std::vector<uint8_t> bytes;
        BitstreamWriter w(bytes);
        w.exit_block();
        CHECK(!w.ok());
    }
    SUBCASE("a block left open")
    {
        std::vector<uint8_t> bytes;
        BitstreamWriter w(bytes);
        w.enter_block(8, 3);
        CHECK(!w.ok());
    }
    SUBCASE("an array that is not second to last")
    {
        std::vector<uint8_t> bytes;
        BitstreamWriter w(bytes);
        w.enter_block(8, 3);
        const AbbrevOp bad[] = {lit(1), array, fixed(3), fixed(3)};
        w.define_abbrev(bad);
        w.exit_block();
        CHECK(!w.ok());
    }
    SUBCASE("a blob record without a blob abbreviation")
    {
        std::vector<uint8_t> bytes;
        BitstreamWriter w(bytes);
        w.enter_block(8, 3);
        const uint8_t data[] = {1};
        w.record(1, std::vector<uint64_t>{}, 0, data);
        w.exit_block();
        CHECK(!w.ok());
    }
    SUBCASE("a BLOCKINFO abbreviation outside BLOCKINFO")
    {
        std::vector<uint8_t> bytes;
        BitstreamWriter w(bytes);
        const AbbrevOp a[] = {lit(1)};
        CHECK(w.define_blockinfo_abbrev(14, a) == 0);
        CHECK(!w.ok());
    }
}

// The LLVM bitstream reader on hand-built streams: abbreviations, arrays,
// char6, blobs, BLOCKINFO, skipped blocks, and malformed input giving its
// numbered diagnostic.
#include <doctest/doctest.h>

#include "bit_writer.h"
#include "dxil/bitstream/bitstream.h"

using dxspv::Code;
using dxspv::Diagnostics;
using dxspv::dxil::BitstreamCursor;
using dxspv::dxil::BitstreamEntry;
using dxspv_test::BitWriter;

namespace {

using Kind = BitstreamEntry::Kind;

/// Reads a stream holding one block (id 8) and returns its records as
/// code followed by operands; stops at the first error.
std::vector<std::vector<uint64_t>> read_records(const BitWriter& w, Diagnostics& diags, bool* ok_out = nullptr)
{
    std::vector<std::vector<uint64_t>> out;
    BitstreamCursor cur(w.bytes, 100, diags);
    bool ok = cur.read_header();
    dxspv::dxil::RecordOps ops;
    while (ok && !cur.at_top_level_end()) {
        BitstreamEntry e = cur.advance();
        if (e.kind == Kind::error) {
            ok = false;
            break;
        }
        if (e.kind == Kind::subblock) {
            if (e.id == 0)
                ok = cur.enter_block(0) && cur.read_blockinfo();
            else if (e.id == 8)
                ok = cur.enter_block(8);
            else
                ok = cur.skip_block();
            continue;
        }
        if (e.kind == Kind::end_block)
            continue;
        uint32_t code = 0;
        std::span<const uint8_t> blob;
        if (!cur.read_record(e.id, code, ops, &blob)) {
            ok = false;
            break;
        }
        std::vector<uint64_t> rec{code};
        rec.insert(rec.end(), ops.begin(), ops.end());
        for (uint8_t b : blob)
            rec.push_back(1000 + b);
        out.push_back(rec);
    }
    if (ok_out)
        *ok_out = ok && !cur.failed();
    return out;
}

/// The records of a stream that must read without an error.
std::vector<std::vector<uint64_t>> read_valid_records(const BitWriter& w)
{
    Diagnostics diags;
    bool ok = false;
    auto recs = read_records(w, diags, &ok);
    CHECK(ok);
    CHECK_FALSE(diags.has_errors());
    return recs;
}

} // namespace

TEST_CASE("bitstream: unabbreviated records in a block")
{
    BitWriter w;
    w.magic();
    w.enter(8, 3);
    w.record(1, {1, 2, 300, 1ull << 40});
    w.record(7, {});
    w.end();
    auto recs = read_valid_records(w);
    REQUIRE(recs.size() == 2);
    CHECK(recs[0] == std::vector<uint64_t>{1, 1, 2, 300, 1ull << 40});
    CHECK(recs[1] == std::vector<uint64_t>{7});
}

TEST_CASE("bitstream: record codes and operand counts of one and of several VBR6 chunks")
{
    // The reader takes a code and a count of one chunk each in one read,
    // and any other pair value by value.
    std::vector<uint64_t> many(40);
    for (size_t i = 0; i < many.size(); ++i)
        many[i] = i * 37;
    BitWriter w;
    w.magic();
    w.enter(8, 3);
    w.record(5, {31});
    w.record(40, {1, 2});
    w.record(6, many);
    w.record(1000, many);
    w.end();
    auto recs = read_valid_records(w);
    REQUIRE(recs.size() == 4);
    CHECK(recs[0] == std::vector<uint64_t>{5, 31});
    CHECK(recs[1] == std::vector<uint64_t>{40, 1, 2});
    std::vector<uint64_t> expect{6};
    expect.insert(expect.end(), many.begin(), many.end());
    CHECK(recs[2] == expect);
    expect[0] = 1000;
    CHECK(recs[3] == expect);
}

TEST_CASE("bitstream: short records decoded at once and the records beside them read alike")
{
    // Records of up to 7 operands of one chunk each are decoded from the
    // bit buffer at once; with an 8th operand, or a code, count or operand
    // of two chunks, value by value. Each record follows one of another
    // length, so that they start at every position in the buffer.
    std::vector<std::vector<uint64_t>> want;
    BitWriter w;
    w.magic();
    w.enter(8, 3);
    for (uint64_t n = 0; n <= 9; ++n) {
        for (uint64_t big : {uint64_t(0), uint64_t(31), uint64_t(32), uint64_t(1023)}) {
            std::vector<uint64_t> ops;
            for (uint64_t i = 0; i < n; ++i)
                ops.push_back(i + 1 == n ? big : (i * 7 + n) & 31);
            const uint64_t code = big == 31 ? 31 : big == 32 ? 32 : n + 1;
            w.record(uint32_t(code), ops);
            std::vector<uint64_t> rec{code};
            rec.insert(rec.end(), ops.begin(), ops.end());
            want.push_back(rec);
        }
    }
    w.end();
    CHECK(read_valid_records(w) == want);
}

TEST_CASE("bitstream: runs of abbreviation definitions before, between and after records")
{
    // advance() reads the first definition of a run apart from the next
    // ones; each record must still see every definition before it.
    BitWriter w;
    w.magic();
    w.enter(8, 4);
    w.define_abbrev({{0, 11}, {1, 4}}); // id 4
    w.define_abbrev({{0, 12}, {2, 5}}); // id 5
    w.define_abbrev({{0, 13}});         // id 6
    w.emit(5, 4);
    w.vbr(100, 5);
    w.define_abbrev({{0, 14}, {1, 8}}); // id 7
    w.emit(7, 4);
    w.emit(200, 8);
    w.emit(4, 4);
    w.emit(9, 4);
    w.emit(6, 4);
    w.define_abbrev({{0, 15}});         // id 8, unused
    w.define_abbrev({{0, 16}});         // id 9, unused
    w.end();
    auto recs = read_valid_records(w);
    REQUIRE(recs.size() == 4);
    CHECK(recs[0] == std::vector<uint64_t>{12, 100});
    CHECK(recs[1] == std::vector<uint64_t>{14, 200});
    CHECK(recs[2] == std::vector<uint64_t>{11, 9});
    CHECK(recs[3] == std::vector<uint64_t>{13});
}

TEST_CASE("bitstream: abbreviations with literal, fixed, vbr, char6 array")
{
    BitWriter w;
    w.magic();
    w.enter(8, 4);
    w.define_abbrev({{0, 19}, {1, 3}, {2, 4}, {3, 0}, {4, 0}}); // id 4
    w.define_abbrev({{1, 5}, {3, 0}, {1, 8}});                  // id 5
    // id 4: code 19 (literal), fixed 5, vbr 1000, char6 array "a.Z_9"
    w.emit(4, 4);
    w.emit(5, 3);
    w.vbr(1000, 4);
    w.vbr(5, 6);
    for (uint64_t c : {0, 62, 51, 63, 61})
        w.emit(c, 6);
    // id 5: code 9, array of fixed(8) {200, 7}
    w.emit(5, 4);
    w.emit(9, 5);
    w.vbr(2, 6);
    w.emit(200, 8);
    w.emit(7, 8);
    w.end();
    auto recs = read_valid_records(w);
    REQUIRE(recs.size() == 2);
    CHECK(recs[0] == std::vector<uint64_t>{19, 5, 1000, 'a', '.', 'Z', '_', '9'});
    CHECK(recs[1] == std::vector<uint64_t>{9, 200, 7});
}

TEST_CASE("bitstream: arrays of char6, fixed(7), fixed(8) and fixed(5) characters of every length up to 40")
{
    // Characters of 6 to 8 bits are taken several at a time from the bit
    // buffer; the rest, and other widths, one by one. Each array starts
    // where the one before ended, at every position in the buffer.
    BitWriter w;
    w.magic();
    w.enter(8, 4);
    w.define_abbrev({{0, 1}, {3, 0}, {4, 0}}); // id 4: code 1, char6 array
    w.define_abbrev({{0, 2}, {3, 0}, {1, 7}}); // id 5: code 2, fixed(7) array
    w.define_abbrev({{0, 3}, {3, 0}, {1, 8}}); // id 6: code 3, fixed(8) array
    w.define_abbrev({{0, 4}, {3, 0}, {1, 5}}); // id 7: code 4, fixed(5) array
    std::vector<std::vector<uint64_t>> want;
    for (uint64_t n = 0; n <= 40; ++n) {
        for (uint32_t id = 4; id <= 7; ++id) {
            const unsigned width = id == 4 ? 6 : id == 5 ? 7 : id == 6 ? 8 : 5;
            std::vector<uint64_t> rec{id - 3};
            w.emit(id, 4);
            w.vbr(n, 6);
            for (uint64_t i = 0; i < n; ++i) {
                const uint64_t bits = (i * 37 + n * 11 + id) & ((1u << width) - 1);
                w.emit(bits, width);
                rec.push_back(id == 4 ? (bits < 26 ? 'a' + bits : bits < 52 ? 'A' + bits - 26 : bits < 62 ? '0' + bits - 52
                                                                                             : bits == 62 ? '.' : '_')
                                      : bits);
            }
            want.push_back(rec);
        }
    }
    w.end();
    CHECK(read_valid_records(w) == want);
}

TEST_CASE("bitstream: blob operand")
{
    BitWriter w;
    w.magic();
    w.enter(8, 3);
    w.define_abbrev({{0, 35}, {2, 6}, {5, 0}}); // id 4
    w.emit(4, 3);
    w.vbr(2, 6);
    w.vbr(3, 6);
    w.align32();
    w.emit('x', 8);
    w.emit('y', 8);
    w.emit('z', 8);
    w.align32();
    w.record(1, {5});
    w.end();
    auto recs = read_valid_records(w);
    REQUIRE(recs.size() == 2);
    CHECK(recs[0] == std::vector<uint64_t>{35, 2, 1000 + 'x', 1000 + 'y', 1000 + 'z'});
    CHECK(recs[1] == std::vector<uint64_t>{1, 5});
}

TEST_CASE("bitstream: BLOCKINFO abbreviations apply to later blocks; unknown blocks are skipped")
{
    BitWriter w;
    w.magic();
    w.enter(0, 2);
    w.record(1, {8});                       // SETBID 8
    w.define_abbrev({{0, 4}, {2, 6}});      // becomes id 4 in block 8
    w.end();
    w.enter(99, 5); // unknown: skipped whole, even with garbage abbrev ids inside
    w.emit(31, 5);
    w.emit(12345, 20);
    w.align32();
    w.end();
    w.enter(8, 3);
    w.define_abbrev({{0, 6}, {1, 2}});      // id 5 (after the BLOCKINFO one)
    w.emit(4, 3);
    w.vbr(77, 6);
    w.emit(5, 3);
    w.emit(3, 2);
    w.end();
    auto recs = read_valid_records(w);
    REQUIRE(recs.size() == 2);
    CHECK(recs[0] == std::vector<uint64_t>{4, 77});
    CHECK(recs[1] == std::vector<uint64_t>{6, 3});
}

namespace {

/// A BLOCKINFO block giving block 8 one abbreviation (id 4): the record
/// code `code` as a literal and one operand of `encoding` (1 fixed, 2 vbr)
/// with `width` bits; then block 8 with one record through it, of operand
/// 77.
BitWriter blockinfo_stream(uint64_t code, int encoding, uint64_t width)
{
    BitWriter w;
    w.magic();
    w.enter(0, 2);
    w.record(1, {8}); // SETBID 8
    w.define_abbrev({{0, code}, {encoding, width}});
    w.end();
    w.enter(8, 3);
    w.emit(4, 3);
    if (encoding == 1)
        w.emit(77, unsigned(width));
    else
        w.vbr(77, unsigned(width));
    w.end();
    return w;
}

} // namespace

TEST_CASE("bitstream: a BLOCKINFO block like the last one read reuses its abbreviations; another is decoded")
{
    // Each reading has a cursor of its own; the thread's cache of BLOCKINFO
    // blocks is what they share.
    const BitWriter vbr_code4 = blockinfo_stream(4, 2, 6);
    for (int i = 0; i < 2; ++i) { // fills the cache, then hits it
        auto recs = read_valid_records(vbr_code4);
        REQUIRE(recs.size() == 1);
        CHECK(recs[0] == std::vector<uint64_t>{4, 77});
    }
    // Same length, other code and encoding: not taken from the cache.
    const BitWriter fixed_code5 = blockinfo_stream(5, 1, 8);
    auto recs = read_valid_records(fixed_code5);
    REQUIRE(recs.size() == 1);
    CHECK(recs[0] == std::vector<uint64_t>{5, 77});
    // And the first again after it.
    recs = read_valid_records(vbr_code4);
    REQUIRE(recs.size() == 1);
    CHECK(recs[0] == std::vector<uint64_t>{4, 77});
}

namespace {

/// A stream whose block 8 defines [literal 19, fixed(width)] (id 4) and
/// holds two records of it, of operands 2^width - 1 and 1 (read with
/// another width, they come out different).
BitWriter fixed_width_stream(unsigned width)
{
    BitWriter w;
    w.magic();
    w.enter(8, 3);
    w.define_abbrev({{0, 19}, {1, width}});
    for (uint64_t op : {(uint64_t(1) << width) - 1, uint64_t(1)}) {
        w.emit(4, 3);
        w.emit(op, width);
    }
    w.end();
    return w;
}

} // namespace

TEST_CASE("bitstream: a definition like one read before reuses its decoding; others of the same count and code are decoded")
{
    // The thread's cache of definitions is kept by their first bits (the
    // operand count and the record code), which these share.
    for (unsigned width : {3u, 3u, 7u, 3u, 9u, 11u, 7u, 3u}) {
        CAPTURE(width);
        auto recs = read_valid_records(fixed_width_stream(width));
        REQUIRE(recs.size() == 2);
        CHECK(recs[0] == std::vector<uint64_t>{19, (uint64_t(1) << width) - 1});
        CHECK(recs[1] == std::vector<uint64_t>{19, 1});
    }
}

TEST_CASE("bitstream: the wrapper header is skipped")
{
    BitWriter inner;
    inner.magic();
    inner.enter(8, 3);
    inner.record(2, {42});
    inner.end();
    std::vector<uint8_t> bytes(20, 0);
    auto put = [&](size_t at, uint32_t v) {
        for (int i = 0; i < 4; ++i)
            bytes[at + i] = uint8_t(v >> (8 * i));
    };
    put(0, 0x0B17C0DE);
    put(8, 20);
    put(12, uint32_t(inner.bytes.size()));
    bytes.insert(bytes.end(), inner.bytes.begin(), inner.bytes.end());
    BitWriter w;
    w.bytes = bytes;
    auto recs = read_valid_records(w);
    REQUIRE(recs.size() == 1);
    CHECK(recs[0] == std::vector<uint64_t>{2, 42});
}

namespace {

Code first_code(const BitWriter& w)
{
    Diagnostics diags;
    bool ok = true;
    read_records(w, diags, &ok);
    CHECK_FALSE(ok);
    REQUIRE(diags.has_errors());
    return diags.messages()[0].code;
}

} // namespace

TEST_CASE("bitstream: malformed streams give numbered diagnostics with the bit offset")
{
    SUBCASE("bad magic")
    {
        BitWriter w;
        w.emit('B', 8);
        w.emit('D', 8);
        w.emit(0, 16);
        CHECK(first_code(w) == Code::bitstream_bad_magic);
    }
    SUBCASE("block length past the end")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.record(1, {1});
        w.end();
        w.bytes[8] = 0xFF; // the length word
        CHECK(first_code(w) == Code::bitstream_bad_block_length);
    }
    SUBCASE("undefined abbreviation id")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.emit(6, 3);
        w.end();
        CHECK(first_code(w) == Code::bitstream_bad_abbrev_id);
    }
    SUBCASE("bad abbreviation encoding")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.emit(2, 3);
        w.vbr(1, 5);
        w.emit(0, 1);
        w.emit(7, 3); // encoding 7 does not exist
        w.end();
        CHECK(first_code(w) == Code::bitstream_bad_abbrev);
    }
    SUBCASE("array not second to last")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.define_abbrev({{0, 1}, {3, 0}, {1, 4}, {1, 4}});
        w.end();
        CHECK(first_code(w) == Code::bitstream_bad_abbrev);
    }
    SUBCASE("blob not last")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.define_abbrev({{0, 1}, {5, 0}, {1, 4}});
        w.end();
        CHECK(first_code(w) == Code::bitstream_bad_abbrev);
    }
    SUBCASE("array of arrays or of blobs")
    {
        for (int element : {3, 5}) {
            BitWriter w;
            w.magic();
            w.enter(8, 3);
            w.define_abbrev({{0, 1}, {3, 0}, {element, 0}});
            w.end();
            CHECK(first_code(w) == Code::bitstream_bad_abbrev);
        }
    }
    SUBCASE("END_BLOCK at the top level")
    {
        BitWriter w;
        w.magic();
        w.emit(0, 2);
        w.emit(0, 32);
        CHECK(first_code(w) == Code::bitstream_bad_end_block);
    }
    SUBCASE("abbreviation width zero")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 0);
        w.width = 3;
        w.end();
        CHECK(first_code(w) == Code::bitstream_bad_abbrev_width);
    }
    SUBCASE("record operands run past the block end")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.emit(3, 3);
        w.vbr(1, 6);
        w.vbr(1000, 6); // 1000 operands announced
        w.end();
        CHECK(first_code(w) == Code::bitstream_past_block_end);
    }
    SUBCASE("a short record's operands run past the block end")
    {
        // 7 operands of one chunk announced, but only the END_BLOCK and
        // its padding follow in the block; the zero bits after it, which
        // would read as such operands, are not taken.
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.emit(3, 3);
        w.vbr(1, 6);
        w.vbr(7, 6);
        w.end();
        w.emit(0, 32);
        w.emit(0, 32);
        Diagnostics diags;
        CHECK(read_records(w, diags).empty()); // the record is refused, not read
        REQUIRE(diags.has_errors());
        CHECK(diags.messages()[0].code == Code::bitstream_past_block_end);
    }
    SUBCASE("an array of zero-bit elements longer than the block")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.define_abbrev({{0, 1}, {3, 0}, {1, 0}}); // code 1, array of fixed(0)
        w.emit(4, 3);
        w.vbr(1u << 24, 6); // 16 M elements in a block of a few dozen bits
        w.end();
        CHECK(first_code(w) == Code::bitstream_past_block_end);
    }
    SUBCASE("blob past the block end")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.define_abbrev({{0, 1}, {5, 0}});
        w.emit(4, 3);
        w.vbr(4000, 6);
        w.end();
        CHECK(first_code(w) == Code::bitstream_past_block_end);
    }
    SUBCASE("truncated stream")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.record(1, {1, 2, 3});
        w.end();
        w.bytes.resize(w.bytes.size() - 4);
        Diagnostics diags;
        bool ok = true;
        read_records(w, diags, &ok);
        CHECK_FALSE(ok);
        REQUIRE(diags.has_errors());
        CHECK((diags.messages()[0].code == Code::bitstream_bad_block_length ||
               diags.messages()[0].code == Code::bitstream_truncated));
    }
    SUBCASE("blocks nested too deeply")
    {
        BitWriter w;
        w.magic();
        for (int i = 0; i < 70; ++i)
            w.enter(8, 3);
        for (int i = 0; i < 70; ++i)
            w.end();
        Diagnostics diags;
        BitstreamCursor cur(w.bytes, 0, diags);
        REQUIRE(cur.read_header());
        bool ok = true;
        for (int i = 0; i < 70 && ok; ++i) {
            BitstreamEntry e = cur.advance();
            ok = e.kind == Kind::subblock && cur.enter_block(e.id);
        }
        CHECK_FALSE(ok);
        CHECK(diags.has_code(Code::bitstream_too_deep));
    }
    SUBCASE("the message names the bit")
    {
        BitWriter w;
        w.magic();
        w.enter(8, 3);
        w.emit(6, 3);
        w.end();
        Diagnostics diags;
        read_records(w, diags);
        REQUIRE(diags.has_errors());
        CHECK(diags.messages()[0].location.kind == dxspv::Location::Kind::offset);
        CHECK(diags.messages()[0].location.a >= 100);
        CHECK(diags.messages()[0].text.find("bit") != std::string::npos);
    }
}

namespace {

/// The bits [pos, pos + width) of `bytes`, least significant first, one at
/// a time: the reference for BitReader.
uint64_t reference_bits(const std::vector<uint8_t>& bytes, uint64_t pos, unsigned width)
{
    uint64_t value = 0;
    for (unsigned i = 0; i < width; ++i)
        value |= uint64_t((bytes[(pos + i) >> 3] >> ((pos + i) & 7)) & 1) << i;
    return value;
}

} // namespace

TEST_CASE("bit reader: buffered reads of every width, seeks, alignment and the input's end match a bit-by-bit reading")
{
    uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&] {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    };
    for (size_t size : {0u, 1u, 7u, 8u, 9u, 37u, 200u, 2000u}) {
        std::vector<uint8_t> bytes(size);
        for (uint8_t& b : bytes)
            b = uint8_t(next());
        dxspv::dxil::BitReader r(bytes);
        uint64_t pos = 0;
        const uint64_t end = uint64_t(size) * 8;
        for (int step = 0; step < 400 && !r.failed(); ++step) {
            const uint64_t choice = next() % 16;
            if (choice == 0) {
                r.align32();
                pos = std::min((pos + 31) & ~uint64_t(31), end);
            } else if (choice == 1) {
                pos = end ? next() % end : 0;
                REQUIRE(r.seek(pos));
            } else {
                const unsigned width = unsigned(next() % 8 ? next() % 13 : next() % 65); // 0..64, mostly short
                const uint64_t value = r.read(width);
                if (width > end - pos) {
                    CHECK(r.failed());
                    CHECK(value == 0);
                    CHECK(r.pos() == end);
                    break;
                }
                CHECK(value == reference_bits(bytes, pos, width));
                pos += width;
            }
            REQUIRE(r.pos() == pos);
        }
    }
}

TEST_CASE("bit reader: VBR values across buffer refills, and one longer than 64 bits")
{
    // vbr6 chunks: 5 value bits and a continuation bit; a run of values of
    // one to thirteen chunks written back to back.
    std::vector<uint8_t> bytes(512, 0);
    uint64_t bit = 0;
    auto put = [&](uint64_t v, unsigned width) {
        for (unsigned i = 0; i < width; ++i, ++bit)
            bytes[bit >> 3] |= uint8_t(((v >> i) & 1) << (bit & 7));
    };
    std::vector<uint64_t> values;
    for (unsigned chunks = 1; chunks <= 13; ++chunks) {
        const uint64_t v = chunks == 13 ? ~uint64_t(0) : (uint64_t(1) << (5 * chunks - 1)) | chunks;
        values.push_back(v);
        for (unsigned c = 0; c < chunks; ++c)
            put(((v >> (5 * c)) & 31) | (c + 1 < chunks ? 32 : 0), 6);
    }
    for (unsigned c = 0; c < 15; ++c) // longer than 64 bits: 15 chunks of 5 bits
        put(31 | (c + 1 < 15 ? 32 : 0), 6);
    dxspv::dxil::BitReader r(bytes);
    for (uint64_t v : values) {
        bool overflow = false;
        CHECK(r.read_vbr(6, overflow) == v);
        CHECK_FALSE(overflow);
    }
    bool overflow = false;
    r.read_vbr(6, overflow);
    CHECK(overflow);
}

TEST_CASE("bit reader: skipping VBR6 values lands where reading them would, to the input's end")
{
    // Values of one to four chunks in a repeating mix, written back to
    // back; from every start, skipping n values and reading them lead to
    // the same position, and the value there reads the same.
    std::vector<uint64_t> values;
    for (uint64_t i = 0; i < 300; ++i)
        values.push_back(i % 7 == 0 ? (uint64_t(1) << 17) + i : i % 3 == 0 ? 32 + i : i % 5 == 0 ? 1024 + i : i % 32);
    BitWriter w;
    for (uint64_t v : values)
        w.vbr(v, 6);
    const std::vector<uint8_t> bytes = w.bytes;
    std::vector<uint64_t> starts; // the bit at which each value starts
    dxspv::dxil::BitReader reader(bytes);
    for (size_t i = 0; i < values.size(); ++i) {
        starts.push_back(reader.pos());
        bool overflow = false;
        REQUIRE(reader.read_vbr(6, overflow) == values[i]);
    }
    starts.push_back(reader.pos());
    for (size_t first : {size_t(0), size_t(1), size_t(5), size_t(13), size_t(250)}) {
        for (size_t n = 0; first + n <= values.size(); n += n < 24 ? 1 : 17) {
            dxspv::dxil::BitReader r(bytes);
            r.seek(starts[first]);
            r.skip_vbr6(n);
            CHECK(r.pos() == starts[first + n]);
            if (first + n < values.size()) {
                bool overflow = false;
                CHECK(r.read_vbr(6, overflow) == values[first + n]);
            }
        }
    }
}

TEST_CASE("bitstream: unneeded records' operands are passed over undecoded, the others read")
{
    std::vector<uint64_t> layout(79);
    for (size_t i = 0; i < layout.size(); ++i)
        layout[i] = 'a' + i % 26;
    BitWriter w;
    w.magic();
    w.enter(8, 3);
    w.record(3, layout);        // unneeded: skipped
    w.record(3, {1, 2});        // unneeded but short: read anyway
    w.record(4, layout);        // needed
    w.record(3, {40, 41, 1000}); // unneeded
    w.record(5, {7});
    // Abbreviated, code 3 (unneeded) with each kind of operand, each
    // followed by a record that must read right after it.
    w.define_abbrev({{0, 3}, {1, 3}, {2, 4}, {3, 0}, {4, 0}}); // id 4: literal, fixed 3, vbr4, char6 array
    w.define_abbrev({{1, 5}, {3, 0}, {1, 8}});                  // id 5: fixed-5 code, fixed(8) array
    w.define_abbrev({{1, 5}, {2, 6}, {3, 0}, {2, 6}});          // id 6: fixed-5 code, vbr6, vbr6 array
    w.define_abbrev({{0, 3}, {5, 0}});                          // id 7: literal, blob
    w.emit(4, 3); // abbreviation id 4
    w.emit(5, 3);
    w.vbr(1000, 4);
    w.vbr(5, 6);
    for (uint64_t c : {0, 62, 51, 63, 61})
        w.emit(c, 6);
    w.record(5, {8});
    w.emit(5, 3); // abbreviation id 5
    w.emit(3, 5);
    w.vbr(3, 6);
    for (uint64_t c : {200, 7, 9})
        w.emit(c, 8);
    w.record(5, {9});
    w.emit(6, 3); // abbreviation id 6
    w.emit(3, 5);
    w.vbr(77, 6);
    w.vbr(4, 6);
    for (uint64_t v : {1, 40, 100000, 31})
        w.vbr(v, 6);
    w.record(5, {10});
    w.emit(6, 3); // abbreviation id 6
    w.emit(4, 5); // code 4 is needed: read
    w.vbr(77, 6);
    w.vbr(2, 6);
    w.vbr(40, 6);
    w.vbr(2, 6);
    w.emit(7, 3); // abbreviation id 7
    w.vbr(5, 6);
    w.align32();
    for (uint64_t b : {1, 2, 3, 4, 5})
        w.emit(b, 8);
    w.align32();
    w.record(5, {11});
    w.end();
    Diagnostics diags;
    BitstreamCursor cur(w.bytes, 0, diags);
    REQUIRE(cur.read_header());
    REQUIRE(cur.advance().kind == Kind::subblock);
    REQUIRE(cur.enter_block(8));
    std::vector<std::vector<uint64_t>> recs;
    dxspv::dxil::RecordOps ops;
    for (BitstreamEntry e = cur.advance(); e.kind == Kind::record; e = cur.advance()) {
        uint32_t code = 0;
        REQUIRE(cur.read_record_or_skip(e.id, code, ops, uint64_t(1) << 3));
        std::vector<uint64_t> rec{code};
        rec.insert(rec.end(), ops.begin(), ops.end());
        recs.push_back(rec);
    }
    CHECK_FALSE(diags.has_errors());
    CHECK(recs == std::vector<std::vector<uint64_t>>{{3}, {3, 1, 2}, recs[2], {3}, {5, 7}, {3}, {5, 8}, {3}, {5, 9},
                                                      {3}, {5, 10}, {4, 77, 40, 2}, {3}, {5, 11}});
    CHECK(recs[2].size() == 80);
}

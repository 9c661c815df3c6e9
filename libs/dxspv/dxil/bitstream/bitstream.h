// LLVM bitstream reader: bounds-checked bit reads, blocks, abbreviations
// (including BLOCKINFO), and records. Knows nothing about what the records
// mean; the module reader (dxil/module/) interprets them.
//
// Errors are reported once through Diagnostics with code 7xxx; after the
// first error every call fails, so callers only need to check results.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "common/scratch.h"

namespace dxspv::dxil {

/// Reads bits least significant first, as LLVM writes them. Reads past the
/// end return 0 and set a sticky failure flag.
///
/// The next up to 64 bits of the input wait in a buffer (`word_`, `avail_`
/// of them valid, never past the input's end): a read within the buffer is
/// a mask and a shift; only a read the buffer cannot serve goes to the input
/// (read_refill), which then fills the buffer again.
///
/// The position is not kept but derived: the buffer ends at bit `end_` of
/// the input, so the next bit to read is end_ - avail_. A read updates two
/// values instead of three.
class BitReader {
public:
    BitReader() = default;
    explicit BitReader(std::span<const uint8_t> bytes) : data_(bytes.data()), size_bits_(uint64_t(bytes.size()) * 8) {}

    uint64_t pos() const { return end_ - avail_; }
    uint64_t size_bits() const { return size_bits_; }
    bool at_end() const { return pos() >= size_bits_; }
    bool failed() const { return failed_; }
    const uint8_t* data() const { return data_; }

    /// Reads `width` bits (0..64). Inline: it is called per operand, and
    /// GCC would otherwise call an out-of-line copy from the record loops.
    [[gnu::always_inline]] uint64_t read(unsigned width)
    {
        if (width < avail_) [[likely]]
            return take(width);
        return read_refill(width);
    }

    /// Reads a VBR value with `width`-bit chunks (1..32); fails past 64 bits.
    uint64_t read_vbr(unsigned width, bool& overflow)
    {
        const uint64_t hi = uint64_t(1) << (width - 1);
        if (2 * width < avail_) [[likely]] {
            // A value of one or two chunks (record codes, ids, the
            // characters of unabbreviated names: almost all) decoded from
            // the buffer at once, without a loop.
            const uint64_t w = word_;
            if (!(w & hi))
                return take(width);
            if (!(w & (hi << width))) {
                take(2 * width);
                return (w & (hi - 1)) | ((w >> width) & (hi - 1)) << (width - 1);
            }
        }
        uint64_t piece = read(width);
        if (!(piece & hi)) [[likely]]
            return piece;
        uint64_t result = piece & (hi - 1);
        for (unsigned shift = width - 1;;) {
            piece = read(width);
            if (failed_)
                return 0;
            if (shift < 64)
                result |= (piece & (hi - 1)) << shift;
            if (!(piece & hi))
                return result;
            shift += width - 1;
            if (shift >= 64 + width) {
                overflow = true;
                return 0;
            }
        }
    }

    /// Reads two VBR values with `width`-bit chunks (1..32), as two
    /// read_vbr() calls would. Both of one chunk (an unabbreviated record's
    /// code and operand count: almost always) are taken from the buffer at
    /// once.
    [[gnu::always_inline]] void read_vbr_pair(unsigned width, uint64_t& a, uint64_t& b, bool& overflow)
    {
        const uint64_t hi = uint64_t(1) << (width - 1);
        if (2 * width < avail_ && !(word_ & (hi | hi << width))) [[likely]] {
            const uint64_t w = take(2 * width);
            a = w & (hi - 1);
            b = w >> width;
            return;
        }
        a = read_vbr(width, overflow);
        b = read_vbr(width, overflow);
    }

    /// Reads `n` values of `width` fixed bits (1..64) into `out`, each passed
    /// through `decode`.
    ///
    /// The array loops below keep the buffer in locals: a store to `out`
    /// (uint64_t) could alias `word_` and `end_` for all the compiler knows,
    /// which would reload and store the three members on every element.
    template <class Decode>
    [[gnu::always_inline]] void read_fixed_array(uint64_t* out, uint64_t n, unsigned width, Decode decode)
    {
        const uint64_t mask = width < 64 ? (uint64_t(1) << width) - 1 : ~uint64_t(0);
        Window w = window();
        for (uint64_t i = 0; i < n; ++i) {
            uint64_t value;
            if (width >= w.avail)
                refill(w);
            if (width < w.avail) [[likely]] {
                value = w.word & mask;
                w.advance(width);
            } else {
                set_window(w);
                value = read_refill(width);
                w = window();
            }
            out[i] = decode(value);
        }
        set_window(w);
    }

    /// read_fixed_array() of `Width`-bit values (6 to 8: the characters of
    /// names and strings): 56 / Width of them at a time from the buffer,
    /// the rest one by one.
    template <unsigned Width, class Decode>
    void read_fixed_array(uint64_t* out, uint64_t n, Decode decode)
    {
        static_assert(Width >= 6 && Width <= 8);
        constexpr unsigned per_load = 56 / Width;
        constexpr uint64_t mask = (uint64_t(1) << Width) - 1;
        uint64_t i = 0;
        while (n - i >= per_load) {
            if (avail_ < per_load * Width) {
                fill();
                if (avail_ < per_load * Width) // the input's end
                    break;
            }
            const uint64_t w = word_;
            for (unsigned k = 0; k < per_load; ++k)
                out[i + k] = decode((w >> (Width * k)) & mask);
            take(per_load * Width);
            i += per_load;
        }
        read_fixed_array(out + i, n - i, Width, decode);
    }

    /// Reads `n` VBR values with `width`-bit chunks (1..32) into `out`;
    /// sets `overflow` for a value past 64 bits (see read_fixed_array).
    void read_vbr_array(uint64_t* out, uint64_t n, unsigned width, bool& overflow)
    {
        const uint64_t hi = uint64_t(1) << (width - 1);
        Window w = window();
        for (uint64_t i = 0; i < n; ++i) {
            if (2 * width >= w.avail)
                refill(w);
            if (2 * width < w.avail) [[likely]] {
                if (!(w.word & hi)) {
                    out[i] = w.word & (hi - 1);
                    w.advance(width);
                    continue;
                }
                if (!(w.word & (hi << width))) {
                    out[i] = (w.word & (hi - 1)) | ((w.word >> width) & (hi - 1)) << (width - 1);
                    w.advance(2 * width);
                    continue;
                }
            }
            set_window(w);
            out[i] = read_vbr(width, overflow);
            w = window();
        }
        set_window(w);
    }

    /// Passes over `n` VBR6 values without decoding them: nine chunks at a
    /// time, counting those that end a value (bit 5 clear).
    void skip_vbr6(uint64_t n)
    {
        constexpr uint64_t ends_mask = 0x0020820820820820ull; // bit 5 of nine 6-bit chunks
        Window w = window();
        while (n) {
            if (w.avail < 54)
                refill(w);
            if (w.avail < 54) [[unlikely]] { // the input's end: value by value
                set_window(w);
                bool overflow = false;
                read_vbr(6, overflow);
                w = window();
                --n;
                continue;
            }
            uint64_t ends = ~w.word & ends_mask;
            const unsigned k = unsigned(std::popcount(ends));
            if (k < n) {
                n -= k;
                w.advance(54);
                continue;
            }
            for (; n > 1; --n)
                ends &= ends - 1; // the n-th end is now the lowest
            w.advance(unsigned(std::countr_zero(ends)) + 1);
            n = 0;
        }
        set_window(w);
    }

    /// The next `width` bits (1..56) without reading them; zero past the
    /// input's end.
    uint64_t peek(unsigned width)
    {
        if (width > avail_)
            fill();
        return word_ & ((uint64_t(1) << width) - 1);
    }
    /// Skips `width` bits (below 64) that peek() returned from the input.
    void skip(unsigned width) { take(width); }

    /// At least `width` bits (up to 57) in the buffer, unless the input
    /// ends sooner; then what is left. For a caller that decodes several
    /// values from buffer() at once, then skip()s them.
    void want(unsigned width)
    {
        if (width > avail_)
            fill();
    }
    /// The buffer: its next avail() bits are the input's from pos().
    uint64_t buffer() const { return word_; }
    unsigned avail() const { return avail_; }

    void align32()
    {
        uint64_t pos = (this->pos() + 31) & ~uint64_t(31);
        if (pos > size_bits_) {
            pos = size_bits_;
            failed_ = true;
        }
        end_ = pos;
        avail_ = 0;
    }
    bool seek(uint64_t bit)
    {
        avail_ = 0;
        if (bit > size_bits_) {
            failed_ = true;
            end_ = size_bits_;
            return false;
        }
        end_ = bit;
        return true;
    }

private:
    /// The buffer's state, copied to locals by the array loops.
    struct Window {
        uint64_t word, end;
        unsigned avail;
        void advance(unsigned width)
        {
            word >>= width;
            avail -= width;
        }
    };
    Window window() const { return {word_, end_, avail_}; }
    /// The array loops' refill: `w` holds the 57 bits or more from its
    /// position on when eight input bytes are left there (the usual case);
    /// else it stays as it is and the loop reads through read_refill().
    [[gnu::always_inline]] void refill(Window& w) const
    {
        const uint64_t pos = w.end - w.avail, byte = pos >> 3;
        if (byte + 8 <= size_bits_ >> 3) [[likely]] {
            const unsigned shift = unsigned(pos & 7);
            w.word = load_word(byte) >> shift;
            w.avail = 64 - shift;
            w.end = byte * 8 + 64;
        }
    }
    void set_window(const Window& w)
    {
        word_ = w.word;
        end_ = w.end;
        avail_ = w.avail;
    }

    /// `width` bits from the buffer (width < avail_, so less than 64).
    [[gnu::always_inline]] uint64_t take(unsigned width)
    {
        const uint64_t value = word_ & ((uint64_t(1) << width) - 1);
        word_ >>= width;
        avail_ -= width;
        return value;
    }

    /// A read the buffer cannot serve: the buffer filled again from pos()
    /// first; reads of 57 bits and more, and reads at the input's end, bit
    /// group by bit group (or a failure past the end).
    [[gnu::noinline]] uint64_t read_refill(unsigned width)
    {
        // The usual case first, apart: eight bytes left to load and a read
        // the 57 bits or more they give can serve. Kept free of the rest's
        // register pressure, it runs every 60 bits or so.
        const uint64_t byte = pos() >> 3;
        if (byte + 8 <= size_bits_ >> 3 && width - 1 < 56) [[likely]] {
            const unsigned shift = unsigned(pos() & 7);
            word_ = load_word(byte) >> shift;
            avail_ = 64 - shift;
            end_ = byte * 8 + 64;
            return take(width);
        }
        return read_slow(width);
    }

    /// read_refill() at the input's end, of 0 or more than 56 bits.
    [[gnu::noinline]] uint64_t read_slow(unsigned width)
    {
        if (width == 0)
            return 0;
        fill();
        if (width < avail_)
            return take(width);
        const uint64_t pos = this->pos();
        if (width > size_bits_ - pos || pos > size_bits_) {
            failed_ = true;
            end_ = size_bits_;
            avail_ = 0;
            return 0;
        }
        uint64_t value = 0;
        for (unsigned done = 0; done < width;) { // at most 8 bits per step
            const uint64_t p = pos + done;
            const unsigned shift = unsigned(p & 7), take = std::min(8 - shift, width - done);
            value |= uint64_t((data_[p >> 3] >> shift) & ((1u << take) - 1)) << done;
            done += take;
        }
        end_ = pos + width;
        avail_ = 0;
        return value;
    }

    /// The buffer from pos(): 64 bits but those of the first byte already
    /// read, fewer at the input's end.
    void fill()
    {
        const uint64_t pos = this->pos(), byte = pos >> 3, bytes = size_bits_ >> 3;
        const unsigned shift = unsigned(pos & 7);
        uint64_t word = 0;
        if (byte + 8 <= bytes) {
            word = load_word(byte);
            avail_ = 64 - shift;
        } else {
            for (uint64_t i = byte; i < bytes; ++i)
                word |= uint64_t(data_[i]) << (8 * (i - byte));
            avail_ = unsigned(size_bits_ - pos);
        }
        word_ = word >> shift;
        end_ = pos + avail_;
    }

    /// The eight input bytes from `byte` as a little-endian word.
    uint64_t load_word(uint64_t byte) const
    {
        uint64_t word;
        std::memcpy(&word, data_ + byte, 8);
        if constexpr (std::endian::native == std::endian::big)
            word = __builtin_bswap64(word);
        return word;
    }

    const uint8_t* data_ = nullptr;
    uint64_t size_bits_ = 0;
    uint64_t end_ = 0;    ///< the input's bit just past the buffer's
    uint64_t word_ = 0;   ///< the input's bits from pos(), avail_ of them
    unsigned avail_ = 0;
    bool failed_ = false;
};

/// Fixed abbreviation ids.
enum : uint32_t { abbrev_end_block = 0, abbrev_enter_subblock = 1, abbrev_define = 2, abbrev_unabbrev_record = 3 };
/// Standard block ids.
enum : uint32_t { blockinfo_block_id = 0 };

struct AbbrevOp {
    enum class Kind : uint8_t { literal, fixed, vbr, array, char6, blob };
    Kind kind = Kind::literal;
    uint64_t value = 0; ///< literal value or width
};

/// A record's operands. The storage is reused from record to record and
/// only grows; resize_for_overwrite() leaves the operands past the old size
/// unset (std::vector's resize would zero them first, and a record's reader
/// writes each one anyway).
class RecordOps {
public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    uint64_t operator[](size_t i) const { return data_[i]; }
    uint64_t& operator[](size_t i) { return data_[i]; }
    const uint64_t* data() const { return data_; }
    const uint64_t* begin() const { return data_; }
    const uint64_t* end() const { return data_ + size_; }
    void clear() { size_ = 0; }
    /// `n` operands: the first min(n, size()) kept, the rest unset.
    uint64_t* resize_for_overwrite(size_t n)
    {
        if (n > storage_.size()) [[unlikely]]
            grow(n);
        size_ = n;
        return data_;
    }

private:
    [[gnu::noinline]] void grow(size_t n)
    {
        // Not zeroed (resize() would): the operands past size_ are unset
        // anyway, those before it kept. At least 128: room at once for the
        // longest record of most modules, dxc's DATALAYOUT string (79).
        storage_.append_uninitialized(std::max({n, 2 * storage_.size(), size_t(128)}) - storage_.size());
        data_ = storage_.data();
    }

    ScratchVector<uint64_t> storage_;
    uint64_t* data_ = nullptr;
    size_t size_ = 0;
};

/// One entry of a block, as returned by BitstreamCursor::advance().
struct BitstreamEntry {
    enum class Kind : uint8_t { error, end_block, subblock, record };
    Kind kind = Kind::error;
    uint32_t id = 0; ///< block id (subblock) or abbreviation id (record)
};

class BitstreamCursor {
public:
    /// Nesting limit for blocks.
    static constexpr unsigned max_depth = 64;

    /// `base_offset` is the byte offset of `bytes` in the caller's input
    /// (diagnostics report container offsets).
    BitstreamCursor(std::span<const uint8_t> bytes, uint32_t base_offset, Diagnostics& diags);

    /// Skips the optional wrapper header and checks the 'BC' 0xC0DE magic.
    bool read_header();

    /// Reads the next entry of the current block (or the top level):
    /// handles DEFINE_ABBREV itself and reads the BLOCKINFO block when it
    /// is entered through enter_block(). `error` when reading failed.
    ///
    /// Inline for the usual entry, a record: the readers call this once per
    /// record, and the out-of-line call's prologue and epilogue cost about
    /// as much as reading the id. The rest is advance_special().
    BitstreamEntry advance()
    {
        if (!failed() && bits_.pos() + abbrev_width_ <= end_bit_) [[likely]] {
            // No check_in_block(): the id is read inside the block (checked
            // just above), so the read neither fails nor leaves the block.
            const uint32_t id = uint32_t(bits_.read(abbrev_width_));
            if (id > abbrev_define) [[likely]]
                return {BitstreamEntry::Kind::record, id};
            return advance_special(id);
        }
        return advance_slow();
    }
    /// Enters the block announced by a `subblock` entry.
    bool enter_block(uint32_t block_id);
    /// Skips the block announced by a `subblock` entry.
    bool skip_block();
    /// Reads a record; operands go to `ops` (cleared first). For a blob
    /// operand the bytes are returned in `blob` (borrowed from the input)
    /// and not appended to `ops`.
    ///
    /// Inline for a short unabbreviated record (read_short_record): most
    /// records of a DXIL module's metadata, constants and instructions.
    bool read_record(uint32_t abbrev_id, uint32_t& code, RecordOps& ops,
                     std::span<const uint8_t>* blob = nullptr)
    {
        if (abbrev_id == abbrev_unabbrev_record) [[likely]] {
            if (blob)
                *blob = {};
            return read_short_record(code, ops) || read_unabbreviated(code, ops);
        }
        return read_abbreviated(abbrev_id, code, ops, blob);
    }
    /// read_record() for a caller that does not need the operands of some
    /// records: a record whose code is below 64 with its bit set in
    /// `unneeded` has its operands passed over undecoded (`ops` empty),
    /// but for a short unabbreviated one, read as usual. Unabbreviated
    /// strings (DXIL's data layout) take one VBR6 operand per character.
    bool read_record_or_skip(uint32_t abbrev_id, uint32_t& code, RecordOps& ops, uint64_t unneeded)
    {
        if (!unneeded)
            return read_record(abbrev_id, code, ops);
        if (abbrev_id == abbrev_unabbrev_record)
            return read_short_record(code, ops) || read_unabbreviated(code, ops, unneeded);
        return read_abbreviated(abbrev_id, code, ops, nullptr, unneeded);
    }
    /// The block just entered (enter_block), for a caller that may know its
    /// decoding already: its contents from here to its end (enter_block
    /// leaves the position at a word boundary; empty after a failure), and
    /// its abbreviation id width.
    std::span<const uint8_t> block_contents() const
    {
        if (failed() || (bits_.pos() & 7) != 0)
            return {};
        return {bits_.data() + bits_.pos() / 8, size_t((end_bit_ - bits_.pos()) / 8)};
    }
    unsigned abbrev_width() const { return abbrev_width_; }
    /// Leaves the block just entered at its end, as its END_BLOCK would, without
    /// reading its contents: for contents that decoded before up to an
    /// END_BLOCK, which is then the block's end (advance_special checks it).
    bool leave_block();
    /// Reads the BLOCKINFO block just entered (enter_block already done).
    /// A block of the same bytes as the last one read on this thread is
    /// not decoded again (see BlockInfoCache in bitstream.cpp).
    bool read_blockinfo();

    bool at_top_level_end() const;
    bool failed() const { return failed_ || bits_.failed(); }
    uint64_t bit_pos() const { return bits_.pos(); }
    unsigned depth() const { return unsigned(scopes_.size()); }
    /// Reports an error at the current bit position (code + message).
    [[gnu::cold]] void error(Code code, const char* what);
    /// Location of the current position, and the bit within that byte.
    Location location() const { return Location::offset(base_offset_ + (bits_.pos() >> 3)); }

private:
    struct Abbrev {
        uint32_t first_op = 0;
        uint32_t op_count = 0;
    };
    struct Scope {
        uint32_t block_id = 0;
        unsigned abbrev_width = 2;
        uint64_t end_bit = 0;
        uint32_t first_abbrev = 0; ///< into scope_abbrevs_
    };
    struct BlockInfo {
        uint32_t block_id = 0;
        ScratchVector<uint32_t> abbrevs; ///< into abbrevs_
    };
    struct BlockInfoCache;

    /// An unabbreviated record (its abbreviation id read) whose code,
    /// operand count and at most 7 operands are all of one VBR6 chunk,
    /// inside the block: decoded from the bit buffer at once. False, with
    /// nothing read, for any other record, which read_unabbreviated() then
    /// reads (and reports when it is bad). The record's end is checked
    /// against the block's before anything is taken, as read_unabbreviated()
    /// bounds the operand count.
    [[gnu::always_inline]] bool read_short_record(uint32_t& code, RecordOps& ops)
    {
        if (failed_)
            return false;
        bits_.want(12);
        uint64_t w = bits_.buffer();
        const unsigned n = unsigned(w >> 6) & 63;
        if (n > 7)
            return false;
        const unsigned width = 6 * (2 + n);
        if (width > bits_.avail()) {
            bits_.want(width);
            w = bits_.buffer();
        }
        // Bit 5 of each chunk: set when the value continues.
        const uint64_t continued = 0x0820820820820820ull & ((uint64_t(1) << width) - 1);
        if ((w & continued) || width > bits_.avail() || bits_.pos() + width > end_bit_)
            return false;
        uint64_t* out = ops.resize_for_overwrite(n);
        uint64_t v = w >> 12;
        for (unsigned i = 0; i < n; ++i, v >>= 6)
            out[i] = v & 31;
        code = uint32_t(w & 31);
        bits_.skip(width);
        return true;
    }
    /// read_record() for an unabbreviated record (its abbreviation id read).
    /// With bits in `unneeded`, see read_record_or_skip().
    [[gnu::noinline]] bool read_unabbreviated(uint32_t& code, RecordOps& ops, uint64_t unneeded = 0);
    /// read_record() for an abbreviated record.
    [[gnu::noinline]] bool read_abbreviated(uint32_t abbrev_id, uint32_t& code, RecordOps& ops,
                                            std::span<const uint8_t>* blob, uint64_t unneeded = 0);
    /// Passes over an abbreviated record's operands from `op` on, undecoded
    /// (read_record_or_skip).
    bool skip_operands(const AbbrevOp* op, const AbbrevOp* end);
    /// An array's element count (its length read), bounded by the block's
    /// bits left; false (reported) past them.
    bool read_array_length(const AbbrevOp& elt, uint64_t& n);
    /// A blob's byte count (its length read and the position aligned to 32
    /// bits), bounded likewise.
    bool read_blob_length(uint64_t& n);
    /// Closes the innermost block (its END_BLOCK read, or left), back to its
    /// parent's abbreviation width and end.
    void pop_scope();
    /// advance() after reading the id of END_BLOCK, ENTER_SUBBLOCK or
    /// DEFINE_ABBREV.
    [[gnu::noinline]] BitstreamEntry advance_special(uint32_t id);
    /// advance() from the start: after a failure or at the block's end, and
    /// after an abbreviation definition.
    [[gnu::noinline]] BitstreamEntry advance_slow();
    /// Reads a DEFINE_ABBREV's definition (its id read); a definition of
    /// the same bits as one read lately on this thread is not decoded again
    /// (see AbbrevCache in bitstream.cpp).
    bool read_abbrev_definition(uint32_t& abbrev_index);
    /// read_abbrev_definition() decoding the definition.
    bool decode_abbrev_definition(uint32_t& abbrev_index);
    struct AbbrevCache;
    /// This thread's cache.
    static AbbrevCache& abbrev_cache();
    /// read_blockinfo() decoding the block; `end_block_bit` is where its
    /// END_BLOCK starts.
    bool decode_blockinfo(uint64_t& end_block_bit);
    /// What the cached block defined, added as decode_blockinfo() would;
    /// then its END_BLOCK read.
    bool restore_blockinfo(const BlockInfoCache& cache, uint64_t start);
    /// Keeps what decode_blockinfo() defined (the ops and abbreviations
    /// from `first_op` and `first_abbrev` on, and blockinfo_) for `block`.
    void save_blockinfo(BlockInfoCache& cache, std::span<const uint8_t> block, unsigned width,
                        uint64_t end_block_bit, size_t first_op, size_t first_abbrev) const;
    /// This thread's cache.
    static BlockInfoCache& blockinfo_cache();
    bool read_scalar(const AbbrevOp& op, uint64_t& value);
    BlockInfo* blockinfo_for(uint32_t block_id, bool create);
    /// No read failed and the position is inside the block (else reports it).
    bool check_in_block()
    {
        if (!bits_.failed() && bits_.pos() <= end_bit_) [[likely]]
            return true;
        return report_out_of_block();
    }
    [[gnu::cold]] bool report_out_of_block();

    BitReader bits_;
    Diagnostics& diags_;
    uint32_t base_offset_ = 0;
    bool failed_ = false;
    unsigned abbrev_width_ = 2;
    uint64_t end_bit_ = 0;
    ScratchVector<AbbrevOp> ops_;
    ScratchVector<Abbrev> abbrevs_;
    ScratchVector<uint32_t> scope_abbrevs_; ///< abbreviations of the open scopes, innermost last
    uint32_t current_first_abbrev_ = 0;
    ScratchVector<Scope> scopes_;
    ScratchVector<BlockInfo> blockinfo_;
};

} // namespace dxspv::dxil

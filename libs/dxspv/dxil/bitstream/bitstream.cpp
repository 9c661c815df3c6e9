#include "dxil/bitstream/bitstream.h"

#include "common/byte_reader.h"

namespace dxspv::dxil {

namespace {

constexpr uint32_t wrapper_magic = 0x0B17C0DE;

/// LLVM's char6 alphabet: a-z A-Z 0-9 . _
constexpr char char6_alphabet[65] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/// A char6 value (below 64) as its character: a load, not a chain of
/// comparisons (value names, function names above all, are char6 arrays).
uint64_t decode_char6(uint64_t v)
{
    return uint8_t(char6_alphabet[v & 63]);
}

} // namespace

BitstreamCursor::BitstreamCursor(std::span<const uint8_t> bytes, uint32_t base_offset, Diagnostics& diags)
    : bits_(bytes), diags_(diags), base_offset_(base_offset)
{
    end_bit_ = bits_.size_bits();
    // A DXIL module defines about 30 abbreviations of about 4 operands in
    // BLOCKINFO and its blocks: room for them without regrowing.
    ops_.reserve(256);
    abbrevs_.reserve(64);
    scope_abbrevs_.reserve(64);
    scopes_.reserve(8);
}

void BitstreamCursor::error(Code code, const char* what)
{
    if (failed_)
        return;
    failed_ = true;
    uint64_t pos = bits_.pos();
    diags_.error(code, Location::offset(base_offset_ + (pos >> 3)), "%s (bit %u of byte, bitstream bit %llu)", what,
                 unsigned(pos & 7), (unsigned long long)pos);
}

bool BitstreamCursor::read_header()
{
    std::span<const uint8_t> bytes(bits_.data(), size_t(bits_.size_bits() >> 3));
    if (bytes.size() >= 4 && load_le32(bytes.data()) == wrapper_magic) {
        if (bytes.size() < 20) {
            error(Code::bitstream_bad_wrapper, "the bitcode wrapper header is truncated");
            return false;
        }
        uint32_t offset = load_le32(bytes.data() + 8);
        uint32_t size = load_le32(bytes.data() + 12);
        if (offset < 20 || offset > bytes.size() || size > bytes.size() - offset) {
            error(Code::bitstream_bad_wrapper, "the bitcode wrapper points outside the input");
            return false;
        }
        base_offset_ += offset;
        bits_ = BitReader(bytes.subspan(offset, size));
        end_bit_ = bits_.size_bits();
    }
    if (bits_.size_bits() < 32 || bits_.read(8) != 'B' || bits_.read(8) != 'C' || bits_.read(4) != 0x0 ||
        bits_.read(4) != 0xC || bits_.read(4) != 0xE || bits_.read(4) != 0xD) {
        bits_.seek(0);
        error(Code::bitstream_bad_magic, "the bitcode does not start with 'BC' 0xC0DE");
        return false;
    }
    return true;
}

bool BitstreamCursor::at_top_level_end() const
{
    if (!scopes_.empty())
        return false;
    // Trailing zero padding up to a 32-bit word counts as the end.
    uint64_t left = bits_.size_bits() - bits_.pos();
    if (left < 32)
        return true;
    return bits_.pos() >= bits_.size_bits();
}

bool BitstreamCursor::report_out_of_block()
{
    if (bits_.failed())
        error(Code::bitstream_truncated, "a read ran past the end of the bitcode");
    else
        error(Code::bitstream_past_block_end, "a record runs past the end of its block");
    return false;
}

BitstreamEntry BitstreamCursor::advance_slow()
{
    for (;;) {
        if (failed())
            return {};
        if (bits_.pos() + abbrev_width_ > end_bit_) {
            error(scopes_.empty() ? Code::bitstream_truncated : Code::bitstream_past_block_end,
                  "the block ends without END_BLOCK");
            return {};
        }
        uint32_t id = uint32_t(bits_.read(abbrev_width_));
        if (id > abbrev_define)
            return {BitstreamEntry::Kind::record, id}; // read inside the block, see advance()
        if (id != abbrev_define)
            return advance_special(id);
        // Definitions in a loop here, not through advance_special(): a run
        // of them must not nest calls.
        uint32_t index = 0;
        if (!read_abbrev_definition(index))
            return {};
        scope_abbrevs_.push_back(index);
    }
}

void BitstreamCursor::pop_scope()
{
    const Scope scope = scopes_.back();
    scopes_.pop_back();
    scope_abbrevs_.resize(scope.first_abbrev);
    if (scopes_.empty()) {
        abbrev_width_ = 2;
        end_bit_ = bits_.size_bits();
        current_first_abbrev_ = 0;
    } else {
        abbrev_width_ = scopes_.back().abbrev_width;
        end_bit_ = scopes_.back().end_bit;
        current_first_abbrev_ = scopes_.back().first_abbrev;
    }
}

bool BitstreamCursor::leave_block()
{
    if (failed() || scopes_.empty())
        return false;
    bits_.seek(scopes_.back().end_bit);
    pop_scope();
    return check_in_block();
}

BitstreamEntry BitstreamCursor::advance_special(uint32_t id)
{
    if (id == abbrev_end_block) {
        if (scopes_.empty()) {
            error(Code::bitstream_bad_end_block, "END_BLOCK outside of any block");
            return {};
        }
        bits_.align32();
        if (bits_.pos() != scopes_.back().end_bit) {
            error(Code::bitstream_bad_block_length, "END_BLOCK does not match the block's declared length");
            return {};
        }
        const uint32_t block_id = scopes_.back().block_id;
        pop_scope();
        if (!check_in_block())
            return {};
        return {BitstreamEntry::Kind::end_block, block_id};
    }
    if (id == abbrev_enter_subblock) {
        bool overflow = false;
        uint64_t block_id = bits_.read_vbr(8, overflow);
        if (overflow || block_id > 0xFFFFFFFFu) {
            error(Code::bitstream_bad_vbr, "a block id is too large");
            return {};
        }
        if (!check_in_block())
            return {};
        return {BitstreamEntry::Kind::subblock, uint32_t(block_id)};
    }
    // DEFINE_ABBREV, then the next entry (advance_slow() reads any further
    // definitions in its loop, so the calls nest at most once).
    uint32_t index = 0;
    if (!read_abbrev_definition(index))
        return {};
    scope_abbrevs_.push_back(index);
    return advance_slow();
}

bool BitstreamCursor::enter_block(uint32_t block_id)
{
    if (scopes_.size() >= max_depth) {
        error(Code::bitstream_too_deep, "blocks are nested too deeply");
        return false;
    }
    bool overflow = false;
    uint64_t width = bits_.read_vbr(4, overflow);
    bits_.align32();
    uint64_t words = bits_.read(32);
    if (!check_in_block())
        return false;
    if (overflow || width == 0 || width > 32) {
        error(Code::bitstream_bad_abbrev_width, "a block's abbreviation id width is zero or larger than 32 bits");
        return false;
    }
    uint64_t end = bits_.pos() + words * 32;
    if (end > end_bit_) {
        error(Code::bitstream_bad_block_length, "a block's declared length runs past its parent or the input");
        return false;
    }
    if (!scopes_.empty())
        scopes_.back().first_abbrev = current_first_abbrev_;
    Scope scope;
    scope.block_id = block_id;
    scope.abbrev_width = unsigned(width);
    scope.end_bit = end;
    scope.first_abbrev = uint32_t(scope_abbrevs_.size());
    scopes_.push_back(scope);
    abbrev_width_ = unsigned(width);
    end_bit_ = end;
    current_first_abbrev_ = scope.first_abbrev;
    if (const BlockInfo* info = blockinfo_for(block_id, false))
        scope_abbrevs_.insert(scope_abbrevs_.end(), info->abbrevs.begin(), info->abbrevs.end());
    return true;
}

bool BitstreamCursor::skip_block()
{
    bool overflow = false;
    uint64_t width = bits_.read_vbr(4, overflow);
    bits_.align32();
    uint64_t words = bits_.read(32);
    if (!check_in_block())
        return false;
    if (overflow || width == 0 || width > 32) {
        error(Code::bitstream_bad_abbrev_width, "a block's abbreviation id width is zero or larger than 32 bits");
        return false;
    }
    uint64_t end = bits_.pos() + words * 32;
    if (end > end_bit_) {
        error(Code::bitstream_bad_block_length, "a block's declared length runs past its parent or the input");
        return false;
    }
    bits_.seek(end);
    return true;
}

/// Abbreviation definitions this thread decoded lately, by their bits. dxc
/// defines the same abbreviations in the blocks of every module (the TYPE
/// block's, METADATA's, ...), and decoding one took about 280 instructions.
/// A definition's decoding depends on nothing but its bits, read from its
/// start: bits equal to a kept definition's (the whole of it inside the
/// block) decode to the same operands, without an error, and end where it
/// ended. Sets by the first bits (the operand count and record code), of
/// two entries (a module may define two abbreviations of the same count and
/// code, in different blocks); short definitions of few operands only, so
/// the cache stays small.
struct BitstreamCursor::AbbrevCache {
    static constexpr unsigned max_bits = 56; ///< one peek
    static constexpr size_t max_ops = 8, sets = 32;
    struct Entry {
        uint64_t bits = 0;
        uint8_t length = 0; ///< in bits; 0: unused
        uint8_t op_count = 0;
        AbbrevOp ops[max_ops];
        /// A definition starting with `peek` (max_bits of the input, `left`
        /// of them inside the block) is this one.
        bool matches(uint64_t peek, uint64_t left) const
        {
            return length && length <= left && (peek & ((uint64_t(1) << length) - 1)) == bits;
        }
    };
    struct Set {
        Entry ways[2];
        uint8_t next = 0; ///< the way replaced next
    };
    Set& set(uint64_t peek)
    {
        return table[((peek & 0x3FFF) * 0x9E3779B97F4A7C15ull) >> (64 - std::countr_zero(sets))];
    }
    Set table[sets];
};

BitstreamCursor::AbbrevCache& BitstreamCursor::abbrev_cache()
{
    thread_local AbbrevCache cache;
    return cache;
}

bool BitstreamCursor::read_abbrev_definition(uint32_t& abbrev_index)
{
    const uint64_t start = bits_.pos();
    const uint64_t peek = bits_.peek(AbbrevCache::max_bits);
    AbbrevCache::Set& set = abbrev_cache().set(peek);
    if (!failed() && start <= end_bit_) {
        for (const AbbrevCache::Entry& entry : set.ways) {
            if (entry.matches(peek, end_bit_ - start)) {
                bits_.skip(entry.length);
                abbrevs_.push_back({uint32_t(ops_.size()), entry.op_count});
                ops_.insert(ops_.end(), entry.ops, entry.ops + entry.op_count);
                abbrev_index = uint32_t(abbrevs_.size() - 1);
                return true;
            }
        }
    }
    if (!decode_abbrev_definition(abbrev_index))
        return false;
    const uint64_t length = bits_.pos() - start;
    const Abbrev& abbrev = abbrevs_[abbrev_index];
    if (length <= AbbrevCache::max_bits && abbrev.op_count <= AbbrevCache::max_ops) {
        AbbrevCache::Entry& entry = set.ways[set.next];
        set.next ^= 1;
        entry.length = uint8_t(length);
        entry.bits = peek & ((uint64_t(1) << length) - 1);
        entry.op_count = uint8_t(abbrev.op_count);
        std::copy_n(ops_.data() + abbrev.first_op, abbrev.op_count, entry.ops);
    }
    return true;
}

bool BitstreamCursor::decode_abbrev_definition(uint32_t& abbrev_index)
{
    bool overflow = false;
    uint64_t count = bits_.read_vbr(5, overflow);
    if (!check_in_block())
        return false;
    if (overflow || count == 0 || count > 4096) {
        error(Code::bitstream_bad_abbrev, "an abbreviation has no operands or too many");
        return false;
    }
    Abbrev abbrev;
    abbrev.first_op = uint32_t(ops_.size());
    // Arrays take exactly one element operand and must come second to last;
    // blobs must be last. Checked as the operands come, reported after them
    // (an operand that cannot be read is reported first).
    bool misplaced = false, after_array = false;
    for (uint64_t i = 0; i < count; ++i) {
        AbbrevOp op;
        bool literal = bits_.read(1) != 0;
        if (literal) {
            op.kind = AbbrevOp::Kind::literal;
            op.value = bits_.read_vbr(8, overflow);
        } else {
            uint64_t encoding = bits_.read(3);
            switch (encoding) {
            case 1:
                op.kind = AbbrevOp::Kind::fixed;
                op.value = bits_.read_vbr(5, overflow);
                if (op.value > 64)
                    overflow = true;
                break;
            case 2:
                op.kind = AbbrevOp::Kind::vbr;
                op.value = bits_.read_vbr(5, overflow);
                if (op.value == 0 || op.value > 32)
                    overflow = true;
                break;
            case 3: op.kind = AbbrevOp::Kind::array; break;
            case 4: op.kind = AbbrevOp::Kind::char6; break;
            case 5: op.kind = AbbrevOp::Kind::blob; break;
            default: overflow = true; break;
            }
        }
        if (!check_in_block())
            return false;
        if (overflow) {
            error(Code::bitstream_bad_abbrev, "an abbreviation operand has an unknown encoding or a bad width");
            return false;
        }
        // LLVM turns zero-width fixed/VBR operands into literal zeros.
        if ((op.kind == AbbrevOp::Kind::fixed || op.kind == AbbrevOp::Kind::vbr) && op.value == 0)
            op = {AbbrevOp::Kind::literal, 0};
        const bool array = op.kind == AbbrevOp::Kind::array, blob = op.kind == AbbrevOp::Kind::blob;
        misplaced |= (array && i + 2 != count) || (blob && (after_array || i + 1 != count));
        after_array = array;
        ops_.push_back(op);
    }
    if (misplaced) {
        error(Code::bitstream_bad_abbrev, "an array or blob operand is not at the end of its abbreviation");
        return false;
    }
    abbrev.op_count = uint32_t(count);
    abbrev_index = uint32_t(abbrevs_.size());
    abbrevs_.push_back(abbrev);
    return true;
}

[[gnu::always_inline]] inline bool BitstreamCursor::read_scalar(const AbbrevOp& op, uint64_t& value)
{
    bool overflow = false;
    switch (op.kind) {
    case AbbrevOp::Kind::literal: value = op.value; return true;
    case AbbrevOp::Kind::fixed: value = bits_.read(unsigned(op.value)); break;
    case AbbrevOp::Kind::vbr: value = bits_.read_vbr(unsigned(op.value), overflow); break;
    case AbbrevOp::Kind::char6: value = decode_char6(bits_.read(6)); break;
    default:
        error(Code::bitstream_bad_operand, "an array or blob is used as a scalar operand");
        return false;
    }
    if (overflow) {
        error(Code::bitstream_bad_vbr, "a VBR value is longer than 64 bits");
        return false;
    }
    return true; // the record checks its end against the block's
}

bool BitstreamCursor::read_unabbreviated(uint32_t& code, RecordOps& ops, uint64_t unneeded)
{
    ops.clear();
    if (failed())
        return false;
    bool overflow = false;
    uint64_t c = 0, n = 0;
    bits_.read_vbr_pair(6, c, n, overflow);
    if (!check_in_block())
        return false;
    if (overflow || c > 0xFFFFFFFFu) {
        error(Code::bitstream_bad_vbr, "a record code is too large");
        return false;
    }
    // Every operand takes at least 6 bits: bound n before reserving.
    if (n > (end_bit_ - bits_.pos()) / 6) {
        error(Code::bitstream_past_block_end, "a record's operand count runs past the end of its block");
        return false;
    }
    code = uint32_t(c);
    if (code < 64 && (unneeded >> code & 1)) {
        bits_.skip_vbr6(n);
        return check_in_block();
    }
    bits_.read_vbr_array(ops.resize_for_overwrite(n), n, 6, overflow);
    if (overflow) {
        error(Code::bitstream_bad_vbr, "a VBR value is longer than 64 bits");
        return false;
    }
    return check_in_block();
}

namespace {

/// The bits of one element of an array of `elt`: 0 for literals.
uint64_t element_bits(const AbbrevOp& elt)
{
    return elt.kind == AbbrevOp::Kind::char6 ? 6 : elt.kind == AbbrevOp::Kind::literal ? 0 : elt.value;
}

} // namespace

[[gnu::always_inline]] inline bool BitstreamCursor::read_array_length(const AbbrevOp& elt, uint64_t& n)
{
    bool overflow = false;
    n = bits_.read_vbr(6, overflow);
    if (!check_in_block())
        return false;
    // Elements of zero bits (literals, fixed(0)) count as one bit, so that
    // a few bytes cannot announce millions of them. (A product, not a
    // quotient: n is bounded first, and a division by a variable is slow.)
    if (overflow || n > (uint64_t(1) << 26) || n * std::max<uint64_t>(element_bits(elt), 1) > end_bit_ - bits_.pos()) {
        error(Code::bitstream_past_block_end, "an array's length runs past the end of its block");
        return false;
    }
    return true;
}

[[gnu::always_inline]] inline bool BitstreamCursor::read_blob_length(uint64_t& n)
{
    bool overflow = false;
    n = bits_.read_vbr(6, overflow);
    bits_.align32();
    if (!check_in_block())
        return false;
    if (overflow || n > (end_bit_ - bits_.pos()) / 8) {
        error(Code::bitstream_past_block_end, "a blob runs past the end of its block");
        return false;
    }
    return true;
}

bool BitstreamCursor::read_abbreviated(uint32_t abbrev_id, uint32_t& code, RecordOps& ops,
                                       std::span<const uint8_t>* blob, uint64_t unneeded)
{
    ops.clear();
    if (blob)
        *blob = {};
    if (failed())
        return false;
    bool overflow = false;
    uint32_t index = abbrev_id - 4;
    if (abbrev_id < 4 || index >= scope_abbrevs_.size() - current_first_abbrev_) {
        error(Code::bitstream_bad_abbrev_id, "an abbreviation id is not defined in this block");
        return false;
    }
    const Abbrev& abbrev = abbrevs_[scope_abbrevs_[current_first_abbrev_ + index]];
    const AbbrevOp* op = ops_.data() + abbrev.first_op;
    const AbbrevOp* end = op + abbrev.op_count;
    uint64_t value = 0;
    if (op->kind == AbbrevOp::Kind::array || op->kind == AbbrevOp::Kind::blob) {
        error(Code::bitstream_bad_abbrev, "an abbreviation starts with an array or blob instead of the record code");
        return false;
    }
    if (!read_scalar(*op++, value))
        return false;
    if (value > 0xFFFFFFFFu) {
        error(Code::bitstream_bad_operand, "a record code is too large");
        return false;
    }
    code = uint32_t(value);
    if (code < 64 && (unneeded >> code & 1)) [[unlikely]]
        return skip_operands(op, end);
    // The scalars go to their slots directly (at most one per operand);
    // `ops` is cut to what was read at the end.
    uint64_t* scalars = ops.resize_for_overwrite(size_t(end - op));
    size_t count = 0;
    for (; op != end; ++op) {
        if (op->kind == AbbrevOp::Kind::array) {
            const AbbrevOp& elt = op[1];
            uint64_t n = 0;
            if (!read_array_length(elt, n))
                return false;
            // The elements; reads stay inside the input (a read past it
            // fails), and the block's end is checked once after them.
            uint64_t* out = ops.resize_for_overwrite(count + n) + count;
            if (elt.kind == AbbrevOp::Kind::fixed) {
                const auto same = [](uint64_t v) { return v; };
                if (elt.value == 8)
                    bits_.read_fixed_array<8>(out, n, same);
                else if (elt.value == 7)
                    bits_.read_fixed_array<7>(out, n, same);
                else
                    bits_.read_fixed_array(out, n, unsigned(elt.value), same);
            } else if (elt.kind == AbbrevOp::Kind::char6) {
                bits_.read_fixed_array<6>(out, n, decode_char6);
            } else if (elt.kind == AbbrevOp::Kind::vbr) {
                bits_.read_vbr_array(out, n, unsigned(elt.value), overflow);
                if (overflow) {
                    error(Code::bitstream_bad_vbr, "a VBR value is longer than 64 bits");
                    return false;
                }
            } else {
                for (uint64_t i = 0; i < n; ++i)
                    if (!read_scalar(elt, out[i]))
                        return false;
            }
            return check_in_block();
        }
        if (op->kind == AbbrevOp::Kind::blob) {
            uint64_t n = 0;
            if (!read_blob_length(n))
                return false;
            const uint8_t* p = bits_.data() + (bits_.pos() >> 3);
            if (blob) {
                ops.resize_for_overwrite(count);
                *blob = {p, size_t(n)};
            } else {
                std::copy(p, p + n, ops.resize_for_overwrite(count + n) + count);
            }
            bits_.seek(bits_.pos() + n * 8);
            bits_.align32();
            return check_in_block();
        }
        if (!read_scalar(*op, scalars[count]))
            return false;
        ++count;
    }
    ops.resize_for_overwrite(count);
    return check_in_block();
}

bool BitstreamCursor::skip_operands(const AbbrevOp* op, const AbbrevOp* end)
{
    bool overflow = false;
    for (; op != end && !overflow; ++op) {
        switch (op->kind) {
        case AbbrevOp::Kind::literal: break;
        case AbbrevOp::Kind::fixed: bits_.read(unsigned(op->value)); break;
        case AbbrevOp::Kind::vbr: bits_.read_vbr(unsigned(op->value), overflow); break;
        case AbbrevOp::Kind::char6: bits_.read(6); break;
        case AbbrevOp::Kind::array: {
            // The elements' bits at once (fixed and char6), or value by value
            // (VBR).
            const AbbrevOp& elt = op[1];
            uint64_t n = 0;
            if (!read_array_length(elt, n))
                return false;
            if (elt.kind != AbbrevOp::Kind::vbr)
                bits_.seek(bits_.pos() + n * element_bits(elt));
            else if (elt.value == 6)
                bits_.skip_vbr6(n);
            else
                for (uint64_t i = 0; i < n && !overflow; ++i)
                    bits_.read_vbr(unsigned(elt.value), overflow);
            op = end - 1; // an array is the last operand
            break;
        }
        case AbbrevOp::Kind::blob: {
            uint64_t n = 0;
            if (!read_blob_length(n))
                return false;
            bits_.seek(bits_.pos() + n * 8);
            bits_.align32();
            op = end - 1;
            break;
        }
        }
    }
    if (overflow) {
        error(Code::bitstream_bad_vbr, "a VBR value is longer than 64 bits");
        return false;
    }
    return check_in_block();
}

BitstreamCursor::BlockInfo* BitstreamCursor::blockinfo_for(uint32_t block_id, bool create)
{
    for (auto& info : blockinfo_)
        if (info.block_id == block_id)
            return &info;
    if (!create)
        return nullptr;
    blockinfo_.push_back({block_id, {}});
    return &blockinfo_.back();
}

/// The last BLOCKINFO block this thread decoded without an error, and what
/// it defined. dxc writes the same BLOCKINFO block into every module (the
/// corpus's 410 modules hold 5 different ones, all of 76 bytes), and
/// decoding it took about 2% of a DXIL translation. A block is taken from
/// here only when it is the module's first (no BLOCKINFO entries yet, so
/// nothing but its bytes and abbreviation id width steer its decoding) and
/// both are those kept, the bytes compared in full: decoding it again would
/// define exactly these abbreviations, without an error.
struct BitstreamCursor::BlockInfoCache {
    /// Larger blocks are not kept: a thread holds no large copy of an
    /// input.
    static constexpr size_t max_bytes = 4096;
    struct Entry {
        uint32_t block_id = 0;
        std::vector<uint32_t> abbrevs; ///< into `abbrevs`
    };

    bool matches(std::span<const uint8_t> block, unsigned width) const
    {
        return width == abbrev_width && std::equal(block.begin(), block.end(), bytes.begin(), bytes.end());
    }

    unsigned abbrev_width = 0;  ///< 0 (no block has that width): nothing kept
    std::vector<uint8_t> bytes; ///< the block's contents, after its length word
    uint64_t end_block_bit = 0; ///< where its END_BLOCK starts, from the contents' start
    std::vector<AbbrevOp> ops;
    std::vector<Abbrev> abbrevs; ///< first_op into `ops`
    std::vector<Entry> entries;  ///< blockinfo_ after the block
};

BitstreamCursor::BlockInfoCache& BitstreamCursor::blockinfo_cache()
{
    thread_local BlockInfoCache cache;
    return cache;
}

bool BitstreamCursor::read_blockinfo()
{
    // enter_block() leaves the position at a word boundary, where the
    // contents start; they end at the block's end.
    const uint64_t start = bits_.pos(), end = end_bit_;
    const unsigned width = abbrev_width_;
    std::span<const uint8_t> block;
    const bool cacheable = blockinfo_.empty() && !failed() && (start & 7) == 0 &&
                           (end - start) / 8 <= BlockInfoCache::max_bytes;
    BlockInfoCache& cache = blockinfo_cache();
    if (cacheable) {
        block = {bits_.data() + start / 8, size_t((end - start) / 8)};
        if (cache.matches(block, width))
            return restore_blockinfo(cache, start);
    }
    const size_t first_op = ops_.size(), first_abbrev = abbrevs_.size();
    uint64_t end_block_bit = 0;
    if (!decode_blockinfo(end_block_bit))
        return false;
    if (cacheable)
        save_blockinfo(cache, block, width, end_block_bit - start, first_op, first_abbrev);
    return true;
}

bool BitstreamCursor::decode_blockinfo(uint64_t& end_block_bit)
{
    enum : uint32_t { setbid = 1, blockname = 2, setrecordname = 3 };
    BlockInfo* current = nullptr;
    RecordOps ops;
    for (;;) {
        if (failed())
            return false;
        if (bits_.pos() + abbrev_width_ > end_bit_) {
            error(Code::bitstream_past_block_end, "the BLOCKINFO block ends without END_BLOCK");
            return false;
        }
        uint64_t start = bits_.pos();
        uint32_t id = uint32_t(bits_.read(abbrev_width_));
        if (id == abbrev_define) {
            if (!current) {
                error(Code::bitstream_bad_blockinfo, "an abbreviation in BLOCKINFO comes before SETBID");
                return false;
            }
            uint32_t index = 0;
            if (!read_abbrev_definition(index))
                return false;
            // `current` stays valid: only blockinfo_for() adds to blockinfo_.
            current->abbrevs.push_back(index);
            continue;
        }
        bits_.seek(start);
        BitstreamEntry entry = advance();
        switch (entry.kind) {
        case BitstreamEntry::Kind::error: return false;
        case BitstreamEntry::Kind::end_block: end_block_bit = start; return true;
        case BitstreamEntry::Kind::subblock:
            if (!skip_block())
                return false;
            break;
        case BitstreamEntry::Kind::record: {
            uint32_t code = 0;
            if (!read_record(entry.id, code, ops))
                return false;
            if (code == setbid) {
                if (ops.empty() || ops[0] > 0xFFFFFFFFu) {
                    error(Code::bitstream_bad_blockinfo, "SETBID has no valid block id");
                    return false;
                }
                uint32_t bid = uint32_t(ops[0]);
                current = blockinfo_for(bid, true);
            }
            break;
        }
        }
    }
}

bool BitstreamCursor::restore_blockinfo(const BlockInfoCache& cache, uint64_t start)
{
    // Appended at once, the indices moved by what was there before (at
    // the module's start, where the cache is used: nothing).
    const uint32_t first_op = uint32_t(ops_.size()), first_abbrev = uint32_t(abbrevs_.size());
    ops_.insert(ops_.end(), cache.ops.begin(), cache.ops.end());
    Abbrev* abbrevs = abbrevs_.append_uninitialized(cache.abbrevs.size());
    for (size_t i = 0; i < cache.abbrevs.size(); ++i)
        abbrevs[i] = {cache.abbrevs[i].first_op + first_op, cache.abbrevs[i].op_count};
    blockinfo_.reserve(blockinfo_.size() + cache.entries.size());
    for (const BlockInfoCache::Entry& entry : cache.entries) {
        BlockInfo& info = blockinfo_.emplace_back();
        info.block_id = entry.block_id;
        uint32_t* indices = info.abbrevs.append_uninitialized(entry.abbrevs.size());
        for (size_t i = 0; i < entry.abbrevs.size(); ++i)
            indices[i] = first_abbrev + entry.abbrevs[i];
    }
    // The END_BLOCK read as decoding reads it, with the same checks.
    bits_.seek(start + cache.end_block_bit);
    const BitstreamEntry entry = advance();
    if (entry.kind == BitstreamEntry::Kind::end_block)
        return true;
    if (entry.kind != BitstreamEntry::Kind::error) // not for the same bytes, but never without a diagnostic
        error(Code::bitstream_bad_blockinfo, "the BLOCKINFO block does not end where it did when decoded");
    return false;
}

void BitstreamCursor::save_blockinfo(BlockInfoCache& cache, std::span<const uint8_t> block, unsigned width,
                                     uint64_t end_block_bit, size_t first_op, size_t first_abbrev) const
{
    cache.abbrev_width = width;
    cache.bytes.assign(block.begin(), block.end());
    cache.end_block_bit = end_block_bit;
    cache.ops.assign(ops_.begin() + first_op, ops_.end());
    cache.abbrevs.clear();
    for (size_t i = first_abbrev; i < abbrevs_.size(); ++i) {
        Abbrev abbrev = abbrevs_[i];
        abbrev.first_op -= uint32_t(first_op);
        cache.abbrevs.push_back(abbrev);
    }
    // The entries kept, with their arrays' memory (files from different
    // compilers in turn replace the cache again and again).
    cache.entries.resize(blockinfo_.size());
    for (size_t i = 0; i < blockinfo_.size(); ++i) {
        BlockInfoCache::Entry& entry = cache.entries[i];
        entry.block_id = blockinfo_[i].block_id;
        entry.abbrevs.clear();
        for (uint32_t index : blockinfo_[i].abbrevs)
            entry.abbrevs.push_back(index - uint32_t(first_abbrev));
    }
}

} // namespace dxspv::dxil

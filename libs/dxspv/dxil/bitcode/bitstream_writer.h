// LLVM bitstream writer: bits least significant first, fixed and VBR
// fields, blocks with their abbreviation id width and a backpatched length,
// abbreviation definitions (in a block or through BLOCKINFO) and records,
// abbreviated or not. The counterpart of dxil/bitstream/bitstream.h; it
// knows nothing about what records mean (dxil/bitcode/module_writer.cpp).
//
// Misuse by the caller (a value that does not fit its abbreviation, a block
// left open) is reported by ok() turning false, never by a crash.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "dxil/bitstream/bitstream.h"

namespace dxspv::dxil {

class BitstreamWriter {
public:
    /// Appends to `out` (which should be empty or 32-bit aligned).
    explicit BitstreamWriter(std::vector<uint8_t>& out) : out_(out) {}

    void emit(uint64_t value, unsigned width);
    void emit_vbr(uint64_t value, unsigned width);
    /// Pads with zero bits to a 32-bit boundary.
    void align32();
    /// 'BC' 0xC0DE.
    void magic();

    /// Starts a block: ENTER_SUBBLOCK, the new width, a length word that
    /// exit_block() fills in. The block sees the BLOCKINFO abbreviations
    /// registered for `block_id`.
    void enter_block(uint32_t block_id, unsigned abbrev_width);
    void exit_block();

    /// Defines an abbreviation in the current block; returns its id (4...).
    uint32_t define_abbrev(std::span<const AbbrevOp> ops);
    /// Inside the BLOCKINFO block: SETBID (when `block_id` is not the
    /// current one) and the definition; returns the id the abbreviation
    /// has in blocks with that id.
    uint32_t define_blockinfo_abbrev(uint32_t block_id, std::span<const AbbrevOp> ops);

    /// A record. `abbrev` 0 (or an abbreviation the operands do not fit)
    /// writes it unabbreviated; `blob` is for an abbreviation ending in a
    /// blob operand.
    void record(uint32_t code, std::span<const uint64_t> ops, uint32_t abbrev = 0,
                std::span<const uint8_t> blob = {});
    /// True when `code` and `ops` (and `blob`) can be written with `abbrev`.
    bool fits(uint32_t abbrev, uint32_t code, std::span<const uint64_t> ops, std::span<const uint8_t> blob = {}) const;

    unsigned depth() const { return unsigned(scopes_.size()); }
    bool ok() const { return ok_ && scopes_.empty(); }
    uint64_t bit_size() const { return uint64_t(out_.size()) * 8 + bits_; }

private:
    struct Abbrev {
        uint32_t first = 0, count = 0; ///< into ops_
    };
    struct Scope {
        unsigned outer_width = 2;
        size_t length_word = 0;           ///< byte offset of the length word
        size_t first_abbrev = 0;          ///< into scope_abbrevs_
        uint32_t block_id = 0;
    };
    struct BlockInfo {
        uint32_t block_id = 0;
        std::vector<uint32_t> abbrevs; ///< into abbrevs_
    };

    const Abbrev* abbrev_for(uint32_t id) const;
    void write_abbrev_definition(std::span<const AbbrevOp> ops);
    uint32_t store_abbrev(std::span<const AbbrevOp> ops);
    void scalar(const AbbrevOp& op, uint64_t value);
    BlockInfo* blockinfo(uint32_t block_id, bool create);

    std::vector<uint8_t>& out_;
    uint64_t acc_ = 0;  ///< pending bits, least significant first
    unsigned bits_ = 0; ///< number of pending bits (< 32 after each emit)
    unsigned width_ = 2;
    bool ok_ = true;
    std::vector<Scope> scopes_;
    std::vector<AbbrevOp> ops_;
    std::vector<Abbrev> abbrevs_;
    std::vector<uint32_t> scope_abbrevs_; ///< abbreviations of the open blocks, innermost last
    std::vector<BlockInfo> blockinfo_;
    uint32_t blockinfo_current_ = 0xFFFFFFFFu;
};

/// LLVM's char6 alphabet (a-z A-Z 0-9 . _): the 6-bit code, or -1.
int encode_char6(uint8_t c);

} // namespace dxspv::dxil

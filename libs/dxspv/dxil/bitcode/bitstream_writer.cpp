#include "dxil/bitcode/bitstream_writer.h"

namespace dxspv::dxil {

int encode_char6(uint8_t c)
{
    if (c >= 'a' && c <= 'z')
        return c - 'a';
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '.')
        return 62;
    if (c == '_')
        return 63;
    return -1;
}

void BitstreamWriter::emit(uint64_t value, unsigned width)
{
    if (width == 0)
        return;
    if (width > 32) {
        emit(value & 0xFFFFFFFFu, 32);
        emit(value >> 32, width - 32);
        return;
    }
    if (width < 32)
        value &= (uint64_t(1) << width) - 1;
    acc_ |= value << bits_;
    bits_ += width;
    if (bits_ >= 32) {
        for (int i = 0; i < 4; ++i)
            out_.push_back(uint8_t(acc_ >> (8 * i)));
        acc_ >>= 32;
        bits_ -= 32;
    }
}

void BitstreamWriter::emit_vbr(uint64_t value, unsigned width)
{
    if (width < 2 || width > 32) {
        ok_ = false;
        return;
    }
    uint64_t hi = uint64_t(1) << (width - 1);
    while (value >= hi) {
        emit((value & (hi - 1)) | hi, width);
        value >>= width - 1;
    }
    emit(value, width);
}

void BitstreamWriter::align32()
{
    if (bits_)
        emit(0, 32 - bits_);
}

void BitstreamWriter::magic()
{
    emit('B', 8);
    emit('C', 8);
    emit(0x0, 4);
    emit(0xC, 4);
    emit(0xE, 4);
    emit(0xD, 4);
}

BitstreamWriter::BlockInfo* BitstreamWriter::blockinfo(uint32_t block_id, bool create)
{
    for (BlockInfo& b : blockinfo_)
        if (b.block_id == block_id)
            return &b;
    if (!create)
        return nullptr;
    blockinfo_.push_back({block_id, {}});
    return &blockinfo_.back();
}

void BitstreamWriter::enter_block(uint32_t block_id, unsigned abbrev_width)
{
    if (abbrev_width == 0 || abbrev_width > 32) {
        ok_ = false;
        return;
    }
    emit(abbrev_enter_subblock, width_);
    emit_vbr(block_id, 8);
    emit_vbr(abbrev_width, 4);
    align32();
    Scope s;
    s.outer_width = width_;
    s.length_word = out_.size();
    s.first_abbrev = scope_abbrevs_.size();
    s.block_id = block_id;
    scopes_.push_back(s);
    emit(0, 32);
    width_ = abbrev_width;
    if (block_id == blockinfo_block_id)
        blockinfo_current_ = 0xFFFFFFFFu;
    else if (const BlockInfo* info = blockinfo(block_id, false))
        scope_abbrevs_.insert(scope_abbrevs_.end(), info->abbrevs.begin(), info->abbrevs.end());
}

void BitstreamWriter::exit_block()
{
    if (scopes_.empty()) {
        ok_ = false;
        return;
    }
    emit(abbrev_end_block, width_);
    align32();
    Scope s = scopes_.back();
    scopes_.pop_back();
    uint64_t words = (out_.size() - s.length_word - 4) / 4;
    if (words > 0xFFFFFFFFu)
        ok_ = false;
    for (int i = 0; i < 4; ++i)
        out_[s.length_word + i] = uint8_t(words >> (8 * i));
    width_ = s.outer_width;
    scope_abbrevs_.resize(s.first_abbrev);
}

void BitstreamWriter::write_abbrev_definition(std::span<const AbbrevOp> ops)
{
    emit(abbrev_define, width_);
    emit_vbr(ops.size(), 5);
    for (const AbbrevOp& op : ops) {
        bool literal = op.kind == AbbrevOp::Kind::literal;
        emit(literal ? 1 : 0, 1);
        if (literal) {
            emit_vbr(op.value, 8);
            continue;
        }
        switch (op.kind) {
        case AbbrevOp::Kind::fixed: emit(1, 3); emit_vbr(op.value, 5); break;
        case AbbrevOp::Kind::vbr: emit(2, 3); emit_vbr(op.value, 5); break;
        case AbbrevOp::Kind::array: emit(3, 3); break;
        case AbbrevOp::Kind::char6: emit(4, 3); break;
        default: emit(5, 3); break; // blob
        }
    }
}

uint32_t BitstreamWriter::store_abbrev(std::span<const AbbrevOp> ops)
{
    // Same shape rules as the reader: an array is second to last and has a
    // scalar element, a blob is last, the first operand is a scalar.
    bool good = !ops.empty() && ops[0].kind != AbbrevOp::Kind::array && ops[0].kind != AbbrevOp::Kind::blob;
    for (size_t i = 0; i < ops.size() && good; ++i) {
        const AbbrevOp& op = ops[i];
        if (op.kind == AbbrevOp::Kind::array)
            good = i + 2 == ops.size() && ops[i + 1].kind != AbbrevOp::Kind::array &&
                   ops[i + 1].kind != AbbrevOp::Kind::blob;
        else if (op.kind == AbbrevOp::Kind::blob)
            good = i + 1 == ops.size();
        else if (op.kind == AbbrevOp::Kind::fixed)
            good = op.value <= 64;
        else if (op.kind == AbbrevOp::Kind::vbr)
            good = op.value >= 2 && op.value <= 32;
    }
    if (!good)
        ok_ = false;
    Abbrev a{uint32_t(ops_.size()), uint32_t(ops.size())};
    ops_.insert(ops_.end(), ops.begin(), ops.end());
    abbrevs_.push_back(a);
    return uint32_t(abbrevs_.size() - 1);
}

uint32_t BitstreamWriter::define_abbrev(std::span<const AbbrevOp> ops)
{
    write_abbrev_definition(ops);
    scope_abbrevs_.push_back(store_abbrev(ops));
    size_t first = scopes_.empty() ? 0 : scopes_.back().first_abbrev;
    return uint32_t(scope_abbrevs_.size() - first + 3);
}

uint32_t BitstreamWriter::define_blockinfo_abbrev(uint32_t block_id, std::span<const AbbrevOp> ops)
{
    if (scopes_.empty() || scopes_.back().block_id != blockinfo_block_id) {
        ok_ = false;
        return 0;
    }
    if (blockinfo_current_ != block_id) {
        const uint64_t bid = block_id;
        record(1, std::span<const uint64_t>(&bid, 1)); // SETBID
        blockinfo_current_ = block_id;
    }
    write_abbrev_definition(ops);
    BlockInfo* info = blockinfo(block_id, true);
    info->abbrevs.push_back(store_abbrev(ops));
    return uint32_t(info->abbrevs.size() + 3);
}

const BitstreamWriter::Abbrev* BitstreamWriter::abbrev_for(uint32_t id) const
{
    size_t first = scopes_.empty() ? 0 : scopes_.back().first_abbrev;
    if (id < 4 || id - 4 >= scope_abbrevs_.size() - first)
        return nullptr;
    return &abbrevs_[scope_abbrevs_[first + id - 4]];
}

namespace {

bool scalar_fits(const AbbrevOp& op, uint64_t v)
{
    switch (op.kind) {
    case AbbrevOp::Kind::literal: return v == op.value;
    case AbbrevOp::Kind::fixed: return op.value >= 64 || v < (uint64_t(1) << op.value);
    case AbbrevOp::Kind::vbr: return true;
    case AbbrevOp::Kind::char6: return v < 256 && encode_char6(uint8_t(v)) >= 0;
    default: return false;
    }
}

} // namespace

bool BitstreamWriter::fits(uint32_t id, uint32_t code, std::span<const uint64_t> ops, std::span<const uint8_t> blob) const
{
    const Abbrev* a = abbrev_for(id);
    if (!a)
        return false;
    const AbbrevOp* op = ops_.data() + a->first;
    const AbbrevOp* end = op + a->count;
    if (!scalar_fits(*op++, code))
        return false;
    size_t i = 0;
    for (; op != end; ++op) {
        if (op->kind == AbbrevOp::Kind::array) {
            for (; i < ops.size(); ++i)
                if (!scalar_fits(op[1], ops[i]))
                    return false;
            return blob.empty();
        }
        if (op->kind == AbbrevOp::Kind::blob)
            return i == ops.size();
        if (i >= ops.size() || !scalar_fits(*op, ops[i]))
            return false;
        ++i;
    }
    return i == ops.size() && blob.empty();
}

void BitstreamWriter::scalar(const AbbrevOp& op, uint64_t v)
{
    switch (op.kind) {
    case AbbrevOp::Kind::fixed: emit(v, unsigned(op.value)); break;
    case AbbrevOp::Kind::vbr: emit_vbr(v, unsigned(op.value)); break;
    case AbbrevOp::Kind::char6: emit(uint64_t(encode_char6(uint8_t(v))), 6); break;
    default: break; // literal: nothing to write
    }
}

void BitstreamWriter::record(uint32_t code, std::span<const uint64_t> ops, uint32_t abbrev,
                             std::span<const uint8_t> blob)
{
    if (abbrev == 0 || !fits(abbrev, code, ops, blob)) {
        if (!blob.empty()) { // a blob needs its abbreviation
            ok_ = false;
            return;
        }
        emit(abbrev_unabbrev_record, width_);
        emit_vbr(code, 6);
        emit_vbr(ops.size(), 6);
        for (uint64_t v : ops)
            emit_vbr(v, 6);
        return;
    }
    const Abbrev* a = abbrev_for(abbrev);
    emit(abbrev, width_);
    const AbbrevOp* op = ops_.data() + a->first;
    const AbbrevOp* end = op + a->count;
    scalar(*op++, code);
    size_t i = 0;
    for (; op != end; ++op) {
        if (op->kind == AbbrevOp::Kind::array) {
            emit_vbr(ops.size() - i, 6);
            for (; i < ops.size(); ++i)
                scalar(op[1], ops[i]);
            return;
        }
        if (op->kind == AbbrevOp::Kind::blob) {
            emit_vbr(blob.size(), 6);
            align32();
            for (uint8_t b : blob)
                emit(b, 8);
            align32();
            return;
        }
        scalar(*op, ops[i++]);
    }
}

} // namespace dxspv::dxil

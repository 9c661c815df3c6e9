// DXIL lowering: raw and structured buffer access to 64-bit values (two
// 32-bit words each, low word first) and 16-bit loads (two per word, at
// any 2-byte-aligned address). VSIR's ld_raw / ld_structured / store_raw /
// store_structured move 32-bit words; these helpers split and join values.
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;

} // namespace

/// `base` + `bytes` as a u32 source (folded when `base` is an immediate).
vsir::SrcParam Lowerer::add_bytes(const vsir::SrcParam& base, uint32_t bytes)
{
    if (!bytes)
        return base;
    if (base.reg.file == RegisterFile::immediate)
        return immediate(DataType::u32, base.reg.u32[0] + bytes);
    vsir::SrcParam out, b = base;
    b.reg.type = DataType::i32;
    emit(Opcode::iadd, {temp_ssa(DataType::i32, out)}, {b, immediate(DataType::i32, bytes)});
    out.reg.type = DataType::u32;
    return out;
}

/// Loads `words` (1..4) consecutive words from a raw (index = byte offset)
/// or structured (index, byte offset) buffer; returns the vec4 SSA id.
uint32_t Lowerer::load_words(bool structured, const vsir::SrcParam& res, const vsir::SrcParam& index,
                             const vsir::SrcParam& offset, uint32_t words)
{
    vsir::DstParam d = new_ssa_vec(no_id, DataType::u32, uint8_t((1u << words) - 1));
    if (structured)
        emit(Opcode::ld_structured, {d}, {index, offset, res});
    else
        emit(Opcode::ld_raw, {d}, {offset, res});
    return d.reg.idx[0].offset;
}

static vsir::SrcParam word_of(uint32_t ssa, uint32_t component)
{
    vsir::SrcParam s;
    s.reg = vsir::make_register(RegisterFile::ssa, DataType::u32, vsir::Dimension::vec4,
                                std::span<const uint32_t>(&ssa, 1));
    s.swizzle = uint8_t(component * 0x55);
    return s;
}

/// index × stride + offset, the byte address of a structured element's field.
vsir::SrcParam Lowerer::absolute_address(const vsir::SrcParam& index, uint32_t stride, const vsir::SrcParam& offset)
{
    vsir::SrcParam out, i = index, o = offset;
    i.reg.type = o.reg.type = DataType::i32;
    emit(Opcode::imad, {temp_ssa(DataType::i32, out)}, {i, immediate(DataType::i32, stride), o});
    out.reg.type = DataType::u32;
    return out;
}

void Lowerer::load_wide(const Instruction& inst, bool structured, uint32_t stride, const vsir::SrcParam& res,
                        ValueId index_value, ValueId offset_value, DataType type, uint32_t count)
{
    vsir::SrcParam index = structured ? src(index_value, DataType::u32) : vsir::SrcParam{};
    vsir::SrcParam offset = src(structured ? offset_value : index_value, DataType::u32);
    bool half = !(type == DataType::f64 || type == DataType::i64 || type == DataType::u64);
    if (structured && half && stride % 4) {
        // Elements are not word-aligned: address bytes from the buffer start.
        offset = absolute_address(index, stride, offset);
        index = immediate(DataType::u32, 0);
    }
    Operand parts[4];
    if (type == DataType::f64 || type == DataType::i64 || type == DataType::u64) {
        uint32_t words = 2 * count;
        uint32_t a = load_words(structured, res, index, offset, words > 4 ? 4 : words);
        uint32_t b = words > 4 ? load_words(structured, res, index, add_bytes(offset, 16), words - 4) : 0;
        for (uint32_t k = 0; k < count; ++k) {
            uint32_t w = 2 * k;
            vsir::SrcParam lo = word_of(w < 4 ? a : b, w & 3), hi = word_of(w + 1 < 4 ? a : b, (w + 1) & 3);
            vsir::SrcParam v;
            emit(Opcode::pack64, {temp_ssa(type, v)}, {lo, hi});
            v.reg.type = type;
            parts[k].kind = Operand::Kind::src;
            parts[k].type = type;
            parts[k].src = v;
        }
    } else {
        // 16-bit: component k is at byte offset + 2k, in the low or high
        // half of the word containing it.
        for (uint32_t k = 0; k < count; ++k) {
            vsir::SrcParam at = add_bytes(offset, 2 * k), aligned, shift, word, half, value;
            emit(Opcode::and_, {temp_ssa(DataType::u32, aligned)}, {at, immediate(DataType::u32, ~3u)});
            emit(Opcode::and_, {temp_ssa(DataType::u32, shift)}, {at, immediate(DataType::u32, 2)});
            aligned.reg.type = shift.reg.type = DataType::u32;
            vsir::SrcParam bits;
            emit(Opcode::ishl, {temp_ssa(DataType::i32, bits)}, {shift, immediate(DataType::u32, 3)});
            bits.reg.type = DataType::u32;
            word = word_of(load_words(structured, res, index, aligned, 1), 0);
            emit(Opcode::ushr, {temp_ssa(DataType::u32, half)}, {word, bits});
            half.reg.type = DataType::u32;
            emit(Opcode::utou, {temp_ssa(DataType::u16, value)}, {half});
            value.reg.type = type;
            parts[k].kind = Operand::Kind::src;
            parts[k].type = type;
            parts[k].src = value;
        }
    }
    uint32_t first = uint32_t(aggregate_parts_.size());
    for (uint32_t k = 0; k < 5; ++k) {
        Operand p = k < count ? parts[k] : Operand{};
        if (k >= count) {
            p.kind = Operand::Kind::undef;
            p.type = k == 4 ? DataType::u32 : type;
        }
        aggregate_parts_.push_back(p);
    }
    Operand& agg = define(inst.result);
    agg = {};
    agg.kind = Operand::Kind::aggregate;
    agg.first_part = first;
    agg.part_count = 5;
}

void Lowerer::store_wide(bool structured, const vsir::Register& res, ValueId index_value, ValueId offset_value,
                         const ValueId* values, uint32_t count, DataType type)
{
    vsir::SrcParam index = structured ? src(index_value, DataType::u32) : vsir::SrcParam{};
    vsir::SrcParam offset = src(structured ? offset_value : index_value, DataType::u32);
    vsir::SrcParam words[8];
    for (uint32_t k = 0; k < count; ++k) {
        emit(Opcode::unpack64, {temp_ssa(DataType::u32, words[2 * k]), temp_ssa(DataType::u32, words[2 * k + 1])},
             {src(values[k], type)});
        words[2 * k].reg.type = words[2 * k + 1].reg.type = DataType::u32;
    }
    for (uint32_t first = 0; first < 2 * count; first += 4) {
        uint32_t n = 2 * count - first > 4 ? 4 : 2 * count - first;
        vsir::SrcParam value = build_vec_from(words + first, n, DataType::u32, 0);
        vsir::DstParam d;
        d.reg = res;
        d.write_mask = uint8_t((1u << n) - 1);
        vsir::SrcParam at = add_bytes(offset, first * 4);
        if (structured)
            emit(Opcode::store_structured, {d}, {index, at, value});
        else
            emit(Opcode::store_raw, {d}, {at, value});
    }
}

/// 16-bit stores: each half is merged into its word with two atomics (clear
/// the half, then set it), so that concurrent stores to the other half of
/// the same word, which D3D allows, are not lost.
void Lowerer::store_halves(bool structured, uint32_t stride, const vsir::Register& res, ValueId index_value,
                           ValueId offset_value, const ValueId* values, uint32_t mask, DataType type)
{
    vsir::SrcParam offset = src(structured ? offset_value : index_value, DataType::u32);
    vsir::SrcParam index = structured ? src(index_value, DataType::u32) : vsir::SrcParam{};
    if (structured && stride % 4) {
        offset = absolute_address(index, stride, offset);
        index = immediate(DataType::u32, 0);
    }
    for (uint32_t k = 0; k < 4; ++k) {
        if (!(mask >> k & 1) || values[k] == no_id)
            continue;
        vsir::SrcParam at = add_bytes(offset, 2 * k), aligned, half, bits, wide, shifted, ones, clear;
        emit(Opcode::and_, {temp_ssa(DataType::u32, aligned)}, {at, immediate(DataType::u32, ~3u)});
        emit(Opcode::and_, {temp_ssa(DataType::u32, half)}, {at, immediate(DataType::u32, 2)});
        aligned.reg.type = half.reg.type = DataType::u32;
        emit(Opcode::ishl, {temp_ssa(DataType::i32, bits)}, {half, immediate(DataType::u32, 3)});
        bits.reg.type = DataType::u32;
        vsir::SrcParam v = src(values[k], type);
        v.reg.type = DataType::u16;
        emit(Opcode::utou, {temp_ssa(DataType::u32, wide)}, {v});
        wide.reg.type = DataType::u32;
        emit(Opcode::ishl, {temp_ssa(DataType::u32, shifted)}, {wide, bits});
        emit(Opcode::ishl, {temp_ssa(DataType::u32, ones)}, {immediate(DataType::u32, 0xffff), bits});
        shifted.reg.type = ones.reg.type = DataType::u32;
        emit(Opcode::not_, {temp_ssa(DataType::u32, clear)}, {ones});
        clear.reg.type = DataType::u32;
        vsir::SrcParam address = aligned;
        if (structured) {
            vsir::SrcParam parts[2] = {index, aligned};
            address = build_vec_from(parts, 2, DataType::u32, 0);
        }
        vsir::DstParam target;
        target.reg = res;
        target.write_mask = 0x1;
        emit(Opcode::atomic_and, {target}, {address, clear});
        emit(Opcode::atomic_or, {target}, {address, shifted});
    }
}

} // namespace dxspv::dxil::lower

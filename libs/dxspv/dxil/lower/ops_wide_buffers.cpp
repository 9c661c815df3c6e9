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


static Operand value_part(const vsir::SrcParam& v, DataType type)
{
    Operand p;
    p.kind = Operand::Kind::src;
    p.type = type;
    p.src = v;
    p.src.reg.type = type;
    return p;
}

/// Loads `count` consecutive elements of `type` (16, 32 or 64 bits) from a
/// raw buffer (offset = byte address) or a structured one (index, byte
/// offset within the element) into `parts`.
void Lowerer::load_elements(bool structured, uint32_t stride, const vsir::SrcParam& res, vsir::SrcParam index,
                            vsir::SrcParam offset, DataType type, uint32_t count, Operand* parts)
{
    if (structured && is_16(type) && stride % 4) {
        // Elements are not word-aligned: address bytes from the buffer start.
        offset = absolute_address(index, stride, offset);
        index = immediate(DataType::u32, 0);
    }
    if (is_16(type)) {
        // Element k is at byte offset + 2k, in the low or high half of its word.
        for (uint32_t k = 0; k < count; ++k) {
            vsir::SrcParam at = add_bytes(offset, 2 * k), aligned, shift, bits, half, value;
            emit(Opcode::and_, {temp_ssa(DataType::u32, aligned)}, {at, immediate(DataType::u32, ~3u)});
            emit(Opcode::and_, {temp_ssa(DataType::u32, shift)}, {at, immediate(DataType::u32, 2)});
            aligned.reg.type = shift.reg.type = DataType::u32;
            emit(Opcode::ishl, {temp_ssa(DataType::i32, bits)}, {shift, immediate(DataType::u32, 3)});
            bits.reg.type = DataType::u32;
            vsir::SrcParam word = word_of(load_words(structured, res, index, aligned, 1), 0);
            emit(Opcode::ushr, {temp_ssa(DataType::u32, half)}, {word, bits});
            half.reg.type = DataType::u32;
            emit(Opcode::utou, {temp_ssa(DataType::u16, value)}, {half});
            parts[k] = value_part(value, type);
        }
        return;
    }
    uint32_t per = is_64(type) ? 2 : 1, words = per * count;
    for (uint32_t first = 0; first < words; first += 4) {
        uint32_t n = words - first > 4 ? 4 : words - first;
        uint32_t v = load_words(structured, res, index, add_bytes(offset, first * 4), n);
        for (uint32_t w = 0; w < n; w += per) {
            uint32_t k = (first + w) / per;
            if (per == 1) {
                parts[k] = value_part(word_of(v, w), type);
                continue;
            }
            vsir::SrcParam joined;
            emit(Opcode::pack64, {temp_ssa(type, joined)}, {word_of(v, w), word_of(v, w + 1)});
            parts[k] = value_part(joined, type);
        }
    }
}

/// Stores `count` elements of `type`; 16-bit ones through store_halves.
void Lowerer::store_elements(bool structured, uint32_t stride, const vsir::Register& res, vsir::SrcParam index,
                             vsir::SrcParam offset, DataType type, const vsir::SrcParam* values, uint32_t count)
{
    if (is_16(type)) {
        store_halves(structured, stride, res, index, offset, values, count, type);
        return;
    }
    std::vector<vsir::SrcParam> words;
    words.reserve(is_64(type) ? 2 * count : count);
    for (uint32_t k = 0; k < count; ++k) {
        if (!is_64(type)) {
            vsir::SrcParam w = values[k];
            w.reg.type = DataType::u32;
            words.push_back(w);
            continue;
        }
        vsir::SrcParam lo, hi;
        emit(Opcode::unpack64, {temp_ssa(DataType::u32, lo), temp_ssa(DataType::u32, hi)}, {values[k]});
        lo.reg.type = hi.reg.type = DataType::u32;
        words.push_back(lo);
        words.push_back(hi);
    }
    for (uint32_t first = 0; first < words.size(); first += 4) {
        uint32_t n = uint32_t(words.size()) - first > 4 ? 4 : uint32_t(words.size()) - first;
        vsir::SrcParam value = build_vec_from(words.data() + first, n, DataType::u32, 0);
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

void Lowerer::load_wide(const Instruction& inst, bool structured, uint32_t stride, const vsir::SrcParam& res,
                        ValueId index_value, ValueId offset_value, DataType type, uint32_t count)
{
    vsir::SrcParam index = structured ? src(index_value, DataType::u32) : vsir::SrcParam{};
    vsir::SrcParam offset = src(structured ? offset_value : index_value, DataType::u32);
    Operand parts[4];
    load_elements(structured, stride, res, index, offset, type, count > 4 ? 4 : count, parts);
    Operand agg = new_aggregate(5, type);
    for (uint32_t k = 0; k < count && k < 4; ++k)
        aggregate_parts_[agg.first_part + k] = parts[k];
    aggregate_parts_[agg.first_part + 4].type = DataType::u32;
    define(inst.result) = agg;
}

/// RawBufferVectorLoad (handle, index, element offset, alignment) → {<N x T>, status};
/// RawBufferVectorStore (handle, index, element offset, <N x T>, alignment).
bool Lowerer::lower_vector_buffer_op(ops::OpId op, const Instruction& inst)
{
    if (op != ops::OpId::RawBufferVectorLoad && op != ops::OpId::RawBufferVectorStore)
        return false;
    const Operand* h = handle_operand(arg(inst, 1));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b)
        return true;
    if (b->kind != 11 && b->kind != 12) {
        error(Code::dxil_lower_bad_resource, "a raw buffer vector access to a resource that is not a raw or "
                                             "structured buffer");
        return true;
    }
    bool structured = b->kind == 12;
    vsir::SrcParam index = structured ? src(arg(inst, 2), DataType::u32) : vsir::SrcParam{};
    vsir::SrcParam offset = src(structured ? arg(inst, 3) : arg(inst, 2), DataType::u32);
    if (op == ops::OpId::RawBufferVectorLoad) {
        const Type& rt = type(inst.type);
        TypeId vt = rt.kind == TypeKind::struct_ && !rt.members.empty() ? rt.members[0] : inst.type;
        uint32_t n = vector_count(vt);
        DataType t = data_type(vt);
        if (n > max_vector_elements || t == DataType::none || t == DataType::boolean) {
            error(Code::dxil_lower_bad_operand, "a raw buffer vector load of an unsupported type");
            return true;
        }
        vsir::SrcParam res;
        res.reg = resource_register(*h);
        std::vector<Operand> parts(n);
        load_elements(structured, b->stride, res, index, offset, t, n, parts.data());
        Operand vec = new_aggregate(n, t);
        std::copy(parts.begin(), parts.end(), aggregate_parts_.begin() + vec.first_part);
        Operand agg = new_aggregate(2, DataType::u32);
        aggregate_parts_[agg.first_part] = vec;
        define(inst.result) = agg;
        return true;
    }
    ValueId value = arg(inst, 4);
    Operand vec = operand_whole(value);
    uint32_t n = vector_count(type_of(value));
    DataType t = data_type(type_of(value));
    if (n > max_vector_elements || t == DataType::none || t == DataType::boolean) {
        error(Code::dxil_lower_bad_operand, "a raw buffer vector store of an unsupported type");
        return true;
    }
    std::vector<vsir::SrcParam> values(n);
    for (uint32_t k = 0; k < n; ++k)
        values[k] = vec.kind == Operand::Kind::aggregate ? src_of(part(vec, k), t) : src_of(vec, t);
    store_elements(structured, b->stride, resource_register(*h), index, offset, t, values.data(), n);
    return true;
}

/// 16-bit stores: each half is merged into its word with two atomics (clear
/// the half, then set it), so that concurrent stores to the other half of
/// the same word, which D3D allows, are not lost.
void Lowerer::store_halves(bool structured, uint32_t stride, const vsir::Register& res, vsir::SrcParam index,
                           vsir::SrcParam offset, const vsir::SrcParam* values, uint32_t count, DataType type)
{
    if (structured && stride % 4) {
        offset = absolute_address(index, stride, offset);
        index = immediate(DataType::u32, 0);
    }
    for (uint32_t k = 0; k < count; ++k) {
        if (values[k].reg.file == RegisterFile::null)
            continue; // masked out
        vsir::SrcParam at = add_bytes(offset, 2 * k), aligned, half, bits, wide, shifted, ones, clear;
        emit(Opcode::and_, {temp_ssa(DataType::u32, aligned)}, {at, immediate(DataType::u32, ~3u)});
        emit(Opcode::and_, {temp_ssa(DataType::u32, half)}, {at, immediate(DataType::u32, 2)});
        aligned.reg.type = half.reg.type = DataType::u32;
        emit(Opcode::ishl, {temp_ssa(DataType::i32, bits)}, {half, immediate(DataType::u32, 3)});
        bits.reg.type = DataType::u32;
        vsir::SrcParam v = values[k];
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

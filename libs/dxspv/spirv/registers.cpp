// Registers: temps, indexable temps, the immediate constant buffer and the
// compute system values; operand loads (swizzle, bitcast, modifiers) and
// destination stores (write mask, saturate).
#include "spirv/emitter.h"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace dxspv::spirv {

namespace {

bool is_64bit(vsir::DataType type)
{
    return type == vsir::DataType::f64 || type == vsir::DataType::i64 || type == vsir::DataType::u64;
}

/// The words of a source register that feed a destination with write mask
/// `dst_mask`. Swizzles and masks count 32-bit words; a 64-bit value is two
/// consecutive words:
/// - same width: destination word p reads source word swizzle[p];
/// - 32-bit source, 64-bit destination (ftod, dmovc's condition): value k
///   reads swizzle[p] for the first word p of its pair;
/// - 64-bit source, 32-bit destination (dtof, deq): value k reads the words
///   swizzle[2k], swizzle[2k+1].
Lanes src_lanes(uint8_t swizzle, uint8_t dst_mask, bool dst64, bool src64)
{
    Lanes lanes;
    if (src64 == dst64) { // the usual case, in one pass
        for (uint32_t p = 0; p < 4; ++p)
            if (dst_mask & (1u << p))
                lanes.word[lanes.count++] = uint8_t(vsir::swizzle_component(swizzle, p));
        return lanes;
    }
    uint8_t pos[4];
    uint32_t n = 0;
    for (uint32_t i = 0; i < 4; ++i)
        if (dst_mask & (1u << i))
            pos[n++] = uint8_t(i);
    if (src64) {
        for (uint32_t k = 0; k < n && k < 2; ++k) {
            lanes.word[lanes.count++] = uint8_t(vsir::swizzle_component(swizzle, 2 * k));
            lanes.word[lanes.count++] = uint8_t(vsir::swizzle_component(swizzle, 2 * k + 1));
        }
    } else {
        for (uint32_t k = 0; k + 1 < n; k += 2)
            lanes.word[lanes.count++] = uint8_t(vsir::swizzle_component(swizzle, pos[k]));
    }
    return lanes;
}

} // namespace

// ---- declarations ----

/// Temps live in the function, or are Private when subroutines share them.
spv::StorageClass Emitter::temp_storage() const
{
    return has_subroutines_ ? spv::StorageClassPrivate : spv::StorageClassFunction;
}

void Emitter::declare_temps(uint32_t count)
{
    if (count > 65536) {
        error(Code::spirv_invalid_operand, "%u temps", count);
        return;
    }
    // A program that is one block of the entry point keeps its temps as
    // values (undefined until written, as a Function variable without an
    // initialiser reads at the entry's start); each write replaces one.
    temp_values_ = main_ == entry_ && straight_line_;
    // Any other program in one function (no subroutine; a hull shader's
    // phases are functions of their own) holds them within each block.
    temp_blocks_ = !temp_values_ && !has_subroutines_ && !has_labels_ && prog_.model.stage != ShaderStage::hull;
    while (temps_.size() < count) {
        Kind kind = temp_storage_kind(uint32_t(temps_.size()));
        if (temp_values_) {
            temps_.push_back(NoResult);
            temp_held_.push_back(held_register(kind, spv::OpUndef));
            continue;
        }
        temps_.push_back(b_.createVariable(temp_storage(), type(kind, 4), NumberedName("r", temps_.size()).c_str()));
        if (has_subroutines_)
            add_interface(temps_.back());
        if (temp_blocks_) {
            temp_held_.push_back(held_register(kind, spv::OpUndef));
            temp_loaded_.push_back(NoResult);
        }
    }
}

void Emitter::hold_temp(uint32_t index)
{
    HeldRegister& held = temp_held_[index];
    const spv::Id whole = b_.createLoad(temps_[index]);
    write_held(held, {whole, held.kind, 4}, 0xfu);
    temp_loaded_[index] = whole;
    temps_held_.push_back(index);
}

void Emitter::release_temps(bool store)
{
    static constexpr uint8_t all[4] = {0, 1, 2, 3};
    for (uint32_t index : temps_held_) {
        HeldRegister& held = temp_held_[index];
        const spv::Id loaded = temp_loaded_[index];
        uint32_t written = 0; // the lanes that are no longer the load's
        bool scalars = false;
        for (uint32_t c = 0; c < 4; ++c) {
            if (held.id[c] != loaded || held.index[c] != c || held.width[c] != 4) {
                written |= 1u << c;
                scalars |= held.width[c] == 1;
            }
        }
        if (store && written) {
            const spv::Id vector_type = type(held.kind, 4);
            spv::Id value = loaded;
            if (scalars && written != 0xfu) {
                // Into the load, as partial writes did before: the lanes of
                // each vector by one shuffle, each scalar by an insert.
                uint32_t left = written;
                for (uint32_t c = 0; c < 4; ++c) {
                    if (!(left >> c & 1) || held.width[c] == 1)
                        continue;
                    const spv::Id vector = held.id[c];
                    const uint8_t width = held.width[c];
                    const Kind kind = held.lane_kind[c];
                    OperandList<IdImmediate, 6> operands{{true, value}, {true, bitcast(vector, type(held.kind, width))}};
                    for (uint32_t d = 0; d < 4; ++d) {
                        const bool same = (left >> d & 1) && held.id[d] == vector && held.width[d] == width
                                          && held.lane_kind[d] == kind;
                        operands.push_back({false, same ? 4u + held.index[d] : d});
                        left &= same ? ~(1u << d) : ~0u;
                    }
                    value = b_.createOp(spv::OpVectorShuffle, vector_type, operands);
                }
                for (uint32_t c = 0; c < 4; ++c)
                    if (left >> c & 1)
                        value = b_.createCompositeInsert(bitcast(held.id[c], type(held.kind)), value, vector_type, c);
            } else { // all lanes new, or lanes of vectors: one shuffle of at most two, or a construct
                value = bitcast(read_held(held, all, 4).id, vector_type);
            }
            b_.createStore(value, temps_[index]);
        }
        held.id[0] = NoResult; // loaded again at its next use
    }
    temps_held_.clear();
}

void Emitter::declare_indexable_temp(const vsir::Declaration& decl)
{
    if (decl.index > 65536 || decl.count == 0 || decl.count > 65536) {
        error(Code::spirv_invalid_operand, "indexable temp x%u[%u]", decl.index, decl.count);
        return;
    }
    if (indexable_temps_.size() <= decl.index)
        indexable_temps_.resize(decl.index + 1);
    IndexableTemp& x = indexable_temps_[decl.index];
    if (x.var) {
        error(Code::spirv_invalid_operand, "x%u declared twice", decl.index);
        return;
    }
    NumberedName name("x", decl.index);
    spv::Id array = b_.makeArrayType(type(Kind::u32, 4), constant_u32(decl.count), 0);
    // Declared in hs_decls (the DXIL lowering puts all of a hull shader's
    // arrays there): Private, so that every phase function sees it.
    x.storage = hull_phase_ == HullPhase::decls ? spv::StorageClassPrivate : temp_storage();
    x.var = b_.createVariable(x.storage, array, name.c_str());
    if (x.storage == spv::StorageClassPrivate)
        add_interface(x.var);
    x.count = decl.count;
}

void Emitter::declare_immediate_constant_buffer(const vsir::Declaration& decl)
{
    if (icb_ || decl.data_count == 0 || size_t(decl.data_first) + decl.data_count > prog_.u32_pool.size()) {
        error(Code::spirv_invalid_operand, "immediate constant buffer declared twice, empty or outside the data pool");
        return;
    }
    uint32_t count = (decl.data_count + 3) / 4;
    ScratchVector<spv::Id> elements(count);
    for (uint32_t i = 0; i < count; ++i) {
        spv::Id parts[4];
        for (uint32_t c = 0; c < 4; ++c) {
            uint32_t at = i * 4 + c;
            parts[c] = constant_u32(at < decl.data_count ? prog_.u32_pool[decl.data_first + at] : 0);
        }
        elements[i] = composite_constant(Kind::u32, parts, 4);
    }
    spv::Id array = b_.makeArrayType(type(Kind::u32, 4), constant_u32(count), 0);
    spv::Id init = b_.make_composite_constant(array, elements.data(), count);
    icb_ = b_.createVariable(spv::StorageClassPrivate, array, "icb", init);
    add_interface(icb_);
}

static spv::BuiltIn builtin_of(vsir::RegisterFile file)
{
    switch (file) {
    case vsir::RegisterFile::thread_id: return spv::BuiltInGlobalInvocationId;
    case vsir::RegisterFile::thread_group_id: return spv::BuiltInWorkgroupId;
    case vsir::RegisterFile::local_thread_id: return spv::BuiltInLocalInvocationId;
    case vsir::RegisterFile::wave_index: return spv::BuiltInSubgroupId;
    case vsir::RegisterFile::wave_count: return spv::BuiltInNumSubgroups;
    default: return spv::BuiltInLocalInvocationIndex;
    }
}

spv::Id Emitter::builtin_variable(vsir::RegisterFile file)
{
    spv::Id& var = builtins_[size_t(file)];
    if ((builtin_files_ >> size_t(file)) & 1)
        return var;
    bool wave = file == vsir::RegisterFile::wave_index || file == vsir::RegisterFile::wave_count;
    if (wave) {
        if (spirv_version(options_.target_env) < 0x00010300)
            error(Code::spirv_wave_ops_need_vulkan_1_1, "'%s' needs SPIR-V 1.3 (Vulkan 1.1); the target is %s",
                vsir::register_prefix(file), target_env_name(options_.target_env));
        b_.addCapability(spv::CapabilityGroupNonUniform);
    }
    uint32_t size = file == vsir::RegisterFile::local_thread_index || wave ? 1 : 3;
    var = b_.createVariable(spv::StorageClassInput, type(Kind::u32, size),
        vsir::register_prefix(file));
    b_.addDecoration(var, spv::DecorationBuiltIn, int(builtin_of(file)));
    builtin_files_ |= uint64_t(1) << size_t(file);
    add_interface(var);
    return var;
}

// ---- register access ----

spv::Id Emitter::index_id(const vsir::RegisterIndex& index)
{
    if (index.rel_addr == vsir::invalid_index)
        return constant_u32(index.offset);
    if (index.rel_addr >= prog_.srcs.size() || rel_depth_ >= 4) {
        error(Code::spirv_invalid_operand, "relative address outside the source pool or nested too deeply");
        return constant_u32(index.offset);
    }
    ++rel_depth_;
    spv::Id id = load_scalar(prog_.srcs[index.rel_addr], Kind::u32).id;
    --rel_depth_;
    if (index.offset)
        id = integer_op(spv::OpIAdd, id, index.offset);
    return id;
}

RegisterPointer Emitter::register_pointer(const vsir::Register& reg)
{
    using vsir::RegisterFile;
    switch (reg.file) {
    case RegisterFile::temp:
        if (HeldRegister* held = held_temp_of(reg))
            return held_pointer(*held);
        if (reg.index_count < 1 || reg.idx[0].rel_addr != vsir::invalid_index || reg.idx[0].offset >= temps_.size())
            break;
        return {temps_[reg.idx[0].offset], 4, NoResult, temp_storage_kind(reg.idx[0].offset)};
    case RegisterFile::indexable_temp: {
        if (reg.index_count < 2 || reg.idx[0].rel_addr != vsir::invalid_index
            || reg.idx[0].offset >= indexable_temps_.size() || !indexable_temps_[reg.idx[0].offset].var)
            break;
        spv::Id element = index_id(reg.idx[1]);
        const IndexableTemp& x = indexable_temps_[reg.idx[0].offset];
        spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(x.storage, type(Kind::u32, 4)),
            {x.var, element});
        return {ptr, 4};
    }
    case RegisterFile::immediate_constant_buffer: {
        if (!icb_ || reg.index_count < 1)
            break;
        spv::Id element = index_id(reg.idx[0]);
        spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassPrivate, type(Kind::u32, 4)),
            {icb_, element});
        return {ptr, 4};
    }
    case RegisterFile::constant_buffer:
        return constant_buffer_pointer(reg);
    case RegisterFile::thread_id:
    case RegisterFile::thread_group_id:
    case RegisterFile::local_thread_id:
        return {builtin_variable(reg.file), 3};
    case RegisterFile::local_thread_index:
    case RegisterFile::wave_index:
    case RegisterFile::wave_count:
        if (prog_.model.stage != ShaderStage::compute) {
            error(Code::spirv_unsupported_register, "'%s' in a %s shader", vsir::register_prefix(reg.file),
                stage_short_name(prog_.model.stage));
            return {};
        }
        return {builtin_variable(reg.file), 1};
    case RegisterFile::input:
    case RegisterFile::output:
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le:
    case RegisterFile::coverage_in:
    case RegisterFile::coverage_out:
    case RegisterFile::stencil_ref:
    case RegisterFile::primitive_id:
    case RegisterFile::gs_instance_id:
    case RegisterFile::input_control_point:
    case RegisterFile::output_control_point:
    case RegisterFile::patch_constant:
    case RegisterFile::tess_coord:
    case RegisterFile::output_control_point_id:
    case RegisterFile::fork_instance_id:
    case RegisterFile::join_instance_id:
    case RegisterFile::inner_coverage:
        return io_register_pointer(reg);
    default:
        error(Code::spirv_unsupported_register, "register file '%s' is not supported here yet",
            vsir::register_prefix(reg.file));
        return {};
    }
    error(Code::spirv_undeclared_register, "'%s%u' is not declared or is malformed", vsir::register_prefix(reg.file),
        reg.idx[0].offset);
    return {};
}

/// The components `lanes` picks from a register, in the register's storage
/// type (a scalar register's are u32 words); a null id when it has none.
Value Emitter::load_lanes(const vsir::Register& reg, const Lanes& lanes)
{
    auto held_lanes = [&](const HeldRegister& held, uint32_t last) {
        uint8_t picked[4];
        for (uint32_t i = 0; i < lanes.count; ++i)
            picked[i] = uint8_t(std::min<uint32_t>(lanes.word[i], last));
        return read_held(held, picked, lanes.count);
    };
    if (const HeldRegister* held = held_temp_of(reg)) // the usual source, without register_pointer()
        return held_lanes(*held, 3);
    RegisterPointer rp = register_pointer(reg);
    if (rp.held)
        return held_lanes(*rp.held, rp.size - 1u); // a scalar register's one lane for each
    if (!rp.ptr && !rp.value)
        return {};
    spv::Id whole = rp.value ? rp.value : b_.createLoad(rp.ptr);
    if (rp.size == 1) {
        spv::Id parts[4] = {whole, whole, whole, whole};
        return {construct(rp.storage, parts, lanes.count), rp.storage, lanes.count};
    }
    if (lanes.count == 1)
        return {b_.createCompositeExtract(whole, type(rp.storage), std::min<uint32_t>(lanes.word[0], rp.size - 1u)),
            rp.storage, 1};
    bool identity = lanes.count == rp.size;
    for (uint32_t i = 0; i < lanes.count && identity; ++i)
        identity = lanes.word[i] == i;
    if (identity) // the whole register, as it is
        return {whole, rp.storage, lanes.count};
    OperandList<IdImmediate, 6> operands{{true, whole}, {true, whole}};
    for (uint32_t i = 0; i < lanes.count; ++i)
        operands.push_back({false, std::min<uint32_t>(lanes.word[i], rp.size - 1u)});
    return {b_.createOp(spv::OpVectorShuffle, type(rp.storage, lanes.count), operands), rp.storage, lanes.count};
}

spv::Id Emitter::immediate_constant(const vsir::Register& reg, const Lanes& lanes, Kind kind)
{
    bool wide = bit_width(kind) == 64;
    bool scalar = reg.dimension == vsir::Dimension::scalar;
    uint32_t count = wide ? lanes.count / 2u : lanes.count;
    spv::Id parts[4];
    for (uint32_t k = 0; k < count; ++k) {
        uint32_t w0 = wide ? (scalar ? 0 : lanes.word[2 * k]) : (scalar ? 0 : lanes.word[k]);
        uint64_t bits = reg.u32[w0];
        if (wide)
            bits |= uint64_t(reg.u32[scalar ? 1 : lanes.word[2 * k + 1]]) << 32;
        // Lanes of the same bits (a splat, the usual immediate) are looked up once.
        parts[k] = k && !wide && bits == reg.u32[scalar ? 0 : lanes.word[k - 1]] ? parts[k - 1] : constant(kind, bits);
    }
    return composite_constant(kind, parts, count);
}

spv::Id Emitter::apply_modifier(spv::Id id, Kind kind, uint32_t count, vsir::SrcModifier modifier)
{
    using vsir::SrcModifier;
    spv::Id t = type(kind, count);
    bool fp = is_float(kind);
    if (modifier == SrcModifier::abs || modifier == SrcModifier::abs_neg)
        id = glsl(fp ? GLSLstd450FAbs : GLSLstd450SAbs, t, {id});
    if (modifier == SrcModifier::neg || modifier == SrcModifier::abs_neg)
        id = b_.createUnaryOp(fp ? spv::OpFNegate : spv::OpSNegate, t, id);
    if (modifier == SrcModifier::bitwise_not) {
        if (fp)
            error(Code::spirv_invalid_operand, "bitwise-not modifier on a floating-point operand");
        else
            id = b_.createUnaryOp(spv::OpNot, t, id);
    }
    return id;
}

/// Word registers: the words `dst_mask` selects through the swizzle (see
/// src_lanes), converted to the source's kind. SSA sources have one slot per
/// value: they read the components src_lanes gives for a 32-bit source.
Value Emitter::load_src(const vsir::SrcParam& src, uint8_t dst_mask, vsir::DataType dst_type, bool any_sign)
{
    Kind kind = kind_or_u32(src.reg.type);
    bool is_ssa = src.reg.file == vsir::RegisterFile::ssa;
    bool src64 = bit_width(kind) == 64 && !is_ssa;
    Lanes lanes = src_lanes(src.swizzle, dst_mask & 0xf, is_64bit(dst_type), src64);
    uint32_t count = src64 ? lanes.count / 2u : lanes.count;
    if (count == 0) {
        error(Code::spirv_invalid_operand, "source operand reads no component (write mask 0x%x)", dst_mask);
        return {undef(kind, 1), kind, 1};
    }
    // An integer read with either signedness taken as it is (no modifier to
    // apply in the source's kind).
    any_sign = any_sign && is_int(kind) && src.modifier == vsir::SrcModifier::none;
    spv::Id id;
    if (src.reg.file == vsir::RegisterFile::immediate || src.reg.file == vsir::RegisterFile::immediate64) {
        id = immediate_constant(src.reg, lanes, kind);
    } else if (is_ssa) {
        Value v = load_ssa(src, lanes, kind, any_sign);
        if (any_sign)
            return v;
        id = v.id;
    } else {
        Value picked = load_lanes(src.reg, lanes);
        if (!picked.id)
            return {undef(kind, count), kind, uint8_t(count)};
        if (any_sign && is_int(picked.kind) && bit_width(picked.kind) == 32 && bit_width(kind) == 32)
            return {picked.id, picked.kind, uint8_t(count)};
        if (picked.kind != Kind::u32 && is_word_kind(kind)) // a float register read as 32-bit values
            id = bitcast(picked.id, type(kind, picked.count));
        else
            id = from_words(picked.kind == Kind::u32 ? picked.id : bitcast(picked.id, type(Kind::u32, picked.count)),
                lanes.count, kind)
                     .id;
    }
    if (src.modifier != vsir::SrcModifier::none)
        id = apply_modifier(id, kind, count, src.modifier);
    return {id, kind, uint8_t(count)};
}

/// An SSA destination has one slot per value, like a 32-bit one.
Value Emitter::load_for_dst(const vsir::SrcParam& src, const vsir::DstParam& dst, bool any_sign)
{
    return load_src(src, dst.write_mask, dst.reg.file == vsir::RegisterFile::ssa ? vsir::DataType::u32 : dst.reg.type,
        any_sign);
}

Value Emitter::load_component(const vsir::SrcParam& src, uint32_t component, Kind kind)
{
    Value v = load_src(src, uint8_t(1u << (component & 3)), vsir::DataType::u32);
    return as_kind(v, kind);
}

Value Emitter::load_scalar(const vsir::SrcParam& src, Kind kind)
{
    return load_component(src, 0, kind);
}

// The usual destination, an SSA value, goes on without a frame of its own.
void Emitter::store_dst(const vsir::DstParam& dst, Value value)
{
    if (dst.reg.file == vsir::RegisterFile::null)
        return;
    if ((dst.modifiers & vsir::dst_saturate) && is_float(value.kind))
        value.id = saturate(value);
    if (dst.reg.file == vsir::RegisterFile::ssa)
        store_ssa(dst, value);
    else
        store_register(dst, value);
}

spv::Id Emitter::saturate(Value value)
{
    return glsl(GLSLstd450NClamp, type(value.kind, value.count),
        {value.id, float_constant(value.kind, 0.0, value.count), float_constant(value.kind, 1.0, value.count)});
}

void Emitter::store_register(const vsir::DstParam& dst, Value value)
{
    using vsir::RegisterFile;
    switch (dst.reg.file) {
    case RegisterFile::temp:
    case RegisterFile::indexable_temp:
    case RegisterFile::output:
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le:
    case RegisterFile::coverage_out:
    case RegisterFile::stencil_ref:
        break;
    default:
        error(Code::spirv_unsupported_register, "writing register file '%s' is not supported yet",
            vsir::register_prefix(dst.reg.file));
        return;
    }
    uint32_t mask = dst.write_mask & 0xfu;
    uint32_t mask_words = uint32_t(vsir::mask_component_count(mask));
    if (mask_words == 0)
        return;
    HeldRegister* const held_temp = held_temp_of(dst.reg); // the usual destination, without register_pointer()
    RegisterPointer rp = held_temp ? held_pointer(*held_temp) : register_pointer(dst.reg);
    if (rp.held && is_word_kind(value.kind) && (rp.size != 1 || mask == 1)) { // held in its own kind
        if (value.count == 1 && mask_words > 1)
            value = splat(value, mask_words);
        if (value.count != mask_words)
            error(Code::spirv_invalid_operand, "%u result words for write mask 0x%x", unsigned(value.count), mask);
        else
            write_held(*rp.held, value, mask);
        return;
    }
    // 32-bit values go to a temp stored as floats without passing through
    // words; anything else is written as words.
    const Kind temp_kind = dst.reg.file == RegisterFile::temp && dst.reg.index_count >= 1
                               ? temp_storage_kind(dst.reg.idx[0].offset)
                               : Kind::u32;
    uint32_t words_count = 0;
    Kind words_kind = Kind::u32;
    spv::Id words;
    if (is_word_kind(value.kind) && value.kind != Kind::u32 && temp_kind != Kind::u32) {
        words_kind = temp_kind;
        words = bitcast(value.id, type(words_kind, value.count));
        words_count = value.count;
    } else {
        words = to_words(value, words_count);
    }
    if (words_count == 1 && mask_words > 1) {
        words = splat({words, words_kind, 1}, mask_words).id;
        words_count = mask_words;
    }
    if (words_count != mask_words) {
        error(Code::spirv_invalid_operand, "%u result words for write mask 0x%x", words_count, mask);
        return;
    }
    if (!rp.ptr && !rp.held) {
        if (rp.value)
            error(Code::spirv_invalid_operand, "'%s' is read-only", vsir::register_prefix(dst.reg.file));
        return;
    }
    if (rp.size == 1) {
        const spv::Id word = words_count > 1 ? b_.createCompositeExtract(words, type(Kind::u32), 0) : words;
        if (rp.held)
            write_held(*rp.held, {word, Kind::u32, 1}, 1);
        else
            b_.createStore(word, rp.ptr);
        return;
    }
    // Written in the storage type (a float result's bitcast to words then
    // folds away).
    if (rp.storage != Kind::u32)
        words = bitcast(words, type(rp.storage, words_count));
    if (rp.held) {
        write_held(*rp.held, {words, rp.storage, uint8_t(words_count)}, mask);
        return;
    }
    if (mask != 0xfu)
        words = merge_words(b_.createLoad(rp.ptr), words, words_count, mask, rp.storage);
    b_.createStore(words, rp.ptr);
}

/// The 4-component `old` with the components of `mask` from `words`
/// (`words_count` of them, in order), all of type `kind`.
spv::Id Emitter::merge_words(spv::Id old, spv::Id words, uint32_t words_count, uint32_t mask, Kind kind)
{
    if (mask == 0xfu)
        return words;
    if (words_count == 1)
        return b_.createCompositeInsert(words, old, type(kind, 4), uint32_t(std::countr_zero(mask)));
    OperandList<IdImmediate, 6> operands{{true, old}, {true, words}};
    for (uint32_t i = 0, k = 0; i < 4; ++i)
        operands.push_back({false, (mask & (1u << i)) ? 4 + k++ : i});
    return b_.createOp(spv::OpVectorShuffle, type(kind, 4), operands);
}

/// A register held lane by lane, every lane its initial value.
HeldRegister Emitter::held_register(Kind kind, spv::Op initial)
{
    HeldRegister held{};
    held.kind = kind;
    held.initial = initial;
    return held;
}

/// read_held for lanes that are not one value as it was written: one
/// extract, one shuffle of at most two vectors, or a construct of its lanes.
/// In the lanes' kind when they share one; lanes of another kind than the
/// register's are bitcast to it otherwise.
Value Emitter::read_held_lanes(const HeldRegister& held, const uint8_t* lanes, uint32_t count)
{
    Kind kind = Kind::count; // none yet
    uint32_t vectors[2] = {4, 4}; // a lane of each vector a shuffle takes
    bool initial = true, shuffle = true;
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t c = lanes[i];
        const spv::Id id = held.id[c];
        initial = initial && !id;
        if (id)
            kind = kind == Kind::count || kind == held.lane_kind[c] ? held.lane_kind[c] : held.kind;
        if (!id || held.width[c] == 1)
            shuffle = false;
        else if ((vectors[0] == 4 || id != held.id[vectors[0]]) && (vectors[1] == 4 || id != held.id[vectors[1]])) {
            if (vectors[1] != 4)
                shuffle = false;
            else
                vectors[vectors[0] == 4 ? 0 : 1] = c;
        }
    }
    if (initial)
        kind = held.kind;
    const spv::Id t = type(kind, count);
    if (initial)
        return {held.initial == spv::OpUndef ? undef(kind, count) : b_.makeNullConstant(t), kind, uint8_t(count)};
    auto lane = [&](uint32_t c) -> spv::Id { // one component
        const spv::Id id = held.id[c];
        if (!id)
            return held.initial == spv::OpUndef ? undef(kind, 1) : b_.makeNullConstant(type(kind));
        const spv::Id part = held.width[c] == 1 ? id : b_.createCompositeExtract(id, type(held.lane_kind[c]), held.index[c]);
        return bitcast(part, type(kind));
    };
    auto vector = [&](uint32_t c) { return bitcast(held.id[c], type(kind, held.width[c])); };
    if (count == 1)
        return {lane(lanes[0]), kind, 1};
    if (!shuffle) {
        spv::Id parts[4];
        bool constants = true; // lanes an immediate wrote: a constant vector
        for (uint32_t i = 0; i < count; ++i) {
            parts[i] = lane(lanes[i]);
            uint32_t bits = 0;
            constants = constants && b_.constant_word(parts[i], bits);
        }
        return {constants ? vector_constant(kind, parts, count) : b_.createCompositeConstruct(t, {parts, count}), kind,
            uint8_t(count)};
    }
    const uint32_t first_width = held.width[vectors[0]];
    bool identity = vectors[1] == 4 && first_width == count;
    const spv::Id first = vector(vectors[0]);
    OperandList<IdImmediate, 6> operands{{true, first}, {true, vectors[1] != 4 ? vector(vectors[1]) : first}};
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t c = lanes[i];
        identity = identity && held.index[c] == i;
        operands.push_back({false, held.id[c] == held.id[vectors[0]] ? held.index[c] : first_width + held.index[c]});
    }
    return {identity ? first : b_.createOp(spv::OpVectorShuffle, t, operands), kind, uint8_t(count)};
}

/// The usual mov into an output held lane by lane, or into one lane of a
/// held temp: each lane of the write mask names the source's component as
/// it is (its value and its kind; an immediate's, its constant in the kind
/// the register is read as), without a shuffle to the swizzle, a
/// bitcast to the destination's type, or, from another held temp, any
/// instruction: a read makes what it needs (a lane's extract, a shuffle of
/// the lanes it takes), and lanes that are only read one by one need
/// nothing more.
bool Emitter::mov_lanes(const vsir::DstParam& dst, const vsir::SrcParam& src)
{
    using vsir::RegisterFile;
    auto word_type = [](vsir::DataType t) {
        return t == vsir::DataType::f32 || t == vsir::DataType::u32 || t == vsir::DataType::i32;
    };
    const RegisterFile file = src.reg.file;
    const uint32_t mask = dst.write_mask & 0xfu;
    const bool one_lane = mask && !(mask & (mask - 1)); // (std::has_single_bit: a popcount call here)
    if (file == RegisterFile::immediate) {
        // Some lanes of an output (the whole register is its constant
        // vector, read back as it is), or one lane of a temp.
        if (dst.reg.file == RegisterFile::output ? mask == 0xfu : dst.reg.file != RegisterFile::temp || !one_lane)
            return false;
    } else if (file != RegisterFile::temp && file != RegisterFile::input && file != RegisterFile::constant_buffer) {
        return false;
    }
    if (dst.modifiers != 0 || src.modifier != vsir::SrcModifier::none || !word_type(dst.reg.type)
        || !word_type(src.reg.type))
        return false;
    // A temp's lanes may be read together again and again: one lane only
    // (several take a shuffle now, which every read of them then reuses).
    // An output's are read once, at the end.
    HeldRegister* to = one_lane ? held_temp_of(dst.reg) : nullptr;
    if (!to && dst.reg.file == RegisterFile::output && !out_.reg_held.empty() && dst.reg.index_count == 1
        && dst.reg.idx[0].rel_addr == vsir::invalid_index && dst.reg.idx[0].offset < out_.reg_held.size())
        to = &out_.reg_held[dst.reg.idx[0].offset];
    if (!to || !mask)
        return false;
    HeldRegister from; // the source's lanes (a copy: the source may be the destination)
    if (const HeldRegister* held = held_temp_of(src.reg)) {
        from = *held;
        for (uint32_t c = 0; c < 4; ++c)
            if ((mask >> c & 1) && !from.id[vsir::swizzle_component(src.swizzle, c)])
                return false; // a lane never written: its initial value, as load_lanes reads it
    } else if (file == RegisterFile::immediate) { // a constant per lane (no vector of them made now)
        for (uint32_t c = 0; c < 4 && dst.reg.file == RegisterFile::output; ++c)
            if (!(mask >> c & 1) && (to->width[c] != 1 || !to->id[c]))
                return false; // beside a vector's lanes (or lanes not written yet): a vector too, for one
                              // shuffle of the two
        const Kind kind = to->kind; // what the register is read as (the same bits)
        const bool scalar = src.reg.dimension == vsir::Dimension::scalar;
        uint32_t read = 0; // the components the lanes take
        for (uint32_t c = 0; c < 4; ++c)
            if (mask >> c & 1)
                read |= 1u << vsir::swizzle_component(src.swizzle, c);
        for (uint32_t c = 0; c < 4; ++c) {
            from.id[c] = read >> c & 1 ? constant(kind, src.reg.u32[scalar ? 0 : c]) : NoResult;
            from.index[c] = 0;
            from.width[c] = 1;
            from.lane_kind[c] = kind;
        }
    } else if (file != RegisterFile::temp) { // an input or a constant buffer
        const RegisterPointer rp = register_pointer(src.reg);
        if (rp.held || (!rp.ptr && !rp.value) || rp.size == 0)
            return false;
        const spv::Id whole = rp.value ? rp.value : b_.createLoad(rp.ptr);
        for (uint32_t c = 0; c < 4; ++c) {
            from.id[c] = whole;
            from.index[c] = uint8_t(std::min<uint32_t>(c, rp.size - 1u));
            from.width[c] = rp.size;
            from.lane_kind[c] = rp.storage;
        }
    } else {
        return false;
    }
    for (uint32_t c = 0; c < 4; ++c) {
        if (!(mask >> c & 1))
            continue;
        const uint32_t k = vsir::swizzle_component(src.swizzle, c);
        to->id[c] = from.id[k];
        to->index[c] = from.index[k];
        to->width[c] = from.width[k];
        to->lane_kind[c] = from.lane_kind[k];
        // One component of a vector the builder made is its part now (the
        // extract folds to it): the vector itself may then go. (Several
        // lanes keep naming it: read together, they take it whole.)
        if (one_lane && to->width[c] > 1 && b_.composite_op(to->id[c]) != spv::OpNop) {
            to->id[c] = b_.createCompositeExtract(to->id[c], type(to->lane_kind[c]), to->index[c]);
            to->index[c] = 0;
            to->width[c] = 1;
        }
    }
    return true;
}

/// `value` (a component per lane of `mask`, in order) into those lanes.
void Emitter::write_held(HeldRegister& held, Value value, uint32_t mask)
{
    for (uint32_t c = 0, k = 0; c < 4; ++c) {
        if (!(mask & (1u << c)))
            continue;
        held.id[c] = value.id;
        held.index[c] = uint8_t(k++);
        held.width[c] = value.count;
        held.lane_kind[c] = value.kind;
    }
}

} // namespace dxspv::spirv

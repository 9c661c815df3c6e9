// Raw and structured buffer loads and stores (UAVs, SRVs, group-shared
// memory), atomics and barriers.
//
// Sparse feedback on buffers (ld_raw_s, ld_structured_s): SPIR-V has no
// sparse form of storage-buffer access, so these loads read like ld_raw /
// ld_structured and report the status "fully resident" (see
// store_residency_status in images.cpp); check_access_fully_mapped on it is
// true.
//
// Buffers are arrays of uint: a byte address becomes the uint index
// address >> 2, a structured address (index, byte offset) the index
// (index * stride + offset) >> 2. Each component is its own load or store.
// Atomics with 64-bit values (DXIL) go through a second view of the UAV
// buffer as ulong[] (buffer_qword_pointer), or a R64 image for typed UAVs.
// Atomics are relaxed (semantics None), at Device scope on UAVs and
// Workgroup scope on group-shared memory, as in D3D.
//
// Group-shared memory that 64-bit atomics use (DXIL atomicrmw / cmpxchg on
// i64) is declared as ulong[] instead of uint[] (Workgroup variables cannot
// alias without SPV_KHR_workgroup_memory_explicit_layout): its 32-bit words
// are halves of the ulongs, loaded with a shift and stored with an atomic
// and + or on the ulong, which leave the other half alone.
#include "spirv/emitter.h"

namespace dxspv::spirv {

namespace {

bool is_atomic(vsir::Opcode op)
{
    return op >= vsir::Opcode::atomic_and && op <= vsir::Opcode::imm_atomic_umin;
}

bool is_immediate_atomic(vsir::Opcode op)
{
    return op >= vsir::Opcode::imm_atomic_alloc && op <= vsir::Opcode::imm_atomic_umin;
}

spv::Op atomic_op(vsir::Opcode op)
{
    using vsir::Opcode;
    switch (op) {
    case Opcode::atomic_and:
    case Opcode::imm_atomic_and: return spv::OpAtomicAnd;
    case Opcode::atomic_or:
    case Opcode::imm_atomic_or: return spv::OpAtomicOr;
    case Opcode::atomic_xor:
    case Opcode::imm_atomic_xor: return spv::OpAtomicXor;
    case Opcode::atomic_iadd:
    case Opcode::imm_atomic_iadd: return spv::OpAtomicIAdd;
    case Opcode::atomic_imax:
    case Opcode::imm_atomic_imax: return spv::OpAtomicSMax;
    case Opcode::atomic_imin:
    case Opcode::imm_atomic_imin: return spv::OpAtomicSMin;
    case Opcode::atomic_umax:
    case Opcode::imm_atomic_umax: return spv::OpAtomicUMax;
    case Opcode::atomic_umin:
    case Opcode::imm_atomic_umin: return spv::OpAtomicUMin;
    case Opcode::imm_atomic_exch: return spv::OpAtomicExchange;
    case Opcode::atomic_cmp_store:
    case Opcode::imm_atomic_cmp_exch: return spv::OpAtomicCompareExchange;
    default: return spv::OpNop;
    }
}

} // namespace

Descriptor* Emitter::find_buffer(const vsir::Register& reg, bool write)
{
    Descriptor* desc = find_descriptor(reg);
    if (!desc)
        return nullptr;
    if (desc->form != DescriptorForm::buffer && desc->form != DescriptorForm::tgsm) {
        error(Code::spirv_unsupported_opcode, "'%s%u' is not a raw or structured buffer (typed resources are not "
            "supported here yet)", vsir::register_prefix(reg.file), reg.idx[0].offset);
        return nullptr;
    }
    if (write && desc->read_only) {
        error(Code::spirv_invalid_operand, "writing the read-only resource t%u", reg.idx[0].offset);
        return nullptr;
    }
    return desc;
}

spv::Id Emitter::buffer_word_index(const Descriptor& desc, spv::Id index, spv::Id byte_offset)
{
    spv::Id bytes = byte_offset;
    if (index) {
        spv::Id start = integer_op(spv::OpIMul, index, desc.stride);
        bytes = integer_op(spv::OpIAdd, Kind::u32, 1, start, byte_offset);
    }
    return integer_op(spv::OpShiftRightLogical, bytes, 2);
}

spv::Id Emitter::add_words(spv::Id word_index, uint32_t words)
{
    if (!words)
        return word_index;
    return integer_op(spv::OpIAdd, word_index, words);
}

bool Emitter::tgsm_has_64bit_atomics(uint32_t id)
{
    RareState& rare_state = rare();
    ScratchVector<uint8_t>& wide = rare_state.tgsm_wide;
    if (!rare_state.tgsm_wide_scanned) {
        rare_state.tgsm_wide_scanned = true;
        for (const vsir::Instruction& ins : prog_.instructions) {
            if (!is_atomic(ins.opcode) || ins.opcode == vsir::Opcode::imm_atomic_alloc
                || ins.opcode == vsir::Opcode::imm_atomic_consume || ins.src_count < 2)
                continue;
            uint32_t d = is_immediate_atomic(ins.opcode) ? 1 : 0;
            if (ins.dst_count <= d)
                continue;
            const vsir::Register& reg = prog_.dst(ins, d).reg;
            if (reg.file != vsir::RegisterFile::groupshared || reg.index_count < 1 || reg.idx[0].offset >= 65536
                || bit_width(kind_or_u32(prog_.src(ins, 1).reg.type)) != 64)
                continue;
            if (wide.size() <= reg.idx[0].offset)
                wide.resize(reg.idx[0].offset + 1);
            wide[reg.idx[0].offset] = 1;
        }
    }
    return id < wide.size() && wide[id];
}

/// The ulong holding uint word `word_index` of a ulong[] group-shared array.
spv::Id Emitter::tgsm_qword_pointer(const Descriptor& desc, spv::Id word_index)
{
    spv::Id qword = integer_op(spv::OpShiftRightLogical, word_index, 1);
    return b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassWorkgroup, type(Kind::u64)),
        {desc.var, qword});
}

namespace {

/// The bit position (0 or 32, as a ulong) of uint word `word_index` in its ulong.
spv::Id half_shift(Emitter& e, spv::Id word_index)
{
    spv::Id odd = e.integer_op(spv::OpBitwiseAnd, word_index, 1);
    spv::Id shift = e.integer_op(spv::OpShiftLeftLogical, odd, 5);
    return e.b_.createUnaryOp(spv::OpUConvert, e.type(Kind::u64), shift);
}

} // namespace

spv::Id Emitter::load_tgsm_word(const Descriptor& desc, spv::Id word_index)
{
    if (desc.sampled_kind == Kind::u32)
        return b_.createLoad(buffer_word_pointer(desc, {}, word_index));
    spv::Id u64 = type(Kind::u64);
    spv::Id qword = b_.createLoad(tgsm_qword_pointer(desc, word_index));
    spv::Id half = b_.createBinOp(spv::OpShiftRightLogical, u64, qword, half_shift(*this, word_index));
    return b_.createUnaryOp(spv::OpUConvert, type(Kind::u32), half);
}

void Emitter::store_tgsm_word(const Descriptor& desc, spv::Id word_index, spv::Id value)
{
    if (desc.sampled_kind == Kind::u32) {
        b_.createStore(value, buffer_word_pointer(desc, {}, word_index));
        return;
    }
    b_.addCapability(spv::CapabilityInt64Atomics);
    spv::Id u64 = type(Kind::u64);
    spv::Id ptr = tgsm_qword_pointer(desc, word_index);
    spv::Id shift = half_shift(*this, word_index);
    spv::Id keep = b_.createBinOp(spv::OpShiftLeftLogical, u64, constant(Kind::u64, 0xffffffffu), shift);
    keep = b_.createUnaryOp(spv::OpNot, u64, keep);
    spv::Id bits = b_.createBinOp(spv::OpShiftLeftLogical, u64, b_.createUnaryOp(spv::OpUConvert, u64, value), shift);
    spv::Id scope = constant_u32(spv::ScopeWorkgroup), relaxed = constant_u32(spv::MemorySemanticsMaskNone);
    b_.createOp(spv::OpAtomicAnd, u64, {ptr, scope, relaxed, keep});
    b_.createOp(spv::OpAtomicOr, u64, {ptr, scope, relaxed, bits});
}

void Emitter::emit_buffer_load(const vsir::Instruction& ins)
{
    bool structured = ins.opcode == vsir::Opcode::ld_structured || ins.opcode == vsir::Opcode::ld_structured_s;
    bool sparse = ins.opcode == vsir::Opcode::ld_raw_s || ins.opcode == vsir::Opcode::ld_structured_s;
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    const vsir::SrcParam& res = prog_.src(ins, structured ? 2 : 1);
    Descriptor* desc = find_buffer(res.reg, false);
    if (!desc)
        return;
    if (structured && !desc->stride) {
        error(Code::spirv_invalid_operand, "ld_structured on a raw buffer");
        return;
    }
    spv::Id index = structured ? load_scalar(prog_.src(ins, 0), Kind::u32).id : NoResult;
    spv::Id offset = load_scalar(prog_.src(ins, structured ? 1 : 0), Kind::u32).id;
    spv::Id base = buffer_word_index(*desc, index, offset);
    // Destination word p reads word swizzle[p]; a 64-bit SSA destination
    // has one slot per value, value k reading words swizzle[2k], swizzle[2k+1].
    Kind kind = kind_or_u32(dst.reg.type);
    bool pairs = dst.reg.file == vsir::RegisterFile::ssa && bit_width(kind) == 64;
    spv::Id parts[4];
    uint32_t n = 0;
    for (uint32_t p = 0, k = 0; p < 4 && n < 4; ++p) {
        if (!(dst.write_mask & (1u << p)))
            continue;
        for (uint32_t w = 0; w < (pairs ? 2u : 1u); ++w) {
            uint32_t slot = pairs ? 2 * k + w : p;
            spv::Id word = add_words(base, vsir::swizzle_component(res.swizzle, slot & 3));
            parts[n++] = desc->form == DescriptorForm::tgsm
                ? load_tgsm_word(*desc, word)
                : b_.createLoad(buffer_word_pointer(*desc, res.reg, word));
        }
        ++k;
    }
    if (n)
        store_dst(dst, from_words(construct(Kind::u32, parts, n), n, kind));
    if (sparse)
        store_residency_status(prog_.dst(ins, 1), NoResult);
}

void Emitter::emit_buffer_store(const vsir::Instruction& ins)
{
    bool structured = ins.opcode == vsir::Opcode::store_structured;
    const vsir::DstParam& res = prog_.dst(ins, 0);
    Descriptor* desc = find_buffer(res.reg, true);
    if (!desc)
        return;
    if (structured && !desc->stride) {
        error(Code::spirv_invalid_operand, "store_structured on a raw buffer");
        return;
    }
    spv::Id index = structured ? load_scalar(prog_.src(ins, 0), Kind::u32).id : NoResult;
    spv::Id offset = load_scalar(prog_.src(ins, structured ? 1 : 0), Kind::u32).id;
    const vsir::SrcParam& value_src = prog_.src(ins, structured ? 2 : 1);
    // The write mask counts words: a 64-bit value fills two of them.
    bool wide = bit_width(kind_or_u32(value_src.reg.type)) == 64;
    vsir::DataType value_type = wide ? value_src.reg.type : vsir::DataType::u32;
    Value value = load_src(value_src, res.write_mask, value_type);
    uint32_t count = 0;
    spv::Id words = to_words(value, count);
    spv::Id base = buffer_word_index(*desc, index, offset);
    Value all{words, Kind::u32, uint8_t(count)};
    for (uint32_t p = 0, k = 0; p < 4 && k < count; ++p) {
        if (!(res.write_mask & (1u << p)))
            continue;
        if (desc->form == DescriptorForm::tgsm)
            store_tgsm_word(*desc, add_words(base, p), extract(all, k++));
        else
            b_.createStore(extract(all, k++), buffer_word_pointer(*desc, res.reg, add_words(base, p)));
    }
}

/// imm_atomic_alloc (the counter before the increment) and
/// imm_atomic_consume (the counter after the decrement) on a UAV counter.
void Emitter::emit_counter(const vsir::Instruction& ins)
{
    const vsir::Register& reg = prog_.src(ins, 0).reg;
    Descriptor* desc = find_descriptor(reg);
    if (!desc)
        return;
    if (!desc->counter_var) {
        error(Code::spirv_invalid_operand, "u%u has no counter", reg.idx[0].offset);
        return;
    }
    spv::Id u32 = type(Kind::u32);
    OperandList<spv::Id, 3> chain{desc->counter_var};
    if (desc->is_array)
        chain.push_back(descriptor_index(*desc, reg));
    chain.push_back(constant_u32(0));
    spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassStorageBuffer, u32), chain);
    if (desc->is_array)
        mark_non_uniform(reg, ptr);
    bool consume = ins.opcode == vsir::Opcode::imm_atomic_consume;
    spv::Id old = b_.createOp(consume ? spv::OpAtomicISub : spv::OpAtomicIAdd, u32,
        {ptr, constant_u32(spv::ScopeDevice), constant_u32(spv::MemorySemanticsMaskNone),
            constant_u32(1)});
    spv::Id result = consume ? b_.createBinOp(spv::OpISub, u32, old, constant_u32(1)) : old;
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    store_dst(dst, as_kind({result, Kind::u32, 1}, kind_or_u32(dst.reg.type)));
}

/// Atomics on a typed UAV: OpImageTexelPointer into an R32ui / R32i
/// storage image (declare_image gives UAVs used by atomics that format).
void Emitter::emit_image_atomic(const vsir::Instruction& ins, Descriptor& desc, const vsir::Register& res)
{
    bool imm = is_immediate_atomic(ins.opcode);
    Kind kind = desc.sampled_kind;
    if (kind == Kind::f32 || desc.read_only) {
        error(Code::spirv_unsupported_opcode, "VSIR opcode '%s' on a float or read-only typed resource is not supported",
            vsir::opcode_info(ins.opcode).name);
        return;
    }
    spv::Id image_ptr = desc.var;
    if (desc.is_array)
        image_ptr = mark_non_uniform(res, b_.createOp(spv::OpAccessChain,
            pointer_type(spv::StorageClassUniformConstant, desc.type),
            {desc.var, descriptor_index(desc, res)}));
    if (bit_width(kind) == 64)
        b_.addCapability(spv::CapabilityInt64Atomics);
    spv::Id coords = image_coords(prog_.src(ins, 0), desc, Kind::i32);
    spv::Id ptr = b_.createOp(spv::OpImageTexelPointer, pointer_type(spv::StorageClassImage, type(kind)),
        {image_ptr, coords, constant_u32(0)});
    if (desc.is_array)
        mark_non_uniform(res, ptr);
    spv::Id scope = constant_u32(spv::ScopeDevice);
    spv::Id relaxed = constant_u32(spv::MemorySemanticsMaskNone);
    spv::Op op = atomic_op(ins.opcode);
    OperandList<spv::Id, 6> operands{ptr, scope, relaxed};
    if (op == spv::OpAtomicCompareExchange) {
        spv::Id comparator = load_scalar(prog_.src(ins, 1), kind).id;
        operands.push_back(relaxed);
        operands.push_back(load_scalar(prog_.src(ins, 2), kind).id);
        operands.push_back(comparator);
    } else {
        operands.push_back(load_scalar(prog_.src(ins, 1), kind).id);
    }
    spv::Id result = b_.createOp(op, type(kind), operands);
    if (imm) {
        const vsir::DstParam& dst = prog_.dst(ins, 0);
        store_dst(dst, as_kind({result, kind, 1}, kind_or_u32(dst.reg.type)));
    }
}

void Emitter::emit_atomic(const vsir::Instruction& ins)
{
    bool imm = is_immediate_atomic(ins.opcode);
    const vsir::DstParam& res = prog_.dst(ins, imm ? 1 : 0);
    if (res.reg.file == vsir::RegisterFile::uav) {
        Descriptor* typed = find_descriptor(res.reg);
        if (!typed)
            return;
        if (typed->form == DescriptorForm::image) {
            emit_image_atomic(ins, *typed, res.reg);
            return;
        }
    }
    Descriptor* desc = find_buffer(res.reg, true);
    if (!desc)
        return;
    const vsir::SrcParam& address = prog_.src(ins, 0);
    spv::Id word;
    if (desc->stride) {
        spv::Id index = load_component(address, 0, Kind::u32).id;
        word = buffer_word_index(*desc, index, load_component(address, 1, Kind::u32).id);
    } else {
        word = buffer_word_index(*desc, NoResult, load_component(address, 0, Kind::u32).id);
    }
    // A 64-bit value (DXIL) makes it an atomic on the ulong at that address.
    Kind kind = bit_width(kind_or_u32(prog_.src(ins, 1).reg.type)) == 64 ? Kind::u64 : Kind::u32;
    spv::Id ptr;
    bool wide_tgsm = desc->form == DescriptorForm::tgsm && desc->sampled_kind == Kind::u64;
    if (wide_tgsm && kind == Kind::u32) {
        error(Code::spirv_unsupported_opcode,
            "32-bit atomics on group-shared memory that 64-bit atomics also use are not supported");
        return;
    }
    if (kind == Kind::u64) {
        b_.addCapability(spv::CapabilityInt64Atomics);
        ptr = wide_tgsm ? tgsm_qword_pointer(*desc, word) : buffer_qword_pointer(*desc, res.reg, word);
    } else {
        ptr = buffer_word_pointer(*desc, res.reg, word);
    }
    spv::Id scope = constant_u32(desc->form == DescriptorForm::tgsm ? spv::ScopeWorkgroup : spv::ScopeDevice);
    spv::Id relaxed = constant_u32(spv::MemorySemanticsMaskNone);
    spv::Op op = atomic_op(ins.opcode);
    OperandList<spv::Id, 6> operands{ptr, scope, relaxed};
    if (op == spv::OpAtomicCompareExchange) {
        spv::Id comparator = load_scalar(prog_.src(ins, 1), kind).id;
        operands.push_back(relaxed);
        operands.push_back(load_scalar(prog_.src(ins, 2), kind).id);
        operands.push_back(comparator);
    } else {
        operands.push_back(load_scalar(prog_.src(ins, 1), kind).id);
    }
    spv::Id result = b_.createOp(op, type(kind), operands);
    if (imm) {
        const vsir::DstParam& dst = prog_.dst(ins, 0);
        store_dst(dst, as_kind({result, kind, 1}, kind_or_u32(dst.reg.type)));
    }
}

void Emitter::emit_sync(const vsir::Instruction& ins)
{
    uint32_t semantics = 0;
    spv::Scope memory_scope = spv::ScopeWorkgroup;
    if (ins.flags & vsir::flag_sync_tgsm)
        semantics |= spv::MemorySemanticsWorkgroupMemoryMask;
    if (ins.flags & (vsir::flag_sync_uav_group | vsir::flag_sync_uav_global))
        semantics |= spv::MemorySemanticsUniformMemoryMask | spv::MemorySemanticsImageMemoryMask;
    if (ins.flags & vsir::flag_sync_uav_global)
        memory_scope = spv::ScopeDevice;
    if (semantics)
        semantics |= spv::MemorySemanticsAcquireReleaseMask;
    if (ins.flags & vsir::flag_sync_thread_group)
        b_.createNoResultOp(spv::OpControlBarrier,
            {constant_u32(spv::ScopeWorkgroup), constant_u32(memory_scope), constant_u32(semantics)});
    else if (semantics)
        b_.createNoResultOp(spv::OpMemoryBarrier, {constant_u32(memory_scope), constant_u32(semantics)});
}

bool Emitter::emit_memory(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    switch (ins.opcode) {
    case Opcode::nop:
    // abort and debug_break "do nothing on rasterizers that do not support
    // them" (HLSL abort()); Vulkan has no such rasterizer.
    case Opcode::abort:
    case Opcode::debug_break:
        return true;
    case Opcode::ld_raw:
    case Opcode::ld_structured:
    case Opcode::ld_raw_s:
    case Opcode::ld_structured_s:
        emit_buffer_load(ins);
        return true;
    case Opcode::store_raw:
    case Opcode::store_structured:
        emit_buffer_store(ins);
        return true;
    case Opcode::sync:
        emit_sync(ins);
        return true;
    case Opcode::imm_atomic_alloc:
    case Opcode::imm_atomic_consume:
        emit_counter(ins);
        return true;
    default:
        if (!is_atomic(ins.opcode))
            return false;
        emit_atomic(ins);
        return true;
    }
}

} // namespace dxspv::spirv

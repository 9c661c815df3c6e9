// Resource declarations → descriptors and group-shared memory, and pointers
// into them.
//
// Bindings come from the binding map (EmitOptions::bindings, see
// spirv/emit.h and bindings.h; E2012 for an unmapped descriptor in strict
// mode). An SM5.1 range of N registers is one descriptor array of N, an
// unbounded one a runtime array (RuntimeDescriptorArray). Constant buffers
// mapped to push constants are members of one PushConstant block.
//
// Layouts:
// - constant buffer cb#: Uniform block { uvec4 data[size] } with ArrayStride
//   16 (std140-compatible), size = the declared vec4 count (4096 when unknown
//   or dynamically indexed);
// - constant buffers in push constants: members uvec4 cbN[size] of one
//   PushConstant block at the map's offsets; size = the declared vec4 count
//   (dynamically indexed ones too: the block must fit the pipeline's push
//   constant range); of unknown size, up to the next member or to byte 256
//   (push_constant_block_bytes);
// - raw and structured buffers t#/u#: StorageBuffer block { uint data[] }
//   with ArrayStride 4, NonWritable for SRVs; byte offsets become uint
//   indices;
// - group-shared memory g#: a Workgroup array of uint;
// - sampler s#: a UniformConstant OpTypeSampler;
// - UAV counter: its own StorageBuffer block { uint counter; }.
#include "common/stable_sort.h"
#include "spirv/emitter.h"

#include <algorithm>
#include <cstdio>

namespace dxspv::spirv {

namespace {

/// Upper bound on register ids and range sizes, to keep the per-register
/// tables small whatever the input says.
constexpr uint32_t max_register_id = 65536;

/// A push-constant member is at most a constant buffer's 4096 vec4s.
constexpr uint32_t max_push_constant_vec4s = 4096;

} // namespace

ScopeVector<Descriptor>* Emitter::descriptor_table(vsir::RegisterFile file)
{
    switch (file) {
    case vsir::RegisterFile::constant_buffer: return &cbvs_;
    case vsir::RegisterFile::resource: return &srvs_;
    case vsir::RegisterFile::uav: return &uavs_;
    case vsir::RegisterFile::sampler: return &samplers_;
    case vsir::RegisterFile::groupshared: return &tgsm_;
    default: return nullptr;
    }
}

Descriptor* Emitter::new_descriptor(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    const vsir::Register& reg = prog_.dst(ins, 0).reg;
    ScopeVector<Descriptor>* table = descriptor_table(reg.file);
    if (!table || reg.index_count < 1 || reg.idx[0].offset >= max_register_id) {
        error(Code::spirv_invalid_operand, "malformed declared register");
        return nullptr;
    }
    uint32_t id = reg.idx[0].offset;
    uint32_t first = decl.range_first, count = 1;
    if (reg.file != vsir::RegisterFile::groupshared) {
        if (decl.range_last == ~0u) {
            count = 0; // unbounded: a runtime descriptor array
        } else if (decl.range_last < decl.range_first || decl.range_last - decl.range_first >= max_register_id) {
            error(Code::spirv_invalid_operand, "register range %u..%u", decl.range_first, decl.range_last);
            return nullptr;
        } else {
            count = decl.range_last - decl.range_first + 1;
        }
    }
    if (table->size() <= id)
        table->resize(id + 1);
    Descriptor& desc = (*table)[id];
    if (desc.form != DescriptorForm::none) {
        error(Code::spirv_invalid_operand, "%s%u declared twice", vsir::register_prefix(reg.file), id);
        return nullptr;
    }
    desc.range_first = first;
    desc.range_count = count;
    desc.is_array = count != 1;
    return &desc;
}

ResolvedBinding Emitter::resolve_binding(DescriptorType dtype, const vsir::Declaration& decl)
{
    ResolvedBinding r = options_.bindings.resolve(dtype, decl.space, decl.range_first, prog_.model.stage);
    if (!r.found) {
        static constexpr const char* prefixes[] = {"t", "u", "b", "s"};
        error(Code::spirv_unmapped_descriptor, "no binding-map entry for %s%u, space %u",
            prefixes[uint32_t(dtype) & 3], decl.range_first, decl.space);
    }
    return r;
}

void Emitter::create_descriptor_variable(Descriptor& desc, const vsir::Instruction& ins, const vsir::Declaration& decl,
    spv::Id element_type, spv::StorageClass storage, DescriptorType dtype)
{
    const vsir::Register& reg = prog_.dst(ins, 0).reg;
    ResolvedBinding binding = resolve_binding(dtype, decl);
    if (!binding.found)
        return;
    desc.var = b_.createVariable(storage, descriptor_var_type(desc, element_type),
        NumberedName(vsir::register_prefix(reg.file), reg.idx[0].offset).c_str());
    desc.set = binding.set;
    desc.binding = binding.binding;
    desc.binding_from_map = binding.from_map;
    b_.addDecoration(desc.var, spv::DecorationDescriptorSet, int(binding.set));
    b_.addDecoration(desc.var, spv::DecorationBinding, int(binding.binding));
    add_interface(desc.var);
}

/// The type of a descriptor variable: `element_type`, or an array of it for
/// a range (a runtime array when unbounded).
spv::Id Emitter::descriptor_var_type(const Descriptor& desc, spv::Id element_type)
{
    if (desc.is_array && desc.range_count == 0) {
        if (spirv_version(options_.target_env) < 0x00010500)
            b_.addExtension("SPV_EXT_descriptor_indexing");
        b_.addCapability(spv::CapabilityRuntimeDescriptorArrayEXT);
        return b_.makeRuntimeArray(element_type);
    }
    if (desc.is_array)
        return b_.makeArrayType(element_type, constant_u32(desc.range_count), 0);
    return element_type;
}

void Emitter::declare_constant_buffer(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    Descriptor* desc = new_descriptor(ins, decl);
    if (!desc)
        return;
    if (decl.count > 65536) {
        error(Code::spirv_invalid_operand, "constant buffer of %u vec4s", decl.count);
        return;
    }
    desc->form = DescriptorForm::cbv;
    desc->size = decl.count ? decl.count : 4096;
    if (declare_push_constant_buffer(*desc, ins, decl))
        return;
    desc->sampled_kind = constant_buffer_kind(prog_.dst(ins, 0).reg.idx[0].offset);
    spv::Id array = b_.makeArrayType(type(desc->sampled_kind, 4), constant_u32(desc->size), 16);
    b_.addDecoration(array, spv::DecorationArrayStride, 16);
    spv::Id block = b_.makeStructType({array}, NumberedName("cb", prog_.dst(ins, 0).reg.idx[0].offset, "_block").c_str());
    b_.addMemberName(block, 0, "data");
    b_.addMemberDecoration(block, 0, spv::DecorationOffset, 0);
    b_.addDecoration(block, spv::DecorationBlock);
    create_descriptor_variable(*desc, ins, decl, block, spv::StorageClassUniform, DescriptorType::cbv);
}

/// The component kind of constant buffer `range_id`'s vec4s: f32 when the
/// program reads it as floats more often than not (most do), so that those
/// reads need no bitcast; u32 otherwise.
Kind Emitter::constant_buffer_kind(uint32_t range_id)
{
    constexpr uint32_t limit = 1u << 16; // range ids past it stay u32
    if (cb_float_reads_.empty()) {
        auto counted = [](const vsir::SrcParam& src) {
            return src.reg.file == vsir::RegisterFile::constant_buffer && src.reg.index_count >= 1
                   && src.reg.idx[0].offset < limit;
        };
        uint32_t count = 1;
        for (const vsir::SrcParam& src : prog_.srcs)
            if (counted(src))
                count = std::max(count, src.reg.idx[0].offset + 1);
        cb_float_reads_.resize(count);
        for (const vsir::SrcParam& src : prog_.srcs)
            if (counted(src))
                cb_float_reads_[src.reg.idx[0].offset] += src.reg.type == vsir::DataType::f32 ? 1 : -1;
    }
    return range_id < cb_float_reads_.size() && cb_float_reads_[range_id] > 0 ? Kind::f32 : Kind::u32;
}

/// Constant buffers the binding map sends to push constants become members
/// of one PushConstant block, each an array of uvec4 at its push-constant
/// offset (members in offset order). Runs before the instruction walk.
void Emitter::prepare_push_constants()
{
    struct Member {
        uint32_t range_id, offset, size;
        bool unknown_size;
    };
    if (options_.bindings.bindings.empty()) // only a binding map's entry makes a push constant
        return;
    ScratchVector<Member> members;
    for (uint32_t i : declared_) {
        const vsir::Instruction& ins = prog_.instructions[i];
        if (ins.opcode != vsir::Opcode::dcl_constant_buffer || ins.dst_count < 1 || ins.decl >= prog_.decls.size()
            || ins.dst_first >= prog_.dsts.size())
            continue;
        const vsir::Declaration& decl = prog_.decls[ins.decl];
        ResolvedBinding r = options_.bindings.resolve(DescriptorType::cbv, decl.space, decl.range_first,
            prog_.model.stage);
        if (!r.found || !r.push_constant || decl.range_last != decl.range_first)
            continue;
        // A dynamically indexed buffer's size is its declared byte size.
        uint32_t vec4s = decl.count ? decl.count : decl.byte_count / 16;
        uint32_t size = vec4s ? std::min<uint32_t>(vec4s, max_push_constant_vec4s) : max_push_constant_vec4s;
        members.push_back({prog_.dst(ins, 0).reg.idx[0].offset, r.push_constant_offset, size, vec4s == 0});
    }
    if (members.empty())
        return;
    stable_sort_short(members.begin(), members.end(), [](const Member& a, const Member& b) {
        return a.offset < b.offset;
    });
    ScratchVector<spv::Id> member_types;
    for (size_t i = 0; i < members.size(); ++i) {
        Member& m = members[i];
        if (m.offset % 16) {
            error(Code::spirv_unsupported_declaration, "push-constant offset %u of cb%u is not a multiple of 16",
                m.offset, m.range_id);
            return;
        }
        // An unknown size stops at the next member or at byte
        // push_constant_block_bytes; known sizes must not overlap.
        if (i + 1 < members.size() && uint64_t(m.offset) + m.size * 16ull > members[i + 1].offset) {
            if (!m.unknown_size || members[i + 1].offset < m.offset + 16) {
                error(Code::spirv_unsupported_declaration, "push-constant ranges of cb%u and cb%u overlap",
                    m.range_id, members[i + 1].range_id);
                return;
            }
            m.size = (members[i + 1].offset - m.offset) / 16;
        } else if (m.unknown_size) {
            m.size = std::max<uint32_t>(1,
                (push_constant_block_bytes - std::min(m.offset, push_constant_block_bytes)) / 16);
        }
        spv::Id array = b_.makeArrayType(type(Kind::u32, 4), constant_u32(m.size), 16);
        b_.addDecoration(array, spv::DecorationArrayStride, 16);
        member_types.push_back(array);
    }
    spv::Id block = b_.makeStructType(member_types, "push_constants");
    for (uint32_t i = 0; i < members.size(); ++i) {
        b_.addMemberName(block, i, NumberedName("cb", members[i].range_id).c_str());
        b_.addMemberDecoration(block, i, spv::DecorationOffset, int(members[i].offset));
        rare().push_members.push_back({members[i].range_id, i, members[i].size});
    }
    b_.addDecoration(block, spv::DecorationBlock);
    push_block_var_ = b_.createVariable(spv::StorageClassPushConstant, block, "push_constants");
    add_interface(push_block_var_);
}

bool Emitter::declare_push_constant_buffer(Descriptor& desc, const vsir::Instruction& ins,
    const vsir::Declaration& decl)
{
    ResolvedBinding r = resolve_binding(DescriptorType::cbv, decl);
    if (!r.found)
        return true;
    if (!r.push_constant)
        return false;
    if (desc.is_array) {
        error(Code::spirv_unsupported_declaration, "a constant buffer range cannot be push constants");
        return true;
    }
    uint32_t range_id = prog_.dst(ins, 0).reg.idx[0].offset;
    for (const PushMember& m : rare().push_members) {
        if (m.range_id == range_id) {
            desc.var = push_block_var_;
            desc.push_member = m.member;
            desc.size = m.vec4s;
            return true;
        }
    }
    error(Code::spirv_invalid_operand, "push-constant buffer cb%u was not prepared", range_id);
    return true;
}

spv::Id Emitter::buffer_block_type(bool read_only)
{
    spv::Id& block = buffer_blocks_[read_only];
    if (block)
        return block;
    if (!runtime_uint_array_) {
        runtime_uint_array_ = b_.makeRuntimeArray(type(Kind::u32));
        b_.addDecoration(runtime_uint_array_, spv::DecorationArrayStride, 4);
    }
    block = b_.makeStructType({runtime_uint_array_}, read_only ? "srv_buffer" : "uav_buffer");
    b_.addMemberName(block, 0, "data");
    b_.addMemberDecoration(block, 0, spv::DecorationOffset, 0);
    if (read_only)
        b_.addMemberDecoration(block, 0, spv::DecorationNonWritable);
    b_.addDecoration(block, spv::DecorationBlock);
    return block;
}

void Emitter::declare_buffer(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    bool structured = ins.opcode == vsir::Opcode::dcl_resource_structured
        || ins.opcode == vsir::Opcode::dcl_uav_structured;
    bool srv = prog_.dst(ins, 0).reg.file == vsir::RegisterFile::resource;
    // A stride that is not a multiple of 4 (DXIL's 16-bit structures) works
    // with the byte arithmetic of buffer_word_index as long as every access
    // is word-aligned, which the DXIL lowering ensures.
    if (structured && (decl.structure_stride == 0 || decl.structure_stride % 2)) {
        error(Code::spirv_invalid_operand, "structure stride %u", decl.structure_stride);
        return;
    }
    Descriptor* desc = new_descriptor(ins, decl);
    if (!desc)
        return;
    desc->form = DescriptorForm::buffer;
    desc->read_only = srv;
    desc->stride = structured ? decl.structure_stride : 0;
    uses_storage_buffer_ = true;
    create_descriptor_variable(*desc, ins, decl, buffer_block_type(srv), spv::StorageClassStorageBuffer,
        srv ? DescriptorType::srv : DescriptorType::uav);
    if (!srv && (decl.value & vsir::uav_globally_coherent))
        b_.addDecoration(desc->var, spv::DecorationCoherent);
    bool counter = (decl.value & vsir::uav_has_counter) || (uav_usage(prog_.dst(ins, 0).reg.idx[0].offset) & uav_use_counter);
    if (!srv && counter && desc->var)
        declare_uav_counter(*desc, ins, decl);
}

/// A UAV counter (seed "Representing counter variables for typed
/// buffers"): its own storage buffer block { uint counter; } named
/// <name>_counter, an array of them for a range (same size, same index),
/// at the binding the map gives for counters or an implicit one
/// (assign_implicit_counter_bindings). The UAV carries the CounterBuffer
/// decoration (OpDecorateId; SPV_GOOGLE_hlsl_functionality1 before SPIR-V
/// 1.4) pointing at it.
void Emitter::declare_uav_counter(Descriptor& desc, const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    ResolvedBinding uav;
    uav.found = true;
    uav.from_map = desc.binding_from_map;
    ResolvedBinding binding = options_.bindings.resolve_counter(decl.space, decl.range_first, prog_.model.stage, uav);
    if (!counter_block_) {
        counter_block_ = b_.makeStructType({type(Kind::u32)}, "uav_counter");
        b_.addMemberName(counter_block_, 0, "counter");
        b_.addMemberDecoration(counter_block_, 0, spv::DecorationOffset, 0);
        b_.addDecoration(counter_block_, spv::DecorationBlock);
    }
    spv::Id var_type = counter_block_;
    if (desc.is_array && desc.range_count == 0)
        var_type = b_.makeRuntimeArray(counter_block_);
    else if (desc.is_array)
        var_type = b_.makeArrayType(counter_block_, constant_u32(desc.range_count), 0);
    desc.counter_var = b_.createVariable(spv::StorageClassStorageBuffer, var_type,
        NumberedName("u", prog_.dst(ins, 0).reg.idx[0].offset, "_counter").c_str());
    desc.counter_set = binding.found ? binding.set : desc.set;
    desc.counter_binding = binding.found ? binding.binding : ~0u;
    if (binding.found) {
        b_.addDecoration(desc.counter_var, spv::DecorationDescriptorSet, int(binding.set));
        b_.addDecoration(desc.counter_var, spv::DecorationBinding, int(binding.binding));
    }
    if (spirv_version(options_.target_env) < 0x00010400)
        b_.addExtension("SPV_GOOGLE_hlsl_functionality1");
    b_.addDecorationId(desc.var, spv::DecorationCounterBuffer, desc.counter_var);
    add_interface(desc.counter_var);
}

/// Gives the counters without an explicit or default binding theirs, in
/// declaration order, each in its UAV's set after every binding the module
/// uses there.
void Emitter::assign_implicit_counter_bindings()
{
    const auto placed = [](const Descriptor& d) { return d.var && d.push_member == ~0u; };
    // Most programs have no counter left to place: no bindings to collect.
    // Only UAVs have counters (declare_uav_counter).
    bool any = false;
    for (const Descriptor& d : uavs_)
        any |= placed(d) && d.counter_var && d.counter_binding == ~0u;
    if (!any)
        return;
    const std::initializer_list<const ScopeVector<Descriptor>*> tables = {&cbvs_, &srvs_, &uavs_, &samplers_};
    CounterBindingAllocator alloc;
    for (const ScopeVector<Descriptor>* table : tables)
        for (const Descriptor& d : *table) {
            if (!placed(d))
                continue;
            alloc.reserve(d.set, d.binding);
            if (d.counter_var)
                alloc.reserve(d.counter_set, d.counter_binding);
        }
    for (uint32_t i : declared_) {
        const vsir::Instruction& ins = prog_.instructions[i];
        if (ins.decl >= prog_.decls.size() || !ins.dst_count || prog_.dst(ins, 0).reg.file != vsir::RegisterFile::uav)
            continue;
        uint32_t id = prog_.dst(ins, 0).reg.idx[0].offset;
        if (id < uavs_.size() && uavs_[id].counter_var && uavs_[id].counter_binding == ~0u) {
            Descriptor& d = uavs_[id];
            d.counter_binding = alloc.allocate(d.set);
            b_.addDecoration(d.counter_var, spv::DecorationDescriptorSet, int(d.set));
            b_.addDecoration(d.counter_var, spv::DecorationBinding, int(d.counter_binding));
        }
    }
}

void Emitter::declare_sampler(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    Descriptor* desc = new_descriptor(ins, decl);
    if (!desc)
        return;
    desc->form = DescriptorForm::sampler;
    desc->type = b_.makeSamplerType();
    create_descriptor_variable(*desc, ins, decl, desc->type, spv::StorageClassUniformConstant,
        DescriptorType::sampler);
}

void Emitter::declare_tgsm(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    bool structured = ins.opcode == vsir::Opcode::dcl_tgsm_structured;
    uint64_t bytes = structured ? uint64_t(decl.structure_stride) * decl.count : decl.byte_count;
    if (bytes == 0 || bytes % 4 || bytes > (1u << 20) || (structured && decl.structure_stride % 4)) {
        error(Code::spirv_invalid_operand, "group-shared memory of %llu bytes (stride %u)",
            (unsigned long long)bytes, decl.structure_stride);
        return;
    }
    Descriptor* desc = new_descriptor(ins, decl);
    if (!desc)
        return;
    desc->form = DescriptorForm::tgsm;
    desc->stride = structured ? decl.structure_stride : 0;
    desc->size = uint32_t(bytes / 4);
    uint32_t id = prog_.dst(ins, 0).reg.idx[0].offset;
    // Memory that 64-bit atomics use is an array of ulong (memory.cpp).
    desc->sampled_kind = tgsm_has_64bit_atomics(id) ? Kind::u64 : Kind::u32;
    NumberedName name("g", id);
    uint32_t elements = desc->sampled_kind == Kind::u64 ? (desc->size + 1) / 2 : desc->size;
    spv::Id array = b_.makeArrayType(type(desc->sampled_kind), constant_u32(elements), 0);
    desc->var = b_.createVariable(spv::StorageClassWorkgroup, array, name.c_str());
    add_interface(desc->var);
}

// ---- access ----

Descriptor* Emitter::find_descriptor(const vsir::Register& reg)
{
    ScopeVector<Descriptor>* table = descriptor_table(reg.file);
    if (!table) {
        error(Code::spirv_unsupported_register, "register file '%s' is not a resource", vsir::register_prefix(reg.file));
        return nullptr;
    }
    if (reg.index_count < 1 || reg.idx[0].rel_addr != vsir::invalid_index || reg.idx[0].offset >= table->size()
        || (*table)[reg.idx[0].offset].form == DescriptorForm::none) {
        error(Code::spirv_undeclared_register, "'%s%u' is not declared", vsir::register_prefix(reg.file),
            reg.idx[0].offset);
        return nullptr;
    }
    if (!(*table)[reg.idx[0].offset].var)
        return nullptr; // its declaration failed and was reported
    return &(*table)[reg.idx[0].offset];
}

spv::Id Emitter::descriptor_index(const Descriptor& desc, const vsir::Register& reg)
{
    if (reg.index_count < 2) {
        error(Code::spirv_invalid_operand, "descriptor array operand without its register index");
        return constant_u32(0);
    }
    const vsir::RegisterIndex& idx = reg.idx[1];
    if (idx.rel_addr == vsir::invalid_index) {
        if (idx.offset < desc.range_first || (desc.range_count && idx.offset - desc.range_first >= desc.range_count)) {
            error(Code::spirv_invalid_operand, "register %u outside its range %u..%u", idx.offset, desc.range_first,
                desc.range_first + desc.range_count - 1);
            return constant_u32(0);
        }
        return constant_u32(idx.offset - desc.range_first);
    }
    spv::Id id = index_id(idx);
    if (desc.range_first)
        id = integer_op(spv::OpISub, id, desc.range_first);
    add_array_indexing_capability(desc, reg.flags & vsir::register_non_uniform);
    return mark_non_uniform(reg, id);
}

/// Declares the capability that lets `desc`'s descriptor array be indexed
/// dynamically (and uniformly) or non-uniformly: the Vulkan features
/// shader<Kind>ArrayDynamicIndexing / shader<Kind>ArrayNonUniformIndexing
/// that the module then needs.
void Emitter::add_array_indexing_capability(const Descriptor& desc, bool non_uniform)
{
    using C = spv::Capability;
    bool texel_buffer = desc.form == DescriptorForm::image && desc.dimension == vsir::ResourceDimension::buffer;
    C dynamic, nonuniform;
    switch (desc.form) {
    case DescriptorForm::cbv:
        dynamic = C::CapabilityUniformBufferArrayDynamicIndexing;
        nonuniform = C::CapabilityUniformBufferArrayNonUniformIndexing;
        break;
    case DescriptorForm::buffer:
        dynamic = C::CapabilityStorageBufferArrayDynamicIndexing;
        nonuniform = C::CapabilityStorageBufferArrayNonUniformIndexing;
        break;
    case DescriptorForm::sampler:
        dynamic = C::CapabilitySampledImageArrayDynamicIndexing;
        nonuniform = C::CapabilitySampledImageArrayNonUniformIndexing;
        break;
    case DescriptorForm::image:
        if (texel_buffer) {
            dynamic = desc.read_only ? C::CapabilityUniformTexelBufferArrayDynamicIndexing
                                     : C::CapabilityStorageTexelBufferArrayDynamicIndexing;
            nonuniform = desc.read_only ? C::CapabilityUniformTexelBufferArrayNonUniformIndexing
                                        : C::CapabilityStorageTexelBufferArrayNonUniformIndexing;
        } else {
            dynamic = desc.read_only ? C::CapabilitySampledImageArrayDynamicIndexing
                                     : C::CapabilityStorageImageArrayDynamicIndexing;
            nonuniform = desc.read_only ? C::CapabilitySampledImageArrayNonUniformIndexing
                                        : C::CapabilityStorageImageArrayNonUniformIndexing;
        }
        break;
    default:
        return;
    }
    // The non-uniform and texel-buffer capabilities come from descriptor indexing.
    if ((non_uniform || texel_buffer) && spirv_version(options_.target_env) < 0x00010500)
        b_.addExtension("SPV_EXT_descriptor_indexing");
    b_.addCapability(non_uniform ? nonuniform : dynamic);
}

/// Decorates `id` (a descriptor index, a pointer into a descriptor array or
/// a loaded descriptor) NonUniform when the operand's index is not
/// dynamically uniform (a constant index, folded, is uniform).
spv::Id Emitter::mark_non_uniform(const vsir::Register& reg, spv::Id id)
{
    uint32_t bits;
    if (!(reg.flags & vsir::register_non_uniform) || !id || b_.constant_word(id, bits))
        return id;
    if (spirv_version(options_.target_env) < 0x00010500)
        b_.addExtension("SPV_EXT_descriptor_indexing");
    b_.addCapability(spv::CapabilityShaderNonUniformEXT);
    b_.addDecoration(id, spv::DecorationNonUniformEXT);
    return id;
}

RegisterPointer Emitter::constant_buffer_pointer(const vsir::Register& reg)
{
    Descriptor* desc = find_descriptor(reg);
    if (!desc)
        return {};
    if (reg.index_count < 3) {
        error(Code::spirv_invalid_operand, "constant buffer operand needs 3 indices");
        return {};
    }
    if (reg.idx[2].rel_addr == vsir::invalid_index && reg.idx[2].offset >= desc->size) {
        error(Code::spirv_invalid_operand, "cb%u[%u] is outside the declared %u vec4s", reg.idx[0].offset,
            reg.idx[2].offset, desc->size);
        return {};
    }
    if (!desc->var)
        return {};
    if (desc->push_member != ~0u)
        return {b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassPushConstant, type(Kind::u32, 4)),
                    {desc->var, constant_u32(desc->push_member), index_id(reg.idx[2])}),
            4};
    OperandList<spv::Id, 4> chain{desc->var};
    if (desc->is_array)
        chain.push_back(descriptor_index(*desc, reg));
    chain.push_back(constant_u32(0));
    chain.push_back(index_id(reg.idx[2]));
    spv::Id ptr =
        b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassUniform, type(desc->sampled_kind, 4)), chain);
    return {desc->is_array ? mark_non_uniform(reg, ptr) : ptr, 4, NoResult, desc->sampled_kind};
}

spv::Id Emitter::buffer_word_pointer(const Descriptor& desc, const vsir::Register& reg, spv::Id word_index)
{
    if (desc.form == DescriptorForm::tgsm)
        return b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassWorkgroup, type(Kind::u32)),
            {desc.var, word_index});
    OperandList<spv::Id, 4> chain{desc.var};
    if (desc.is_array)
        chain.push_back(descriptor_index(desc, reg));
    chain.push_back(constant_u32(0));
    chain.push_back(word_index);
    spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassStorageBuffer, type(Kind::u32)), chain);
    return desc.is_array ? mark_non_uniform(reg, ptr) : ptr;
}

/// A pointer to the 64-bit value at uint index `word_index` (even) of a UAV
/// buffer, through a second view of the buffer as ulong[] at the same set
/// and binding (declared on first use; Vulkan allows aliasing descriptors).
spv::Id Emitter::buffer_qword_pointer(Descriptor& desc, const vsir::Register& reg, spv::Id word_index)
{
    spv::Id u64 = type(Kind::u64);
    if (!desc.var64) {
        if (!buffer_block64_) {
            spv::Id array = b_.makeRuntimeArray(u64);
            b_.addDecoration(array, spv::DecorationArrayStride, 8);
            buffer_block64_ = b_.makeStructType({array}, "uav_buffer64");
            b_.addMemberName(buffer_block64_, 0, "data");
            b_.addMemberDecoration(buffer_block64_, 0, spv::DecorationOffset, 0);
            b_.addDecoration(buffer_block64_, spv::DecorationBlock);
        }
        desc.var64 = b_.createVariable(spv::StorageClassStorageBuffer, descriptor_var_type(desc, buffer_block64_),
            NumberedName("u", reg.idx[0].offset, "_64").c_str());
        b_.addDecoration(desc.var64, spv::DecorationDescriptorSet, int(desc.set));
        b_.addDecoration(desc.var64, spv::DecorationBinding, int(desc.binding));
        add_interface(desc.var64);
    }
    OperandList<spv::Id, 4> chain{desc.var64};
    if (desc.is_array)
        chain.push_back(descriptor_index(desc, reg));
    chain.push_back(constant_u32(0));
    chain.push_back(integer_op(spv::OpShiftRightLogical, word_index, 1));
    spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassStorageBuffer, u64), chain);
    return desc.is_array ? mark_non_uniform(reg, ptr) : ptr;
}

} // namespace dxspv::spirv

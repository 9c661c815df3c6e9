// Resource declarations → descriptors and group-shared memory, and pointers
// into them.
//
// Default binding scheme (see spirv/emit.h): set = register space, binding =
// per-type base + first register of the range (cbv 0, srv 1000, uav 2000,
// sampler 3000). An SM5.1 range of N registers is one descriptor array of N.
//
// Layouts:
// - constant buffer cb#: Uniform block { uvec4 data[size] } with ArrayStride
//   16 (std140-compatible), size = the declared vec4 count (4096 when unknown);
// - raw and structured buffers t#/u#: StorageBuffer block { uint data[] }
//   with ArrayStride 4, NonWritable for SRVs; byte offsets become uint
//   indices;
// - group-shared memory g#: a Workgroup array of uint;
// - sampler s#: a UniformConstant OpTypeSampler.
#include "spirv/emitter.h"

#include <cstdio>

namespace dxspv::spirv {

namespace {

/// Upper bound on register ids and range sizes, to keep the per-register
/// tables small whatever the input says.
constexpr uint32_t max_register_id = 65536;

} // namespace

std::vector<Descriptor>* Emitter::descriptor_table(vsir::RegisterFile file)
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
    std::vector<Descriptor>* table = descriptor_table(reg.file);
    if (!table || reg.index_count < 1 || reg.idx[0].offset >= max_register_id) {
        error(Code::spirv_invalid_operand, "malformed declared register");
        return nullptr;
    }
    uint32_t id = reg.idx[0].offset;
    uint32_t first = decl.range_first, count = 1;
    if (reg.file != vsir::RegisterFile::groupshared) {
        if (decl.range_last == ~0u) {
            error(Code::spirv_unsupported_declaration, "unbounded register ranges are not supported yet");
            return nullptr;
        }
        if (decl.range_last < decl.range_first || decl.range_last - decl.range_first >= max_register_id) {
            error(Code::spirv_invalid_operand, "register range %u..%u", decl.range_first, decl.range_last);
            return nullptr;
        }
        count = decl.range_last - decl.range_first + 1;
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
    desc.is_array = count > 1;
    return &desc;
}

void Emitter::create_descriptor_variable(Descriptor& desc, const vsir::Instruction& ins, const vsir::Declaration& decl,
    spv::Id element_type, spv::StorageClass storage, uint32_t binding_base)
{
    const vsir::Register& reg = prog_.dst(ins, 0).reg;
    spv::Id var_type = element_type;
    if (desc.is_array)
        var_type = b_.makeArrayType(element_type, constant_u32(desc.range_count), 0);
    char name[32];
    snprintf(name, sizeof(name), "%s%u", vsir::register_prefix(reg.file), reg.idx[0].offset);
    desc.var = b_.createVariable(spv::NoPrecision, storage, var_type, name);
    b_.addDecoration(desc.var, spv::DecorationDescriptorSet, int(decl.space));
    b_.addDecoration(desc.var, spv::DecorationBinding, int(binding_base + desc.range_first));
    add_interface(desc.var);
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
    spv::Id array = b_.makeArrayType(type(Kind::u32, 4), constant_u32(desc->size), 16);
    b_.addDecoration(array, spv::DecorationArrayStride, 16);
    char name[32];
    snprintf(name, sizeof(name), "cb%u_block", prog_.dst(ins, 0).reg.idx[0].offset);
    spv::Id block = b_.makeStructType({array}, name);
    b_.addMemberName(block, 0, "data");
    b_.addMemberDecoration(block, 0, spv::DecorationOffset, 0);
    b_.addDecoration(block, spv::DecorationBlock);
    create_descriptor_variable(*desc, ins, decl, block, spv::StorageClassUniform, binding_base_cbv);
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
    if (structured && (decl.structure_stride == 0 || decl.structure_stride % 4)) {
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
        srv ? binding_base_srv : binding_base_uav);
    if (!srv && (decl.value & vsir::uav_globally_coherent))
        b_.addDecoration(desc->var, spv::DecorationCoherent);
}

void Emitter::declare_sampler(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    Descriptor* desc = new_descriptor(ins, decl);
    if (!desc)
        return;
    desc->form = DescriptorForm::sampler;
    create_descriptor_variable(*desc, ins, decl, b_.makeSamplerType(), spv::StorageClassUniformConstant,
        binding_base_sampler);
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
    char name[32];
    snprintf(name, sizeof(name), "g%u", prog_.dst(ins, 0).reg.idx[0].offset);
    spv::Id array = b_.makeArrayType(type(Kind::u32), constant_u32(desc->size), 0);
    desc->var = b_.createVariable(spv::NoPrecision, spv::StorageClassWorkgroup, array, name);
    add_interface(desc->var);
}

// ---- access ----

Descriptor* Emitter::find_descriptor(const vsir::Register& reg)
{
    std::vector<Descriptor>* table = descriptor_table(reg.file);
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
        if (idx.offset < desc.range_first || idx.offset - desc.range_first >= desc.range_count) {
            error(Code::spirv_invalid_operand, "register %u outside its range %u..%u", idx.offset, desc.range_first,
                desc.range_first + desc.range_count - 1);
            return constant_u32(0);
        }
        return constant_u32(idx.offset - desc.range_first);
    }
    spv::Id id = index_id(idx);
    if (desc.range_first)
        id = b_.createBinOp(spv::OpISub, type(Kind::u32), id, constant_u32(desc.range_first));
    return id;
}

spv::Id Emitter::constant_buffer_pointer(const vsir::Register& reg)
{
    Descriptor* desc = find_descriptor(reg);
    if (!desc)
        return spv::NoResult;
    if (reg.index_count < 3) {
        error(Code::spirv_invalid_operand, "constant buffer operand needs 3 indices");
        return spv::NoResult;
    }
    if (reg.idx[2].rel_addr == vsir::invalid_index && reg.idx[2].offset >= desc->size) {
        error(Code::spirv_invalid_operand, "cb%u[%u] is outside the declared %u vec4s", reg.idx[0].offset,
            reg.idx[2].offset, desc->size);
        return spv::NoResult;
    }
    std::vector<spv::Id> chain{desc->var};
    if (desc->is_array)
        chain.push_back(descriptor_index(*desc, reg));
    chain.push_back(constant_u32(0));
    chain.push_back(index_id(reg.idx[2]));
    return b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassUniform, type(Kind::u32, 4)), chain);
}

spv::Id Emitter::buffer_word_pointer(const Descriptor& desc, const vsir::Register& reg, spv::Id word_index)
{
    if (desc.form == DescriptorForm::tgsm)
        return b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassWorkgroup, type(Kind::u32)),
            std::vector<spv::Id>{desc.var, word_index});
    std::vector<spv::Id> chain{desc.var};
    if (desc.is_array)
        chain.push_back(descriptor_index(desc, reg));
    chain.push_back(constant_u32(0));
    chain.push_back(word_index);
    return b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassStorageBuffer, type(Kind::u32)), chain);
}

} // namespace dxspv::spirv

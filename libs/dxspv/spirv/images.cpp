// Typed resources: textures and typed buffers (dcl_resource, dcl_uav_typed)
// as images and texel buffers, their loads, stores, explicit-LOD sampling
// and size queries; bufinfo on raw and structured buffers too.
//
// An SRV is a sampled image (Sampled 1), a typed UAV a storage image
// (Sampled 2) of unknown format; the sampled type follows the declared
// return type (float, unorm, snorm: float; sint: int; uint: uint). Buffers
// are images of Dim Buffer (texel buffers). Implicit-LOD sampling needs
// derivatives, which compute shaders do not have, so sample / sample_b /
// sample_c are refused for now.
#include "spirv/emitter.h"

namespace dxspv::spirv {

namespace {

using vsir::ResourceDimension;

struct DimInfo {
    spv::Dim dim = spv::Dim2D;
    bool arrayed = false;
    bool ms = false;
    uint8_t coords = 0;  ///< coordinate components, array layer included
    uint8_t offsets = 0; ///< texel offset components (0: offsets not allowed)
};

bool dim_info(ResourceDimension d, DimInfo& info)
{
    switch (d) {
    case ResourceDimension::buffer: info = {spv::DimBuffer, false, false, 1, 0}; return true;
    case ResourceDimension::texture_1d: info = {spv::Dim1D, false, false, 1, 1}; return true;
    case ResourceDimension::texture_1d_array: info = {spv::Dim1D, true, false, 2, 1}; return true;
    case ResourceDimension::texture_2d: info = {spv::Dim2D, false, false, 2, 2}; return true;
    case ResourceDimension::texture_2d_array: info = {spv::Dim2D, true, false, 3, 2}; return true;
    case ResourceDimension::texture_2dms: info = {spv::Dim2D, false, true, 2, 2}; return true;
    case ResourceDimension::texture_2dms_array: info = {spv::Dim2D, true, true, 3, 2}; return true;
    case ResourceDimension::texture_3d: info = {spv::Dim3D, false, false, 3, 3}; return true;
    case ResourceDimension::texture_cube: info = {spv::DimCube, false, false, 3, 0}; return true;
    case ResourceDimension::texture_cube_array: info = {spv::DimCube, true, false, 4, 0}; return true;
    default: return false;
    }
}

Kind sampled_kind(vsir::DataType type)
{
    switch (type) {
    case vsir::DataType::i32: return Kind::i32;
    case vsir::DataType::u32: return Kind::u32;
    default: return Kind::f32;
    }
}

void add_image_capabilities(spv::Builder& b, const DimInfo& info, bool storage)
{
    if (info.dim == spv::DimBuffer)
        b.addCapability(storage ? spv::CapabilityImageBuffer : spv::CapabilitySampledBuffer);
    if (info.dim == spv::Dim1D)
        b.addCapability(storage ? spv::CapabilityImage1D : spv::CapabilitySampled1D);
    if (info.dim == spv::DimCube && info.arrayed)
        b.addCapability(storage ? spv::CapabilityImageCubeArray : spv::CapabilitySampledCubeArray);
    if (info.ms && info.arrayed)
        b.addCapability(spv::CapabilityImageMSArray);
    if (storage) {
        b.addCapability(spv::CapabilityStorageImageReadWithoutFormat);
        b.addCapability(spv::CapabilityStorageImageWriteWithoutFormat);
    }
}

/// Image operands in the order of their mask bits.
struct ImageOperands {
    uint32_t mask = 0;
    spv::Id ids[3] = {};
    uint32_t count = 0;
    void add(spv::ImageOperandsMask bit, spv::Id a, spv::Id b = spv::NoResult)
    {
        mask |= bit;
        ids[count++] = a;
        if (b)
            ids[count++] = b;
    }
    void append_to(std::vector<spv::IdImmediate>& operands) const
    {
        if (!mask)
            return;
        operands.push_back({false, mask});
        for (uint32_t i = 0; i < count; ++i)
            operands.push_back({true, ids[i]});
    }
};

} // namespace

void Emitter::declare_image(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    bool storage = ins.opcode == vsir::Opcode::dcl_uav_typed;
    DimInfo info;
    if (!dim_info(decl.dimension, info) || (storage && info.ms)) {
        error(Code::spirv_unsupported_declaration, "resource dimension '%s'",
            vsir::resource_dimension_name(decl.dimension));
        return;
    }
    Descriptor* desc = new_descriptor(ins, decl);
    if (!desc)
        return;
    desc->form = DescriptorForm::image;
    desc->read_only = !storage;
    desc->dimension = decl.dimension;
    desc->sampled_kind = sampled_kind(decl.return_type[0]);
    desc->type = b_.makeImageType(type(desc->sampled_kind), info.dim, false, info.arrayed, info.ms, storage ? 2 : 1,
        spv::ImageFormatUnknown);
    add_image_capabilities(b_, info, storage);
    create_descriptor_variable(*desc, ins, decl, desc->type, spv::StorageClassUniformConstant,
        storage ? binding_base_uav : binding_base_srv);
    if (storage && (decl.value & vsir::uav_globally_coherent))
        b_.addDecoration(desc->var, spv::DecorationCoherent);
}

spv::Id Emitter::load_descriptor(const Descriptor& desc, const vsir::Register& reg, spv::Id element_type)
{
    spv::Id ptr = desc.var;
    if (desc.is_array)
        ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassUniformConstant, element_type),
            std::vector<spv::Id>{desc.var, descriptor_index(desc, reg)});
    return b_.createLoad(ptr, spv::NoPrecision);
}

/// The texel of `vec4` (of `kind`) the resource operand's swizzle selects
/// for each component `dst` writes, stored to `dst`.
void Emitter::store_texel(const vsir::DstParam& dst, const vsir::SrcParam& resource, Value texel)
{
    uint32_t comps[4];
    uint32_t n = 0;
    for (uint32_t p = 0; p < 4; ++p)
        if (dst.write_mask & (1u << p))
            comps[n++] = vsir::swizzle_component(resource.swizzle, p);
    if (!n)
        return;
    Value v = texel;
    if (texel.count == 4) {
        if (n == 1) {
            v = {b_.createCompositeExtract(texel.id, type(texel.kind), comps[0]), texel.kind, 1};
        } else {
            std::vector<spv::IdImmediate> operands{{true, texel.id}, {true, texel.id}};
            for (uint32_t i = 0; i < n; ++i)
                operands.push_back({false, comps[i]});
            v = {b_.createOp(spv::OpVectorShuffle, type(texel.kind, n), operands), texel.kind, uint8_t(n)};
        }
    }
    store_dst(dst, as_kind(v, kind_or_u32(dst.reg.type)));
}

Descriptor* Emitter::find_image(const vsir::Register& reg, DescriptorForm form)
{
    Descriptor* desc = find_descriptor(reg);
    if (desc && desc->form != form) {
        error(Code::spirv_invalid_operand, "'%s%u' is not a %s", vsir::register_prefix(reg.file), reg.idx[0].offset,
            form == DescriptorForm::sampler ? "sampler" : "typed resource");
        return nullptr;
    }
    return desc;
}

/// The coordinates (array layer included) of an image operation on `desc`.
spv::Id Emitter::image_coords(const vsir::SrcParam& coords, const Descriptor& desc, Kind kind)
{
    DimInfo info;
    dim_info(desc.dimension, info);
    uint8_t n = info.coords;
    return as_kind(load_src(coords, uint8_t((1u << n) - 1), vsir::DataType::u32), kind).id;
}

spv::Id Emitter::texel_offset(const vsir::Instruction& ins, const Descriptor& desc)
{
    DimInfo info;
    dim_info(desc.dimension, info);
    if (!ins.texel_offset[0] && !ins.texel_offset[1] && !ins.texel_offset[2])
        return spv::NoResult;
    if (!info.offsets) {
        error(Code::spirv_invalid_operand, "texel offset on a resource without offsets");
        return spv::NoResult;
    }
    spv::Id parts[3];
    for (uint32_t i = 0; i < info.offsets; ++i)
        parts[i] = constant(Kind::i32, uint32_t(int32_t(ins.texel_offset[i])));
    return composite_constant(Kind::i32, parts, info.offsets);
}

void Emitter::emit_image_fetch(const vsir::Instruction& ins)
{
    bool ms = ins.opcode == vsir::Opcode::ld2dms;
    bool uav = ins.opcode == vsir::Opcode::ld_uav_typed;
    const vsir::SrcParam& res = prog_.src(ins, 1);
    Descriptor* desc = find_image(res.reg, DescriptorForm::image);
    if (!desc)
        return;
    DimInfo info;
    dim_info(desc->dimension, info);
    if (info.dim == spv::DimCube || info.ms != ms || uav == desc->read_only) {
        error(Code::spirv_invalid_operand, "'%s' on a %s resource", vsir::opcode_info(ins.opcode).name,
            vsir::resource_dimension_name(desc->dimension));
        return;
    }
    spv::Id image = load_descriptor(*desc, res.reg, desc->type);
    spv::Id coords = image_coords(prog_.src(ins, 0), *desc, Kind::i32);
    ImageOperands ops;
    if (!uav && !ms && info.dim != spv::DimBuffer)
        ops.add(spv::ImageOperandsLodMask, load_component(prog_.src(ins, 0), 3, Kind::i32).id);
    if (spv::Id offset = uav ? spv::NoResult : texel_offset(ins, *desc))
        ops.add(spv::ImageOperandsConstOffsetMask, offset);
    if (ms)
        ops.add(spv::ImageOperandsSampleMask, load_scalar(prog_.src(ins, 2), Kind::i32).id);
    std::vector<spv::IdImmediate> operands{{true, image}, {true, coords}};
    ops.append_to(operands);
    spv::Id texel = b_.createOp(uav ? spv::OpImageRead : spv::OpImageFetch, type(desc->sampled_kind, 4), operands);
    store_texel(prog_.dst(ins, 0), res, {texel, desc->sampled_kind, 4});
}

void Emitter::emit_image_store(const vsir::Instruction& ins)
{
    const vsir::DstParam& res = prog_.dst(ins, 0);
    Descriptor* desc = find_image(res.reg, DescriptorForm::image);
    if (!desc)
        return;
    if (desc->read_only) {
        error(Code::spirv_invalid_operand, "store_uav_typed on a read-only resource");
        return;
    }
    spv::Id image = load_descriptor(*desc, res.reg, desc->type);
    spv::Id coords = image_coords(prog_.src(ins, 0), *desc, Kind::i32);
    Value texel = as_kind(load_src(prog_.src(ins, 1), 0xf, vsir::DataType::u32), desc->sampled_kind);
    b_.createNoResultOp(spv::OpImageWrite, std::vector<spv::Id>{image, coords, texel.id});
}

void Emitter::emit_image_sample(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    bool gather = ins.opcode == Opcode::gather4;
    bool dref = ins.opcode == Opcode::sample_c_lz;
    const vsir::SrcParam& res = prog_.src(ins, 1);
    Descriptor* desc = find_image(res.reg, DescriptorForm::image);
    Descriptor* sampler = find_image(prog_.src(ins, 2).reg, DescriptorForm::sampler);
    if (!desc || !sampler)
        return;
    DimInfo info;
    dim_info(desc->dimension, info);
    if (!desc->read_only || info.ms || info.dim == spv::DimBuffer || (gather && info.dim != spv::Dim2D
            && info.dim != spv::DimCube)) {
        error(Code::spirv_invalid_operand, "'%s' on a %s resource", vsir::opcode_info(ins.opcode).name,
            vsir::resource_dimension_name(desc->dimension));
        return;
    }
    spv::Id image = load_descriptor(*desc, res.reg, desc->type);
    spv::Id sampled_type = b_.makeSampledImageType(desc->type);
    spv::Id sampled = b_.createBinOp(spv::OpSampledImage, sampled_type, image,
        load_descriptor(*sampler, prog_.src(ins, 2).reg, b_.makeSamplerType()));
    spv::Id coords = image_coords(prog_.src(ins, 0), *desc, Kind::f32);
    std::vector<spv::IdImmediate> operands{{true, sampled}, {true, coords}};
    spv::Op op = spv::OpImageSampleExplicitLod;
    ImageOperands ops;
    if (gather) {
        op = spv::OpImageGather;
        operands.push_back({true, constant_u32(vsir::swizzle_component(prog_.src(ins, 2).swizzle, 0))});
    } else if (dref) {
        op = spv::OpImageSampleDrefExplicitLod;
        operands.push_back({true, load_scalar(prog_.src(ins, 3), Kind::f32).id});
        ops.add(spv::ImageOperandsLodMask, constant_f32(0.0f));
    } else if (ins.opcode == Opcode::sample_l) {
        ops.add(spv::ImageOperandsLodMask, load_scalar(prog_.src(ins, 3), Kind::f32).id);
    } else { // sample_d
        uint8_t grad_mask = uint8_t((1u << (info.coords - (info.arrayed ? 1 : 0))) - 1);
        ops.add(spv::ImageOperandsGradMask,
            as_kind(load_src(prog_.src(ins, 3), grad_mask, vsir::DataType::f32), Kind::f32).id,
            as_kind(load_src(prog_.src(ins, 4), grad_mask, vsir::DataType::f32), Kind::f32).id);
    }
    if (spv::Id offset = texel_offset(ins, *desc))
        ops.add(spv::ImageOperandsConstOffsetMask, offset);
    ops.append_to(operands);
    spv::Id result_type = type(desc->sampled_kind, dref ? 1 : 4);
    spv::Id texel = b_.createOp(op, result_type, operands);
    store_texel(prog_.dst(ins, 0), res, {texel, desc->sampled_kind, uint8_t(dref ? 1 : 4)});
}

/// bufinfo: element count of a typed buffer, byte size of a raw buffer,
/// structure count of a structured buffer.
void Emitter::emit_bufinfo(const vsir::Instruction& ins)
{
    const vsir::SrcParam& res = prog_.src(ins, 0);
    Descriptor* desc = find_descriptor(res.reg);
    if (!desc)
        return;
    spv::Id u32 = type(Kind::u32);
    spv::Id size;
    if (desc->form == DescriptorForm::image && desc->dimension == ResourceDimension::buffer) {
        b_.addCapability(spv::CapabilityImageQuery);
        size = b_.createUnaryOp(spv::OpImageQuerySize, u32, load_descriptor(*desc, res.reg, desc->type));
    } else if (desc->form == DescriptorForm::buffer) {
        spv::Id block = desc->var;
        if (desc->is_array)
            block = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassStorageBuffer,
                buffer_block_type(desc->read_only)), std::vector<spv::Id>{desc->var, descriptor_index(*desc, res.reg)});
        spv::Id words = b_.createOp(spv::OpArrayLength, u32, std::vector<spv::IdImmediate>{{true, block}, {false, 0}});
        size = b_.createBinOp(spv::OpShiftLeftLogical, u32, words, constant_u32(2));
        if (desc->stride)
            size = b_.createBinOp(spv::OpUDiv, u32, size, constant_u32(desc->stride));
    } else {
        error(Code::spirv_invalid_operand, "bufinfo on a resource that is not a buffer");
        return;
    }
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    store_dst(dst, as_kind({size, Kind::u32, 1}, kind_or_u32(dst.reg.type)));
}

bool Emitter::emit_image(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    switch (ins.opcode) {
    case Opcode::ld:
    case Opcode::ld2dms:
    case Opcode::ld_uav_typed:
        emit_image_fetch(ins);
        return true;
    case Opcode::store_uav_typed:
        emit_image_store(ins);
        return true;
    case Opcode::sample_l:
    case Opcode::sample_d:
    case Opcode::sample_c_lz:
    case Opcode::gather4:
        emit_image_sample(ins);
        return true;
    case Opcode::bufinfo:
        emit_bufinfo(ins);
        return true;
    default:
        return false;
    }
}

} // namespace dxspv::spirv

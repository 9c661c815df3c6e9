// Typed resources: textures and typed buffers (dcl_resource, dcl_uav_typed)
// as images and texel buffers, their loads, stores, explicit-LOD sampling
// and size queries; bufinfo on raw and structured buffers too.
//
// An SRV is a sampled image (Sampled 1), a typed UAV a storage image
// (Sampled 2) of unknown format; the sampled type follows the declared
// return type (float, unorm, snorm: float; sint: int; uint: uint). Buffers
// are images of Dim Buffer (texel buffers). Implicit-LOD sampling needs
// derivatives, which compute shaders do not have, so sample / sample_b /
// sample_c are refused outside pixel shaders.
//
// Sparse feedback (the `_s` forms): images use the OpImageSparse*
// instructions (SparseResidency). The residency status they write to dst 1
// is not the driver's residency code, which only OpImageSparseTexelsResident
// can interpret: it is 0 when every texel accessed was resident and 1
// otherwise, so check_access_fully_mapped is `status == 0`, statuses of
// several accesses may be or-ed, and buffer loads, which have no sparse form
// in SPIR-V, write 0 ("fully resident").
//
// The rasterizer's sample count (sampleinfo / samplepos on `rasterizer`) is
// the specialization constant spec_id_rasterizer_sample_count (emit.h),
// default 1; samplepos returns the standard D3D sample positions.
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
    case vsir::DataType::i64: return Kind::i64;
    case vsir::DataType::u64: return Kind::u64;
    default: return Kind::f32;
    }
}

void add_image_capabilities(Builder& b, const DimInfo& info, bool storage)
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

/// An image instruction's operands: the image, its coordinates, a reference
/// or component, the mask and at most six image operands.
using ImageOperandList = OperandList<IdImmediate, 10>;

/// Image operands in the order of their mask bits.
struct ImageOperands {
    uint32_t mask = 0;
    spv::Id ids[6] = {};
    uint32_t count = 0;
    void add(spv::ImageOperandsMask bit, spv::Id a, spv::Id b = NoResult)
    {
        mask |= bit;
        ids[count++] = a;
        if (b)
            ids[count++] = b;
    }
    void append_to(ImageOperandList& operands) const
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
    spv::ImageFormat format = spv::ImageFormatUnknown;
    if (bit_width(desc->sampled_kind) == 64) {
        // 64-bit typed UAVs (SM 6.6, for atomics): R64ui / R64i images.
        b_.addExtension("SPV_EXT_shader_image_int64");
        b_.addCapability(spv::CapabilityInt64ImageEXT);
        format = desc->sampled_kind == Kind::u64 ? spv::ImageFormatR64ui : spv::ImageFormatR64i;
    } else if (storage && desc->sampled_kind != Kind::f32
        && (uav_usage(prog_.dst(ins, 0).reg.idx[0].offset) & uav_use_atomic)) {
        format = desc->sampled_kind == Kind::u32 ? spv::ImageFormatR32ui : spv::ImageFormatR32i;
    }
    desc->type = b_.makeImageType(type(desc->sampled_kind), info.dim, false, info.arrayed, info.ms, storage ? 2 : 1,
        format);
    add_image_capabilities(b_, info, storage);
    create_descriptor_variable(*desc, ins, decl, desc->type, spv::StorageClassUniformConstant,
        storage ? DescriptorType::uav : DescriptorType::srv);
    if (storage && (decl.value & vsir::uav_globally_coherent))
        b_.addDecoration(desc->var, spv::DecorationCoherent);
}

/// How the program uses the UAV with range id `id`: uav_use_atomic (an
/// atomic targets it: typed UAVs then need an R32 format) and
/// uav_use_counter (imm_atomic_alloc / consume). One walk, on first use.
uint8_t Emitter::uav_usage(uint32_t id)
{
    if (!uav_usage_scanned_) {
        uav_usage_scanned_ = true;
        for (const vsir::Instruction& ins : prog_.instructions) {
            if (ins.opcode < vsir::Opcode::atomic_and || ins.opcode > vsir::Opcode::imm_atomic_umin)
                continue;
            bool counter = ins.opcode == vsir::Opcode::imm_atomic_alloc || ins.opcode == vsir::Opcode::imm_atomic_consume;
            const vsir::Register* reg = nullptr;
            if (counter && ins.src_count >= 1 && ins.src_first < prog_.srcs.size())
                reg = &prog_.src(ins, 0).reg;
            uint32_t d = ins.opcode >= vsir::Opcode::imm_atomic_alloc ? 1 : 0;
            if (!counter && ins.dst_count > d && ins.dst_first + d < prog_.dsts.size())
                reg = &prog_.dst(ins, d).reg;
            if (!reg || reg->file != vsir::RegisterFile::uav || reg->index_count < 1 || reg->idx[0].offset >= 65536)
                continue;
            ScratchVector<uint8_t>& usage = rare().uav_usage;
            if (usage.size() <= reg->idx[0].offset)
                usage.resize(reg->idx[0].offset + 1);
            usage[reg->idx[0].offset] |= counter ? uav_use_counter : uav_use_atomic;
        }
    }
    if (!rare_)
        return 0;
    const ScratchVector<uint8_t>& usage = rare_->uav_usage;
    return id < usage.size() ? usage[id] : 0;
}

spv::Id Emitter::load_descriptor(const Descriptor& desc, const vsir::Register& reg, spv::Id element_type)
{
    spv::Id ptr = desc.var;
    if (desc.is_array)
        ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassUniformConstant, element_type),
            {desc.var, descriptor_index(desc, reg)});
    spv::Id loaded = b_.createLoad(ptr);
    return desc.is_array ? mark_non_uniform(reg, loaded) : loaded;
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
    bool whole = n == 4; // the texel as it is (xyzw), the usual case
    for (uint32_t i = 0; i < n && whole; ++i)
        whole = comps[i] == i;
    if (texel.count == 4 && !whole) {
        if (n == 1) {
            v = {b_.createCompositeExtract(texel.id, type(texel.kind), comps[0]), texel.kind, 1};
        } else {
            OperandList<IdImmediate, 6> operands{{true, texel.id}, {true, texel.id}};
            for (uint32_t i = 0; i < n; ++i)
                operands.push_back({false, comps[i]});
            v = {b_.createOp(spv::OpVectorShuffle, type(texel.kind, n), operands), texel.kind, uint8_t(n)};
        }
    }
    Kind want = kind_or_u32(dst.reg.type);
    if (bit_width(want) == 16 && bit_width(v.kind) == 32) {
        // 16-bit results (DXIL native 16-bit types) of a 32-bit image: converted.
        Kind narrow = is_float(v.kind) ? Kind::f16 : is_signed(v.kind) ? Kind::i16 : Kind::u16;
        spv::Op op = is_float(v.kind) ? spv::OpFConvert : is_signed(v.kind) ? spv::OpSConvert : spv::OpUConvert;
        v = {b_.createUnaryOp(op, type(narrow, v.count), v.id), narrow, v.count};
    }
    store_dst(dst, as_kind(v, want));
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
        return NoResult;
    if (!info.offsets) {
        error(Code::spirv_invalid_operand, "texel offset on a resource without offsets");
        return NoResult;
    }
    spv::Id parts[3];
    for (uint32_t i = 0; i < info.offsets; ++i)
        parts[i] = constant(Kind::i32, uint32_t(int32_t(ins.texel_offset[i])));
    return composite_constant(Kind::i32, parts, info.offsets);
}

void Emitter::emit_image_fetch(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    bool ms = ins.opcode == Opcode::ld2dms || ins.opcode == Opcode::ld2dms_s;
    bool uav = ins.opcode == Opcode::ld_uav_typed || ins.opcode == Opcode::ld_uav_typed_s;
    bool sparse = ins.opcode == Opcode::ld_s || ins.opcode == Opcode::ld2dms_s || ins.opcode == Opcode::ld_uav_typed_s;
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
    if (spv::Id offset = uav ? NoResult : texel_offset(ins, *desc))
        ops.add(spv::ImageOperandsConstOffsetMask, offset);
    if (ms)
        ops.add(spv::ImageOperandsSampleMask, load_scalar(prog_.src(ins, 2), Kind::i32).id);
    ImageOperandList operands{{true, image}, {true, coords}};
    ops.append_to(operands);
    spv::Op op = uav ? (sparse ? spv::OpImageSparseRead : spv::OpImageRead)
                     : (sparse ? spv::OpImageSparseFetch : spv::OpImageFetch);
    spv::Id result_type = sparse ? sparse_result_type(desc->sampled_kind, 4) : type(desc->sampled_kind, 4);
    spv::Id texel = b_.createOp(op, result_type, operands);
    store_image_result(ins, res, texel, desc->sampled_kind, 4, sparse);
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
    Value texel = load_src(prog_.src(ins, 1), 0xf, vsir::DataType::u32);
    if (bit_width(desc->sampled_kind) == 64) {
        // A 64-bit image (DXIL typed 64-bit atomics) stores words x (low)
        // and y (high) as its one 64-bit component.
        spv::Id pair = b_.createCompositeConstruct(type(Kind::u32, 2), {extract(texel, 0), extract(texel, 1)});
        spv::Id value = bitcast(pair, type(desc->sampled_kind));
        spv::Id parts[4] = {value, value, value, value};
        texel = {construct(desc->sampled_kind, parts, 4), desc->sampled_kind, 4};
    } else {
        texel = as_kind(texel, desc->sampled_kind);
    }
    b_.createNoResultOp(spv::OpImageWrite, {image, coords, texel.id});
}

namespace {

/// The shape of a sampling or gather opcode: its operands after the
/// coordinates, resource and sampler, and the SPIR-V instruction family.
struct SampleShape {
    bool implicit = false; ///< implicit LOD (derivatives)
    bool dref = false;
    bool gather = false;
    bool po = false;       ///< gather4_po*: a programmable offset operand before the resource
    bool bias = false;
    bool lod = false;
    bool lod_zero = false;
    bool grad = false;
    bool clamp = false;    ///< min-LOD clamp
    bool sparse = false;   ///< _s: dst 1 receives the residency code
};

bool sample_shape(vsir::Opcode op, SampleShape& s)
{
    using vsir::Opcode;
    switch (op) {
    case Opcode::sample: s.implicit = true; return true;
    case Opcode::sample_b: s.implicit = s.bias = true; return true;
    case Opcode::sample_l: s.lod = true; return true;
    case Opcode::sample_d: s.grad = true; return true;
    case Opcode::sample_c: s.implicit = s.dref = true; return true;
    case Opcode::sample_c_lz: s.dref = s.lod_zero = true; return true;
    case Opcode::gather4: s.gather = true; return true;
    case Opcode::gather4_c: s.gather = s.dref = true; return true;
    case Opcode::gather4_po: s.gather = s.po = true; return true;
    case Opcode::gather4_po_c: s.gather = s.po = s.dref = true; return true;
    case Opcode::sample_l_s: s.lod = s.sparse = true; return true;
    case Opcode::sample_c_lz_s: s.dref = s.lod_zero = s.sparse = true; return true;
    case Opcode::sample_cl_s: s.implicit = s.clamp = s.sparse = true; return true;
    case Opcode::sample_b_cl_s: s.implicit = s.bias = s.clamp = s.sparse = true; return true;
    case Opcode::sample_d_cl_s: s.grad = s.clamp = s.sparse = true; return true;
    case Opcode::sample_c_cl_s: s.implicit = s.dref = s.clamp = s.sparse = true; return true;
    case Opcode::gather4_s: s.gather = s.sparse = true; return true;
    case Opcode::gather4_c_s: s.gather = s.dref = s.sparse = true; return true;
    case Opcode::gather4_po_s: s.gather = s.po = s.sparse = true; return true;
    case Opcode::gather4_po_c_s: s.gather = s.po = s.dref = s.sparse = true; return true;
    case Opcode::sample_cl: s.implicit = s.clamp = true; return true;
    case Opcode::sample_b_cl: s.implicit = s.bias = s.clamp = true; return true;
    case Opcode::sample_d_cl: s.grad = s.clamp = true; return true;
    case Opcode::sample_c_cl: s.implicit = s.dref = s.clamp = true; return true;
    default: return false;
    }
}

spv::Op sample_op(const SampleShape& s)
{
    if (s.gather)
        return s.sparse ? (s.dref ? spv::OpImageSparseDrefGather : spv::OpImageSparseGather)
                        : (s.dref ? spv::OpImageDrefGather : spv::OpImageGather);
    bool implicit = s.implicit;
    if (s.sparse) {
        if (s.dref)
            return implicit ? spv::OpImageSparseSampleDrefImplicitLod : spv::OpImageSparseSampleDrefExplicitLod;
        return implicit ? spv::OpImageSparseSampleImplicitLod : spv::OpImageSparseSampleExplicitLod;
    }
    if (s.dref)
        return implicit ? spv::OpImageSampleDrefImplicitLod : spv::OpImageSampleDrefExplicitLod;
    return implicit ? spv::OpImageSampleImplicitLod : spv::OpImageSampleExplicitLod;
}

} // namespace

/// The image and sampler of a sampling operation combined, or NoResult.
spv::Id Emitter::sampled_image(const vsir::Instruction& ins, uint32_t res_index, Descriptor*& desc)
{
    const vsir::SrcParam& res = prog_.src(ins, res_index);
    desc = find_image(res.reg, DescriptorForm::image);
    Descriptor* sampler = find_image(prog_.src(ins, res_index + 1).reg, DescriptorForm::sampler);
    if (!desc || !sampler)
        return NoResult;
    DimInfo info;
    dim_info(desc->dimension, info);
    if (!desc->read_only || info.ms || info.dim == spv::DimBuffer) {
        error(Code::spirv_invalid_operand, "'%s' on a %s resource", vsir::opcode_info(ins.opcode).name,
            vsir::resource_dimension_name(desc->dimension));
        return NoResult;
    }
    const vsir::Register& sampler_reg = prog_.src(ins, res_index + 1).reg;
    spv::Id image = load_descriptor(*desc, res.reg, desc->type);
    spv::Id combined = b_.createBinOp(spv::OpSampledImage, b_.makeSampledImageType(desc->type), image,
        load_descriptor(*sampler, sampler_reg, sampler->type));
    // The sampling instruction accesses the combined image: it is NonUniform
    // when either descriptor is.
    if (desc->is_array && (res.reg.flags & vsir::register_non_uniform))
        return mark_non_uniform(res.reg, combined);
    return sampler->is_array ? mark_non_uniform(sampler_reg, combined) : combined;
}

/// Stores the texel of a sparse or plain image instruction: `result` is the
/// texel, or for sparse forms the {residency, texel} struct whose code goes
/// to dst 1.
void Emitter::store_image_result(const vsir::Instruction& ins, const vsir::SrcParam& res, spv::Id result,
    Kind kind, uint32_t count, bool sparse)
{
    spv::Id texel = result;
    if (sparse) {
        texel = b_.createCompositeExtract(result, type(kind, count), 1);
        spv::Id code = b_.createCompositeExtract(result, type(Kind::u32), 0);
        store_residency_status(prog_.dst(ins, 1),
            b_.createUnaryOp(spv::OpImageSparseTexelsResident, type(Kind::boolean), code));
    }
    store_texel(prog_.dst(ins, 0), res, {texel, kind, uint8_t(count)});
}

/// Writes the residency status of a sparse access to `dst` (dst 1 of the
/// `_s` opcodes): 0 when `resident` (a bool) is true or NoResult (buffers:
/// always resident), else 1.
void Emitter::store_residency_status(const vsir::DstParam& dst, spv::Id resident)
{
    if (dst.reg.file == vsir::RegisterFile::null)
        return;
    spv::Id status = resident ? b_.createTriOp(spv::OpSelect, type(Kind::u32), resident, constant_u32(0),
                                    constant_u32(1))
                              : constant_u32(0);
    store_dst(dst, as_kind({status, Kind::u32, 1}, kind_or_u32(dst.reg.type)));
}

spv::Id Emitter::sparse_result_type(Kind kind, uint32_t count)
{
    b_.addCapability(spv::CapabilitySparseResidency);
    spv::Id& t = rare().sparse_types[size_t(kind)][count == 4];
    if (!t)
        t = b_.makeStructType({type(Kind::u32), type(kind, count)}, "sparse_texel");
    return t;
}

void Emitter::emit_image_sample(const vsir::Instruction& ins)
{
    SampleShape shape;
    sample_shape(ins.opcode, shape);
    if (shape.implicit && !implicit_derivatives(ins))
        return;
    uint32_t res_index = shape.po ? 2 : 1;
    Descriptor* desc = nullptr;
    spv::Id sampled = sampled_image(ins, res_index, desc);
    if (!sampled)
        return;
    DimInfo info;
    dim_info(desc->dimension, info);
    if (shape.gather && info.dim != spv::Dim2D && info.dim != spv::DimCube) {
        error(Code::spirv_invalid_operand, "'%s' on a %s resource", vsir::opcode_info(ins.opcode).name,
            vsir::resource_dimension_name(desc->dimension));
        return;
    }
    uint32_t next = res_index + 2;
    spv::Id coords = image_coords(prog_.src(ins, 0), *desc, Kind::f32);
    ImageOperandList operands{{true, sampled}, {true, coords}};
    if (shape.dref) {
        operands.push_back({true, load_scalar(prog_.src(ins, next++), Kind::f32).id});
    } else if (shape.gather) {
        uint32_t channel = vsir::swizzle_component(prog_.src(ins, res_index + 1).swizzle, 0);
        operands.push_back({true, constant_u32(channel)});
    }
    ImageOperands ops;
    if (shape.bias)
        ops.add(spv::ImageOperandsBiasMask, load_scalar(prog_.src(ins, next++), Kind::f32).id);
    if (shape.lod)
        ops.add(spv::ImageOperandsLodMask, load_scalar(prog_.src(ins, next++), Kind::f32).id);
    if (shape.lod_zero)
        ops.add(spv::ImageOperandsLodMask, constant_f32(0.0f));
    if (shape.grad) {
        uint8_t grad_mask = uint8_t((1u << (info.coords - (info.arrayed ? 1 : 0))) - 1);
        spv::Id ddx = as_kind(load_src(prog_.src(ins, next), grad_mask, vsir::DataType::f32), Kind::f32).id;
        spv::Id ddy = as_kind(load_src(prog_.src(ins, next + 1), grad_mask, vsir::DataType::f32), Kind::f32).id;
        next += 2;
        ops.add(spv::ImageOperandsGradMask, ddx, ddy);
    }
    if (shape.po) {
        if (!info.offsets) {
            error(Code::spirv_invalid_operand, "programmable offset on a resource without offsets");
            return;
        }
        b_.addCapability(spv::CapabilityImageGatherExtended);
        Value off = as_kind(load_src(prog_.src(ins, 1), uint8_t((1u << info.offsets) - 1), vsir::DataType::i32),
            Kind::i32);
        ops.add(spv::ImageOperandsOffsetMask, off.id);
    } else if (spv::Id offset = texel_offset(ins, *desc)) {
        ops.add(spv::ImageOperandsConstOffsetMask, offset);
    }
    if (shape.clamp) {
        b_.addCapability(spv::CapabilityMinLod);
        ops.add(spv::ImageOperandsMinLodMask, load_scalar(prog_.src(ins, next++), Kind::f32).id);
    }
    ops.append_to(operands);
    Kind kind = shape.dref ? Kind::f32 : desc->sampled_kind;
    uint32_t count = shape.dref && !shape.gather ? 1 : 4;
    spv::Id result_type = shape.sparse ? sparse_result_type(kind, count) : type(kind, count);
    spv::Id result = b_.createOp(sample_op(shape), result_type, operands);
    store_image_result(ins, prog_.src(ins, res_index), result, kind, count, shape.sparse);
}

void Emitter::emit_lod(const vsir::Instruction& ins)
{
    if (!implicit_derivatives(ins))
        return;
    Descriptor* desc = nullptr;
    spv::Id sampled = sampled_image(ins, 1, desc);
    if (!sampled)
        return;
    DimInfo info;
    dim_info(desc->dimension, info);
    b_.addCapability(spv::CapabilityImageQuery);
    uint8_t n = uint8_t(info.coords - (info.arrayed ? 1 : 0));
    spv::Id coords = as_kind(load_src(prog_.src(ins, 0), uint8_t((1u << n) - 1), vsir::DataType::f32), Kind::f32).id;
    spv::Id f32 = type(Kind::f32);
    spv::Id lod = b_.createBinOp(spv::OpImageQueryLod, type(Kind::f32, 2), sampled, coords);
    spv::Id parts[4] = {b_.createCompositeExtract(lod, f32, 0), b_.createCompositeExtract(lod, f32, 1),
        constant_f32(0.0f), constant_f32(0.0f)};
    store_texel(prog_.dst(ins, 0), prog_.src(ins, 1), {construct(Kind::f32, parts, 4), Kind::f32, 4});
}

/// resinfo: (width, height, depth or array size, mip count) as float,
/// uint (resinfo_uint) or reciprocal float sizes (resinfo_rcpFloat).
void Emitter::emit_resinfo(const vsir::Instruction& ins)
{
    const vsir::SrcParam& res = prog_.src(ins, 1);
    Descriptor* desc = find_image(res.reg, DescriptorForm::image);
    if (!desc)
        return;
    DimInfo info;
    dim_info(desc->dimension, info);
    if (info.dim == spv::DimBuffer) {
        error(Code::spirv_invalid_operand, "resinfo on a buffer");
        return;
    }
    b_.addCapability(spv::CapabilityImageQuery);
    spv::Id image = load_descriptor(*desc, res.reg, desc->type);
    spv::Id u32 = type(Kind::u32);
    uint32_t size_count = info.coords - (info.dim == spv::DimCube ? 1 : 0);
    spv::Id size_type = type(Kind::u32, size_count);
    spv::Id size, levels;
    bool has_mips = desc->read_only && !info.ms;
    if (has_mips) {
        size = b_.createBinOp(spv::OpImageQuerySizeLod, size_type, image, load_scalar(prog_.src(ins, 0), Kind::u32).id);
        levels = b_.createUnaryOp(spv::OpImageQueryLevels, u32, image);
    } else {
        size = b_.createUnaryOp(spv::OpImageQuerySize, size_type, image);
        levels = constant_u32(1);
    }
    spv::Id parts[4];
    for (uint32_t i = 0; i < 3; ++i)
        parts[i] = i < size_count ? (size_count > 1 ? b_.createCompositeExtract(size, u32, i) : size) : constant_u32(0);
    // A 1D array's layer count sits in y, a 2D array's / 3D depth in z.
    parts[3] = levels;
    Value value{construct(Kind::u32, parts, 4), Kind::u32, 4};
    if (!(ins.flags & vsir::flag_resinfo_uint)) {
        spv::Id vec4 = type(Kind::f32, 4);
        spv::Id f = b_.createUnaryOp(spv::OpConvertUToF, vec4, value.id);
        if (ins.flags & vsir::flag_resinfo_rcp_float) {
            spv::Id rcp = b_.createBinOp(spv::OpFDiv, vec4, splat_constant(Kind::f32, 4, 0x3f800000u), f);
            const IdImmediate keep_mips[] = {{true, rcp}, {true, f}, {false, 0}, {false, 1}, {false, 2}, {false, 7}};
            f = b_.createOp(spv::OpVectorShuffle, vec4, keep_mips); // the mip count stays as it is
        }
        value = {f, Kind::f32, 4};
    }
    store_texel(prog_.dst(ins, 0), res, value);
}

/// The sample count of `src` (an MS texture or the rasterizer), or NoResult.
spv::Id Emitter::sample_count(const vsir::SrcParam& src)
{
    if (src.reg.file == vsir::RegisterFile::rasterizer) {
        if (!rasterizer_sample_count_) {
            rasterizer_sample_count_ = b_.makeUintConstant(1, true);
            b_.addDecoration(rasterizer_sample_count_, spv::DecorationSpecId, int(spec_id_rasterizer_sample_count));
            b_.addName(rasterizer_sample_count_, "rasterizer_sample_count");
        }
        return rasterizer_sample_count_;
    }
    Descriptor* desc = find_image(src.reg, DescriptorForm::image);
    if (!desc)
        return NoResult;
    DimInfo info;
    dim_info(desc->dimension, info);
    if (!info.ms) {
        error(Code::spirv_invalid_operand, "sample count of a resource that is not multisampled");
        return NoResult;
    }
    b_.addCapability(spv::CapabilityImageQuery);
    return b_.createUnaryOp(spv::OpImageQuerySamples, type(Kind::u32), load_descriptor(*desc, src.reg, desc->type));
}

void Emitter::emit_sampleinfo(const vsir::Instruction& ins)
{
    spv::Id count = sample_count(prog_.src(ins, 0));
    if (!count)
        return;
    Value v{count, Kind::u32, 1};
    if (!(ins.flags & vsir::flag_resinfo_uint))
        v = {b_.createUnaryOp(spv::OpConvertUToF, type(Kind::f32), count), Kind::f32, 1};
    spv::Id zero = constant(v.kind, 0);
    spv::Id parts[4] = {v.id, zero, zero, zero};
    store_texel(prog_.dst(ins, 0), prog_.src(ins, 0), {construct(v.kind, parts, 4), v.kind, 4});
}

/// samplepos: the standard D3D sample positions, from a constant table of
/// the 1-, 2-, 4-, 8- and 16-sample patterns (pattern n starts at n - 1);
/// (0, 0) for an index outside the pattern and for other sample counts.
void Emitter::emit_samplepos(const vsir::Instruction& ins)
{
    static constexpr int8_t positions[31][2] = {
        {0, 0},
        {4, 4}, {-4, -4},
        {-2, -6}, {6, -2}, {-6, 2}, {2, 6},
        {1, -3}, {-1, 3}, {5, 1}, {-3, -5}, {-5, 5}, {-7, -1}, {3, 7}, {7, -7},
        {1, 1}, {-1, -3}, {-3, 2}, {4, -1}, {-5, -2}, {2, 5}, {5, 3}, {3, -5},
        {-2, 6}, {0, -7}, {-4, -6}, {-6, 4}, {-8, 0}, {7, -4}, {6, 7}, {-7, -8},
    };
    spv::Id count = sample_count(prog_.src(ins, 0));
    if (!count)
        return;
    spv::Id vec2 = type(Kind::f32, 2);
    if (!sample_positions_) {
        spv::Id elements[32];
        for (uint32_t i = 0; i < 31; ++i) {
            spv::Id xy[2] = {constant_f32(positions[i][0] / 16.0f), constant_f32(positions[i][1] / 16.0f)};
            elements[i] = composite_constant(Kind::f32, xy, 2);
        }
        elements[31] = composite_constant(Kind::f32, std::array<spv::Id, 2>{constant_f32(0), constant_f32(0)}.data(), 2);
        spv::Id array = b_.makeArrayType(vec2, constant_u32(32), 0);
        spv::Id init = b_.make_composite_constant(array, elements, 32);
        sample_positions_ = b_.createVariable(spv::StorageClassPrivate, array,
            "sample_positions", init);
        add_interface(sample_positions_);
    }
    spv::Id u32 = type(Kind::u32), boolean = type(Kind::boolean);
    spv::Id index = load_scalar(prog_.src(ins, 1), Kind::u32).id;
    spv::Id standard = b_.createBinOp(spv::OpLogicalAnd, boolean, // a power of two up to 16
        b_.createBinOp(spv::OpULessThanEqual, boolean, count, constant_u32(16)),
        b_.createBinOp(spv::OpIEqual, boolean, constant_u32(0),
            b_.createBinOp(spv::OpBitwiseAnd, u32, count, b_.createBinOp(spv::OpISub, u32, count, constant_u32(1)))));
    spv::Id valid = b_.createBinOp(spv::OpLogicalAnd, boolean,
        b_.createBinOp(spv::OpULessThan, boolean, index, count), standard);
    spv::Id at = b_.createBinOp(spv::OpIAdd, u32, b_.createBinOp(spv::OpISub, u32, count, constant_u32(1)), index);
    at = b_.createTriOp(spv::OpSelect, u32, valid, at, constant_u32(31));
    spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassPrivate, vec2),
        {sample_positions_, at});
    spv::Id xy = b_.createLoad(ptr);
    spv::Id f32 = type(Kind::f32);
    spv::Id parts[4] = {b_.createCompositeExtract(xy, f32, 0), b_.createCompositeExtract(xy, f32, 1),
        constant_f32(0.0f), constant_f32(0.0f)};
    store_texel(prog_.dst(ins, 0), prog_.src(ins, 0), {construct(Kind::f32, parts, 4), Kind::f32, 4});
}

/// check_access_fully_mapped: the status store_residency_status wrote is 0.
void Emitter::emit_check_access(const vsir::Instruction& ins)
{
    spv::Id status = load_scalar(prog_.src(ins, 0), Kind::u32).id;
    spv::Id resident = b_.createBinOp(spv::OpIEqual, type(Kind::boolean), status, constant_u32(0));
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    store_dst(dst, as_kind({select_mask(resident, 1), Kind::u32, 1}, kind_or_u32(dst.reg.type)));
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
                buffer_block_type(desc->read_only)), {desc->var, descriptor_index(*desc, res.reg)});
        const IdImmediate length_of[] = {{true, block}, {false, 0}};
        spv::Id words = b_.createOp(spv::OpArrayLength, u32, length_of);
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
    case Opcode::ld_s:
    case Opcode::ld2dms_s:
    case Opcode::ld_uav_typed_s:
        emit_image_fetch(ins);
        return true;
    case Opcode::lod:
        emit_lod(ins);
        return true;
    case Opcode::resinfo:
        emit_resinfo(ins);
        return true;
    case Opcode::sampleinfo:
        emit_sampleinfo(ins);
        return true;
    case Opcode::samplepos:
        emit_samplepos(ins);
        return true;
    case Opcode::check_access_fully_mapped:
        emit_check_access(ins);
        return true;
    case Opcode::bufinfo:
        emit_bufinfo(ins);
        return true;
    default: {
        SampleShape shape;
        if (!sample_shape(ins.opcode, shape))
            return false;
        emit_image_sample(ins);
        return true;
    }
    }
}

} // namespace dxspv::spirv

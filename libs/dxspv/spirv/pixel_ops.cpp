// Operations tied to the graphics interface (io.cpp), mostly of pixel
// shaders: discard, is_helper_lane, the view index, derivatives, pull-model
// interpolation (eval_*), attribute_at_vertex and check_access_fully_mapped;
// emit_io_op dispatches them.
#include "spirv/alu.h"
#include "spirv/emitter.h"

#include <algorithm>
#include <bit>

namespace dxspv::spirv {

void Emitter::emit_discard(const vsir::Instruction& ins)
{
    if (prog_.model.stage != ShaderStage::pixel) {
        error(Code::spirv_invalid_operand, "discard outside a pixel shader");
        return;
    }
    spv::Id condition = test_condition(ins);
    Block* kill = new_block();
    conditional_jump(condition, kill);
    Block* next = b_.getBuildPoint();
    b_.setBuildPoint(kill);
    if (spirv_version(options_.target_env) >= 0x00010600) {
        b_.addCapability(spv::CapabilityDemoteToHelperInvocation);
        b_.createNoResultOp(spv::OpDemoteToHelperInvocation);
        b_.createBranch(next);
    } else {
        b_.createNoResultOp(spv::OpKill);
    }
    b_.setBuildPoint(next);
}

/// is_helper_lane: the HelperInvocation builtin in pixel shaders (Volatile
/// from SPIR-V 1.6, where discard demotes to a helper invocation), false in
/// the other stages, which have no helper invocations.
void Emitter::emit_is_helper_lane(const vsir::Instruction& ins)
{
    spv::Id helper = b_.makeBoolConstant(false);
    if (prog_.model.stage == ShaderStage::pixel) {
        if (!helper_invocation_) {
            helper_invocation_ = make_builtin_var(spv::BuiltInHelperInvocation, type(Kind::boolean), false,
                "HelperInvocation");
            if (spirv_version(options_.target_env) >= 0x00010600)
                b_.addDecoration(helper_invocation_, spv::DecorationVolatile);
        }
        helper = b_.createLoad(helper_invocation_);
    }
    alu::store_condition(*this, prog_.dst(ins, 0), helper, 1);
}

/// view_id: the ViewIndex builtin (multiview; core in SPIR-V 1.3).
void Emitter::emit_view_id(const vsir::Instruction& ins)
{
    if (!view_index_) {
        b_.addCapability(spv::CapabilityMultiView);
        view_index_ = make_builtin_var(spv::BuiltInViewIndex, type(Kind::i32), false, "ViewIndex");
        if (prog_.model.stage == ShaderStage::pixel)
            b_.addDecoration(view_index_, spv::DecorationFlat);
    }
    spv::Id index = b_.createLoad(view_index_);
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    store_dst(dst, as_kind({index, Kind::i32, 1}, kind_or_u32(dst.reg.type)));
}

/// Whether `ins` may use derivatives: in pixel shaders, and in SM 6.6
/// compute shaders through SPV_NV_compute_shader_derivatives, with 2×2
/// quads when the thread group's X and Y sizes are even, else linear
/// groups of 4 when its thread count is a multiple of 4.
bool Emitter::implicit_derivatives(const vsir::Instruction& ins)
{
    if (prog_.model.stage == ShaderStage::pixel || derivative_mode_)
        return true;
    const uint32_t* g = thread_group_;
    bool quads = g[0] % 2 == 0 && g[1] % 2 == 0;
    bool linear = (uint64_t(g[0]) * g[1] * g[2]) % 4 == 0;
    bool sm66 = prog_.model.major > 6 || (prog_.model.major == 6 && prog_.model.minor >= 6);
    if (prog_.model.stage != ShaderStage::compute || !sm66 || !has_thread_group_ || !(quads || linear)) {
        error(Code::spirv_unsupported_opcode, "VSIR opcode '%s' needs derivatives: a pixel shader, or an SM 6.6 "
            "compute shader whose thread group has a multiple of 4 threads", vsir::opcode_info(ins.opcode).name);
        return false;
    }
    derivative_mode_ = true;
    b_.addExtension("SPV_NV_compute_shader_derivatives");
    b_.addCapability(quads ? spv::CapabilityComputeDerivativeGroupQuadsNV : spv::CapabilityComputeDerivativeGroupLinearNV);
    b_.addExecutionMode(entry_, quads ? spv::ExecutionModeDerivativeGroupQuadsNV : spv::ExecutionModeDerivativeGroupLinearNV);
    return true;
}

void Emitter::emit_derivative(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    if (!implicit_derivatives(ins))
        return;
    spv::Op op = spv::OpDPdx;
    switch (ins.opcode) {
    case Opcode::deriv_rtx: op = spv::OpDPdx; break;
    case Opcode::deriv_rty: op = spv::OpDPdy; break;
    case Opcode::deriv_rtx_coarse: op = spv::OpDPdxCoarse; break;
    case Opcode::deriv_rtx_fine: op = spv::OpDPdxFine; break;
    case Opcode::deriv_rty_coarse: op = spv::OpDPdyCoarse; break;
    default: op = spv::OpDPdyFine; break;
    }
    if (op != spv::OpDPdx && op != spv::OpDPdy)
        b_.addCapability(spv::CapabilityDerivativeControl);
    // Derivatives are 32-bit only in Vulkan: f16 values go through f32.
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    Kind kind = kind_or_u32(dst.reg.type) == Kind::f16 ? Kind::f16 : Kind::f32;
    Value v = as_kind(load_for_dst(prog_.src(ins, 0), dst), kind);
    spv::Id f32 = type(Kind::f32, v.count);
    if (kind == Kind::f16)
        v.id = b_.createUnaryOp(spv::OpFConvert, f32, v.id);
    spv::Id r = b_.createUnaryOp(op, f32, v.id);
    decorate_precise(ins, r);
    if (kind == Kind::f16)
        r = b_.createUnaryOp(spv::OpFConvert, type(kind, v.count), r);
    store_dst(dst, {r, kind, v.count});
}

/// eval_centroid / eval_sample_index / eval_snapped on an input register:
/// GLSL.std.450 InterpolateAt* on the element variables it reads.
/// InterpolateAt* of the components of input register `r` that `dst_mask`
/// reads through `swizzle`; NoResult (reported only when `report`) if one
/// is not an interpolated float element.
spv::Id Emitter::eval_register(GLSLstd450 op, spv::Id extra, uint32_t r, uint8_t swizzle, uint8_t dst_mask,
    bool report, uint32_t& n)
{
    spv::Id f32 = type(Kind::f32);
    spv::Id parts[4];
    n = 0;
    for (uint32_t p = 0; p < 4; ++p) {
        if (!(dst_mask & (1u << p)))
            continue;
        uint32_t c = vsir::swizzle_component(swizzle, p);
        const IoVar* var = nullptr;
        for (const IoVar& v : in_.vars)
            if (v.reg == r && c >= v.first && c < v.first + v.count && !v.is_array && v.builtin == spv::BuiltInMax)
                var = &v;
        if (!var || var->kind != Kind::f32) {
            if (report)
                error(Code::spirv_unsupported_register, "v%u.%c is not an interpolated float input", r, "xyzw"[c]);
            return NoResult;
        }
        spv::Id t = type(Kind::f32, var->count);
        spv::Id value = extra ? glsl(op, t, {var->var, extra}) : glsl(op, t, {var->var});
        parts[n++] = var->count > 1 ? b_.createCompositeExtract(value, f32, c - var->first) : value;
    }
    return n ? construct(Kind::f32, parts, n) : NoResult;
}

/// eval_centroid / eval_sample_index / eval_snapped on an input register:
/// GLSL.std.450 InterpolateAt* on the element variables it reads. A
/// relatively addressed register selects among every input register whose
/// components can be interpolated.
void Emitter::emit_eval(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    const vsir::SrcParam& src = prog_.src(ins, 0);
    if (prog_.model.stage != ShaderStage::pixel || src.reg.file != vsir::RegisterFile::input
        || src.reg.index_count != 1) {
        error(Code::spirv_unsupported_register, "pull-model interpolation of this operand is not supported");
        return;
    }
    b_.addCapability(spv::CapabilityInterpolationFunction);
    spv::Id extra = NoResult;
    GLSLstd450 op = GLSLstd450InterpolateAtCentroid;
    if (ins.opcode == Opcode::eval_sample_index) {
        op = GLSLstd450InterpolateAtSample;
        extra = load_scalar(prog_.src(ins, 1), Kind::i32).id;
    } else if (ins.opcode == Opcode::eval_snapped) {
        op = GLSLstd450InterpolateAtOffset;
        Value off = as_kind(load_src(prog_.src(ins, 1), 0x3, vsir::DataType::i32), Kind::i32);
        spv::Id fv = b_.createUnaryOp(spv::OpConvertSToF, type(Kind::f32, 2), off.id);
        extra = b_.createBinOp(spv::OpVectorTimesScalar, type(Kind::f32, 2), fv, constant_f32(1.0f / 16.0f));
    }
    uint8_t mask = dst.write_mask & 0xf;
    uint32_t n = 0;
    spv::Id value = NoResult;
    if (src.reg.idx[0].rel_addr == vsir::invalid_index) {
        value = eval_register(op, extra, src.reg.idx[0].offset, src.swizzle, mask, true, n);
    } else {
        spv::Id index = index_id(src.reg.idx[0]);
        n = uint32_t(vsir::mask_component_count(mask));
        value = splat_constant(Kind::f32, n, 0);
        for (uint32_t r = 0; r < in_.regs.size(); ++r) {
            uint32_t count = 0;
            spv::Id candidate = eval_register(op, extra, r, src.swizzle, mask, false, count);
            if (!candidate)
                continue;
            spv::Id is_r = b_.createBinOp(spv::OpIEqual, type(Kind::boolean), index, constant_u32(r));
            if (n > 1)
                is_r = b_.createCompositeConstruct(type(Kind::boolean, n), ScratchVector<spv::Id>(n, is_r));
            value = b_.createTriOp(spv::OpSelect, type(Kind::f32, n), is_r, candidate, value);
        }
    }
    if (!value)
        return;
    Value result{value, Kind::f32, uint8_t(n)};
    if (src.modifier != vsir::SrcModifier::none)
        result.id = apply_modifier(result.id, Kind::f32, n, src.modifier);
    store_dst(dst, result);
}

/// attribute_at_vertex: one component of a pixel input at vertex 0-2,
/// from the input's PerVertexKHR array (scan_io made it one).
void Emitter::emit_attribute_at_vertex(const vsir::Instruction& ins)
{
    const vsir::SrcParam& in = prog_.src(ins, 0);
    const vsir::SrcParam& vertex = prog_.src(ins, 1);
    const vsir::DstParam& dst = prog_.dst(ins, 0);
    uint32_t comp = vsir::swizzle_component(in.swizzle, 0);
    const IoVar* var = nullptr;
    if (in.reg.file == vsir::RegisterFile::input && in.reg.index_count == 1)
        for (const IoVar& v : in_.vars)
            if (v.per_vertex_khr && v.reg == in.reg.idx[0].offset && comp >= v.first && comp < v.first + v.count)
                var = &v;
    if (!var || vertex.reg.file != vsir::RegisterFile::immediate) {
        error(Code::spirv_invalid_operand,
            "attribute_at_vertex needs a pixel-shader input element of the signature and an immediate vertex");
        return;
    }
    uint32_t k = vertex.reg.u32[vsir::swizzle_component(vertex.swizzle, 0)];
    spv::Id element = type(var->kind, var->count);
    spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassInput, element),
        {var->var, constant_u32(k > 2 ? 2 : k)});
    spv::Id value = b_.createLoad(ptr);
    if (var->count > 1)
        value = b_.createCompositeExtract(value, type(var->kind), comp - var->first);
    store_dst(dst, as_kind({value, var->kind, 1}, kind_or_u32(dst.reg.type)));
}

bool Emitter::emit_io_op(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    switch (ins.opcode) {
    case Opcode::discard:
        emit_discard(ins);
        return true;
    case Opcode::is_helper_lane:
        emit_is_helper_lane(ins);
        return true;
    case Opcode::view_id:
        emit_view_id(ins);
        return true;
    case Opcode::deriv_rtx:
    case Opcode::deriv_rty:
    case Opcode::deriv_rtx_coarse:
    case Opcode::deriv_rtx_fine:
    case Opcode::deriv_rty_coarse:
    case Opcode::deriv_rty_fine:
        emit_derivative(ins);
        return true;
    case Opcode::eval_centroid:
    case Opcode::eval_sample_index:
    case Opcode::eval_snapped:
        emit_eval(ins);
        return true;
    case Opcode::check_access_fully_mapped:
        emit_check_access(ins);
        return true;
    case Opcode::attribute_at_vertex:
        emit_attribute_at_vertex(ins);
        return true;
    default:
        return false;
    }
}

} // namespace dxspv::spirv

// Shader inputs and outputs of the graphics stages: signature elements and
// system values → Input/Output variables and builtins, and the entry
// function that copies them (the pixel-shader operations tied to the
// interface are in pixel_ops.cpp).
//
// Representation:
// - v# and o# are Private arrays of uvec4 (`v[N]`, `o[N]`) where they are
//   indexed or per vertex, else one Private uvec4 per register, so masks,
//   swizzles and relative addressing work as for temps. The program is
//   emitted into a function of its own ("shader_main"); the entry point
//   "main" copies every Input variable into `v`, calls it, and copies `o`
//   into the Output variables, so that `ret` anywhere is a plain OpReturn.
// - A vertex, pixel or domain program that returns only at its end is
//   emitted into "main" itself (can_inline_entry), its inputs values made
//   at the start (only the registers it reads; a register one variable
//   fills from its first component is that variable's value, in its type).
//   When it is also one block (no control flow), its outputs are values
//   too, replaced by each write (a vec4 where all are floats) and copied
//   out at the end, as are its r# temps (registers.cpp).
// - Every signature element is its own variable: Location = register,
//   Component = its first component, typed from the element's component
//   type (float, int, uint), so integer and float elements sharing a
//   register stay apart and match the previous stage.
// - System values become builtins (see builtin_for): SV_Position (VS out
//   Position, PS in FragCoord with w → 1/w as in D3D), SV_VertexID /
//   SV_InstanceID without the base (VertexIndex - BaseVertex, InstanceIndex
//   - BaseInstance), SV_IsFrontFace (bool → 0 / 0xffffffff), SV_SampleIndex,
//   SV_PrimitiveID, SV_RenderTargetArrayIndex, SV_ViewportArrayIndex, and
//   SV_ClipDistance / SV_CullDistance gathered across registers into one
//   float array each, in (register, component) order.
// - Scalar system registers (oDepth*, oMask, oStencilRef, vCoverage,
//   vInnerCoverage (FullyCoveredEXT → 1 / 0), vPrim, vGSInstanceID, the hull
//   shader ids) are Private uints copied the same way.
// - Without signatures (programs built in code), each declared register is
//   one float element covering its declared mask.
// - Per-vertex inputs (GS v[vertex][reg], HS/DS vicp) make `v` a 2D array
//   [vertex][register] and their variables arrays of the vertex count; hull
//   shader control-point outputs are arrays indexed by InvocationId; patch
//   constants (HS outputs of fork/join phases, DS vpc) are a third set with
//   Patch variables and TessLevelOuter/Inner for the tessellation factors
//   (geometry.cpp and tessellation.cpp hold the stage-specific parts).
#include "common/stable_sort.h"
#include "spirv/alu.h"
#include "spirv/emitter.h"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace dxspv::spirv {

namespace {

constexpr uint32_t max_io_registers = 64;

bool is_input_decl(vsir::Opcode op)
{
    return op >= vsir::Opcode::dcl_input && op <= vsir::Opcode::dcl_input_ps_siv;
}

bool is_output_decl(vsir::Opcode op)
{
    return op >= vsir::Opcode::dcl_output && op <= vsir::Opcode::dcl_output_siv;
}

Kind kind_of(ComponentType t)
{
    switch (t) {
    case ComponentType::uint32: return Kind::u32;
    case ComponentType::sint32: return Kind::i32;
    default: return Kind::f32;
    }
}

bool is_scalar_system_file(vsir::RegisterFile f)
{
    using vsir::RegisterFile;
    switch (f) {
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le:
    case RegisterFile::coverage_in:
    case RegisterFile::coverage_out:
    case RegisterFile::stencil_ref:
    case RegisterFile::primitive_id:
    case RegisterFile::gs_instance_id:
    case RegisterFile::output_control_point_id:
    case RegisterFile::fork_instance_id:
    case RegisterFile::join_instance_id:
    case RegisterFile::inner_coverage:
        return true;
    default:
        return false;
    }
}

} // namespace

bool Emitter::is_graphics() const
{
    switch (prog_.model.stage) {
    case ShaderStage::vertex:
    case ShaderStage::pixel:
    case ShaderStage::geometry:
    case ShaderStage::hull:
    case ShaderStage::domain:
        return true;
    default:
        return false;
    }
}

/// What a system value becomes in this stage and direction; BuiltInMax:
/// a Location variable.
Emitter::BuiltinInfo Emitter::builtin_for(SystemValue sv, bool output)
{
    ShaderStage stage = prog_.model.stage;
    bool ps = stage == ShaderStage::pixel;
    bool vs = stage == ShaderStage::vertex;
    switch (sv) {
    case SystemValue::position:
        if (ps && !output)
            return {spv::BuiltInFragCoord, Kind::f32, 4};
        if (!ps && (output || !vs))
            return {spv::BuiltInPosition, Kind::f32, 4};
        break;
    case SystemValue::final_quad_edge_tessfactor:
    case SystemValue::final_tri_edge_tessfactor:
    case SystemValue::final_line_detail_tessfactor:
    case SystemValue::final_line_density_tessfactor:
        if (stage == ShaderStage::hull || stage == ShaderStage::domain)
            return {spv::BuiltInTessLevelOuter, Kind::f32, 1, true};
        break;
    case SystemValue::final_quad_inside_tessfactor:
    case SystemValue::final_tri_inside_tessfactor:
        if (stage == ShaderStage::hull || stage == ShaderStage::domain)
            return {spv::BuiltInTessLevelInner, Kind::f32, 1, true};
        break;
    case SystemValue::vertex_id:
        if (vs && !output)
            return {spv::BuiltInVertexIndex, Kind::i32, 1};
        break;
    case SystemValue::instance_id:
        if (vs && !output)
            return {spv::BuiltInInstanceIndex, Kind::i32, 1};
        break;
    case SystemValue::is_front_face:
        if (ps && !output)
            return {spv::BuiltInFrontFacing, Kind::boolean, 1};
        break;
    case SystemValue::sample_index:
        if (ps && !output)
            return {spv::BuiltInSampleId, Kind::i32, 1};
        break;
    case SystemValue::primitive_id:
        if (!vs && !output)
            return {spv::BuiltInPrimitiveId, Kind::i32, 1};
        break;
    case SystemValue::render_target_array_index:
        if (ps != output)
            return {spv::BuiltInLayer, Kind::i32, 1};
        break;
    case SystemValue::viewport_array_index:
        if (ps != output)
            return {spv::BuiltInViewportIndex, Kind::i32, 1};
        break;
    case SystemValue::clip_distance:
        if (output ? !ps : !vs)
            return {spv::BuiltInClipDistance, Kind::f32, 1, true};
        break;
    case SystemValue::cull_distance:
        if (output ? !ps : !vs)
            return {spv::BuiltInCullDistance, Kind::f32, 1, true};
        break;
    case SystemValue::barycentrics:
        if (ps && !output)
            return {spv::BuiltInBaryCoordKHR, Kind::f32, 3};
        break;
    default:
        break;
    }
    return {};
}

void Emitter::add_builtin_capabilities(spv::BuiltIn builtin, bool output)
{
    bool ps = prog_.model.stage == ShaderStage::pixel;
    switch (builtin) {
    case spv::BuiltInSampleId:
    case spv::BuiltInSamplePosition:
        b_.addCapability(spv::CapabilitySampleRateShading);
        break;
    case spv::BuiltInPrimitiveId:
        if (ps)
            b_.addCapability(spv::CapabilityGeometry);
        break;
    case spv::BuiltInLayer:
    case spv::BuiltInViewportIndex:
        if (builtin == spv::BuiltInViewportIndex)
            b_.addCapability(spv::CapabilityMultiViewport);
        if (ps || prog_.model.stage == ShaderStage::geometry) {
            b_.addCapability(spv::CapabilityGeometry);
        } else if (output && spirv_version(options_.target_env) >= 0x00010500) {
            b_.addCapability(builtin == spv::BuiltInLayer ? spv::CapabilityShaderLayer
                                                          : spv::CapabilityShaderViewportIndex);
        } else if (output) {
            b_.addExtension("SPV_EXT_shader_viewport_index_layer");
            b_.addCapability(spv::CapabilityShaderViewportIndexLayerEXT);
        }
        break;
    case spv::BuiltInClipDistance:
        b_.addCapability(spv::CapabilityClipDistance);
        break;
    case spv::BuiltInCullDistance:
        b_.addCapability(spv::CapabilityCullDistance);
        break;
    case spv::BuiltInBaseVertex:
    case spv::BuiltInBaseInstance:
        if (spirv_version(options_.target_env) < 0x00010300)
            b_.addExtension("SPV_KHR_shader_draw_parameters");
        b_.addCapability(spv::CapabilityDrawParameters);
        break;
    case spv::BuiltInFullyCoveredEXT:
        b_.addExtension("SPV_EXT_fragment_fully_covered");
        b_.addCapability(spv::CapabilityFragmentFullyCoveredEXT);
        break;
    case spv::BuiltInBaryCoordKHR:
    case spv::BuiltInBaryCoordNoPerspKHR:
        b_.addExtension("SPV_KHR_fragment_shader_barycentric");
        b_.addCapability(spv::CapabilityFragmentBarycentricKHR);
        break;
    case spv::BuiltInFragStencilRefEXT:
        b_.addExtension("SPV_EXT_shader_stencil_export");
        b_.addCapability(spv::CapabilityStencilExportEXT);
        break;
    default:
        break;
    }
}

spv::Id Emitter::make_builtin_var(spv::BuiltIn builtin, spv::Id var_type, bool output, const char* name)
{
    spv::Id var = b_.createVariable(output ? spv::StorageClassOutput : spv::StorageClassInput,
        var_type, name);
    b_.addDecoration(var, spv::DecorationBuiltIn, int(builtin));
    bool integer = builtin == spv::BuiltInSampleId || builtin == spv::BuiltInPrimitiveId
        || builtin == spv::BuiltInLayer || builtin == spv::BuiltInViewportIndex;
    if (!output && integer && prog_.model.stage == ShaderStage::pixel)
        b_.addDecoration(var, spv::DecorationFlat);
    add_builtin_capabilities(builtin, output);
    add_interface(var);
    return var;
}

// ---- the scan before emission ----

namespace {

/// Vertices of a D3D geometry-shader input primitive (raw TPF enum).
uint32_t primitive_vertices(uint32_t primitive)
{
    switch (primitive) {
    case 1: return 1;
    case 2: return 2;
    case 3: return 3;
    case 6: return 4;
    case 7: return 6;
    default: return 0;
    }
}

} // namespace

/// Collects the declared v#/o#/vpc registers (mask, interpolation, system
/// value), creates the Private register arrays and every Input/Output
/// variable. Runs before the instruction walk so that eval_* and the
/// entry function find them.
void Emitter::scan_io()
{
    using vsir::Opcode;
    using vsir::RegisterFile;
    out_.output = true;
    bool hull_patch_phase = false;
    for (uint32_t i : declared_) {
        const vsir::Instruction& ins = prog_.instructions[i];
        if (ins.opcode == Opcode::hs_fork_phase || ins.opcode == Opcode::hs_join_phase)
            hull_patch_phase = true;
        else if (ins.opcode == Opcode::hs_control_point_phase)
            hull_patch_phase = false;
        if (ins.decl >= prog_.decls.size())
            continue;
        const vsir::Declaration& decl = prog_.decls[ins.decl];
        if (ins.opcode == Opcode::dcl_gs_input_primitive)
            in_.vertices = primitive_vertices(decl.value);
        else if (ins.opcode == Opcode::dcl_input_control_point_count)
            in_.vertices = std::min<uint32_t>(decl.count, 32);
        else if (ins.opcode == Opcode::dcl_output_control_point_count)
            out_.vertices = std::min<uint32_t>(decl.count, 32);
        bool in = is_input_decl(ins.opcode), out = is_output_decl(ins.opcode);
        if ((!in && !out) || ins.dst_count < 1 || ins.dst_first >= prog_.dsts.size())
            continue;
        const vsir::DstParam& d = prog_.dst(ins, 0);
        if (is_scalar_system_file(d.reg.file)) {
            declare_system_scalar(d.reg.file);
            continue;
        }
        IoSet* set = nullptr;
        switch (d.reg.file) {
        case RegisterFile::input:
        case RegisterFile::input_control_point: set = &in_; break;
        case RegisterFile::output: set = hull_patch_phase ? &rare().patch : &out_; break;
        case RegisterFile::patch_constant: set = &rare().patch; break;
        case RegisterFile::tess_coord: declare_tess_coord(); continue;
        case RegisterFile::output_control_point: continue; // hull shaders read them back (tessellation.cpp)
        default:
            error(Code::spirv_unsupported_register, "%s of register '%s' is not supported yet",
                vsir::opcode_info(ins.opcode).name, vsir::register_prefix(d.reg.file));
            continue;
        }
        if (d.reg.index_count < 1 || d.reg.index_count > 2) {
            error(Code::spirv_invalid_operand, "%s with %u indices", vsir::opcode_info(ins.opcode).name,
                d.reg.index_count);
            continue;
        }
        uint32_t r = d.reg.idx[d.reg.index_count - 1].offset;
        if (r >= max_io_registers) {
            error(Code::spirv_invalid_operand, "%s%u: register number too large", vsir::register_prefix(d.reg.file), r);
            continue;
        }
        if (set->regs.size() <= r)
            set->regs.resize(r + 1);
        IoReg& reg = set->regs[r];
        reg.mask |= d.write_mask & 0xf;
        for (uint32_t c = 0; c < 4; ++c)
            if ((d.write_mask & (1u << c)) && decl.interpolation != vsir::InterpolationMode::undefined)
                reg.interpolation[c] = decl.interpolation;
        if (decl.system_value != SystemValue::none)
            reg.sv = decl.system_value;
        if ((d.write_mask & 0xf) && signature_of(*set).empty()) { // an element for programs without signatures
            SignatureElement e;
            e.register_index = r;
            e.mask = d.write_mask & 0xf;
            e.system_value = decl.system_value;
            e.component_type = ComponentType::float32;
            set->fallback.push_back(e);
        }
    }
    if (prog_.model.stage == ShaderStage::pixel && has_attribute_at_vertex_)
        for (const vsir::Instruction& ins : prog_.instructions)
            if (ins.opcode == Opcode::attribute_at_vertex && ins.src_count == 2) {
                const vsir::Register& r = prog_.src(ins, 0).reg;
                if (r.file == RegisterFile::input && r.index_count == 1 && r.idx[0].offset < in_.regs.size())
                    in_.regs[r.idx[0].offset].per_vertex_khr = true;
            }
    create_io_vars(in_);
    create_io_vars(out_);
    if (rare_ || !prog_.patch_constants.empty()) // else no patch constant: nothing to create
        create_io_vars(rare().patch);
}

/// The signature of `set` (in_, out_ or rare().patch).
std::span<const SignatureElement> Emitter::signature_of(const IoSet& set) const
{
    return &set == &in_ ? prog_.inputs : &set == &out_ ? prog_.outputs : prog_.patch_constants;
}

void Emitter::declare_tess_coord()
{
    if (tess_coord_)
        return;
    if (prog_.model.stage != ShaderStage::domain) {
        error(Code::spirv_unsupported_register, "vDomain outside a domain shader");
        return;
    }
    tess_coord_builtin_ = make_builtin_var(spv::BuiltInTessCoord, type(Kind::f32, 3), false, "TessCoord");
    tess_coord_ = b_.createVariable(spv::StorageClassPrivate, type(Kind::u32, 4), "vDomain",
        b_.makeNullConstant(type(Kind::u32, 4)));
    add_interface(tess_coord_);
}

void Emitter::declare_system_scalar(vsir::RegisterFile file)
{
    if ((system_files_ >> size_t(file)) & 1)
        return;
    using vsir::RegisterFile;
    ShaderStage stage = prog_.model.stage;
    bool ps = stage == ShaderStage::pixel;
    // The types each case needs (made there: a type nothing uses would go
    // again at layout).
    auto i32 = [&] { return type(Kind::i32); };
    auto sample_mask = [&] { return b_.makeArrayType(i32(), constant_u32(1), 0); };
    spv::Id builtin = NoResult;
    bool private_only = false;
    switch (file) {
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le:
        if (!ps)
            break;
        builtin = make_builtin_var(spv::BuiltInFragDepth, type(Kind::f32), true, "oDepth");
        b_.addExecutionMode(entry_, spv::ExecutionModeDepthReplacing);
        if (file != RegisterFile::depth_out)
            b_.addExecutionMode(entry_, file == RegisterFile::depth_out_ge ? spv::ExecutionModeDepthGreater
                                                                           : spv::ExecutionModeDepthLess);
        break;
    case RegisterFile::coverage_out:
        if (ps)
            builtin = make_builtin_var(spv::BuiltInSampleMask, sample_mask(), true, "oMask");
        break;
    case RegisterFile::coverage_in:
        if (ps)
            builtin = make_builtin_var(spv::BuiltInSampleMask, sample_mask(), false, "vCoverage");
        break;
    case RegisterFile::stencil_ref:
        if (ps) {
            builtin = make_builtin_var(spv::BuiltInFragStencilRefEXT, i32(), true, "oStencilRef");
            b_.addExecutionMode(entry_, spv::ExecutionModeStencilRefReplacingEXT);
        }
        break;
    case RegisterFile::inner_coverage:
        if (ps)
            builtin = make_builtin_var(spv::BuiltInFullyCoveredEXT, type(Kind::boolean), false, "vInnerCoverage");
        break;
    case RegisterFile::primitive_id:
        if (stage == ShaderStage::geometry || stage == ShaderStage::hull || stage == ShaderStage::domain)
            builtin = make_builtin_var(spv::BuiltInPrimitiveId, i32(), false, "vPrim");
        break;
    case RegisterFile::gs_instance_id:
        if (stage == ShaderStage::geometry)
            builtin = make_builtin_var(spv::BuiltInInvocationId, i32(), false, "vGSInstanceID");
        break;
    case RegisterFile::output_control_point_id:
        if (stage == ShaderStage::hull)
            builtin = hull_invocation_id();
        break;
    case RegisterFile::fork_instance_id:
    case RegisterFile::join_instance_id:
        private_only = stage == ShaderStage::hull;
        break;
    default:
        break;
    }
    if (!builtin && !private_only) {
        error(Code::spirv_unsupported_register, "register '%s' is not supported in this stage yet",
            vsir::register_prefix(file));
        return;
    }
    system_builtins_[size_t(file)] = builtin;
    system_files_ |= uint64_t(1) << size_t(file);
    if (inline_entry_ && straight_line_ && builtin) { // read and written as values, copied at the ends
        system_scalars_[size_t(file)] = NoResult;
        system_held_[size_t(file)] = held_register(Kind::u32, spv::OpConstantNull);
        system_held_files_ |= uint64_t(1) << size_t(file);
        return;
    }
    spv::Id var = b_.createVariable(spv::StorageClassPrivate, type(Kind::u32),
        vsir::register_prefix(file), b_.makeNullConstant(type(Kind::u32)));
    system_scalars_[size_t(file)] = var;
    add_interface(var);
}

/// An element's system value; the declaration's when the signature has
/// none and the declaration covers exactly this element (`mask`: the
/// element's mask within xyzw).
SystemValue Emitter::element_sv(const SignatureElement& e, uint8_t mask, const IoReg& reg)
{
    if (e.system_value != SystemValue::none || reg.sv == SystemValue::none)
        return e.system_value;
    return reg.mask == mask ? reg.sv : e.system_value;
}

namespace {

/// Builtin arrays gathered from several elements, by BuiltinInfo order.
enum GatheredArray : uint32_t { clip, cull, tess_outer, tess_inner, gathered_count };

GatheredArray gathered_of(spv::BuiltIn b)
{
    switch (b) {
    case spv::BuiltInClipDistance: return clip;
    case spv::BuiltInCullDistance: return cull;
    case spv::BuiltInTessLevelOuter: return tess_outer;
    default: return tess_inner;
    }
}

} // namespace

/// The Private registers of `set`: one uvec4 variable per register where
/// registers are never indexed and not per vertex (vertex and pixel shader
/// inputs and outputs, geometry and domain shader outputs); otherwise an
/// array, [vertex][register] for per-vertex inputs. Outputs start as zero.
void Emitter::create_register_storage(IoSet& set)
{
    const char* name = set.patch ? "vpc" : set.output ? "o" : "v";
    bool indexed = file_indexed(set.output ? vsir::RegisterFile::output : vsir::RegisterFile::input);
    if (inline_entry_ && !set.output && !set.patch && !set.per_vertex && !indexed) {
        set.reg_values.resize(set.regs.size());
        set.read = in_regs_read_; // never indexed on this path: a bit per register a source names
        return;
    }
    // The outputs of an entry that is one block: each register held lane
    // by lane, zero until written (store_dst replaces lanes), copied out at
    // the end (uvec4s, which create_io_vars makes vec4s where it finds only
    // floats).
    if (inline_entry_ && straight_line_ && set.output && !set.patch && !set.per_vertex && !indexed) {
        set.reg_held.assign(set.regs.size(), held_register(Kind::u32, spv::OpConstantNull));
        return;
    }
    spv::Id uvec4 = type(Kind::u32, 4);
    if (!set.per_vertex && !set.patch && prog_.model.stage != ShaderStage::hull && !indexed) {
        set.reg_vars.resize(set.regs.size());
        for (uint32_t r = 0; r < set.regs.size(); ++r) {
            set.reg_vars[r] = b_.createVariable(spv::StorageClassPrivate, uvec4, NumberedName(name, r).c_str(),
                set.output ? b_.makeNullConstant(uvec4) : NoResult);
            add_interface(set.reg_vars[r]);
        }
        return;
    }
    spv::Id array = b_.makeArrayType(uvec4, constant_u32(uint32_t(set.regs.size())), 0);
    if (set.per_vertex && !set.output)
        array = b_.makeArrayType(array, constant_u32(set.vertices), 0);
    set.array = b_.createVariable(spv::StorageClassPrivate, array, name,
        set.output ? b_.makeNullConstant(array) : NoResult);
    add_interface(set.array);
}

void Emitter::create_io_vars(IoSet& set)
{
    const std::span<const SignatureElement> signature = signature_of(set);
    // Each element with its system value and what that becomes, found in
    // one walk with the register count, the registers of each stream and
    // the sizes of the gathered builtin arrays.
    struct Element {
        const SignatureElement* e;
        uint8_t mask; ///< e->mask within xyzw
        SystemValue sv;
        BuiltinInfo bi;
    };
    const std::span<const SignatureElement> source =
        signature.empty() ? std::span<const SignatureElement>(set.fallback) : signature;
    ScratchVector<Element> elements;
    elements.reserve(source.size());
    size_t reg_count = set.regs.size();
    uint32_t stream_regs[4] = {};
    uint32_t gathered[gathered_count] = {};
    for (const SignatureElement& e : source) {
        const uint8_t mask = e.mask & 0xf;
        if (e.register_index >= max_io_registers || !mask)
            continue;
        switch (e.system_value) {
        case SystemValue::depth:
        case SystemValue::depth_greater_equal:
        case SystemValue::depth_less_equal:
        case SystemValue::coverage:
        case SystemValue::stencil_ref:
        case SystemValue::inner_coverage:
            continue; // scalar system registers
        default:
            break;
        }
        if (e.stream != 0 && (!set.output || prog_.model.stage != ShaderStage::geometry || e.stream > 3)) {
            error(Code::spirv_unsupported_declaration, "a signature element in stream %u here", e.stream);
            return;
        }
        // A register past the declared ones has no declaration to add.
        const SystemValue sv =
            e.register_index < set.regs.size() ? element_sv(e, mask, set.regs[e.register_index]) : e.system_value;
        const Element& x = elements.emplace_back(Element{&e, mask, sv, builtin_for(sv, set.output)});
        reg_count = std::max<size_t>(reg_count, e.register_index + 1);
        stream_regs[e.stream & 3] = std::max(stream_regs[e.stream & 3], e.register_index + 1);
        if (x.bi.is_array)
            gathered[gathered_of(x.bi.builtin)] += vsir::mask_component_count(mask);
    }
    if (!reg_count)
        return;
    set.regs.resize(reg_count);
    ShaderStage stage = prog_.model.stage;
    bool arrayed_stage = stage == ShaderStage::geometry || stage == ShaderStage::hull || stage == ShaderStage::domain;
    bool per_vertex = !set.patch && (set.output ? stage == ShaderStage::hull : arrayed_stage);
    if (per_vertex && !set.vertices) {
        error(Code::spirv_missing_declaration, "per-vertex %s without a vertex or control point count",
            set.output ? "outputs" : "inputs");
        return;
    }
    set.per_vertex = per_vertex;
    create_register_storage(set);

    // Streams after the first get the locations after the previous streams'
    // registers (only stream 0 reaches the next stage).
    for (uint32_t k = 1; k < 4; ++k)
        set.stream_location_base[k] = set.stream_location_base[k - 1] + stream_regs[k - 1];

    // Gathered builtin arrays, in (register, component) order.
    stable_sort_short(elements.begin(), elements.end(), [](const Element& a, const Element& b) {
        return a.e->register_index != b.e->register_index ? a.e->register_index < b.e->register_index
                                                          : a.mask < b.mask;
    });
    spv::Id gathered_vars[gathered_count] = {};
    static constexpr spv::BuiltIn gathered_builtins[] = {spv::BuiltInClipDistance, spv::BuiltInCullDistance,
        spv::BuiltInTessLevelOuter, spv::BuiltInTessLevelInner};
    static constexpr const char* gathered_names[] = {"clip_distance", "cull_distance", "TessLevelOuter",
        "TessLevelInner"};
    for (uint32_t k = 0; k < gathered_count; ++k) {
        if (!gathered[k])
            continue;
        if (k >= tess_outer)
            gathered[k] = k == tess_outer ? 4 : 2;
        if (gathered[k] > 8) {
            error(Code::spirv_unsupported_declaration, "%s: more than 8 elements", gathered_names[k]);
            return;
        }
        spv::Id t = b_.makeArrayType(type(Kind::f32), constant_u32(gathered[k]), 0);
        if (per_vertex && k < tess_outer)
            t = b_.makeArrayType(t, constant_u32(set.vertices), 0);
        gathered_vars[k] = make_builtin_var(gathered_builtins[k], t, set.output, gathered_names[k]);
        if (k >= tess_outer)
            b_.addDecoration(gathered_vars[k], spv::DecorationPatch);
    }
    uint32_t next[gathered_count] = {};
    set.vars.reserve(set.vars.size() + elements.size());
    for (const Element& x : elements) {
        const SignatureElement& e = *x.e;
        IoVar v;
        v.reg = e.register_index;
        v.first = uint8_t(std::countr_zero(x.mask));
        v.count = uint8_t(8 - std::countl_zero(x.mask) - v.first);
        const IoReg& reg = set.regs[e.register_index];
        const SystemValue sv = x.sv;
        // Only stream 0 reaches the rasterizer: system values of the other
        // streams are plain (stream-output) variables.
        const BuiltinInfo bi = e.stream ? BuiltinInfo{} : x.bi;
        // An input of the entry point that the program neither declares nor
        // reads gets no variable (a builtin's would add its capabilities).
        if (!set.reg_values.empty() && !((set.read >> v.reg) & 1) && !(reg.mask & x.mask) && !bi.is_array)
            continue;
        v.builtin = bi.builtin;
        v.stream = uint8_t(e.stream);
        if (bi.is_array) {
            GatheredArray k = gathered_of(bi.builtin);
            v.var = gathered_vars[k];
            v.kind = Kind::f32;
            v.is_array = true;
            if (sv == SystemValue::final_line_density_tessfactor)
                v.array_base = 0;
            else if (sv == SystemValue::final_line_detail_tessfactor)
                v.array_base = 1;
            else
                v.array_base = uint8_t(next[k]);
            next[k] += v.count;
            if (v.array_base + v.count > gathered[k]) {
                error(Code::spirv_invalid_operand, "too many tessellation factors in the signature");
                return;
            }
        } else if (bi.builtin != spv::BuiltInMax) {
            create_builtin_io_var(set, v, bi, sv, reg);
        } else {
            v.kind = kind_of(e.component_type);
            create_location_var(set, v, e, reg);
        }
        set.vars.push_back(v);
    }
    if (set.output && !set.reg_held.empty())
        init_output_values(set);
}

/// The kind of output registers held lane by lane: f32 where all the
/// register's outputs are 32-bit floats (their writes then need no words in
/// between), else u32.
void Emitter::init_output_values(IoSet& set)
{
    for (uint32_t r = 0; r < set.reg_held.size(); ++r) {
        bool floats = false;
        for (const IoVar& v : set.vars)
            if (v.reg == r && !(floats = v.kind == Kind::f32))
                break;
        set.reg_held[r].kind = floats ? Kind::f32 : Kind::u32;
    }
}

void Emitter::create_location_var(const IoSet& set, IoVar& v, const SignatureElement& e, const IoReg& reg)
{
    NumberedName name = !e.semantic_name.empty() ? NumberedName(e.semantic_name, e.semantic_index)
                                                  : NumberedName(set.output ? "o" : "v", v.reg);
    spv::Id t = type(v.kind, v.count);
    v.per_vertex_khr = !set.output && reg.per_vertex_khr;
    if (set.per_vertex)
        t = b_.makeArrayType(t, constant_u32(set.vertices), 0);
    else if (v.per_vertex_khr)
        t = b_.makeArrayType(t, constant_u32(3), 0);
    v.var = b_.createVariable(set.output ? spv::StorageClassOutput : spv::StorageClassInput, t, name.c_str());
    uint32_t base = set.patch ? patch_location_base() : set.stream_location_base[v.stream & 3];
    b_.addDecoration(v.var, spv::DecorationLocation, int(v.reg + base));
    if (v.stream) {
        b_.addCapability(spv::CapabilityGeometryStreams);
        b_.addDecoration(v.var, spv::DecorationStream, int(v.stream));
    }
    if (v.first)
        b_.addDecoration(v.var, spv::DecorationComponent, int(v.first));
    if (set.patch)
        b_.addDecoration(v.var, spv::DecorationPatch);
    add_interface(v.var);
    if (set.output || prog_.model.stage != ShaderStage::pixel)
        return;
    if (v.per_vertex_khr) { // the values of the three vertices, not interpolated
        b_.addExtension("SPV_KHR_fragment_shader_barycentric");
        b_.addCapability(spv::CapabilityFragmentBarycentricKHR);
        b_.addDecoration(v.var, spv::DecorationPerVertexKHR);
        return;
    }
    using vsir::InterpolationMode;
    InterpolationMode mode = reg.interpolation[v.first & 3];
    if (mode == InterpolationMode::constant || v.kind != Kind::f32) {
        b_.addDecoration(v.var, spv::DecorationFlat);
        return;
    }
    if (mode == InterpolationMode::linear_noperspective || mode == InterpolationMode::linear_noperspective_centroid
        || mode == InterpolationMode::linear_noperspective_sample)
        b_.addDecoration(v.var, spv::DecorationNoPerspective);
    if (mode == InterpolationMode::linear_centroid || mode == InterpolationMode::linear_noperspective_centroid)
        b_.addDecoration(v.var, spv::DecorationCentroid);
    if (mode == InterpolationMode::linear_sample || mode == InterpolationMode::linear_noperspective_sample) {
        b_.addDecoration(v.var, spv::DecorationSample);
        b_.addCapability(spv::CapabilitySampleRateShading);
    }
}

/// The builtin variable of signature element `v` (system value `sv`).
void Emitter::create_builtin_io_var(const IoSet& set, IoVar& v, BuiltinInfo bi, SystemValue sv, const IoReg& reg)
{
    using vsir::InterpolationMode;
    InterpolationMode mode = reg.interpolation[v.first & 3];
    bool bary = bi.builtin == spv::BuiltInBaryCoordKHR;
    bool centroid = mode == InterpolationMode::linear_centroid
        || mode == InterpolationMode::linear_noperspective_centroid;
    bool sample = mode == InterpolationMode::linear_sample || mode == InterpolationMode::linear_noperspective_sample;
    if (bary && (mode == InterpolationMode::linear_noperspective
            || mode == InterpolationMode::linear_noperspective_centroid
            || mode == InterpolationMode::linear_noperspective_sample))
        bi.builtin = spv::BuiltInBaryCoordNoPerspKHR;
    v.builtin = bi.builtin;
    v.kind = bi.kind;
    v.count = bi.count;
    spv::Id t = type(bi.kind, bi.count);
    if (set.per_vertex)
        t = b_.makeArrayType(t, constant_u32(set.vertices), 0);
    v.var = make_builtin_var(bi.builtin, t, set.output, system_value_name(sv));
    if (bary && (centroid || sample)) // SV_Barycentrics interpolated at the centroid or the sample
        b_.addDecoration(v.var, centroid ? spv::DecorationCentroid : spv::DecorationSample);
    if (bary && sample)
        b_.addCapability(spv::CapabilitySampleRateShading);
    if (bi.builtin == spv::BuiltInVertexIndex)
        v.base_var = make_builtin_var(spv::BuiltInBaseVertex, type(Kind::i32), false, "base_vertex");
    if (bi.builtin == spv::BuiltInInstanceIndex)
        v.base_var = make_builtin_var(spv::BuiltInBaseInstance, type(Kind::i32), false, "base_instance");
    if (bi.count == 4)
        v.first = 0;
}

/// Patch constants share the location space with the per-vertex variables
/// of the hull-domain interface: they follow its registers (the HS output
/// signature, which the DS input signature repeats), so both stages agree.
uint32_t Emitter::patch_location_base() const
{
    const std::vector<SignatureElement>& sig = prog_.model.stage == ShaderStage::hull ? prog_.outputs : prog_.inputs;
    uint32_t base = 0;
    for (const SignatureElement& e : sig)
        if (e.register_index < max_io_registers)
            base = std::max(base, e.register_index + 1);
    if (sig.empty())
        base = uint32_t(prog_.model.stage == ShaderStage::hull ? out_.regs.size() : in_.regs.size());
    return base;
}

// ---- register access ----

RegisterPointer Emitter::io_register_pointer(const vsir::Register& reg)
{
    using vsir::RegisterFile;
    if (is_scalar_system_file(reg.file)) {
        if ((system_held_files_ >> size_t(reg.file)) & 1)
            return {NoResult, 1, NoResult, Kind::u32, &system_held_[size_t(reg.file)]};
        spv::Id var = system_scalar(reg.file);
        if (!var)
            error(Code::spirv_undeclared_register, "'%s' is not declared", vsir::register_prefix(reg.file));
        return {var, uint8_t(var ? 1 : 0)};
    }
    if (reg.file == RegisterFile::tess_coord) {
        if (!tess_coord_)
            error(Code::spirv_undeclared_register, "'vDomain' is not declared");
        return {tess_coord_, uint8_t(tess_coord_ ? 4 : 0)};
    }
    IoSet* set = &in_;
    spv::Id array = NoResult;
    uint32_t vertices = 0;
    switch (reg.file) {
    case RegisterFile::output:
        set = hull_phase_ >= HullPhase::fork ? &rare().patch : &out_;
        break;
    case RegisterFile::patch_constant:
        set = &rare().patch;
        break;
    case RegisterFile::output_control_point:
        array = hull_vocp_array();
        set = &out_;
        vertices = out_.vertices;
        break;
    default:
        break;
    }
    if (!array && (!set->reg_values.empty() || !set->reg_held.empty() || !set->reg_vars.empty())) {
        // one value or variable per register
        const vsir::RegisterIndex& r = reg.idx[0];
        size_t count = std::max({set->reg_values.size(), set->reg_held.size(), set->reg_vars.size()});
        if (reg.index_count != 1 || r.rel_addr != vsir::invalid_index || r.offset >= count) {
            error(Code::spirv_undeclared_register, "'%s%u' is not declared", vsir::register_prefix(reg.file),
                r.offset);
            return {};
        }
        if (!set->reg_values.empty()) {
            const IoSet::ValueShape shape =
                r.offset < set->reg_value_shapes.size() ? set->reg_value_shapes[r.offset] : IoSet::ValueShape{};
            return {NoResult, shape.size, set->reg_values[r.offset], shape.kind};
        }
        if (!set->reg_held.empty()) {
            HeldRegister& held = set->reg_held[r.offset];
            return {NoResult, 4, NoResult, held.kind, &held};
        }
        return {set->reg_vars[r.offset], 4};
    }
    if (!array) {
        array = set->array;
        vertices = set->per_vertex && !set->output ? set->vertices : 0;
    }
    uint32_t want = vertices ? 2 : 1;
    if (reg.index_count != want || !array) {
        error(Code::spirv_undeclared_register, "'%s' with %u indices is not declared here",
            vsir::register_prefix(reg.file), reg.index_count);
        return {};
    }
    const vsir::RegisterIndex& r = reg.idx[want - 1];
    if (r.rel_addr == vsir::invalid_index && r.offset >= set->regs.size()) {
        error(Code::spirv_undeclared_register, "'%s%u' is not declared", vsir::register_prefix(reg.file), r.offset);
        return {};
    }
    OperandList<spv::Id, 3> chain{array};
    if (vertices)
        chain.push_back(index_id(reg.idx[0]));
    chain.push_back(index_id(r));
    spv::Id ptr = b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassPrivate, type(Kind::u32, 4)), chain);
    return {ptr, 4};
}

// ---- the entry function ----

spv::Id Emitter::register_word_pointer(spv::Id array, spv::Id vertex, uint32_t reg, uint32_t component)
{
    OperandList<spv::Id, 4> chain{array};
    if (vertex)
        chain.push_back(vertex);
    chain.push_back(constant_u32(reg));
    chain.push_back(constant_u32(component));
    return b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassPrivate, type(Kind::u32)), chain);
}

/// A pointer to variable `v` (its element `vertex` when per-vertex, its
/// array element `index` when a gathered builtin array).
spv::Id Emitter::io_var_pointer(const IoVar& v, bool output, spv::Id vertex, uint32_t index)
{
    spv::StorageClass sc = output ? spv::StorageClassOutput : spv::StorageClassInput;
    OperandList<spv::Id, 3> chain{v.var};
    if (vertex)
        chain.push_back(vertex);
    else if (v.per_vertex_khr) // nointerpolation reads the provoking (first) vertex, as D3D
        chain.push_back(constant_u32(0));
    if (v.is_array)
        chain.push_back(constant_u32(index));
    if (chain.size() == 1)
        return v.var;
    spv::Id element = v.is_array ? type(Kind::f32) : type(v.kind == Kind::boolean ? Kind::boolean : v.kind, v.count);
    return b_.createOp(spv::OpAccessChain, pointer_type(sc, element), chain);
}

spv::Id Emitter::set_register_pointer(const IoSet& set, spv::Id vertex, uint32_t reg)
{
    if (!set.reg_vars.empty())
        return set.reg_vars[reg];
    OperandList<spv::Id, 3> chain{set.array};
    if (vertex)
        chain.push_back(vertex);
    chain.push_back(constant_u32(reg));
    return b_.createOp(spv::OpAccessChain, pointer_type(spv::StorageClassPrivate, type(Kind::u32, 4)), chain);
}

/// A word of register `reg` of `set` (at `vertex` for per-vertex arrays).
spv::Id Emitter::set_word_pointer(const IoSet& set, spv::Id vertex, uint32_t reg, uint32_t component)
{
    if (set.reg_vars.empty())
        return register_word_pointer(set.array, vertex, reg, component);
    return b_.createBinOp(spv::OpAccessChain, pointer_type(spv::StorageClassPrivate, type(Kind::u32)),
        set.reg_vars[reg], constant_u32(component));
}

/// Input variable `v` (not a gathered array) read as `words_count` uint
/// words, with D3D's conventions applied (SV_Position.w is 1/w; vertex and
/// instance ids count from the base).
spv::Id Emitter::input_words(const IoVar& v, spv::Id vertex, uint32_t& words_count)
{
    return to_words(input(v, vertex), words_count);
}

/// Input `v` (a variable that is not an array) as D3D gives it.
Value Emitter::input(const IoVar& v, spv::Id vertex)
{
    spv::Id value = b_.createLoad(io_var_pointer(v, false, vertex, 0));
    Value val{value, v.kind, v.count};
    // D3D's SV_Position.w is 1/w (when a source may read it).
    if (v.builtin == spv::BuiltInFragCoord
        && (v.reg >= 64 || ((inputs_w_read_ >> v.reg) & 1) || file_indexed(vsir::RegisterFile::input))) {
        spv::Id f32 = type(Kind::f32);
        spv::Id w = b_.createCompositeExtract(value, f32, 3);
        w = b_.createBinOp(spv::OpFDiv, f32, constant_f32(1.0f), w);
        val.id = b_.createCompositeInsert(w, value, type(Kind::f32, 4), 3);
    }
    if (v.base_var) {
        spv::Id base = b_.createLoad(v.base_var);
        val = {b_.createBinOp(spv::OpISub, type(Kind::i32), value, base), Kind::i32, 1};
    }
    return val;
}

void Emitter::copy_input(const IoSet& set, const IoVar& v, spv::Id vertex)
{
    spv::Id u32 = type(Kind::u32);
    spv::Id priv_vertex = set.per_vertex ? vertex : NoResult;
    if (v.is_array) {
        for (uint32_t i = 0; i < v.count; ++i) {
            spv::Id value = bitcast(b_.createLoad(io_var_pointer(v, false, vertex, v.array_base + i)), u32);
            b_.createStore(value, set_word_pointer(set, priv_vertex, v.reg, v.first + i));
        }
        return;
    }
    uint32_t words_count = 0;
    spv::Id words = input_words(v, vertex, words_count);
    if (v.first == 0 && v.count == 4 && words_count == 4) { // the whole register: one store
        b_.createStore(words, set_register_pointer(set, priv_vertex, v.reg));
        return;
    }
    for (uint32_t i = 0; i < v.count && v.first + i < 4; ++i) {
        spv::Id word = words_count > 1 ? b_.createCompositeExtract(words, u32, i) : words;
        b_.createStore(word, set_word_pointer(set, priv_vertex, v.reg, v.first + i));
    }
}

/// Input register `r` kept as values as the value of the one input variable
/// that fills it from its first component, when there is one and it has
/// 32-bit components (SV_Position with D3D's 1/w, a vertex or instance index
/// less its base).
bool Emitter::input_value(IoSet& set, uint32_t r)
{
    const IoVar* only = nullptr;
    for (const IoVar& v : set.vars) {
        if (v.reg != r)
            continue;
        if (only)
            return false;
        only = &v;
    }
    if (!only || only->is_array || only->first != 0 || only->count > 4 || !is_word_kind(only->kind))
        return false;
    const Value value = input(*only, NoResult);
    set.reg_values[r] = value.id;
    set.reg_value_shapes[r] = {value.kind, value.count};
    return true;
}

/// Inputs into per-register variables or values: each register made once,
/// whole, from the input variables that share it, combined with shuffles
/// (components no element covers are undefined, as in D3D).
void Emitter::copy_input_registers(IoSet& set, uint64_t regs)
{
    bool values = !set.reg_values.empty();
    if (values)
        set.reg_value_shapes.assign(set.reg_values.size(), {});
    // Only the registers the program reads (`regs`): the others' loads would
    // only be pruned again. As values, an unread register has none
    // (load_lanes gives none); as variables, its variable is never loaded.
    for (uint32_t r = 0; r < std::max(set.reg_vars.size(), set.reg_values.size()); ++r) {
        if (r < 64 && !((regs >> r) & 1))
            continue;
        if (values && input_value(set, r))
            continue;
        // As values, a register of float inputs only is a float vector (no
        // bitcasts to words and back); otherwise words.
        bool floats = values;
        for (const IoVar& v : set.vars)
            if (v.reg == r && v.first + v.count <= 4)
                floats = floats && !v.is_array && v.kind == Kind::f32;
        const Kind kind = floats ? Kind::f32 : Kind::u32;
        const spv::Id vec4 = type(kind, 4);
        // `whole` holds the register's components [first, first + count).
        spv::Id whole = NoResult;
        uint32_t first = 0, count = 0;
        auto widen = [&] { // to all four (a component none gives is undefined: 0xffffffff)
            OperandList<IdImmediate, 6> operands{{true, whole}, {true, whole}};
            for (uint32_t c = 0; c < 4; ++c)
                operands.push_back({false, c >= first && c < first + count ? c - first : 0xffffffffu});
            whole = b_.createOp(spv::OpVectorShuffle, vec4, operands);
            first = 0, count = 4;
        };
        auto insert = [&](spv::Id part, uint32_t component) {
            if (whole && count != 4)
                widen();
            whole = b_.createCompositeInsert(part, whole ? whole : undef(kind, 4), vec4, component);
            first = 0, count = 4;
        };
        for (const IoVar& v : set.vars) {
            if (v.reg != r || v.first + v.count > 4)
                continue;
            if (v.is_array) { // gathered builtin arrays: one element per component
                for (uint32_t i = 0; i < v.count; ++i)
                    insert(bitcast(b_.createLoad(io_var_pointer(v, false, NoResult, v.array_base + i)),
                               type(Kind::u32)),
                        v.first + i);
                continue;
            }
            uint32_t part_count = 0;
            const spv::Id part = floats ? input(v, NoResult).id : input_words(v, NoResult, part_count);
            if (floats)
                part_count = v.count;
            if (part_count == 1) {
                insert(part, v.first);
            } else if (!whole) {
                whole = part, first = v.first, count = part_count;
            } else { // one shuffle of the two: `whole`'s components, then the part's
                OperandList<IdImmediate, 6> operands{{true, whole}, {true, part}};
                for (uint32_t c = 0; c < 4; ++c)
                    operands.push_back({false, c >= v.first && c < v.first + part_count ? count + c - v.first
                                               : c >= first && c < first + count    ? c - first
                                                                                    : 0xffffffffu});
                whole = b_.createOp(spv::OpVectorShuffle, vec4, operands);
                first = 0, count = 4;
            }
        }
        if (whole && count != 4)
            widen();
        if (values) {
            set.reg_values[r] = whole ? whole : undef(kind, 4);
            set.reg_value_shapes[r] = {kind, 4};
        } else if (whole) {
            b_.createStore(whole, set.reg_vars[r]);
        }
    }
}

/// Outputs from per-register variables: each register loaded once, each
/// output variable stored from its components.
void Emitter::copy_output_registers(const IoSet& set, uint32_t stream)
{
    // Registers held lane by lane give the output's components; variables
    // are loaded on first use.
    ScratchVector<spv::Id> loaded(set.reg_vars.size());
    for (const IoVar& v : set.vars) {
        if (v.stream != stream)
            continue;
        if (v.is_array || v.reg >= std::max(loaded.size(), set.reg_held.size()) || v.first + v.count > 4) {
            copy_output(set, v, NoResult, NoResult, NoResult);
            continue;
        }
        // Lanes held as f32 have the outputs' type already.
        Kind held = Kind::u32;
        spv::Id words;
        if (!set.reg_held.empty()) {
            const uint8_t lanes[4] = {uint8_t(v.first), uint8_t(v.first + 1), uint8_t(v.first + 2),
                uint8_t(v.first + 3)};
            const Value read = read_held(set.reg_held[v.reg], lanes, v.count);
            words = read.id;
            held = read.kind;
        } else {
            spv::Id& whole = loaded[v.reg];
            if (!whole)
                whole = b_.createLoad(set.reg_vars[v.reg]);
            words = whole;
            if (v.count == 1) {
                words = b_.createCompositeExtract(whole, type(held), v.first);
            } else if (v.count < 4) {
                OperandList<IdImmediate, 6> operands{{true, whole}, {true, whole}};
                for (uint32_t i = 0; i < v.count; ++i)
                    operands.push_back({false, uint32_t(v.first + i)});
                words = b_.createOp(spv::OpVectorShuffle, type(held, v.count), operands);
            }
        }
        const Kind kind = v.kind == Kind::boolean ? Kind::u32 : v.kind;
        Value val{words, kind, v.count};
        if (held != kind && is_word_kind(held) && is_word_kind(kind))
            val.id = bitcast(words, type(kind, v.count));
        else if (held != kind)
            val = from_words(bitcast(words, type(Kind::u32, v.count)), v.count, kind);
        b_.createStore(val.id, io_var_pointer(v, true, NoResult, 0));
    }
}

/// Every input into the registers the program reads, at the build point.
void Emitter::copy_all_inputs()
{
    copy_inputs(in_, in_regs_read_);
    if (rare_) // else no patch constant
        copy_inputs(rare_->patch, patch_regs_read_);
    copy_system_values(false);
}

void Emitter::copy_inputs(IoSet& set, uint64_t regs)
{
    if (!set.reg_vars.empty() || !set.reg_values.empty()) {
        copy_input_registers(set, regs);
        return;
    }
    auto read = [&](const IoVar& v) { return v.reg >= 64 || ((regs >> v.reg) & 1); };
    if (!set.per_vertex) {
        for (const IoVar& v : set.vars)
            if (read(v))
                copy_input(set, v, NoResult);
        return;
    }
    for (uint32_t k = 0; k < set.vertices; ++k)
        for (const IoVar& v : set.vars)
            if (read(v))
                copy_input(set, v, constant_u32(k));
}

/// Stores the Private registers of `set` (read from `source`, by default
/// the set's own array) into its Output variables, at `vertex` when they are
/// per-vertex arrays.
void Emitter::copy_output(const IoSet& set, const IoVar& v, spv::Id vertex, spv::Id source, spv::Id source_vertex)
{
    uint32_t count = v.is_array ? 1 : v.count;
    uint32_t iterations = v.is_array ? v.count : 1;
    for (uint32_t it = 0; it < iterations; ++it) {
        spv::Id parts[4];
        for (uint32_t i = 0; i < count; ++i) {
            const uint8_t lane = uint8_t(std::min<uint32_t>(v.first + it + i, 3));
            parts[i] = !source && v.reg < set.reg_held.size()
                           ? bitcast(read_held(set.reg_held[v.reg], &lane, 1).id, type(Kind::u32))
                           : b_.createLoad(source ? register_word_pointer(source, source_vertex, v.reg, v.first + it + i)
                                                  : set_word_pointer(set, source_vertex, v.reg, v.first + it + i));
        }
        spv::Id words = construct(Kind::u32, parts, count);
        Value val = from_words(words, count, v.kind == Kind::boolean ? Kind::u32 : v.kind);
        b_.createStore(val.id, io_var_pointer(v, true, vertex, v.array_base + it));
    }
}

void Emitter::copy_outputs(const IoSet& set, spv::Id vertex, uint32_t stream)
{
    if (!set.reg_vars.empty() || !set.reg_held.empty()) {
        copy_output_registers(set, stream);
        return;
    }
    for (const IoVar& v : set.vars)
        if (v.stream == stream)
            copy_output(set, v, vertex, NoResult, NoResult);
}

void Emitter::copy_system_values(bool output)
{
    using vsir::RegisterFile;
    if (!output && tess_coord_) {
        spv::Id xyz = b_.createLoad(tess_coord_builtin_);
        spv::Id words = bitcast(xyz, type(Kind::u32, 3));
        spv::Id parts[4];
        for (uint32_t i = 0; i < 3; ++i)
            parts[i] = b_.createCompositeExtract(words, type(Kind::u32), i);
        parts[3] = constant_u32(0);
        b_.createStore(construct(Kind::u32, parts, 4), tess_coord_);
    }
    for (uint64_t files = system_files_; files; files &= files - 1) {
        const size_t f = size_t(std::countr_zero(files));
        spv::Id priv = system_scalars_[f], builtin = system_builtins_[f];
        HeldRegister* held = (system_held_files_ >> f) & 1 ? &system_held_[f] : nullptr;
        if ((!priv && !held) || !builtin)
            continue;
        RegisterFile file = RegisterFile(f);
        bool is_output = file == RegisterFile::depth_out || file == RegisterFile::depth_out_ge
            || file == RegisterFile::depth_out_le || file == RegisterFile::coverage_out
            || file == RegisterFile::stencil_ref;
        if (is_output != output)
            continue;
        spv::Id i32 = type(Kind::i32);
        bool mask = file == RegisterFile::coverage_in || file == RegisterFile::coverage_out;
        spv::Id target = builtin;
        if (mask)
            target = b_.createOp(spv::OpAccessChain,
                pointer_type(output ? spv::StorageClassOutput : spv::StorageClassInput, i32),
                {builtin, constant_u32(0)});
        if (output) {
            static constexpr uint8_t lane0 = 0;
            spv::Id value = held ? read_held(*held, &lane0, 1).id : b_.createLoad(priv);
            bool depth = file == RegisterFile::depth_out || file == RegisterFile::depth_out_ge
                || file == RegisterFile::depth_out_le;
            b_.createStore(bitcast(value, depth ? type(Kind::f32) : i32), target);
        } else if (file == RegisterFile::inner_coverage) { // bool → 1 / 0, as D3D's SV_InnerCoverage
            spv::Id value = b_.createLoad(target);
            store_system_scalar(priv, held,
                b_.createTriOp(spv::OpSelect, type(Kind::u32), value, constant_u32(1), constant_u32(0)));
        } else {
            store_system_scalar(priv, held, bitcast(b_.createLoad(target), type(Kind::u32)));
        }
    }
}

/// A scalar register's word: into its Private uint, or its held lane.
void Emitter::store_system_scalar(spv::Id priv, HeldRegister* held, spv::Id word)
{
    if (held)
        write_held(*held, {word, Kind::u32, 1}, 1);
    else
        b_.createStore(word, priv);
}

/// Whether the program can be emitted into the entry point itself, with the
/// input copies before it and the output copies at its end: vertex, pixel
/// and domain shaders whose only returns are at the top level, without
/// subroutines. Otherwise it is a function the entry point calls.
bool Emitter::can_inline_entry() const
{
    ShaderStage stage = prog_.model.stage;
    return (stage == ShaderStage::vertex || stage == ShaderStage::pixel || stage == ShaderStage::domain)
           && returns_only_at_top_;
}

/// The output copies of an entry point that holds the program (before its
/// return).
void Emitter::emit_entry_epilogue()
{
    copy_outputs(out_, NoResult);
    copy_system_values(true);
}

void Emitter::begin_graphics_module()
{
    entry_ = b_.makeEntryPoint("main");
    if (can_inline_entry()) { // the input copies, then the program (copy_all_inputs)
        main_ = entry_;
        inline_entry_ = true;
        b_.assume_initial_values();
    } else {
        Block* body_entry = nullptr;
        const char* name = prog_.model.stage == ShaderStage::hull ? "hs_decls" : "shader_main";
        main_ = b_.makeFunctionEntry(b_.makeVoidType(), name, &body_entry);
    }
    switch (prog_.model.stage) {
    case ShaderStage::pixel:
        b_.addExecutionMode(entry_, spv::ExecutionModeOriginUpperLeft);
        break;
    case ShaderStage::geometry:
        b_.addCapability(spv::CapabilityGeometry);
        break;
    case ShaderStage::hull:
    case ShaderStage::domain:
        b_.addCapability(spv::CapabilityTessellation);
        break;
    default:
        break;
    }
}

void Emitter::finish_graphics_entry()
{
    if (prog_.model.stage == ShaderStage::hull) {
        finish_hull_entry();
        return;
    }
    b_.setBuildPoint(entry_->getEntryBlock());
    copy_all_inputs();
    b_.createFunctionCall(main_, {});
    if (prog_.model.stage != ShaderStage::geometry) // geometry shaders write at each emit
        copy_outputs(out_, NoResult);
    copy_system_values(true);
    b_.makeReturn();
    b_.leaveFunction();
}

spv::ExecutionModel Emitter::execution_model() const
{
    switch (prog_.model.stage) {
    case ShaderStage::vertex: return spv::ExecutionModelVertex;
    case ShaderStage::pixel: return spv::ExecutionModelFragment;
    case ShaderStage::geometry: return spv::ExecutionModelGeometry;
    case ShaderStage::hull: return spv::ExecutionModelTessellationControl;
    case ShaderStage::domain: return spv::ExecutionModelTessellationEvaluation;
    default: return spv::ExecutionModelGLCompute;
    }
}

} // namespace dxspv::spirv

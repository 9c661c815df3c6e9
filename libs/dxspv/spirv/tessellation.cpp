// Hull and domain shaders.
//
// Hull shaders: each phase (hs_decls, the control-point phase, every fork
// and join phase) is emitted into a function of its own, with its own
// temps. The entry point runs, per output control point (InvocationId):
//   copy the input control points into v[cp][reg];
//   the control-point phase (or a pass-through copy of the inputs when there
//   is none), then its outputs o# → the Output arrays at [InvocationId];
//   if there are fork/join phases: a barrier, then in invocation 0 only:
//   vocp[cp][reg] read back from the Output arrays, each fork and join
//   phase called once per instance (vForkInstanceID / vJoinInstanceID set
//   before each call), and the patch constants (o# of those phases) copied
//   to the Patch outputs and TessLevelOuter / TessLevelInner.
// Domain, partitioning, output primitive and control-point count become
// execution modes of the TessellationControl entry point; the domain also of
// the TessellationEvaluation one.
//
// Domain shaders: vicp[cp][reg] per-vertex inputs, vpc[reg] patch
// constants (Patch inputs and the tessellation levels), vDomain TessCoord.
#include "spirv/emitter.h"

namespace dxspv::spirv {

bool Emitter::emit_tessellation_declaration(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    using vsir::Opcode;
    switch (ins.opcode) {
    case Opcode::dcl_input_control_point_count:
    case Opcode::dcl_output_control_point_count:
    case Opcode::dcl_hs_max_tessfactor:
        return true; // scan_io / not needed
    case Opcode::dcl_tessellator_domain:
        tess_domain_ = decl.value;
        return true;
    case Opcode::dcl_tessellator_partitioning:
        tess_partitioning_ = decl.value;
        return true;
    case Opcode::dcl_tessellator_output_primitive:
        tess_output_primitive_ = decl.value;
        return true;
    case Opcode::dcl_hs_fork_phase_instance_count:
    case Opcode::dcl_hs_join_phase_instance_count: {
        ScopeVector<HullPhaseFunction>& phases = rare().hull_phases;
        if (phases.empty() || decl.count == 0 || decl.count > 4096) {
            error(Code::spirv_invalid_operand, "phase instance count %u outside a fork or join phase", decl.count);
            return true;
        }
        phases.back().instances = decl.count;
        return true;
    }
    default:
        return false;
    }
}

bool Emitter::emit_phase(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    if (prog_.model.stage != ShaderStage::hull) {
        error(Code::spirv_invalid_operand, "hull shader phase in another stage");
        return false;
    }
    if (ins.opcode == Opcode::hs_decls) {
        hull_phase_ = HullPhase::decls;
        return true;
    }
    if (!control_flow_closed())
        return false;
    HullPhaseFunction phase;
    const char* name = "hs_control_point_phase";
    switch (ins.opcode) {
    case Opcode::hs_control_point_phase: phase.phase = HullPhase::control_point; break;
    case Opcode::hs_fork_phase: phase.phase = HullPhase::fork; name = "hs_fork_phase"; break;
    default: phase.phase = HullPhase::join; name = "hs_join_phase"; break;
    }
    if (phase.phase == HullPhase::control_point && hull_phase_ > HullPhase::decls) {
        error(Code::spirv_invalid_control_flow, "control-point phase after a fork or join phase");
        return false;
    }
    b_.leaveFunction();
    Block* entry = nullptr;
    phase.function = b_.makeFunctionEntry(b_.makeVoidType(), name, &entry);
    main_ = phase.function;
    RareState& rare_state = rare();
    rare_state.hull_phases.push_back(phase);
    if (hull_phase_ == HullPhase::decls)
        rare_state.hull_decl_indexable_temps = indexable_temps_;
    hull_phase_ = phase.phase;
    temps_.clear();
    indexable_temps_ = rare_state.hull_decl_indexable_temps;
    declare_temps(prog_.temp_count);
    return true;
}

spv::Id Emitter::hull_invocation_id()
{
    if (!hull_invocation_)
        hull_invocation_ = make_builtin_var(spv::BuiltInInvocationId, type(Kind::i32), false, "InvocationId");
    return hull_invocation_;
}

/// Private uvec4 vocp[control point][register], filled in invocation 0 from
/// the Output arrays before the fork and join phases run.
spv::Id Emitter::hull_vocp_array()
{
    if (hull_vocp_ || prog_.model.stage != ShaderStage::hull || hull_phase_ < HullPhase::fork || out_.regs.empty()
        || !out_.per_vertex)
        return hull_vocp_;
    spv::Id array = b_.makeArrayType(type(Kind::u32, 4), constant_u32(uint32_t(out_.regs.size())), 0);
    array = b_.makeArrayType(array, constant_u32(out_.vertices), 0);
    hull_vocp_ = b_.createVariable(spv::StorageClassPrivate, array, "vocp");
    add_interface(hull_vocp_);
    return hull_vocp_;
}

bool Emitter::check_tessellation_modes()
{
    bool hull = prog_.model.stage == ShaderStage::hull;
    spv::ExecutionMode domain;
    switch (tess_domain_) {
    case 1: domain = spv::ExecutionModeIsolines; break;
    case 2: domain = spv::ExecutionModeTriangles; break;
    case 3: domain = spv::ExecutionModeQuads; break;
    default:
        error(Code::spirv_unsupported_declaration, "tessellator domain %u is missing or not supported", tess_domain_);
        return false;
    }
    b_.addExecutionMode(entry_, domain);
    if (!hull)
        return true;
    if (!out_.vertices) {
        error(Code::spirv_missing_declaration, "hull shader without an output control point count");
        return false;
    }
    b_.addExecutionMode(entry_, spv::ExecutionModeOutputVertices, int(out_.vertices));
    switch (tess_partitioning_) {
    case 1:
    case 2: b_.addExecutionMode(entry_, spv::ExecutionModeSpacingEqual); break;
    case 3: b_.addExecutionMode(entry_, spv::ExecutionModeSpacingFractionalOdd); break;
    case 4: b_.addExecutionMode(entry_, spv::ExecutionModeSpacingFractionalEven); break;
    default:
        error(Code::spirv_unsupported_declaration, "tessellator partitioning %u is missing or not supported",
            tess_partitioning_);
        return false;
    }
    switch (tess_output_primitive_) {
    case 1: b_.addExecutionMode(entry_, spv::ExecutionModePointMode); break;
    case 2: break;
    case 3: b_.addExecutionMode(entry_, spv::ExecutionModeVertexOrderCw); break;
    case 4: b_.addExecutionMode(entry_, spv::ExecutionModeVertexOrderCcw); break;
    default:
        error(Code::spirv_unsupported_declaration, "tessellator output primitive %u is missing or not supported",
            tess_output_primitive_);
        return false;
    }
    return true;
}

void Emitter::finish_hull_entry()
{
    b_.setBuildPoint(entry_->getEntryBlock());
    copy_inputs(in_);
    copy_system_values(false);
    spv::Id invocation = bitcast(b_.createLoad(hull_invocation_id()), type(Kind::u32));
    const HullPhaseFunction* cp_phase = nullptr;
    bool patch_phases = false;
    const ScopeVector<HullPhaseFunction>& phases = rare().hull_phases;
    for (const HullPhaseFunction& p : phases) {
        if (p.phase == HullPhase::control_point)
            cp_phase = &p;
        else
            patch_phases = true;
    }
    if (cp_phase) {
        b_.createFunctionCall(cp_phase->function, {});
        copy_outputs(out_, invocation);
    } else { // pass-through control points
        for (const IoVar& v : out_.vars) {
            if (v.reg >= in_.regs.size()) {
                error(Code::spirv_missing_declaration, "pass-through control point o%u has no input", v.reg);
                break;
            }
            copy_output(out_, v, invocation, in_.array, invocation);
        }
    }
    if (patch_phases) {
        b_.createControlBarrier(spv::ScopeWorkgroup, spv::ScopeInvocation, spv::MemorySemanticsMaskNone);
        spv::Id first = b_.createBinOp(spv::OpIEqual, type(Kind::boolean), invocation, constant_u32(0));
        Builder::If branch(first, spv::SelectionControlMaskNone, b_);
        if (hull_vocp_) {
            spv::Id u32 = type(Kind::u32);
            for (uint32_t k = 0; k < out_.vertices; ++k) {
                for (const IoVar& v : out_.vars) {
                    uint32_t words_count = 0;
                    spv::Id value = b_.createLoad(io_var_pointer(v, true, constant_u32(k), 0));
                    spv::Id words = to_words({value, v.kind, v.count}, words_count);
                    for (uint32_t i = 0; i < v.count && v.first + i < 4; ++i)
                        b_.createStore(words_count > 1 ? b_.createCompositeExtract(words, u32, i) : words,
                            register_word_pointer(hull_vocp_, constant_u32(k), v.reg, v.first + i));
                }
            }
        }
        for (const HullPhaseFunction& p : phases) {
            if (p.phase == HullPhase::control_point)
                continue;
            spv::Id instance_var = system_scalar(p.phase == HullPhase::fork
                    ? vsir::RegisterFile::fork_instance_id : vsir::RegisterFile::join_instance_id);
            for (uint32_t i = 0; i < p.instances; ++i) {
                if (instance_var)
                    b_.createStore(constant_u32(i), instance_var);
                b_.createFunctionCall(p.function, {});
            }
        }
        copy_outputs(rare().patch, NoResult);
        branch.makeEndIf();
    }
    b_.makeReturn();
    b_.leaveFunction();
}

} // namespace dxspv::spirv

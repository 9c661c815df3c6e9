// Geometry shaders: the input primitive, output topology, maximum vertex
// count and instance count as execution modes; emit / cut (and the stream
// forms for stream 0) as OpEmitVertex / OpEndPrimitive after copying the
// output registers to the Output variables (io.cpp). Inputs are per-vertex
// arrays v[vertex][register]; vPrim is PrimitiveId and vGSInstanceID
// InvocationId. Several streams (point lists only, as in D3D): output
// variables of stream n > 0 are decorated Stream n (their system values are
// plain variables: only stream 0 is rasterized), emit_stream / cut_stream
// copy that stream's outputs and use OpEmitStreamVertex / OpEndStreamPrimitive.
#include "spirv/emitter.h"

namespace dxspv::spirv {

bool Emitter::emit_geometry_declaration(const vsir::Instruction& ins, const vsir::Declaration& decl)
{
    using vsir::Opcode;
    switch (ins.opcode) {
    case Opcode::dcl_gs_input_primitive:
        gs_.input_primitive = decl.value;
        return true;
    case Opcode::dcl_gs_output_topology:
        gs_.output_topology = decl.value;
        return true;
    case Opcode::dcl_max_output_vertex_count:
        gs_.max_vertices = decl.count;
        return true;
    case Opcode::dcl_gs_instances:
        gs_.instances = decl.count;
        return true;
    case Opcode::dcl_stream:
        if (decl.index != 0)
            gs_.stream_used = true;
        return true;
    default:
        return false;
    }
}

/// The execution modes, once every declaration was seen; false (with a
/// diagnostic) when one is missing or unsupported.
bool Emitter::check_geometry_modes()
{
    spv::ExecutionMode input;
    switch (gs_.input_primitive) {
    case 1: input = spv::ExecutionModeInputPoints; break;
    case 2: input = spv::ExecutionModeInputLines; break;
    case 3: input = spv::ExecutionModeTriangles; break;
    case 6: input = spv::ExecutionModeInputLinesAdjacency; break;
    case 7: input = spv::ExecutionModeInputTrianglesAdjacency; break;
    default:
        error(Code::spirv_unsupported_declaration, "geometry shader input primitive %u is missing or not supported",
            gs_.input_primitive);
        return false;
    }
    spv::ExecutionMode output;
    switch (gs_.output_topology) {
    case 1: output = spv::ExecutionModeOutputPoints; break;
    case 2:
    case 3: output = spv::ExecutionModeOutputLineStrip; break;
    case 4:
    case 5: output = spv::ExecutionModeOutputTriangleStrip; break;
    default:
        error(Code::spirv_unsupported_declaration, "geometry shader output topology %u is missing or not supported",
            gs_.output_topology);
        return false;
    }
    if (gs_.stream_used && output != spv::ExecutionModeOutputPoints) {
        error(Code::spirv_unsupported_declaration, "several geometry shader streams need the point list topology");
        return false;
    }
    b_.addExecutionMode(entry_, input);
    b_.addExecutionMode(entry_, output);
    b_.addExecutionMode(entry_, spv::ExecutionModeOutputVertices, int(std::max<uint32_t>(gs_.max_vertices, 1)));
    b_.addExecutionMode(entry_, spv::ExecutionModeInvocations, int(std::max<uint32_t>(gs_.instances, 1)));
    return true;
}

bool Emitter::emit_geometry_op(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    bool emit = false, cut = false, stream = false;
    switch (ins.opcode) {
    case Opcode::emit: emit = true; break;
    case Opcode::cut: cut = true; break;
    case Opcode::emit_then_cut: emit = cut = true; break;
    case Opcode::emit_stream: emit = stream = true; break;
    case Opcode::cut_stream: cut = stream = true; break;
    case Opcode::emit_then_cut_stream: emit = cut = stream = true; break;
    default: return false;
    }
    if (prog_.model.stage != ShaderStage::geometry) {
        error(Code::spirv_invalid_operand, "outside a geometry shader");
        return true;
    }
    uint32_t index = 0;
    if (stream) {
        const vsir::Register& m = prog_.src(ins, 0).reg;
        if (m.file != vsir::RegisterFile::stream || m.index_count < 1 || m.idx[0].offset > 3
            || m.idx[0].rel_addr != vsir::invalid_index) {
            error(Code::spirv_invalid_operand, "the stream operand is not m0..m3");
            return true;
        }
        index = m.idx[0].offset;
    }
    // With several streams every emit and cut names its stream.
    bool streams = gs_.stream_used || index != 0;
    if (streams)
        b_.addCapability(spv::CapabilityGeometryStreams);
    if (emit) {
        copy_outputs(out_, NoResult, index);
        if (streams)
            b_.createNoResultOp(spv::OpEmitStreamVertex, constant_u32(index));
        else
            b_.createNoResultOp(spv::OpEmitVertex);
    }
    if (cut) {
        if (streams)
            b_.createNoResultOp(spv::OpEndStreamPrimitive, constant_u32(index));
        else
            b_.createNoResultOp(spv::OpEndPrimitive);
    }
    return true;
}

} // namespace dxspv::spirv

// DXIL lowering: inputs, outputs, patch constants, system values, and the
// stage ops that go with them (discard, barriers, GS emit/cut, evaluation
// of attributes, render-target sample info).
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;
using ops::OpId;

vsir::SrcParam system_src(RegisterFile file, DataType type, uint32_t component, bool scalar)
{
    vsir::SrcParam s;
    s.reg = vsir::make_register(file, type, scalar ? vsir::Dimension::scalar : vsir::Dimension::vec4, {});
    s.swizzle = uint8_t((scalar ? 0 : component) * 0x55);
    return s;
}

} // namespace

/// The register of signature element `id`, row `row` (a value, constant or
/// not), for vertex `vertex` (per-vertex inputs), component `col`.
bool Lowerer::io_register(IoKind kind, ValueId id_value, ValueId row, ValueId col_value, ValueId vertex,
                          DataType type, vsir::Register& out, uint8_t& component)
{
    uint32_t id = 0, col = 0;
    if (!constant_u32(id_value, id) || !constant_u32(col_value, col)) {
        error(Code::dxil_lower_bad_signature, "a signature element id or column is not a constant");
        return false;
    }
    const IoMap* m = io_map(kind, id);
    if (!m) {
        error(Code::dxil_lower_bad_signature, "signature element %u is not declared", id);
        return false;
    }
    out = {};
    out.type = type;
    out.file = m->file;
    if (m->file != RegisterFile::input && m->file != RegisterFile::output &&
        m->file != RegisterFile::input_control_point && m->file != RegisterFile::patch_constant &&
        m->file != RegisterFile::output_control_point) {
        out.dimension = vsir::Dimension::scalar; // oDepth, oMask, ...
        component = 0;
        return true;
    }
    if (col > 3 || m->col + col > 3) {
        error(Code::dxil_lower_bad_signature, "column %u of signature element %u is out of range", col, id);
        return false;
    }
    component = uint8_t(m->col + col);
    out.dimension = vsir::Dimension::vec4;
    vsir::RegisterIndex reg{m->reg, vsir::invalid_index};
    uint32_t r = 0;
    if (constant_u32(row, r)) {
        if (r >= m->rows) {
            error(Code::dxil_lower_bad_signature, "row %u of signature element %u is out of range", r, id);
            return false;
        }
        reg.offset += r;
    } else {
        reg.rel_addr = rel_index(row);
    }
    bool per_vertex = vertex != no_id && !is_undef(vertex) &&
                      (m->file == RegisterFile::input_control_point || m->file == RegisterFile::output_control_point ||
                       (m->file == RegisterFile::input && stage_ == ShaderStage::geometry));
    if (per_vertex) {
        out.index_count = 2;
        uint32_t v = 0;
        if (constant_u32(vertex, v))
            out.idx[0].offset = v;
        else
            out.idx[0].rel_addr = rel_index(vertex);
        out.idx[1] = reg;
    } else {
        out.index_count = 1;
        out.idx[0] = reg;
    }
    return true;
}

void Lowerer::declare_system_input(RegisterFile file, bool scalar, uint8_t mask)
{
    uint32_t f = uint32_t(file);
    if (f < 64 && (declared_system_ >> f & 1))
        return;
    if (f < 64)
        declared_system_ |= 1ull << f;
    uint32_t i = p_.add_instruction(Opcode::dcl_input, 1, 0);
    p_.add_declaration(i);
    vsir::DstParam& d = p_.dsts[p_.instructions[i].dst_first];
    d.reg = vsir::make_register(file, DataType::u32, scalar ? vsir::Dimension::scalar : vsir::Dimension::vec4, {});
    d.write_mask = mask;
}

/// Declares the system registers the dx.op calls of the module read, before
/// any code is emitted (declarations come first in VSIR).
void Lowerer::declare_system_values()
{
    for (const DxOpCall& call : dx_op_calls_) {
        switch (OpId(call.code)) {
        case OpId::ThreadId: declare_system_input(RegisterFile::thread_id, false, 0x7); break;
        case OpId::GroupId: declare_system_input(RegisterFile::thread_group_id, false, 0x7); break;
        case OpId::ThreadIdInGroup: declare_system_input(RegisterFile::local_thread_id, false, 0x7); break;
        case OpId::FlattenedThreadIdInGroup:
            declare_system_input(RegisterFile::local_thread_index, true, 0x1);
            break;
        case OpId::DomainLocation:
            declare_system_input(RegisterFile::tess_coord, false, entry_->tess_domain == 2 ? 0x7 : 0x3);
            break;
        case OpId::OutputControlPointID:
            declare_system_input(RegisterFile::output_control_point_id, true, 0x1);
            break;
        case OpId::PrimitiveID: declare_system_input(RegisterFile::primitive_id, true, 0x1); break;
        case OpId::GSInstanceID: declare_system_input(RegisterFile::gs_instance_id, true, 0x1); break;
        case OpId::Coverage: declare_system_input(RegisterFile::coverage_in, true, 0x1); break;
        case OpId::InnerCoverage: declare_system_input(RegisterFile::inner_coverage, true, 0x1); break;
        default: break;
        }
    }
}

bool Lowerer::lower_io_op(ops::OpId op, const Instruction& inst)
{
    DataType t = data_type(inst.type);
    auto read_system = [&](RegisterFile file, bool scalar) {
        uint32_t c = 0;
        if (!scalar && !constant_u32(arg(inst, 1), c))
            c = 0;
        Operand& o = define(inst.result);
        o = {};
        o.kind = Operand::Kind::src;
        o.type = t;
        o.src = system_src(file, t, c > 3 ? 0 : c, scalar);
        return true;
    };
    switch (op) {
    case OpId::LoadInput:
    case OpId::LoadPatchConstant:
    case OpId::LoadOutputControlPoint: {
        vsir::Register reg;
        uint8_t comp = 0;
        IoKind kind = op == OpId::LoadInput ? IoKind::input : op == OpId::LoadPatchConstant ? IoKind::patch
                                                                                            : IoKind::output;
        ValueId vertex = op == OpId::LoadInput ? arg(inst, 4) : op == OpId::LoadOutputControlPoint ? arg(inst, 4)
                                                                                                   : no_id;
        if (!io_register(kind, arg(inst, 1), arg(inst, 2), arg(inst, 3), vertex, t, reg, comp))
            return true;
        if (op == OpId::LoadOutputControlPoint && reg.file == RegisterFile::output) {
            // vocp[vertex][register]
            reg.file = RegisterFile::output_control_point;
            reg.index_count = 2;
            reg.idx[1] = reg.idx[0];
            reg.idx[0] = {};
            uint32_t v = 0;
            if (constant_u32(vertex, v))
                reg.idx[0].offset = v;
            else
                reg.idx[0].rel_addr = rel_index(vertex);
        }
        Operand& o = define(inst.result);
        o = {};
        o.kind = Operand::Kind::src;
        o.type = t;
        o.src.reg = reg;
        o.src.swizzle = uint8_t(comp * 0x55);
        return true;
    }
    case OpId::StoreOutput:
    case OpId::StorePatchConstant: {
        vsir::DstParam d;
        uint8_t comp = 0;
        ValueId value = arg(inst, 4);
        DataType vt = data_type(type_of(value));
        if (vt == DataType::boolean)
            vt = DataType::u32;
        if (!io_register(op == OpId::StoreOutput ? IoKind::output : IoKind::patch, arg(inst, 1), arg(inst, 2),
                         arg(inst, 3), no_id, vt, d.reg, comp))
            return true;
        d.write_mask = uint8_t(1u << comp);
        vsir::SrcParam v = src(value, data_type(type_of(value)));
        if (v.reg.type == DataType::boolean) {
            vsir::SrcParam w;
            emit(Opcode::utou, {temp_ssa(DataType::u32, w)}, {v});
            v = w;
            v.reg.type = DataType::u32;
        }
        emit(Opcode::mov, {d}, {v});
        return true;
    }
    case OpId::ThreadId: return read_system(RegisterFile::thread_id, false);
    case OpId::GroupId:
        return read_system(RegisterFile::thread_group_id, false);
    case OpId::ThreadIdInGroup:
        return read_system(RegisterFile::local_thread_id, false);
    case OpId::FlattenedThreadIdInGroup:
        return read_system(RegisterFile::local_thread_index, true);
    case OpId::DomainLocation:
        return read_system(RegisterFile::tess_coord, false);
    case OpId::OutputControlPointID:
        return read_system(RegisterFile::output_control_point_id, true);
    case OpId::PrimitiveID:
        return read_system(RegisterFile::primitive_id, true);
    case OpId::GSInstanceID:
        return read_system(RegisterFile::gs_instance_id, true);
    case OpId::Coverage:
        return read_system(RegisterFile::coverage_in, true);
    case OpId::InnerCoverage:
        return read_system(RegisterFile::inner_coverage, true);
    case OpId::SampleIndex: {
        for (uint32_t id = 0; id < input_map_.size(); ++id)
            if (input_map_[id].sv == SystemValue::sample_index && input_map_[id].file == RegisterFile::input) {
                Operand& o = define(inst.result);
                o = {};
                o.kind = Operand::Kind::src;
                o.type = t;
                o.src.reg = vsir::make_register(RegisterFile::input, t, vsir::Dimension::vec4,
                                                std::span<const uint32_t>(&input_map_[id].reg, 1));
                o.src.swizzle = uint8_t(input_map_[id].col * 0x55);
                return true;
            }
        error(Code::dxil_lower_bad_signature, "SampleIndex without an SV_SampleIndex input element");
        return true;
    }
    case OpId::Discard: {
        uint32_t i = emit(Opcode::discard, {}, {src(arg(inst, 1), DataType::boolean)});
        p_.instructions[i].flags |= vsir::flag_test_nonzero;
        return true;
    }
    case OpId::ViewID:
        emit(Opcode::view_id, {new_ssa(inst.result, DataType::u32)}, {});
        return true;
    case OpId::IsHelperLane:
        emit(Opcode::is_helper_lane, {new_ssa(inst.result, DataType::boolean)}, {});
        return true;
    case OpId::Barrier: {
        uint32_t mode = 0;
        constant_u32(arg(inst, 1), mode);
        uint32_t i = emit(Opcode::sync, {}, {});
        uint32_t& f = p_.instructions[i].flags;
        if (mode & 1)
            f |= vsir::flag_sync_thread_group;
        if (mode & 2)
            f |= vsir::flag_sync_uav_global;
        if (mode & 4)
            f |= vsir::flag_sync_uav_group;
        if (mode & 8)
            f |= vsir::flag_sync_tgsm;
        return true;
    }
    case OpId::EmitStream:
    case OpId::CutStream:
    case OpId::EmitThenCutStream: {
        uint32_t stream = 0;
        constant_u32(arg(inst, 1), stream);
        bool streams = entry_->gs_stream_mask > 1;
        if (!streams) {
            emit(op == OpId::EmitStream ? Opcode::emit : op == OpId::CutStream ? Opcode::cut : Opcode::emit_then_cut,
                 {}, {});
            return true;
        }
        vsir::SrcParam m;
        m.reg = vsir::make_register(RegisterFile::stream, DataType::opaque, vsir::Dimension::none,
                                    std::span<const uint32_t>(&stream, 1));
        emit(op == OpId::EmitStream ? Opcode::emit_stream
             : op == OpId::CutStream ? Opcode::cut_stream
                                     : Opcode::emit_then_cut_stream,
             {}, {m});
        return true;
    }
    case OpId::AttributeAtVertex: {
        // (input signature id, row, column, vertex 0-2): a nointerpolation input at one of the vertices.
        vsir::Register reg;
        uint8_t comp = 0;
        if (!io_register(IoKind::input, arg(inst, 1), arg(inst, 2), arg(inst, 3), no_id, t, reg, comp))
            return true;
        uint32_t vertex = 0;
        if (!constant_u32(arg(inst, 4), vertex) || vertex > 2) {
            error(Code::dxil_lower_bad_operand, "AttributeAtVertex: the vertex must be a constant 0, 1 or 2");
            return true;
        }
        vsir::SrcParam in;
        in.reg = reg;
        in.swizzle = uint8_t(comp * 0x55);
        emit(Opcode::attribute_at_vertex, {new_ssa(inst.result, t)}, {in, immediate(DataType::u32, vertex)});
        return true;
    }
    case OpId::EvalCentroid:
    case OpId::EvalSampleIndex:
    case OpId::EvalSnapped: {
        vsir::Register reg;
        uint8_t comp = 0;
        if (!io_register(IoKind::input, arg(inst, 1), arg(inst, 2), arg(inst, 3), no_id, DataType::f32, reg, comp))
            return true;
        vsir::SrcParam in;
        in.reg = reg;
        in.swizzle = uint8_t(comp * 0x55);
        if (op == OpId::EvalCentroid) {
            emit(Opcode::eval_centroid, {new_ssa(inst.result, t)}, {in});
        } else if (op == OpId::EvalSampleIndex) {
            emit(Opcode::eval_sample_index, {new_ssa(inst.result, t)}, {in, src(arg(inst, 4), DataType::i32)});
        } else {
            vsir::SrcParam offset = build_vec({arg(inst, 4), arg(inst, 5)}, DataType::i32, 0);
            emit(Opcode::eval_snapped, {new_ssa(inst.result, t)}, {in, offset});
        }
        return true;
    }
    case OpId::RenderTargetGetSampleCount: {
        vsir::SrcParam r;
        r.reg = vsir::make_register(RegisterFile::rasterizer, DataType::opaque, vsir::Dimension::none, {});
        uint32_t i = emit(Opcode::sampleinfo, {new_ssa(inst.result, DataType::u32)}, {r});
        p_.instructions[i].flags |= vsir::flag_resinfo_uint;
        return true;
    }
    case OpId::RenderTargetGetSamplePosition: {
        vsir::SrcParam r;
        r.reg = vsir::make_register(RegisterFile::rasterizer, DataType::opaque, vsir::Dimension::none, {});
        vsir::DstParam d = new_ssa_vec(no_id, DataType::f32, 0x3);
        emit(Opcode::samplepos, {d}, {r, src(arg(inst, 1), DataType::i32)});
        set_result_vec(inst.result, d.reg.idx[0].offset, DataType::f32, 2);
        return true;
    }
    default: return false;
    }
}

} // namespace dxspv::dxil::lower

// DXIL lowering: resource handles and every op that reads or writes a
// resource (constant buffers, buffers, textures, samples, gathers, atomics,
// counters, dimensions).
//
// A handle is not an instruction: createHandle* and annotateHandle resolve
// to (register file, range id, absolute register index); each access builds
// the SM5.1-form register `t[range][index]` from it (VSIR.md convention 3).
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;
using ops::OpId;
using D = vsir::ResourceDimension;

RegisterFile class_file(uint32_t cls)
{
    switch (cls) {
    case 0: return RegisterFile::resource;
    case 1: return RegisterFile::uav;
    case 2: return RegisterFile::constant_buffer;
    default: return RegisterFile::sampler;
    }
}

uint32_t file_class(RegisterFile f)
{
    switch (f) {
    case RegisterFile::resource: return 0;
    case RegisterFile::uav: return 1;
    case RegisterFile::constant_buffer: return 2;
    default: return 3;
    }
}

/// Coordinates a texture of this dimension takes (array index included).
uint32_t coordinate_count(D dim)
{
    switch (dim) {
    case D::buffer:
    case D::texture_1d: return 1;
    case D::texture_1d_array:
    case D::texture_2d:
    case D::texture_2dms: return 2;
    case D::texture_cube_array: return 4;
    default: return 3;
    }
}

} // namespace

bool Lowerer::lower_handle_op(ops::OpId op, const Instruction& inst)
{
    switch (op) {
    case OpId::CreateHandle: {
        uint32_t cls = 0, range = 0;
        if (!constant_u32(arg(inst, 1), cls) || !constant_u32(arg(inst, 2), range) || cls > 3) {
            error(Code::dxil_lower_bad_operand, "createHandle with a non-constant class or range");
            return true;
        }
        if (range >= resources_[cls].size() || !resources_[cls][range]) {
            error(Code::dxil_lower_bad_resource, "createHandle of undeclared resource range %u (class %u)", range, cls);
            return true;
        }
        make_handle(inst.result, class_file(cls), range, arg(inst, 3), arg(inst, 4));
        return true;
    }
    case OpId::CreateHandleFromBinding: {
        // bind = { i32 lower, i32 upper, i32 space, i8 class } (a constant struct)
        const Constant* b = constant_of(arg(inst, 1));
        uint32_t lower = 0, space = 0, cls = 0;
        if (!b || b->kind != ConstantKind::aggregate || b->operands.size() < 4 ||
            !constant_u32(b->operands[0], lower) || !constant_u32(b->operands[2], space) ||
            !constant_u32(b->operands[3], cls) || cls > 3) {
            if (b && b->kind == ConstantKind::null) {
                lower = space = cls = 0;
            } else {
                error(Code::dxil_lower_bad_operand, "createHandleFromBinding with a malformed binding");
                return true;
            }
        }
        uint32_t range = range_id_for_binding(ResourceClass(cls), space, lower);
        if (range == ~0u) {
            error(Code::dxil_lower_bad_resource, "no declared resource of class %u binds register %u, space %u", cls,
                  lower, space);
            return true;
        }
        make_handle(inst.result, class_file(cls), range, arg(inst, 2), arg(inst, 3));
        return true;
    }
    case OpId::AnnotateHandle: {
        const Operand& h = operand(arg(inst, 1));
        if (h.kind != Operand::Kind::handle) {
            handle_operand(arg(inst, 1)); // reports it
            return true;
        }
        Operand annotated = h;
        if (annotated.file == RegisterFile::null) {
            // A heap handle: its type (and so its range) comes from the properties.
            uint32_t p0 = 0, p1 = 0;
            const HeapRange* r = heap_properties(arg(inst, 2), p0, p1) ? find_heap_range(p0, p1) : nullptr;
            if (!r) {
                error(Code::dxil_lower_bad_resource, "annotateHandle of a heap handle with unsupported properties "
                                                     "(0x%x, 0x%x)", p0, p1);
                return true;
            }
            annotated.file = r->file;
            annotated.range_id = r->range_id;
        }
        define(inst.result) = annotated;
        return true;
    }
    case OpId::CreateHandleFromHeap: {
        // (index, samplerHeap, nonUniform): typed by the annotateHandle that follows.
        make_handle(inst.result, RegisterFile::null, 0, arg(inst, 1), arg(inst, 3));
        return true;
    }
    default: return false;
    }
}

void Lowerer::make_handle(ValueId result, RegisterFile file, uint32_t range, ValueId index, ValueId non_uniform)
{
    Operand h;
    h.kind = Operand::Kind::handle;
    h.file = file;
    h.range_id = range;
    uint32_t v = 0;
    if (constant_u32(index, v))
        h.index_offset = v;
    else
        h.index_src = rel_index(index);
    uint32_t nu = 0;
    h.non_uniform = constant_u32(non_uniform, nu) && nu != 0;
    define(result) = h;
}

const Operand* Lowerer::handle_operand(ValueId id)
{
    const Operand& h = operand(id);
    if (h.kind != Operand::Kind::handle || h.file == RegisterFile::null) {
        if (!errors_)
            error(Code::dxil_lower_bad_resource, "a resource operand is not a handle from createHandle*");
        return nullptr;
    }
    return &h;
}

const ResourceBinding* Lowerer::binding_of(const Operand& h) const
{
    uint32_t cls = file_class(h.file);
    return h.range_id < resources_[cls].size() ? resources_[cls][h.range_id] : nullptr;
}

vsir::Register Lowerer::resource_register(const Operand& h)
{
    vsir::Register r;
    r.file = h.file;
    r.type = DataType::opaque;
    r.dimension = vsir::Dimension::none;
    r.index_count = h.file == RegisterFile::constant_buffer ? 3 : 2;
    r.idx[0].offset = h.range_id;
    r.idx[1].offset = h.index_offset;
    r.idx[1].rel_addr = h.index_src;
    if (h.non_uniform)
        r.flags |= vsir::register_non_uniform;
    return r;
}

vsir::SrcParam Lowerer::handle_index(const Operand& h)
{
    if (h.index_src == ~0u)
        return immediate(DataType::u32, h.index_offset);
    vsir::SrcParam s = p_.srcs[h.index_src];
    s.reg.type = DataType::u32;
    return s;
}

/// A vec4 source holding `values` (undef or missing components are 0):
/// an immediate when all are constants, else scratch temp `slot`.
vsir::SrcParam Lowerer::build_vec(std::initializer_list<ValueId> values, DataType type, uint32_t slot)
{
    vsir::SrcParam comps[4];
    uint32_t n = 0, used = 0;
    for (ValueId v : values) {
        if (n == 4)
            break;
        if (v == no_id || is_undef(v)) {
            comps[n].reg = vsir::make_immediate(type, 0);
        } else {
            comps[n] = src(v, type);
            used = n + 1;
        }
        ++n;
    }
    // Trailing absent components are not part of the vector.
    return build_vec_from(comps, used ? used : 1, type, slot);
}

vsir::SrcParam Lowerer::build_vec_from(const vsir::SrcParam* comps, uint32_t n, DataType type, uint32_t slot)
{
    bool constant = true;
    uint32_t bits[4] = {0, 0, 0, 0};
    for (uint32_t i = 0; i < n && i < 4; ++i) {
        if (comps[i].reg.file == RegisterFile::immediate && comps[i].modifier == vsir::SrcModifier::none)
            bits[i] = comps[i].reg.u32[vsir::swizzle_component(comps[i].swizzle, 0)];
        else
            constant = false;
    }
    vsir::SrcParam s;
    if (n == 1 && !constant) {
        // One component: read it in place (its swizzle replicates it).
        s = comps[0];
        s.reg.type = type;
        return s;
    }
    if (constant) {
        s.reg = vsir::make_immediate_vec4(type, bits[0], bits[1], bits[2], bits[3]);
        return s;
    }
    while (scratch_.size() <= slot)
        scratch_.push_back(p_.temp_count++);
    uint32_t reg = scratch_[slot];
    for (uint32_t i = 0; i < n && i < 4; ++i) {
        vsir::DstParam d;
        d.reg = vsir::make_register(RegisterFile::temp, type, vsir::Dimension::vec4, std::span<const uint32_t>(&reg, 1));
        d.write_mask = uint8_t(1u << i);
        vsir::SrcParam c = comps[i];
        c.reg.type = type;
        emit(Opcode::mov, {d}, {c});
    }
    s.reg = vsir::make_register(RegisterFile::temp, type, vsir::Dimension::vec4, std::span<const uint32_t>(&reg, 1));
    s.swizzle = n >= 4 ? vsir::swizzle_identity
                       : vsir::make_swizzle(0, n > 1 ? 1 : 0, n > 2 ? 2 : (n ? n - 1 : 0), n ? n - 1 : 0);
    return s;
}

/// Texel offsets of a sample/load/gather: constants into the instruction,
/// false when one is not a constant (programmable offsets).
bool Lowerer::texel_offsets(const Instruction& inst, uint32_t first_arg, uint32_t count, uint32_t vsir_inst)
{
    for (uint32_t i = 0; i < count; ++i) {
        ValueId v = arg(inst, first_arg + i);
        if (v == no_id || is_undef(v))
            continue;
        uint32_t k = 0;
        if (!constant_u32(v, k))
            return false;
        p_.instructions[vsir_inst].texel_offset[i] = int8_t(int32_t(k));
    }
    return true;
}

/// Result of a load/sample: a vec4 SSA value plus, when member 4 (the
/// status) of the ResRet is read, a residency status; returns the dsts.
void Lowerer::resret_result(const Instruction& inst, DataType type, uint8_t mask, vsir::DstParam& value,
                            vsir::DstParam& status, bool& want_status)
{
    uint32_t local = inst.result - uint32_t(m_.values.size());
    uint8_t used = local < member_use_.size() ? member_use_[local] : 0xff;
    want_status = (used >> 4) & 1;
    value = new_ssa_vec(no_id, type, mask ? mask : 0xf);
    if (want_status) {
        vsir::SrcParam unused;
        status = temp_ssa(DataType::u32, unused);
    }
}

void Lowerer::finish_resret(const Instruction& inst, DataType type, const vsir::DstParam& value,
                            const vsir::DstParam& status, bool want_status)
{
    set_result_vec(inst.result, value.reg.idx[0].offset, type, 4);
    Operand& agg = define(inst.result);
    Operand st;
    if (want_status) {
        st.kind = Operand::Kind::src;
        st.type = DataType::u32;
        st.src.reg = status.reg;
        st.src.swizzle = 0;
    } else {
        st.kind = Operand::Kind::undef;
        st.type = DataType::u32;
    }
    aggregate_parts_.push_back(st);
    agg.part_count = 5;
}

Opcode Lowerer::sparse_form(Opcode op) const
{
    switch (op) {
    case Opcode::ld: return Opcode::ld_s;
    case Opcode::ld2dms: return Opcode::ld2dms_s;
    case Opcode::ld_uav_typed: return Opcode::ld_uav_typed_s;
    case Opcode::ld_raw: return Opcode::ld_raw_s;
    case Opcode::ld_structured: return Opcode::ld_structured_s;
    case Opcode::sample_l: return Opcode::sample_l_s;
    case Opcode::sample_c_lz: return Opcode::sample_c_lz_s;
    case Opcode::gather4: return Opcode::gather4_s;
    case Opcode::gather4_c: return Opcode::gather4_c_s;
    case Opcode::gather4_po: return Opcode::gather4_po_s;
    case Opcode::gather4_po_c: return Opcode::gather4_po_c_s;
    case Opcode::sample_cl: return Opcode::sample_cl_s;
    case Opcode::sample_b_cl: return Opcode::sample_b_cl_s;
    case Opcode::sample_d_cl: return Opcode::sample_d_cl_s;
    case Opcode::sample_c_cl: return Opcode::sample_c_cl_s;
    default: return Opcode::nop;
    }
}

/// Emits `op` with the value dst (and status dst in the sparse form).
void Lowerer::emit_resret(Opcode op, const Instruction& inst, DataType type, uint8_t mask,
                          std::initializer_list<vsir::SrcParam> srcs, uint32_t offsets_arg, uint32_t offset_count)
{
    vsir::DstParam value, status;
    bool want_status = false;
    resret_result(inst, type, mask, value, status, want_status);
    Opcode o = op;
    if (want_status) {
        o = sparse_form(op);
        if (o == Opcode::nop) {
            std::string n = std::string(vsir::opcode_info(op).name) + " with a residency status";
            unsupported("DXIL op", n.c_str());
            return;
        }
    }
    uint32_t i = want_status ? p_.add_instruction(o, 2, uint32_t(srcs.size()), inst_index_)
                             : p_.add_instruction(o, 1, uint32_t(srcs.size()), inst_index_);
    vsir::Instruction& ins = p_.instructions[i];
    p_.dsts[ins.dst_first] = value;
    if (want_status)
        p_.dsts[ins.dst_first + 1] = status;
    uint32_t k = 0;
    for (const vsir::SrcParam& s : srcs)
        p_.srcs[ins.src_first + k++] = s;
    if (offset_count && !texel_offsets(inst, offsets_arg, offset_count, i))
        unsupported("DXIL op", "texture access with non-constant texel offsets");
    finish_resret(inst, type, value, status, want_status);
}

bool Lowerer::lower_resource_op(ops::OpId op, const Instruction& inst)
{
    const Type* rt = inst.type < m_.types.size() ? &type(inst.type) : nullptr;
    DataType et = rt && rt->kind == TypeKind::struct_ && !rt->members.empty() ? data_type(rt->members[0])
                                                                                : data_type(inst.type);
    switch (op) {
    case OpId::CBufferLoad:
        lower_cbuffer_load(inst, et);
        return true;
    case OpId::CBufferLoadLegacy: lower_cbuffer_load_legacy(inst, et); return true;
    case OpId::BufferLoad:
    case OpId::RawBufferLoad: lower_buffer_load(op, inst, et); return true;
    case OpId::BufferStore:
    case OpId::RawBufferStore: lower_buffer_store(inst); return true;
    case OpId::TextureLoad: lower_texture_load(inst, et); return true;
    case OpId::TextureStore: lower_texture_store(inst); return true;
    case OpId::Sample:
    case OpId::SampleBias:
    case OpId::SampleLevel:
    case OpId::SampleGrad:
    case OpId::SampleCmp:
    case OpId::SampleCmpLevelZero:
    case OpId::SampleCmpLevel: return lower_sample(op, inst, et), true;
    case OpId::TextureGather:
    case OpId::TextureGatherCmp: return lower_gather(op, inst, et), true;
    case OpId::TextureGatherRaw: return lower_gather_raw(inst, et), true;
    case OpId::GetDimensions: lower_get_dimensions(inst); return true;
    case OpId::BufferUpdateCounter: {
        const Operand* h = handle_operand(arg(inst, 1));
        if (!h)
            return true;
        uint32_t inc = 0;
        constant_u32(arg(inst, 2), inc);
        vsir::SrcParam res;
        res.reg = resource_register(*h);
        emit(int8_t(inc) < 0 ? Opcode::imm_atomic_consume : Opcode::imm_atomic_alloc,
             {new_ssa(inst.result, DataType::u32)}, {res});
        return true;
    }
    case OpId::AtomicBinOp:
    case OpId::AtomicCompareExchange: return lower_resource_atomic(op, inst), true;
    case OpId::CheckAccessFullyMapped: {
        vsir::SrcParam mask;
        emit(Opcode::check_access_fully_mapped, {temp_ssa(DataType::u32, mask)}, {src(arg(inst, 1), DataType::u32)});
        emit(Opcode::ine, {new_ssa(inst.result, DataType::boolean)}, {mask, immediate(DataType::u32, 0)});
        return true;
    }
    case OpId::CalculateLOD: lower_calculate_lod(inst); return true;
    case OpId::Texture2DMSGetSamplePosition: {
        const Operand* h = handle_operand(arg(inst, 1));
        if (!h)
            return true;
        vsir::SrcParam res;
        res.reg = resource_register(*h);
        vsir::DstParam d = new_ssa_vec(no_id, DataType::f32, 0x3);
        emit(Opcode::samplepos, {d}, {res, src(arg(inst, 2), DataType::i32)});
        set_result_vec(inst.result, d.reg.idx[0].offset, DataType::f32, 2);
        return true;
    }
    default: return false;
    }
}

void Lowerer::lower_cbuffer_load_legacy(const Instruction& inst, DataType et)
{
    const Type* rt = inst.type < m_.types.size() ? &type(inst.type) : nullptr;
    const Operand* h = handle_operand(arg(inst, 1));
    if (!h)
        return;
    uint32_t members = rt && rt->kind == TypeKind::struct_ ? uint32_t(rt->members.size()) : 0;
    if (members != 4 && members != 2 && members != 8) {
        unsupported("DXIL op", "CBufferLoadLegacy of this return type");
        return;
    }
    vsir::Register reg = resource_register(*h);
    reg.type = et;
    reg.dimension = vsir::Dimension::vec4;
    uint32_t row = 0;
    if (constant_u32(arg(inst, 2), row))
        reg.idx[2].offset = row;
    else
        reg.idx[2].rel_addr = rel_index(arg(inst, 2));
    if (members == 8) {
        cbuffer_halves(inst, reg, et);
        return;
    }
    uint32_t first = uint32_t(aggregate_parts_.size());
    for (uint32_t k = 0; k < members; ++k) {
        Operand part;
        part.kind = Operand::Kind::src;
        part.type = et;
        part.src.reg = reg;
        part.src.swizzle = members == 2 ? (k ? vsir::make_swizzle(2, 3, 2, 3) : vsir::make_swizzle(0, 1, 0, 1))
                                        : uint8_t(k * 0x55);
        aggregate_parts_.push_back(part);
    }
    Operand& agg = define(inst.result);
    agg = {};
    agg.kind = Operand::Kind::aggregate;
    agg.first_part = first;
    agg.part_count = members;
    return;
}

void Lowerer::lower_buffer_load(ops::OpId op, const Instruction& inst, DataType et)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b)
        return;
    vsir::SrcParam res;
    res.reg = resource_register(*h);
    uint32_t local = inst.result - uint32_t(m_.values.size());
    uint8_t mask = local < member_use_.size() ? member_use_[local] & 0xf : 0xf;
    uint32_t mask_arg = 0xf;
    if (op == OpId::RawBufferLoad && constant_u32(arg(inst, 4), mask_arg))
        mask &= uint8_t(mask_arg);
    if (!mask)
        mask = 1;
    mask = uint8_t((1u << (32 - __builtin_clz(uint32_t(mask)))) - 1); // contiguous from x
    bool wide = is_64(et) || et == DataType::f16 || et == DataType::u16;
    if (wide && (b->kind == 11 || b->kind == 12)) {
        if (local < member_use_.size() && (member_use_[local] & 0x10))
            unsupported("DXIL op", "16- or 64-bit buffer loads with a residency status");
        load_wide(inst, b->kind == 12, b->stride, res, arg(inst, 2), arg(inst, 3), et,
                  uint32_t(32 - __builtin_clz(uint32_t(mask))));
        return;
    }
    if (wide) {
        unsupported("DXIL op", "typed buffer loads of 16- or 64-bit values");
        return;
    }
    if (b->kind == 11) {
        emit_resret(Opcode::ld_raw, inst, DataType::u32, mask, {src(arg(inst, 2), DataType::u32), res}, 0, 0);
    } else if (b->kind == 12) {
        emit_resret(Opcode::ld_structured, inst, DataType::u32, mask,
                    {src(arg(inst, 2), DataType::u32), src(arg(inst, 3), DataType::u32), res}, 0, 0);
    } else {
        vsir::SrcParam coord = src(arg(inst, 2), DataType::i32);
        emit_resret(h->file == RegisterFile::uav ? Opcode::ld_uav_typed : Opcode::ld, inst, et, 0xf,
                    {coord, res}, 0, 0);
    }
    retype_parts(inst.result, et);
    return;
}

void Lowerer::lower_buffer_store(const Instruction& inst)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b)
        return;
    uint32_t mask = 0xf;
    constant_u32(arg(inst, 8), mask);
    DataType vt = data_type(type_of(arg(inst, 4)));
    if ((is_64(vt) || vt == DataType::f16 || vt == DataType::u16) && (b->kind == 11 || b->kind == 12)) {
        // Stored elements: x, then y, ... up to the last mask bit (masked-out
        // 16-bit elements in between are skipped).
        vsir::SrcParam values[4];
        uint32_t n = 0;
        for (uint32_t k = 0; k < 4; ++k)
            if (mask >> k & 1) {
                values[k] = src(arg(inst, 4 + k), vt);
                n = k + 1;
            }
        bool structured = b->kind == 12;
        store_elements(structured, b->stride, resource_register(*h),
                       structured ? src(arg(inst, 2), DataType::u32) : vsir::SrcParam{},
                       src(structured ? arg(inst, 3) : arg(inst, 2), DataType::u32), vt, values, n);
        return;
    }
    if (is_64(vt) || vt == DataType::f16 || vt == DataType::u16) {
        unsupported("DXIL op", "typed buffer stores of 16- or 64-bit values");
        return;
    }
    vsir::DstParam d;
    d.reg = resource_register(*h);
    d.write_mask = uint8_t(mask & 0xf);
    bool typed = b->kind != 11 && b->kind != 12;
    DataType st = typed ? vt : DataType::u32;
    vsir::SrcParam value = build_vec({(mask & 1) ? arg(inst, 4) : no_id, (mask & 2) ? arg(inst, 5) : no_id,
                                      (mask & 4) ? arg(inst, 6) : no_id, (mask & 8) ? arg(inst, 7) : no_id},
                                     st, 0);
    if (b->kind == 11) {
        emit(Opcode::store_raw, {d}, {src(arg(inst, 2), DataType::u32), value});
    } else if (b->kind == 12) {
        emit(Opcode::store_structured, {d},
             {src(arg(inst, 2), DataType::u32), src(arg(inst, 3), DataType::u32), value});
    } else {
        d.write_mask = 0xf;
        vsir::SrcParam coord = src(arg(inst, 2), DataType::i32);
        emit(Opcode::store_uav_typed, {d}, {coord, value});
    }
    return;
}

void Lowerer::lower_texture_load(const Instruction& inst, DataType et)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b)
        return;
    vsir::SrcParam res;
    res.reg = resource_register(*h);
    D dim = dimension_for(*b);
    uint32_t n = coordinate_count(dim);
    ValueId c[3] = {arg(inst, 3), n > 1 ? arg(inst, 4) : no_id, n > 2 ? arg(inst, 5) : no_id};
    bool ms = dim == D::texture_2dms || dim == D::texture_2dms_array;
    if (h->file == RegisterFile::uav) {
        emit_resret(Opcode::ld_uav_typed, inst, et, 0xf, {build_vec({c[0], c[1], c[2]}, DataType::i32, 0), res},
                    0, 0);
    } else if (ms) {
        emit_resret(Opcode::ld2dms, inst, et, 0xf,
                    {build_vec({c[0], c[1], c[2]}, DataType::i32, 0), res, src(arg(inst, 2), DataType::i32)},
                    6, 3);
    } else {
        emit_resret(Opcode::ld, inst, et, 0xf,
                    {build_vec({c[0], c[1], c[2], arg(inst, 2)}, DataType::i32, 0), res}, 6, 3);
    }
    return;
}

void Lowerer::lower_texture_store(const Instruction& inst)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b)
        return;
    uint32_t n = coordinate_count(dimension_for(*b));
    DataType vt = data_type(type_of(arg(inst, 5)));
    vsir::DstParam d;
    d.reg = resource_register(*h);
    d.write_mask = 0xf;
    vsir::SrcParam coords =
        build_vec({arg(inst, 2), n > 1 ? arg(inst, 3) : no_id, n > 2 ? arg(inst, 4) : no_id}, DataType::i32, 0);
    vsir::SrcParam value = build_vec({arg(inst, 5), arg(inst, 6), arg(inst, 7), arg(inst, 8)}, vt, 1);
    emit(Opcode::store_uav_typed, {d}, {coords, value});
    return;
}

void Lowerer::lower_get_dimensions(const Instruction& inst)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b)
        return;
    vsir::SrcParam res;
    res.reg = resource_register(*h);
    D dim = dimension_for(*b);
    vsir::DstParam d = new_ssa_vec(no_id, DataType::u32, dim == D::buffer || b->kind == 11 || b->kind == 12
                                                              ? 0x1
                                                              : 0xf);
    if (dim == D::buffer || b->kind == 11 || b->kind == 12) {
        emit(Opcode::bufinfo, {d}, {res});
    } else {
        uint32_t i = emit(Opcode::resinfo, {d}, {src(arg(inst, 2), DataType::u32), res});
        p_.instructions[i].flags |= vsir::flag_resinfo_uint;
    }
    set_result_vec(inst.result, d.reg.idx[0].offset, DataType::u32, 4);
    if (d.write_mask == 0x1)
        for (uint32_t k = 1; k < 4; ++k)
            aggregate_parts_[define(inst.result).first_part + k] = Operand{Operand::Kind::undef, DataType::u32};
    return;
}

void Lowerer::lower_calculate_lod(const Instruction& inst)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const Operand* s = handle_operand(arg(inst, 2));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b || !s)
        return;
    uint32_t n = std::min(coordinate_count(dimension_for(*b)), 3u);
    uint32_t clamped = 1;
    constant_u32(arg(inst, 6), clamped);
    vsir::SrcParam res, smp;
    res.reg = resource_register(*h);
    smp.reg = resource_register(*s);
    vsir::DstParam d = new_ssa_vec(no_id, DataType::f32, 0x3);
    emit(Opcode::lod, {d},
         {build_vec({arg(inst, 3), n > 1 ? arg(inst, 4) : no_id, n > 2 ? arg(inst, 5) : no_id}, DataType::f32, 0),
          res, smp});
    Operand& o = define(inst.result);
    o = {};
    o.kind = Operand::Kind::src;
    o.type = DataType::f32;
    o.src.reg = d.reg;
    o.src.swizzle = clamped ? 0x00 : 0x55;
    return;
}


D Lowerer::dimension_for(const ResourceBinding& b) const
{
    D d = dimension_of_kind(b.kind);
    return d == D::unknown ? D::buffer : d;
}

/// The parts of a load result read as `type` (raw loads produce u32 words
/// that the program reads as floats or ints of the overload).
void Lowerer::retype_parts(ValueId result, DataType type)
{
    Operand& agg = define(result);
    if (agg.kind != Operand::Kind::aggregate)
        return;
    for (uint32_t k = 0; k < agg.part_count && k < 4; ++k) {
        Operand& p = aggregate_parts_[agg.first_part + k];
        p.type = type;
        p.src.reg.type = type;
    }
}

void Lowerer::lower_sample(ops::OpId op, const Instruction& inst, DataType et)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const Operand* s = handle_operand(arg(inst, 2));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b || !s)
        return;
    uint32_t n = coordinate_count(dimension_for(*b));
    ValueId c[4] = {arg(inst, 3), n > 1 ? arg(inst, 4) : no_id, n > 2 ? arg(inst, 5) : no_id,
                    n > 3 ? arg(inst, 6) : no_id};
    vsir::SrcParam res, smp;
    res.reg = resource_register(*h);
    smp.reg = resource_register(*s);
    vsir::SrcParam coords = build_vec({c[0], c[1], c[2], c[3]}, DataType::f32, 0);
    // Optional trailing min-LOD clamp: undef is none, anything else selects
    // the *_cl form with the clamp as its last source.
    auto sample = [&](Opcode plain, Opcode clamped, uint32_t clamp_arg, std::initializer_list<vsir::SrcParam> srcs) {
        ValueId clamp = arg(inst, clamp_arg);
        if (clamp == no_id || is_undef(clamp)) {
            emit_resret(plain, inst, et, 0xf, srcs, 7, 3);
            return;
        }
        vsir::SrcParam all[6];
        uint32_t k = 0;
        for (const vsir::SrcParam& part : srcs)
            all[k++] = part;
        all[k++] = src(clamp, DataType::f32);
        switch (k) {
        case 4: emit_resret(clamped, inst, et, 0xf, {all[0], all[1], all[2], all[3]}, 7, 3); break;
        case 5: emit_resret(clamped, inst, et, 0xf, {all[0], all[1], all[2], all[3], all[4]}, 7, 3); break;
        default: emit_resret(clamped, inst, et, 0xf, {all[0], all[1], all[2], all[3], all[4], all[5]}, 7, 3); break;
        }
    };
    switch (op) {
    case OpId::Sample: sample(Opcode::sample, Opcode::sample_cl, 10, {coords, res, smp}); break;
    case OpId::SampleBias:
        sample(Opcode::sample_b, Opcode::sample_b_cl, 11, {coords, res, smp, src(arg(inst, 10), DataType::f32)});
        break;
    case OpId::SampleLevel:
        emit_resret(Opcode::sample_l, inst, et, 0xf, {coords, res, smp, src(arg(inst, 10), DataType::f32)}, 7, 3);
        break;
    case OpId::SampleGrad: {
        uint32_t g = std::min(n, 3u) - (n == 4 || (n == 2 && dimension_for(*b) == D::texture_1d_array) ||
                                                (n == 3 && dimension_for(*b) == D::texture_2d_array)
                                            ? 1
                                            : 0);
        vsir::SrcParam ddx = build_vec({arg(inst, 10), g > 1 ? arg(inst, 11) : no_id, g > 2 ? arg(inst, 12) : no_id},
                                       DataType::f32, 1);
        vsir::SrcParam ddy = build_vec({arg(inst, 13), g > 1 ? arg(inst, 14) : no_id, g > 2 ? arg(inst, 15) : no_id},
                                       DataType::f32, 2);
        sample(Opcode::sample_d, Opcode::sample_d_cl, 16, {coords, res, smp, ddx, ddy});
        break;
    }
    case OpId::SampleCmp:
        sample(Opcode::sample_c, Opcode::sample_c_cl, 11, {coords, res, smp, src(arg(inst, 10), DataType::f32)});
        break;
    case OpId::SampleCmpLevelZero:
        emit_resret(Opcode::sample_c_lz, inst, et, 0xf, {coords, res, smp, src(arg(inst, 10), DataType::f32)}, 7, 3);
        break;
    default: unsupported("DXIL op", "SampleCmpLevel"); break;
    }
}

/// CBufferLoad (the byte-offset form): the word at offset >> 2 of row
/// offset >> 4 (a dynamic column is picked with movc), and for 16-bit
/// values its half at bit (offset & 2) * 8.
void Lowerer::lower_cbuffer_load(const Instruction& inst, DataType et)
{
    const Operand* h = handle_operand(arg(inst, 1));
    if (!h)
        return;
    if (is_64(et)) {
        unsupported("DXIL op", "CBufferLoad of 64-bit values");
        return;
    }
    bool half = et == DataType::f16 || et == DataType::i16 || et == DataType::u16;
    vsir::Register reg = resource_register(*h);
    reg.type = DataType::u32;
    reg.dimension = vsir::Dimension::vec4;
    vsir::SrcParam word, offset = src(arg(inst, 2), DataType::u32);
    uint32_t bytes = 0;
    bool constant = constant_u32(arg(inst, 2), bytes);
    auto shifted = [&](const vsir::SrcParam& v, Opcode o, uint32_t amount) {
        vsir::SrcParam r;
        emit(o, {temp_ssa(DataType::u32, r)}, {v, immediate(DataType::u32, amount)});
        return r;
    };
    if (constant) {
        reg.idx[2].offset = bytes >> 4;
        word.reg = reg;
        word.swizzle = uint8_t(((bytes >> 2) & 3) * 0x55);
    } else {
        vsir::SrcParam row = shifted(offset, Opcode::ushr, 4);
        reg.idx[2].rel_addr = p_.add_src(row);
        vsir::SrcParam column = shifted(shifted(offset, Opcode::ushr, 2), Opcode::and_, 3);
        word.reg = reg;
        word.swizzle = 0;
        for (uint32_t c = 1; c < 4; ++c) {
            vsir::SrcParam is_c, picked, candidate;
            emit(Opcode::ieq, {temp_ssa(DataType::boolean, is_c)}, {column, immediate(DataType::u32, c)});
            candidate.reg = reg;
            candidate.swizzle = uint8_t(c * 0x55);
            emit(Opcode::movc, {temp_ssa(DataType::u32, picked)}, {is_c, candidate, word});
            word = picked;
        }
    }
    vsir::SrcParam value;
    if (half) {
        if (!constant || (bytes & 2)) {
            vsir::SrcParam amount = constant ? immediate(DataType::u32, 16)
                                             : shifted(shifted(offset, Opcode::and_, 2), Opcode::ishl, 3);
            vsir::SrcParam high;
            emit(Opcode::ushr, {temp_ssa(DataType::u32, high)}, {word, amount});
            word = high;
        }
        emit(Opcode::utou, {temp_ssa(DataType::u16, value)}, {word});
    } else {
        emit(Opcode::mov, {temp_ssa(DataType::u32, value)}, {word});
    }
    value.reg.type = et;
    Operand& o = define(inst.result);
    o = {};
    o.kind = Operand::Kind::src;
    o.type = et;
    o.src = value;
}

/// CBufRet.f16.8 / i16.8 (native 16-bit types): member k is the low (k
/// even) or high half of word k / 2 of the row `reg`; each member read is a
/// ushr and a utou to 16 bits, read back as `et`.
void Lowerer::cbuffer_halves(const Instruction& inst, vsir::Register reg, DataType et)
{
    uint32_t local = inst.result - uint32_t(m_.values.size());
    uint8_t used = local < member_use_.size() ? member_use_[local] : 0xff;
    reg.type = DataType::u32;
    uint32_t first = uint32_t(aggregate_parts_.size());
    for (uint32_t k = 0; k < 8; ++k) {
        Operand part;
        part.kind = Operand::Kind::undef;
        part.type = et;
        if (used & (1u << k)) {
            vsir::SrcParam word;
            word.reg = reg;
            word.swizzle = uint8_t((k / 2) * 0x55);
            if (k & 1) {
                vsir::SrcParam high;
                emit(Opcode::ushr, {temp_ssa(DataType::u32, high)}, {word, immediate(DataType::u32, 16)});
                word = high;
            }
            vsir::SrcParam half;
            emit(Opcode::utou, {temp_ssa(DataType::u16, half)}, {word});
            part.kind = Operand::Kind::src;
            part.src = half;
            part.src.reg.type = et;
        }
        aggregate_parts_.push_back(part);
    }
    Operand& agg = define(inst.result);
    agg = {};
    agg.kind = Operand::Kind::aggregate;
    agg.first_part = first;
    agg.part_count = 8;
}

void Lowerer::lower_gather(ops::OpId op, const Instruction& inst, DataType et)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const Operand* s = handle_operand(arg(inst, 2));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b || !s)
        return;
    uint32_t n = coordinate_count(dimension_for(*b));
    vsir::SrcParam res, smp;
    res.reg = resource_register(*h);
    smp.reg = resource_register(*s);
    // As in SM5's gather4: the sampler's swizzle selects the gathered
    // channel, the resource's swizzle orders the four results.
    uint32_t channel = 0;
    constant_u32(arg(inst, 9), channel);
    smp.swizzle = uint8_t((channel & 3) * 0x55);
    vsir::SrcParam coords = build_vec({arg(inst, 3), n > 1 ? arg(inst, 4) : no_id, n > 2 ? arg(inst, 5) : no_id,
                                       n > 3 ? arg(inst, 6) : no_id},
                                      DataType::f32, 0);
    uint32_t o0 = 0, o1 = 0;
    bool constant_offsets = (is_undef(arg(inst, 7)) || constant_u32(arg(inst, 7), o0)) &&
                            (is_undef(arg(inst, 8)) || constant_u32(arg(inst, 8), o1));
    if (constant_offsets) {
        if (op == OpId::TextureGather)
            emit_resret(Opcode::gather4, inst, et, 0xf, {coords, res, smp}, 7, 2);
        else
            emit_resret(Opcode::gather4_c, inst, et, 0xf, {coords, res, smp, src(arg(inst, 10), DataType::f32)}, 7, 2);
        return;
    }
    vsir::SrcParam offset = build_vec({arg(inst, 7), arg(inst, 8)}, DataType::i32, 1);
    if (op == OpId::TextureGather)
        emit_resret(Opcode::gather4_po, inst, et, 0xf, {coords, offset, res, smp}, 0, 0);
    else
        emit_resret(Opcode::gather4_po_c, inst, et, 0xf, {coords, offset, res, smp, src(arg(inst, 10), DataType::f32)},
                    0, 0);
}

/// TextureGatherRaw (SM 6.7; srv, sampler, coord0-2, offset0-1): the raw
/// bits of the red channel of a view of a 16-, 32- or 64-bit UINT format
/// (R16_UINT, R32_UINT, R32G32_UINT), which the resource declares as uint
/// (return_type_of). 16 and 32 bits are a plain gather4; 64 bits gather the
/// two words (red and green) and pack them.
void Lowerer::lower_gather_raw(const Instruction& inst, DataType et)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const Operand* s = handle_operand(arg(inst, 2));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b || !s)
        return;
    uint32_t n = coordinate_count(dimension_for(*b));
    vsir::SrcParam res, smp;
    res.reg = resource_register(*h);
    smp.reg = resource_register(*s);
    smp.swizzle = 0;
    vsir::SrcParam coords =
        build_vec({arg(inst, 3), n > 1 ? arg(inst, 4) : no_id, n > 2 ? arg(inst, 5) : no_id}, DataType::f32, 0);
    uint32_t o = 0;
    bool constant_offsets = (is_undef(arg(inst, 6)) || constant_u32(arg(inst, 6), o)) &&
                            (is_undef(arg(inst, 7)) || constant_u32(arg(inst, 7), o));
    vsir::SrcParam offset;
    if (!constant_offsets)
        offset = build_vec({arg(inst, 6), arg(inst, 7)}, DataType::i32, 1);
    auto gather = [&](const vsir::DstParam& d) {
        if (constant_offsets) {
            uint32_t i = emit(Opcode::gather4, {d}, {coords, res, smp});
            texel_offsets(inst, 6, 2, i);
        } else {
            emit(Opcode::gather4_po, {d}, {coords, offset, res, smp});
        }
    };
    if (!is_64(et)) {
        if (constant_offsets)
            emit_resret(Opcode::gather4, inst, et, 0xf, {coords, res, smp}, 6, 2);
        else
            emit_resret(Opcode::gather4_po, inst, et, 0xf, {coords, offset, res, smp}, 0, 0);
        return;
    }
    uint32_t local = inst.result - uint32_t(m_.values.size());
    if (local < member_use_.size() && (member_use_[local] >> 4) & 1) {
        unsupported("DXIL op", "TextureGatherRaw of 64-bit values with a residency status");
        return;
    }
    vsir::DstParam words[2];
    for (uint32_t c = 0; c < 2; ++c) {
        smp.swizzle = uint8_t(c * 0x55);
        words[c] = new_ssa_vec(no_id, DataType::u32, 0xf);
        gather(words[c]);
    }
    Operand parts[4];
    for (uint32_t k = 0; k < 4; ++k) {
        vsir::SrcParam lo, hi;
        lo.reg = words[0].reg;
        hi.reg = words[1].reg;
        lo.swizzle = hi.swizzle = uint8_t(k * 0x55);
        parts[k].kind = Operand::Kind::src;
        parts[k].type = DataType::u64;
        emit(Opcode::pack64, {temp_ssa(DataType::u64, parts[k].src)}, {lo, hi});
    }
    Operand status;
    status.kind = Operand::Kind::undef;
    status.type = DataType::u32;
    set_aggregate(inst.result, {parts[0], parts[1], parts[2], parts[3], status});
}

void Lowerer::lower_resource_atomic(ops::OpId op, const Instruction& inst)
{
    const Operand* h = handle_operand(arg(inst, 1));
    const ResourceBinding* b = h ? binding_of(*h) : nullptr;
    if (!b)
        return;
    // 64-bit values: on raw and structured buffers (8-byte aligned; the
    // emitter views the buffer as ulong[]) and on typed UAVs of 64-bit
    // components.
    bool wide = is_64(data_type(inst.type));
    DataType ut = wide ? DataType::u64 : DataType::u32, st = wide ? DataType::i64 : DataType::i32;
    // Address: raw buffers a byte offset, structured (index, byte offset),
    // typed resources their coordinates.
    bool cmpxchg = op == OpId::AtomicCompareExchange;
    uint32_t a0 = cmpxchg ? 2 : 3;
    vsir::SrcParam address;
    if (b->kind == 11)
        address = src(arg(inst, a0), DataType::u32);
    else if (b->kind == 12)
        address = build_vec({arg(inst, a0), arg(inst, a0 + 1)}, DataType::u32, 0);
    else {
        uint32_t n = coordinate_count(dimension_for(*b));
        address = build_vec({arg(inst, a0), n > 1 ? arg(inst, a0 + 1) : no_id, n > 2 ? arg(inst, a0 + 2) : no_id},
                            DataType::u32, 0);
    }
    vsir::SrcParam res;
    res.reg = resource_register(*h);
    if (cmpxchg) {
        emit(Opcode::imm_atomic_cmp_exch, {new_ssa(inst.result, ut), atomic_target(res.reg)},
             {address, src(arg(inst, 5), ut), src(arg(inst, 6), ut)});
        return;
    }
    uint32_t kind = 0;
    constant_u32(arg(inst, 2), kind);
    static const Opcode ops[] = {Opcode::imm_atomic_iadd, Opcode::imm_atomic_and,  Opcode::imm_atomic_or,
                                 Opcode::imm_atomic_xor,  Opcode::imm_atomic_imin, Opcode::imm_atomic_imax,
                                 Opcode::imm_atomic_umin, Opcode::imm_atomic_umax, Opcode::imm_atomic_exch};
    if (kind >= sizeof ops / sizeof ops[0]) {
        error(Code::dxil_lower_bad_operand, "unknown atomic operation %u", kind);
        return;
    }
    DataType vt = kind == 4 || kind == 5 ? st : ut;
    emit(ops[kind], {new_ssa(inst.result, vt), atomic_target(res.reg)}, {address, src(arg(inst, 6), vt)});
}

} // namespace dxspv::dxil::lower

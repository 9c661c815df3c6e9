// DXIL lowering: the shader stage and its properties, resources and
// signatures from the DXIL metadata, as the VSIR declarations the TPF front
// end would produce for the same shader (VSIR.md, "Declarations").
#include "dxil/lower/context.h"

#include <algorithm>
#include <cstring>

namespace dxspv::dxil::lower {

namespace {

using vsir::Opcode;

/// DXIL SemanticKind → D3D system value (TessFactor kinds need the domain).
SystemValue system_value_of(uint32_t kind, uint32_t domain)
{
    switch (kind) {
    case 1: return SystemValue::vertex_id;
    case 2: return SystemValue::instance_id;
    case 3: return SystemValue::position;
    case 4: return SystemValue::render_target_array_index;
    case 5: return SystemValue::viewport_array_index;
    case 6: return SystemValue::clip_distance;
    case 7: return SystemValue::cull_distance;
    case 10: return SystemValue::primitive_id;
    case 12: return SystemValue::sample_index;
    case 13: return SystemValue::is_front_face;
    case 14: return SystemValue::coverage;
    case 15: return SystemValue::inner_coverage;
    case 16: return SystemValue::target;
    case 17: return SystemValue::depth;
    case 18: return SystemValue::depth_less_equal;
    case 19: return SystemValue::depth_greater_equal;
    case 20: return SystemValue::stencil_ref;
    case 25:
        return domain == 1 ? SystemValue::final_line_detail_tessfactor
               : domain == 2 ? SystemValue::final_tri_edge_tessfactor
                             : SystemValue::final_quad_edge_tessfactor;
    case 26: return domain == 2 ? SystemValue::final_tri_inside_tessfactor : SystemValue::final_quad_inside_tessfactor;
    case 28: return SystemValue::barycentrics;
    case 29: return SystemValue::shading_rate;
    case 30: return SystemValue::cull_primitive;
    default: return SystemValue::none;
    }
}

/// DXIL ComponentType → signature component type.
ComponentType component_type_of(uint32_t t, bool native16, MinPrecision& precision)
{
    precision = MinPrecision::none;
    switch (t) {
    case 1: // i1
    case 5: return ComponentType::uint32;
    case 4: return ComponentType::sint32;
    case 2:
        if (native16)
            return ComponentType::sint16;
        precision = MinPrecision::sint16;
        return ComponentType::sint32;
    case 3:
        if (native16)
            return ComponentType::uint16;
        precision = MinPrecision::uint16;
        return ComponentType::uint32;
    case 6: return ComponentType::sint64;
    case 7: return ComponentType::uint64;
    case 8:
        if (native16)
            return ComponentType::float16;
        precision = MinPrecision::float16;
        return ComponentType::float32;
    case 10: return ComponentType::float64;
    default: return ComponentType::float32;
    }
}

/// DXIL ComponentType of a typed resource → VSIR return type.
DataType return_type_of(uint32_t t)
{
    switch (t) {
    case 2:
    case 4:
    case 6: return DataType::i32;
    case 1:
    case 3:
    case 5:
    case 7: return DataType::u32;
    case 10: return DataType::f64;
    case 11:
    case 13:
    case 15: return DataType::snorm;
    case 12:
    case 14:
    case 16: return DataType::unorm;
    default: return DataType::f32;
    }
}

} // namespace

/// DXIL ResourceKind of a texture or typed buffer → VSIR dimension.
vsir::ResourceDimension dimension_of_kind(uint32_t kind)
{
    using D = vsir::ResourceDimension;
    switch (kind) {
    case 1: return D::texture_1d;
    case 2: return D::texture_2d;
    case 3: return D::texture_2dms;
    case 4: return D::texture_3d;
    case 5: return D::texture_cube;
    case 6: return D::texture_1d_array;
    case 7: return D::texture_2d_array;
    case 8: return D::texture_2dms_array;
    case 9: return D::texture_cube_array;
    case 10: return D::buffer;
    case 11: return D::raw_buffer;
    case 12: return D::structured_buffer;
    default: return D::unknown;
    }
}

namespace {

} // namespace

RegisterFile file_of_class(ResourceClass c)
{
    switch (c) {
    case ResourceClass::srv: return RegisterFile::resource;
    case ResourceClass::uav: return RegisterFile::uav;
    case ResourceClass::cbv: return RegisterFile::constant_buffer;
    default: return RegisterFile::sampler;
    }
}

bool Lowerer::declare_stage()
{
    static const struct {
        const char* kind;
        ShaderStage stage;
    } kinds[] = {{"ps", ShaderStage::pixel},  {"vs", ShaderStage::vertex}, {"gs", ShaderStage::geometry},
                 {"hs", ShaderStage::hull},   {"ds", ShaderStage::domain}, {"cs", ShaderStage::compute},
                 {"lib", ShaderStage::library}, {"ms", ShaderStage::mesh}, {"as", ShaderStage::amplification}};
    for (const auto& k : kinds)
        if (md_.shader_kind == k.kind)
            stage_ = k.stage;
    if (stage_ == ShaderStage::invalid) {
        error(Code::dxil_lower_unsupported_stage, "unknown shader kind '%s'", md_.shader_kind.c_str());
        return false;
    }
    if (stage_ == ShaderStage::library || stage_ == ShaderStage::mesh || stage_ == ShaderStage::amplification) {
        static const char* const names[] = {"library (DXR / work graphs)", "mesh", "amplification"};
        int i = stage_ == ShaderStage::library ? 0 : stage_ == ShaderStage::mesh ? 1 : 2;
        error(Code::dxil_lower_unsupported_stage, "%s shaders are not supported yet", names[i]);
        return false;
    }
    p_.model = {stage_, uint8_t(md_.sm_major), uint8_t(md_.sm_minor)};
    p_.control_flow = vsir::ControlFlow::unstructured;
    native_16bit_ = (entry_->shader_flags >> 23) & 1;

    auto decl = [&](Opcode op) -> vsir::Declaration& {
        uint32_t i = p_.add_instruction(op, 0, 0);
        return p_.add_declaration(i);
    };
    const EntryPoint& e = *entry_;
    if (stage_ == ShaderStage::hull)
        p_.add_instruction(Opcode::hs_decls, 0, 0);
    switch (stage_) {
    case ShaderStage::compute: {
        vsir::Declaration& d = decl(Opcode::dcl_thread_group);
        for (int i = 0; i < 3; ++i)
            d.thread_group[i] = e.num_threads[i] ? e.num_threads[i] : 1;
        break;
    }
    case ShaderStage::geometry: {
        decl(Opcode::dcl_gs_input_primitive).value = e.gs_input_primitive;
        decl(Opcode::dcl_gs_output_topology).value = e.gs_output_topology;
        decl(Opcode::dcl_max_output_vertex_count).count = e.gs_max_vertex_count;
        if (e.gs_instance_count > 1)
            decl(Opcode::dcl_gs_instances).count = e.gs_instance_count;
        for (uint32_t s = 0; s < 4; ++s) {
            if (!(e.gs_stream_mask >> s & 1) || (s == 0 && e.gs_stream_mask == 1))
                continue;
            uint32_t i = p_.add_instruction(Opcode::dcl_stream, 1, 0);
            p_.add_declaration(i).index = s;
            vsir::DstParam& d = p_.dsts[p_.instructions[i].dst_first];
            d.reg = vsir::make_register(RegisterFile::stream, DataType::opaque, vsir::Dimension::none,
                                        std::span<const uint32_t>(&s, 1));
        }
        break;
    }
    case ShaderStage::hull:
        decl(Opcode::dcl_input_control_point_count).count = e.input_control_points;
        decl(Opcode::dcl_output_control_point_count).count = e.output_control_points;
        decl(Opcode::dcl_tessellator_domain).value = e.tess_domain;
        decl(Opcode::dcl_tessellator_partitioning).value = e.tess_partitioning;
        decl(Opcode::dcl_tessellator_output_primitive).value = e.tess_output_primitive;
        {
            uint32_t bits = uint32_t(e.max_tess_factor_bits);
            float f;
            std::memcpy(&f, &bits, 4);
            decl(Opcode::dcl_hs_max_tessfactor).float_value = f;
        }
        break;
    case ShaderStage::domain:
        decl(Opcode::dcl_tessellator_domain).value = e.tess_domain;
        decl(Opcode::dcl_input_control_point_count).count = e.input_control_points;
        break;
    default: break;
    }
    return true;
}

uint32_t Lowerer::range_id_for_binding(ResourceClass cls, uint32_t space, uint32_t lower) const
{
    for (const ResourceBinding* r : resources_[uint32_t(cls)]) {
        if (!r || r->space != space || lower < r->lower_bound)
            continue;
        if (r->range_size == 0xFFFFFFFFu || lower - r->lower_bound < r->range_size)
            return r->id;
    }
    return ~0u;
}

/// One resource declaration (dcl_resource*, dcl_uav_*, dcl_constant_buffer,
/// dcl_sampler) with the SM5.1 range form of VSIR convention 3.
void Lowerer::declare_resource(const ResourceBinding& r)
{
    Opcode op = Opcode::dcl_resource;
    vsir::ResourceDimension dim = dimension_of_kind(r.kind);
    switch (r.resource_class) {
    case ResourceClass::cbv: op = Opcode::dcl_constant_buffer; break;
    case ResourceClass::sampler: op = Opcode::dcl_sampler; break;
    case ResourceClass::srv:
    case ResourceClass::uav: {
        bool uav = r.resource_class == ResourceClass::uav;
        if (r.kind == 11)
            op = uav ? Opcode::dcl_uav_raw : Opcode::dcl_resource_raw;
        else if (r.kind == 12)
            op = uav ? Opcode::dcl_uav_structured : Opcode::dcl_resource_structured;
        else if (dim != vsir::ResourceDimension::unknown)
            op = uav ? Opcode::dcl_uav_typed : Opcode::dcl_resource;
        else {
            static const char* const kinds[] = {"tbuffer", "raytracing acceleration structure",
                                                "sampler feedback texture"};
            int k = r.kind == 15 ? 0 : r.kind == 16 ? 1 : 2;
            unsupported("resource kind", kinds[k], k == 2 ? "sampler feedback has no Vulkan or SPIR-V equivalent" : nullptr);
            return;
        }
        break;
    }
    }
    uint32_t i = p_.add_instruction(op, 1, 0);
    vsir::Declaration& d = p_.add_declaration(i);
    vsir::DstParam& dst = p_.dsts[p_.instructions[i].dst_first];
    dst.reg = vsir::make_register(file_of_class(r.resource_class), DataType::opaque, vsir::Dimension::none,
                                  std::span<const uint32_t>(&r.id, 1));
    d.index = r.id;
    d.space = r.space;
    d.range_first = r.lower_bound;
    d.range_last = r.range_size == 0xFFFFFFFFu || r.range_size == 0 ? ~0u : r.lower_bound + r.range_size - 1;
    switch (op) {
    case Opcode::dcl_constant_buffer:
        d.count = (r.cbuffer_size + 15) / 16;
        d.byte_count = d.count * 16;
        break;
    case Opcode::dcl_sampler: d.value = r.kind; break;
    case Opcode::dcl_resource:
    case Opcode::dcl_uav_typed:
        d.dimension = dim;
        d.sample_count = r.sample_count;
        for (DataType& t : d.return_type) {
            t = return_type_of(r.element_type);
            if (r.atomic64) // 64-bit components (SM 6.6 typed 64-bit atomics)
                t = t == DataType::i32 ? DataType::i64 : DataType::u64;
        }
        break;
    case Opcode::dcl_resource_structured:
    case Opcode::dcl_uav_structured: d.structure_stride = r.stride; break;
    default: break;
    }
    if (r.resource_class == ResourceClass::uav)
        d.value = (r.globally_coherent ? uint32_t(vsir::uav_globally_coherent) : 0u) |
                  (r.rasterizer_ordered ? uint32_t(vsir::uav_rasterizer_ordered) : 0u) |
                  (r.has_counter ? uint32_t(vsir::uav_has_counter) : 0u);
}

void Lowerer::declare_resources()
{
    const ScratchVector<ResourceBinding>& list = entry_->resources.empty() ? md_.resources : entry_->resources;
    for (const ResourceBinding& r : list) {
        uint32_t cls = uint32_t(r.resource_class);
        if (r.id >= (1u << 16)) {
            error(Code::dxil_lower_limit, "resource id %u is too large", r.id);
            continue;
        }
        if (resources_[cls].size() <= r.id)
            resources_[cls].resize(r.id + 1, nullptr);
        resources_[cls][r.id] = &r;
        declare_resource(r);
    }
}

} // namespace dxspv::dxil::lower

namespace dxspv::dxil::lower {

namespace {

bool is_depth_like(SystemValue sv)
{
    return sv == SystemValue::depth || sv == SystemValue::depth_less_equal ||
           sv == SystemValue::depth_greater_equal || sv == SystemValue::coverage || sv == SystemValue::stencil_ref;
}

RegisterFile special_output_file(SystemValue sv)
{
    switch (sv) {
    case SystemValue::depth: return RegisterFile::depth_out;
    case SystemValue::depth_less_equal: return RegisterFile::depth_out_le;
    case SystemValue::depth_greater_equal: return RegisterFile::depth_out_ge;
    case SystemValue::coverage: return RegisterFile::coverage_out;
    default: return RegisterFile::stencil_ref;
    }
}

/// siv: system values that are interpolated or come from the rasterizer
/// pipeline; sgv: the ones the pipeline generates per vertex / primitive.
bool is_sgv(SystemValue sv)
{
    return sv == SystemValue::vertex_id || sv == SystemValue::instance_id || sv == SystemValue::primitive_id ||
           sv == SystemValue::is_front_face || sv == SystemValue::sample_index;
}

uint32_t primitive_vertex_count(uint32_t primitive)
{
    switch (primitive) {
    case 1: return 1;
    case 2: return 2;
    case 3: return 3;
    case 6: return 4;
    case 7: return 6;
    default: return primitive >= 8 && primitive <= 39 ? primitive - 7 : 1;
    }
}

} // namespace

void Lowerer::declare_io(const SignatureList& elements, IoKind kind,
                         std::vector<dxspv::SignatureElement>& out, ScratchVector<IoMap>& map)
{
    uint64_t next_reg = 0; // 64-bit: rows are checked only below, a sum must not wrap into range
    for (const SignatureElement& e : elements)
        if (e.start_row >= 0)
            next_reg = std::max<uint64_t>(next_reg, uint64_t(e.start_row) + e.rows);
    uint32_t domain = entry_->tess_domain;
    bool ps = stage_ == ShaderStage::pixel;
    for (const SignatureElement& e : elements) {
        if (e.id >= 4096) {
            error(Code::dxil_lower_limit, "signature element id %u is too large", e.id);
            continue;
        }
        if (map.size() <= e.id)
            map.resize(e.id + 1);
        IoMap& m = map[e.id];
        SystemValue sv = system_value_of(e.semantic_kind, domain);
        m.sv = sv;
        m.rows = e.rows;
        if (kind == IoKind::output && ps && is_depth_like(sv)) {
            m.file = special_output_file(sv);
            dxspv::SignatureElement se;
            se.semantic_name = p_.arena.intern(e.name);
            se.register_index = ~0u;
            se.system_value = sv;
            se.mask = 1;
            se.component_type = component_type_of(e.component_type, native_16bit_, se.min_precision);
            out.push_back(se);
            uint32_t i = p_.add_instruction(vsir::Opcode::dcl_output, 1, 0);
            p_.add_declaration(i);
            vsir::DstParam& d = p_.dsts[p_.instructions[i].dst_first];
            d.reg = vsir::make_register(m.file, DataType::f32, vsir::Dimension::scalar, {});
            d.write_mask = 1;
            continue;
        }
        if (e.rows == 0 || e.rows > 64 || e.cols == 0 || e.cols > 4) {
            error(Code::dxil_lower_bad_signature, "signature element %u has %u rows and %u columns", e.id, e.rows,
                  e.cols);
            continue;
        }
        uint64_t first_row = e.start_row >= 0 ? uint64_t(e.start_row) : next_reg;
        uint32_t col = e.start_col >= 0 ? uint32_t(e.start_col) : 0;
        if (e.start_row < 0)
            next_reg += e.rows;
        if (col + e.cols > 4 || first_row + e.rows > 64) {
            error(Code::dxil_lower_bad_signature, "signature element %u does not fit in 64 registers", e.id);
            continue;
        }
        uint32_t first_reg = uint32_t(first_row);
        m.reg = first_reg;
        m.col = uint8_t(col);
        switch (kind) {
        case IoKind::input:
            m.file = stage_ == ShaderStage::hull || stage_ == ShaderStage::domain ? RegisterFile::input_control_point
                                                                                   : RegisterFile::input;
            break;
        case IoKind::output: m.file = RegisterFile::output; break;
        case IoKind::patch:
            m.file = stage_ == ShaderStage::domain ? RegisterFile::patch_constant : RegisterFile::output;
            break;
        }
        uint8_t mask = uint8_t(((1u << e.cols) - 1) << col);
        for (uint32_t row = 0; row < e.rows; ++row) {
            dxspv::SignatureElement se;
            se.semantic_name = p_.arena.intern(e.name);
            se.semantic_index = row < e.semantic_indices.size() ? e.semantic_indices[row] : row;
            se.stream = e.output_stream;
            se.register_index = first_reg + row;
            se.system_value = sv;
            se.mask = mask;
            se.used_mask = uint8_t((e.usage_mask << col) & 0xf);
            se.component_type = component_type_of(e.component_type, native_16bit_, se.min_precision);
            out.push_back(se);

            vsir::Opcode op;
            bool in = kind == IoKind::input || (kind == IoKind::patch && stage_ == ShaderStage::domain);
            bool system = sv != SystemValue::none && sv != SystemValue::target;
            if (in && ps)
                op = !system ? vsir::Opcode::dcl_input_ps
                     : is_sgv(sv) ? vsir::Opcode::dcl_input_ps_sgv
                                  : vsir::Opcode::dcl_input_ps_siv;
            else if (in)
                op = !system ? vsir::Opcode::dcl_input
                     : is_sgv(sv) ? vsir::Opcode::dcl_input_sgv
                                  : vsir::Opcode::dcl_input_siv;
            else
                op = !system ? vsir::Opcode::dcl_output : vsir::Opcode::dcl_output_siv;
            uint32_t i = p_.add_instruction(op, 1, 0);
            vsir::Declaration& d = p_.add_declaration(i);
            d.system_value = system ? sv : SystemValue::none;
            if (in && ps)
                d.interpolation = vsir::InterpolationMode(e.interpolation <= 7 ? e.interpolation : 0);
            vsir::DstParam& dst = p_.dsts[p_.instructions[i].dst_first];
            uint32_t reg = first_reg + row;
            uint32_t vertices = 0;
            if (in && kind == IoKind::input && stage_ == ShaderStage::geometry)
                vertices = primitive_vertex_count(entry_->gs_input_primitive);
            else if (in && kind == IoKind::input && (stage_ == ShaderStage::hull || stage_ == ShaderStage::domain))
                vertices = entry_->input_control_points;
            if (vertices) {
                uint32_t idx[2] = {vertices, reg};
                dst.reg = vsir::make_register(m.file, DataType::f32, vsir::Dimension::vec4, idx);
            } else {
                dst.reg = vsir::make_register(m.file, DataType::f32, vsir::Dimension::vec4,
                                              std::span<const uint32_t>(&reg, 1));
            }
            dst.write_mask = mask;
        }
    }
}

void Lowerer::declare_signatures()
{
    declare_io(entry_->inputs, IoKind::input, p_.inputs, input_map_);
    declare_io(entry_->outputs, IoKind::output, p_.outputs, output_map_);
    size_t before = p_.instructions.size();
    declare_io(entry_->patch_constants, IoKind::patch, p_.patch_constants, patch_map_);
    if (stage_ == ShaderStage::hull) {
        // Patch constant outputs are declared in the fork phase: move them
        // out of the declaration block (run() re-emits them there).
        patch_instructions_.assign(p_.instructions.begin() + long(before), p_.instructions.end());
        p_.instructions.resize(before);
    }
}

void Lowerer::emit_patch_declarations()
{
    for (const vsir::Instruction& ins : patch_instructions_)
        p_.instructions.push_back(ins);
}

const Lowerer::IoMap* Lowerer::io_map(IoKind kind, uint32_t id) const
{
    const ScratchVector<IoMap>& map = kind == IoKind::input ? input_map_ : kind == IoKind::output ? output_map_
                                                                                                 : patch_map_;
    return id < map.size() && map[id].file != RegisterFile::null ? &map[id] : nullptr;
}

} // namespace dxspv::dxil::lower

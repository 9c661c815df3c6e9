#include "dxil/container/signatures.h"

#include <algorithm>

namespace dxspv::dxil {

namespace {

/// DXIL SemanticKind values used here.
enum : uint8_t {
    sk_arbitrary = 0, sk_vertex_id = 1, sk_instance_id = 2, sk_position = 3, sk_rt_array_index = 4,
    sk_viewport_array_index = 5, sk_clip_distance = 6, sk_cull_distance = 7, sk_output_control_point_id = 8,
    sk_domain_location = 9, sk_primitive_id = 10, sk_gs_instance_id = 11, sk_sample_index = 12,
    sk_is_front_face = 13, sk_coverage = 14, sk_inner_coverage = 15, sk_target = 16, sk_depth = 17,
    sk_depth_less_equal = 18, sk_depth_greater_equal = 19, sk_stencil_ref = 20, sk_dispatch_thread_id = 21,
    sk_group_id = 22, sk_group_index = 23, sk_group_thread_id = 24, sk_tess_factor = 25,
    sk_inside_tess_factor = 26, sk_view_id = 27, sk_barycentrics = 28, sk_shading_rate = 29,
    sk_cull_primitive = 30, sk_start_vertex_location = 31, sk_start_instance_location = 32
};

/// DXIL TessellatorDomain.
enum : uint32_t { domain_isoline = 1, domain_tri = 2, domain_quad = 3 };

/// DXIL ComponentType values used here.
enum : uint8_t { ct_i1 = 1, ct_i16, ct_u16, ct_i32, ct_u32, ct_i64, ct_u64, ct_f16, ct_f32, ct_f64 };

/// System values the container does not list: they are read through
/// dx.op calls (SigPoint interpretation "NotInSig").
bool not_in_container(uint8_t kind, SignatureKind sig, ShaderStage stage)
{
    switch (kind) {
    case sk_output_control_point_id:
    case sk_domain_location:
    case sk_gs_instance_id:
    case sk_dispatch_thread_id:
    case sk_group_id:
    case sk_group_index:
    case sk_group_thread_id:
    case sk_view_id:
    case sk_start_vertex_location:
    case sk_start_instance_location: return true;
    case sk_primitive_id:
        return sig != SignatureKind::output && (stage == ShaderStage::hull || stage == ShaderStage::domain);
    case sk_coverage:
    case sk_inner_coverage: return sig == SignatureKind::input && stage == ShaderStage::pixel;
    default: return false;
    }
}

SystemValue system_value(uint8_t kind, uint32_t domain)
{
    switch (kind) {
    case sk_vertex_id: return SystemValue::vertex_id;
    case sk_instance_id: return SystemValue::instance_id;
    case sk_position: return SystemValue::position;
    case sk_rt_array_index: return SystemValue::render_target_array_index;
    case sk_viewport_array_index: return SystemValue::viewport_array_index;
    case sk_clip_distance: return SystemValue::clip_distance;
    case sk_cull_distance: return SystemValue::cull_distance;
    case sk_primitive_id: return SystemValue::primitive_id;
    case sk_sample_index: return SystemValue::sample_index;
    case sk_is_front_face: return SystemValue::is_front_face;
    case sk_coverage: return SystemValue::coverage;
    case sk_inner_coverage: return SystemValue::inner_coverage;
    case sk_target: return SystemValue::target;
    case sk_depth: return SystemValue::depth;
    case sk_depth_less_equal: return SystemValue::depth_less_equal;
    case sk_depth_greater_equal: return SystemValue::depth_greater_equal;
    case sk_stencil_ref: return SystemValue::stencil_ref;
    case sk_barycentrics: return SystemValue::barycentrics;
    case sk_shading_rate: return SystemValue::shading_rate;
    case sk_cull_primitive: return SystemValue::cull_primitive;
    case sk_tess_factor:
        // Isolines: the first row is the density, the next the detail factor.
        return domain == domain_isoline ? SystemValue::final_line_density_tessfactor
            : domain == domain_tri      ? SystemValue::final_tri_edge_tessfactor
            : domain == domain_quad     ? SystemValue::final_quad_edge_tessfactor
                                        : SystemValue::none;
    case sk_inside_tess_factor:
        return domain == domain_tri    ? SystemValue::final_tri_inside_tessfactor
            : domain == domain_quad    ? SystemValue::final_quad_inside_tessfactor
                                       : SystemValue::none;
    default: return SystemValue::none;
    }
}

ComponentType component_type(uint8_t t, bool validator_1_4)
{
    switch (t) {
    case ct_i1: return validator_1_4 ? ComponentType::unknown : ComponentType::uint32;
    case ct_i16: return ComponentType::sint16;
    case ct_u16: return ComponentType::uint16;
    case ct_i32: return ComponentType::sint32;
    case ct_u32: return ComponentType::uint32;
    case ct_i64: return ComponentType::sint64;
    case ct_u64: return ComponentType::uint64;
    case ct_f16: return ComponentType::float16;
    case ct_f32: return ComponentType::float32;
    case ct_f64: return ComponentType::float64;
    default: return ComponentType::unknown;
    }
}

MinPrecision min_precision(uint8_t t)
{
    switch (t) {
    case ct_i16: return MinPrecision::sint16;
    case ct_u16: return MinPrecision::uint16;
    case ct_f16: return MinPrecision::float16;
    default: return MinPrecision::none;
    }
}

} // namespace

std::vector<dxspv::SignatureElement> container_signature(std::span<const dxil::SignatureElement> elements,
                                                  SignatureKind kind, const SignatureOptions& options)
{
    // Patch constants are an input of the domain shader, an output of the
    // hull (and, as primitive outputs, of the mesh) shader.
    bool input = kind == SignatureKind::input ||
                 (kind == SignatureKind::patch_constant && options.stage == ShaderStage::domain);
    struct Row {
        dxspv::SignatureElement element;
        uint32_t name_rank; ///< DXC sorts by the name's offset: its first appearance
    };
    std::vector<Row> rows;
    for (size_t k = 0; k < elements.size(); ++k) {
        const dxil::SignatureElement& e = elements[k];
        if (not_in_container(e.semantic_kind, kind, options.stage))
            continue;
        bool allocated = e.start_row >= 0 && e.start_col >= 0;
        uint32_t start_col = allocated ? uint32_t(e.start_col) : 0;
        uint32_t cols = e.cols > 4 ? 4 : e.cols;
        dxspv::SignatureElement s;
        s.semantic_name = e.name;
        s.stream = e.output_stream;
        s.system_value = system_value(e.semantic_kind, options.tess_domain);
        s.component_type = component_type(e.component_type, options.validator_1_4);
        s.min_precision = options.min_precision ? min_precision(e.component_type) : MinPrecision::none;
        s.register_index = uint32_t(e.start_row);
        s.mask = uint8_t(((1u << cols) - 1) << start_col);
        if (options.validator_1_4) {
            s.used_mask = input ? 0 : uint8_t(~s.mask);
        } else {
            uint32_t usage = allocated ? e.usage_mask << start_col : e.usage_mask;
            s.used_mask = uint8_t(input ? usage : (usage ^ 0xF) & 0xF);
        }
        uint32_t rank = uint32_t(k);
        for (uint32_t i = 0; i < k; ++i)
            if (elements[i].name == e.name) {
                rank = i;
                break;
            }
        // DXC steps the register by rows / indices (integer division: an
        // element with more indices than rows keeps one register).
        uint32_t step = e.semantic_indices.empty() ? 1 : e.rows / uint32_t(e.semantic_indices.size());
        for (uint32_t index : e.semantic_indices) {
            s.semantic_index = index;
            rows.push_back({s, rank});
            if (allocated)
                s.register_index += step;
            if (s.system_value == SystemValue::final_line_density_tessfactor)
                s.system_value = SystemValue::final_line_detail_tessfactor;
        }
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.element.stream != b.element.stream)
            return a.element.stream < b.element.stream;
        if (a.element.register_index != b.element.register_index)
            return a.element.register_index < b.element.register_index;
        return a.name_rank < b.name_rank;
    });
    std::vector<dxspv::SignatureElement> out;
    out.reserve(rows.size());
    for (const Row& r : rows)
        out.push_back(r.element);
    return out;
}

} // namespace dxspv::dxil

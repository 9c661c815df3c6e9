#include "common/shader_types.h"

namespace dxspv {

const char* stage_short_name(ShaderStage stage)
{
    switch (stage) {
    case ShaderStage::pixel: return "ps";
    case ShaderStage::vertex: return "vs";
    case ShaderStage::geometry: return "gs";
    case ShaderStage::hull: return "hs";
    case ShaderStage::domain: return "ds";
    case ShaderStage::compute: return "cs";
    case ShaderStage::library: return "lib";
    case ShaderStage::ray_generation: return "raygeneration";
    case ShaderStage::intersection: return "intersection";
    case ShaderStage::any_hit: return "anyhit";
    case ShaderStage::closest_hit: return "closesthit";
    case ShaderStage::miss: return "miss";
    case ShaderStage::callable: return "callable";
    case ShaderStage::mesh: return "ms";
    case ShaderStage::amplification: return "as";
    case ShaderStage::node: return "node";
    case ShaderStage::invalid: break;
    }
    return "??";
}

const char* system_value_name(SystemValue sv)
{
    switch (sv) {
    case SystemValue::none: return "NONE";
    case SystemValue::position: return "SV_Position";
    case SystemValue::clip_distance: return "SV_ClipDistance";
    case SystemValue::cull_distance: return "SV_CullDistance";
    case SystemValue::render_target_array_index: return "SV_RenderTargetArrayIndex";
    case SystemValue::viewport_array_index: return "SV_ViewportArrayIndex";
    case SystemValue::vertex_id: return "SV_VertexID";
    case SystemValue::primitive_id: return "SV_PrimitiveID";
    case SystemValue::instance_id: return "SV_InstanceID";
    case SystemValue::is_front_face: return "SV_IsFrontFace";
    case SystemValue::sample_index: return "SV_SampleIndex";
    case SystemValue::final_quad_edge_tessfactor: return "SV_FinalQuadEdgeTessFactor";
    case SystemValue::final_quad_inside_tessfactor: return "SV_FinalQuadInsideTessFactor";
    case SystemValue::final_tri_edge_tessfactor: return "SV_FinalTriEdgeTessFactor";
    case SystemValue::final_tri_inside_tessfactor: return "SV_FinalTriInsideTessFactor";
    case SystemValue::final_line_detail_tessfactor: return "SV_FinalLineDetailTessFactor";
    case SystemValue::final_line_density_tessfactor: return "SV_FinalLineDensityTessFactor";
    case SystemValue::barycentrics: return "SV_Barycentrics";
    case SystemValue::shading_rate: return "SV_ShadingRate";
    case SystemValue::cull_primitive: return "SV_CullPrimitive";
    case SystemValue::target: return "SV_Target";
    case SystemValue::depth: return "SV_Depth";
    case SystemValue::coverage: return "SV_Coverage";
    case SystemValue::depth_greater_equal: return "SV_DepthGreaterEqual";
    case SystemValue::depth_less_equal: return "SV_DepthLessEqual";
    case SystemValue::stencil_ref: return "SV_StencilRef";
    case SystemValue::inner_coverage: return "SV_InnerCoverage";
    }
    return nullptr;
}

} // namespace dxspv

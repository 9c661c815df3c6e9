// Value types shared by the container, the front ends and VSIR: shader
// stages, system values and signature elements.
#pragma once

#include <cstdint>
#include <string_view>

namespace dxspv {

/// Shader stage, numbered as the DXIL shader kind (which extends the DXBC
/// program type: pixel 0 ... compute 5).
enum class ShaderStage : uint8_t {
    pixel = 0,
    vertex = 1,
    geometry = 2,
    hull = 3,
    domain = 4,
    compute = 5,
    library = 6,
    ray_generation = 7,
    intersection = 8,
    any_hit = 9,
    closest_hit = 10,
    miss = 11,
    callable = 12,
    mesh = 13,
    amplification = 14,
    node = 15,
    invalid = 0xff,
};

/// Short stage name as used in shader models: "ps", "vs", "gs", "hs", "ds",
/// "cs", "lib", "ms", "as", ...; "??" for an unknown value.
const char* stage_short_name(ShaderStage stage);

struct ShaderModel {
    ShaderStage stage = ShaderStage::invalid;
    uint8_t major = 0;
    uint8_t minor = 0;
};

/// System value semantics (D3D_NAME numbering as stored in signatures).
enum class SystemValue : uint32_t {
    none = 0,
    position = 1,
    clip_distance = 2,
    cull_distance = 3,
    render_target_array_index = 4,
    viewport_array_index = 5,
    vertex_id = 6,
    primitive_id = 7,
    instance_id = 8,
    is_front_face = 9,
    sample_index = 10,
    final_quad_edge_tessfactor = 11,
    final_quad_inside_tessfactor = 12,
    final_tri_edge_tessfactor = 13,
    final_tri_inside_tessfactor = 14,
    final_line_detail_tessfactor = 15,
    final_line_density_tessfactor = 16,
    barycentrics = 23,
    shading_rate = 24,
    cull_primitive = 25,
    target = 64,
    depth = 65,
    coverage = 66,
    depth_greater_equal = 67,
    depth_less_equal = 68,
    stencil_ref = 69,
    inner_coverage = 70,
};

/// Name of a system value ("SV_Position" style); nullptr if unknown.
const char* system_value_name(SystemValue sv);

/// Register component type of a signature element (D3D_REGISTER_COMPONENT_TYPE,
/// extended with the 16/64-bit types DXIL signatures use).
enum class ComponentType : uint8_t {
    unknown = 0,
    uint32 = 1,
    sint32 = 2,
    float32 = 3,
    uint16 = 4,
    sint16 = 5,
    float16 = 6,
    uint64 = 7,
    sint64 = 8,
    float64 = 9,
};

/// Minimum precision (D3D_MIN_PRECISION).
enum class MinPrecision : uint8_t {
    none = 0,
    float16 = 1,
    float2_8 = 2,
    sint16 = 4,
    uint16 = 5,
    any16 = 0xf0,
    any10 = 0xf1,
};

/// One element of an input, output or patch-constant signature.
struct SignatureElement {
    std::string_view semantic_name; ///< borrowed from the input or an arena
    uint32_t semantic_index = 0;
    uint32_t stream = 0;
    uint32_t register_index = 0;
    SystemValue system_value = SystemValue::none;
    ComponentType component_type = ComponentType::unknown;
    MinPrecision min_precision = MinPrecision::none;
    uint8_t mask = 0;      ///< components the element occupies
    uint8_t used_mask = 0; ///< components the shader reads (inputs) or does not always write (outputs)
    uint16_t reserved = 0; ///< the two bytes after used_mask: 0 from compilers, kept for bit-exact round trips
};

} // namespace dxspv

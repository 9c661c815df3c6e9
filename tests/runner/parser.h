// The .shader_test format (Wine vkd3d's tests/hlsl/*.shader_test) as data:
// a file is a list of sections kept in order, because the runner executes
// them in order ([require] resets requirements, a later [srv 0] replaces an
// earlier one, each [test] runs with the shaders and resources loaded so far).
//
// The parser checks syntax only: every malformed line is an error with its
// file:line; nothing here touches Vulkan or the library.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace runner {

enum class Stage { vertex, pixel, geometry, hull, domain, compute };
inline constexpr int stage_count = 6;
const char* stage_name(Stage stage);

/// The form a shader section's body is given in.
enum class SourceForm { hlsl, d3d_asm, dxbc_tpf_hex, dxbc_dxil_hex, dxil_ll };
const char* source_form_name(SourceForm form);

/// `fail`, `todo`, `notimpl` on a shader section, each with an optional
/// condition (`todo(sm>=6)`); an empty condition always holds.
struct Qualifier {
    enum class Kind { fail, todo, notimpl } kind = Kind::fail;
    std::string condition;
};

struct ShaderSection {
    Stage stage = Stage::compute;
    SourceForm form = SourceForm::hlsl;
    std::vector<Qualifier> qualifiers;
    std::string text;
    int line = 0;
};

/// Texel formats, named as vkd3d names them ("r32g32b32a32-float").
enum class DataType { float_, uint_, sint_, unorm, snorm, typeless, depth };
struct Format {
    const char* name = nullptr;
    uint32_t vk_format = 0;     ///< VkFormat
    uint32_t texel_size = 0;    ///< bytes
    uint32_t components = 0;
    uint32_t component_bits = 32;
    DataType data_type = DataType::float_;
};
const Format* find_format(std::string_view name);

enum class ResourceKind { srv, uav, sampler, rtv, dsv, vb };
const char* resource_kind_name(ResourceKind kind);

enum class Dimension { buffer, raw_buffer, counter_buffer, tex1d, tex1darray, tex2d, tex2darray, tex2dms, tex3d, cube, cubearray };

enum class AddressMode { wrap, mirror, clamp, border, mirror_once };

struct ResourceSection {
    ResourceKind kind = ResourceKind::srv;
    uint32_t slot = 0;
    int line = 0;
    // Textures and buffers.
    Dimension dimension = Dimension::tex2d;
    const Format* format = nullptr; ///< null: the default (r32g32b32a32-float) or structured
    uint32_t stride = 0;            ///< structured buffers
    uint32_t width = 1, height = 1, depth = 1; ///< depth: 3D depth or array layers (cubes: cube count)
    uint32_t samples = 1, levels = 1;
    bool explicit_size = false;
    std::vector<uint8_t> data;
    // UAV counters: the initial value; implicit: the runner's binding map has
    // no entry for the counter (the library allocates its binding).
    uint32_t counter = 0;
    bool counter_implicit = false;
    // Samplers.
    bool min_linear = false, mag_linear = false, mip_linear = false;
    AddressMode address[3] = {AddressMode::clamp, AddressMode::clamp, AddressMode::clamp};
    int comparison = 0; ///< D3D12_COMPARISON_FUNC, 0: none
};

struct InputElement {
    uint32_t slot = 0;
    const Format* format = nullptr;
    std::string name;
    uint32_t index = 0;
};

struct InputLayoutSection {
    std::vector<InputElement> elements;
    int line = 0;
};

struct RequireSection {
    uint32_t min_model = 0;      ///< major * 10 + minor; 0: none
    uint32_t max_model = ~0u;    ///< exclusive
    std::vector<std::string> features;    ///< float64, int64, wave-ops, ...
    std::vector<const Format*> uav_load_formats;
    int line = 0;
};

/// One probe: where, what kind of value, the expected values.
struct Probe {
    ResourceKind target = ResourceKind::rtv; ///< rtv, uav or dsv
    uint32_t slot = 0;
    uint32_t x = 0, y = 0, w = 1, h = 1, layer = 0;
    enum class Kind { f32, u32, i32, f64, u64, i64 } kind = Kind::f32;
    uint32_t components = 4;
    double fvalues[4] = {};
    uint64_t ivalues[4] = {};
    uint32_t ulp = 0;
    bool counter = false; ///< `probe uav N counter u32 (v)`: the UAV's counter
};

enum class Topology { triangle_list, triangle_strip, point_list, line_list, line_strip, patch_list };

struct Command {
    enum class Kind {
        uniform, draw_quad, draw, dispatch, clear_rtv, clear_dsv, probe, depth, sample_mask,
        viewport, clip_plane, point_size, copy, unsupported,
    } kind = Kind::unsupported;
    int line = 0;
    std::string text;               ///< the command without its prefixes
    std::optional<std::string> todo, bug, if_; ///< "" = unconditional
    // uniform
    uint32_t offset = 0;            ///< in 32-bit components
    std::vector<uint32_t> words;
    // draw / dispatch
    Topology topology = Topology::triangle_list;
    uint32_t control_points = 0;
    uint32_t count = 0, instances = 1;
    uint32_t groups[3] = {1, 1, 1};
    // clear / viewport / clip-plane / point-size / depth / sample mask
    uint32_t slot = 0;
    float values[6] = {};
    int compare = 0;                ///< depth: D3D12_COMPARISON_FUNC
    // copy
    ResourceKind src_kind = ResourceKind::srv, dst_kind = ResourceKind::srv;
    uint32_t src_slot = 0, dst_slot = 0;
    Probe probe;
};

struct TestSection {
    std::vector<Command> commands;
    int line = 0;
};

using Section = std::variant<RequireSection, ShaderSection, ResourceSection, InputLayoutSection, TestSection>;

struct TestFile {
    std::string name;
    std::vector<Section> sections;
};

/// Parses a whole file. On failure returns false with `error` as "name:line: message".
bool parse_test_file(std::string_view text, const std::string& name, TestFile& out, std::string& error);

/// What conditions are evaluated against.
struct ConditionContext {
    uint32_t model = 50;                 ///< major * 10 + minor
    std::vector<std::string> tags = {"vulkan"}; ///< backend tags that hold
};

/// Evaluates `sm>=6 & !vulkan | glsl`. Returns false with `error` on a syntax error.
bool evaluate_condition(std::string_view condition, const ConditionContext& context, bool& result, std::string& error);

/// "5.1" → 51, "6" → 60; false when malformed.
bool parse_model(std::string_view text, uint32_t& model);

} // namespace runner

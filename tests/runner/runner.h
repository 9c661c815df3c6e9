// The execution state of one .shader_test file: GPU resources, uniforms,
// translated shaders and fixed-function state, and the operations the [test]
// commands need. resources.cpp creates resources, pipelines.cpp runs
// dispatches and draws, probes.cpp reads results back, execute.cpp walks the
// file.
#pragma once

#include "parser.h"
#include "vulkan_device.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace runner {

/// Binding map of the runner, as a translation layer with one descriptor
/// table per register type would build it: set 0, binding = base + register.
/// Registers 0..63 of space 0 are supported per type.
inline constexpr uint32_t max_registers = 64;
inline constexpr uint32_t cbv_binding_base = 0;
inline constexpr uint32_t srv_binding_base = 64;
inline constexpr uint32_t uav_binding_base = 128;
inline constexpr uint32_t sampler_binding_base = 192;
inline constexpr uint32_t counter_binding_base = 256;
inline constexpr uint32_t uniform_buffer_size = 65536;

struct GpuResource {
    ResourceSection desc;
    uint32_t texel_size = 4;   ///< bytes per element (buffers) or texel (images)
    bool is_buffer = false;
    Buffer buffer;
    VkBufferView buffer_view = VK_NULL_HANDLE;
    Image image;
    VkImageView view = VK_NULL_HANDLE;            ///< SRV/UAV view (all levels and layers)
    VkImageView attachment_view = VK_NULL_HANDLE; ///< RTV/DSV view (level 0)
    VkSampler sampler = VK_NULL_HANDLE;
    Buffer counter;            ///< UAV counter, created on first use with desc.counter
};

/// One descriptor binding a translated shader uses (from its SPIR-V).
struct DescriptorUse {
    uint32_t set = 0, binding = 0, count = 1;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_MAX_ENUM;
    uint32_t counter_of = ~0u; ///< a UAV counter: the binding of its UAV (CounterBuffer decoration)
};

/// One element of a vertex shader's input signature.
struct VertexInput {
    std::string semantic;
    uint32_t index = 0;
    uint32_t register_index = 0;
};

struct SpirvInfo {
    std::string entry_point;
    std::vector<DescriptorUse> descriptors;
};

/// Reads the descriptor bindings and entry point of a SPIR-V module.
bool reflect_spirv(const std::vector<uint32_t>& words, SpirvInfo& info, std::string& error);

class Runner {
public:
    explicit Runner(Device& device) : dev_(device) {}
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    Device& device() { return dev_; }

    // resources.cpp
    bool set_resource(const ResourceSection& desc, std::string& error);
    GpuResource* find(ResourceKind kind, uint32_t slot);
    bool ensure_default_target(std::string& error);
    bool clear_rtv(uint32_t slot, const float color[4], std::string& error);
    bool clear_dsv(float depth, std::string& error);
    bool copy(const Command& cmd, std::string& error);
    void set_uniforms(uint32_t offset, const std::vector<uint32_t>& words);

    // pipelines.cpp
    void set_shader(Stage stage, std::vector<uint32_t> spirv) { shaders_[static_cast<int>(stage)] = std::move(spirv); }
    void clear_shader(Stage stage) { shaders_[static_cast<int>(stage)].reset(); }
    bool has_shader(Stage stage) const { return shaders_[static_cast<int>(stage)].has_value(); }
    void set_input_layout(std::vector<InputElement> elements) { input_layout_ = std::move(elements); }
    void set_vertex_inputs(std::vector<VertexInput> inputs) { vertex_inputs_ = std::move(inputs); }
    void set_quad_vs(std::vector<uint32_t> spirv) { quad_vs_ = std::move(spirv); }
    bool dispatch(const uint32_t groups[3], std::string& error);
    bool draw(const Command& cmd, std::string& error);
    // fixed-function state
    int depth_func = 0; ///< D3D12_COMPARISON_FUNC; 0: depth test off
    uint32_t sample_mask = ~0u;
    std::optional<std::vector<float>> viewport;

    // probes.cpp
    /// True when the probe holds; otherwise `message` says where and what was read.
    bool probe(const Probe& probe, std::string& message, std::string& error);

private:
    /// What one dispatch or draw binds; released after it.
    struct Bound {
        VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
        VkPipelineLayout layout = VK_NULL_HANDLE;
        VkDescriptorPool pool = VK_NULL_HANDLE;
        VkDescriptorSet set = VK_NULL_HANDLE;
        std::vector<VkShaderModule> modules;
        // Storage for descriptor writes.
        std::vector<VkDescriptorBufferInfo> buffer_infos;
        std::vector<VkDescriptorImageInfo> image_infos;
        std::vector<VkBufferView> views;
    };
    bool create_buffer_resource(GpuResource& r, std::string& error);
    bool create_image_resource(GpuResource& r, std::string& error);
    bool upload_image(GpuResource& r, std::string& error);
    void destroy(GpuResource& r);
    bool bind_descriptors(const std::vector<SpirvInfo>& infos, Bound& bound, std::string& error);
    bool write_descriptor(const DescriptorUse& use, uint32_t element, Bound& bound, std::string& error);
    void release(Bound& bound);
    bool readback(GpuResource& r, uint32_t layer, std::vector<uint8_t>& data, uint32_t& width, uint32_t& height,
                  std::string& error);
    struct RenderTargets {
        std::vector<GpuResource*> colors;
        GpuResource* depth = nullptr;
        uint32_t width = 0, height = 0, color_count = 0;
        VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    };
    bool create_render_pass(RenderTargets& targets, VkRenderPass& pass, VkFramebuffer& fb, std::string& error);
    bool create_graphics_pipeline(const Command& cmd, Bound& bound, VkRenderPass& pass, VkFramebuffer& fb,
                                  VkPipeline& pipeline, uint32_t& width, uint32_t& height, std::string& error);

    Device& dev_;
    std::map<std::pair<ResourceKind, uint32_t>, GpuResource> resources_;
    std::vector<uint32_t> uniforms_;
    Buffer uniform_buffer_;
    std::optional<std::vector<uint32_t>> shaders_[stage_count];
    std::optional<std::vector<uint32_t>> quad_vs_;
    std::vector<InputElement> input_layout_;
    std::vector<VertexInput> vertex_inputs_; ///< empty: element i goes to location i
};

} // namespace runner

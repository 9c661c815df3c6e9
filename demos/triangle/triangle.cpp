// demos/triangle: a vertex + pixel shader pair given as d3d-asm, assembled
// into DXBC and translated by dxspv, rendering a shaded triangle off-screen
// into a PNG.
//
// The vertex input is built the way a translation layer builds it from a D3D
// input layout: the application describes its vertex by semantic (POSITION,
// COLOR), and dxspv_reflect() reports the vertex shader's input signature;
// each signature element gets the attribute of the same semantic at the
// location of its register.
//
//   build/demos/triangle/triangle [-o triangle.png]
#include <strings.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dxspv_helper.h"
#include "png_writer.h"
#include "vulkan_helper.h"

namespace {

constexpr uint32_t width = 320, height = 240;
constexpr VkFormat target_format = VK_FORMAT_R8G8B8A8_UNORM;

struct Vertex {
    float position[2];
    float color[3];
};

/// D3D clip space: y up. Red at the top, green bottom left, blue bottom right.
const Vertex vertices[3] = {
    {{0.0f, 0.8f}, {1.0f, 0.0f, 0.0f}},
    {{-0.8f, -0.8f}, {0.0f, 1.0f, 0.0f}},
    {{0.8f, -0.8f}, {0.0f, 0.0f, 1.0f}},
};

/// The application's side of the input layout: where each semantic is in a Vertex.
struct InputElement {
    const char* semantic;
    uint32_t offset, components;
};
const InputElement input_layout[] = {
    {"POSITION", offsetof(Vertex, position), 2},
    {"COLOR", offsetof(Vertex, color), 3},
};

VkFormat float_format(uint32_t components)
{
    const VkFormat formats[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32_SFLOAT,
                                VK_FORMAT_R32G32B32A32_SFLOAT};
    return formats[components - 1];
}

/// One attribute per element of the vertex shader's input signature.
std::vector<VkVertexInputAttributeDescription> vertex_attributes(const dxspv_signature_info& signature)
{
    std::vector<VkVertexInputAttributeDescription> attributes;
    for (unsigned i = 0; i < signature.element_count; ++i) {
        const dxspv_signature_element_info& e = signature.elements[i];
        if (e.system_value != 0) // SV_VertexID and friends come from the input assembler
            continue;
        const InputElement* match = nullptr;
        for (const InputElement& ie : input_layout)
            if (strcasecmp(ie.semantic, e.semantic_name) == 0 && e.semantic_index == 0)
                match = &ie;
        if (!match || e.component_type != 3 /* D3D_REGISTER_COMPONENT_FLOAT32 */)
            demo::die("the vertex shader reads %s%u, which the vertex has no float data for", e.semantic_name,
                      e.semantic_index);
        attributes.push_back({e.register_index, 0, float_format(match->components), match->offset});
        std::printf("  input %s -> location %u, %u floats at offset %u\n", e.semantic_name, e.register_index,
                    match->components, match->offset);
    }
    return attributes;
}

VkShaderModule translate(demo::Vulkan& vk, const std::string& path, demo::Container* dxbc_out = nullptr)
{
    demo::Container dxbc = demo::assemble(demo::read_file(path), path);
    VkShaderModule module = vk.create_shader_module(demo::translate(dxbc, path, nullptr));
    if (dxbc_out)
        *dxbc_out = std::move(dxbc);
    return module;
}

VkRenderPass create_render_pass(VkDevice device)
{
    VkAttachmentDescription color = {};
    color.format = target_format;
    color.samples = VK_SAMPLE_COUNT_1_BIT;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    color.finalLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription subpass = {};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = 1;
    subpass.pColorAttachments = &ref;
    // The copy after the pass waits for the colour writes.
    VkSubpassDependency dependency = {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                      VK_ACCESS_TRANSFER_READ_BIT, 0};
    VkRenderPassCreateInfo rpci = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rpci.attachmentCount = 1;
    rpci.pAttachments = &color;
    rpci.subpassCount = 1;
    rpci.pSubpasses = &subpass;
    rpci.dependencyCount = 1;
    rpci.pDependencies = &dependency;
    VkRenderPass pass = VK_NULL_HANDLE;
    demo::check(vkCreateRenderPass(device, &rpci, nullptr, &pass), "vkCreateRenderPass");
    return pass;
}

VkPipeline create_pipeline(VkDevice device, VkShaderModule vs, VkShaderModule ps, VkRenderPass pass,
                           VkPipelineLayout layout, const std::vector<VkVertexInputAttributeDescription>& attributes)
{
    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vs;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = ps;
    stages[1].pName = "main";

    VkVertexInputBindingDescription binding = {0, sizeof(Vertex), VK_VERTEX_INPUT_RATE_VERTEX};
    VkPipelineVertexInputStateCreateInfo vertex_input = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vertex_input.vertexBindingDescriptionCount = 1;
    vertex_input.pVertexBindingDescriptions = &binding;
    vertex_input.vertexAttributeDescriptionCount = uint32_t(attributes.size());
    vertex_input.pVertexAttributeDescriptions = attributes.data();
    VkPipelineInputAssemblyStateCreateInfo assembly = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;

    // D3D's clip-space y points up: a negative-height viewport flips it, as
    // translation layers do (Vulkan 1.1).
    VkViewport viewport = {0, float(height), float(width), -float(height), 0, 1};
    VkRect2D scissor = {{0, 0}, {width, height}};
    VkPipelineViewportStateCreateInfo viewports = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewports.viewportCount = 1;
    viewports.pViewports = &viewport;
    viewports.scissorCount = 1;
    viewports.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo raster = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.cullMode = VK_CULL_MODE_NONE;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend = {};
    blend.colorWriteMask = 0xf;
    VkPipelineColorBlendStateCreateInfo blending = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blending.attachmentCount = 1;
    blending.pAttachments = &blend;

    VkGraphicsPipelineCreateInfo gpci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    gpci.stageCount = 2;
    gpci.pStages = stages;
    gpci.pVertexInputState = &vertex_input;
    gpci.pInputAssemblyState = &assembly;
    gpci.pViewportState = &viewports;
    gpci.pRasterizationState = &raster;
    gpci.pMultisampleState = &multisample;
    gpci.pColorBlendState = &blending;
    gpci.layout = layout;
    gpci.renderPass = pass;
    VkPipeline pipeline = VK_NULL_HANDLE;
    demo::check(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline),
                "vkCreateGraphicsPipelines");
    return pipeline;
}

} // namespace

int main(int argc, char** argv)
{
    demo::Args args = demo::parse_args(argc, argv, "triangle.png", DEMO_SOURCE_DIR);
    demo::Vulkan vk;
    std::printf("device: %s\n", vk.device_name());
    VkDevice device = vk.device();

    // The shaders: d3d-asm → DXBC → SPIR-V; the vertex input from the VS's reflection.
    demo::Container vs_dxbc;
    std::string vs_path = args.shader_dir + "/triangle_vs.asm", ps_path = args.shader_dir + "/triangle_ps.asm";
    VkShaderModule vs = translate(vk, vs_path, &vs_dxbc);
    VkShaderModule ps = translate(vk, ps_path);
    dxspv_reflection reflection = demo::reflect(vs_dxbc, vs_path, nullptr);
    std::printf("%s: vs_%u_%u\n", vs_path.c_str(), reflection.model_major, reflection.model_minor);
    std::vector<VkVertexInputAttributeDescription> attributes = vertex_attributes(reflection.input_signature);
    dxspv_free_reflection(&reflection);

    // Render target, the buffer it is copied to, the vertex buffer.
    demo::Image target = vk.create_image(width, height, target_format,
                                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    demo::Buffer readback = vk.create_buffer(VkDeviceSize(width) * height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    demo::Buffer vertex_buffer = vk.create_buffer(sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    std::memcpy(vertex_buffer.data, vertices, sizeof(vertices));

    VkRenderPass pass = create_render_pass(device);
    VkFramebufferCreateInfo fci = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fci.renderPass = pass;
    fci.attachmentCount = 1;
    fci.pAttachments = &target.view;
    fci.width = width;
    fci.height = height;
    fci.layers = 1;
    VkFramebuffer framebuffer = VK_NULL_HANDLE;
    demo::check(vkCreateFramebuffer(device, &fci, nullptr, &framebuffer), "vkCreateFramebuffer");
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    VkPipelineLayout layout = VK_NULL_HANDLE;
    demo::check(vkCreatePipelineLayout(device, &plci, nullptr, &layout), "vkCreatePipelineLayout");
    VkPipeline pipeline = create_pipeline(device, vs, ps, pass, layout, attributes);

    vk.submit([&](VkCommandBuffer cmd) {
        VkClearValue clear = {};
        clear.color = {{0.1f, 0.1f, 0.15f, 1.0f}};
        VkRenderPassBeginInfo rpbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
        rpbi.renderPass = pass;
        rpbi.framebuffer = framebuffer;
        rpbi.renderArea = {{0, 0}, {width, height}};
        rpbi.clearValueCount = 1;
        rpbi.pClearValues = &clear;
        vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
        VkDeviceSize offset = 0;
        vkCmdBindVertexBuffers(cmd, 0, 1, &vertex_buffer.buffer, &offset);
        vkCmdDraw(cmd, 3, 1, 0, 0);
        vkCmdEndRenderPass(cmd);
        VkBufferImageCopy copy = {};
        copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        copy.imageExtent = {width, height, 1};
        vkCmdCopyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buffer, 1, &copy);
    });

    if (!demo::write_png(args.output, width, height, static_cast<const uint8_t*>(readback.data)))
        demo::die("cannot write %s", args.output.c_str());
    std::printf("wrote %s (%u x %u)\n", args.output.c_str(), width, height);

    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyFramebuffer(device, framebuffer, nullptr);
    vkDestroyRenderPass(device, pass, nullptr);
    vkDestroyShaderModule(device, vs, nullptr);
    vkDestroyShaderModule(device, ps, nullptr);
    vk.destroy(vertex_buffer);
    vk.destroy(readback);
    vk.destroy(target);
    return 0;
}

// Draws: a render pass over the test's render targets ([rtv N], [dsv], or
// the default 640x480 r32g32b32a32-float target), a graphics pipeline from
// the translated stages (the built-in quad vertex shader for `draw quad`
// without a vertex shader), vertex buffers from [vb N] and [input layout].
#include "runner.h"

#include <algorithm>
#include <cctype>

namespace runner {

namespace {

VkPrimitiveTopology vk_topology(Topology t)
{
    switch (t) {
    case Topology::triangle_list: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    case Topology::triangle_strip: return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    case Topology::point_list: return VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    case Topology::line_list: return VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    case Topology::line_strip: return VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    case Topology::patch_list: return VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    }
    return VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
}

VkShaderStageFlagBits vk_stage(Stage s)
{
    switch (s) {
    case Stage::vertex: return VK_SHADER_STAGE_VERTEX_BIT;
    case Stage::pixel: return VK_SHADER_STAGE_FRAGMENT_BIT;
    case Stage::geometry: return VK_SHADER_STAGE_GEOMETRY_BIT;
    case Stage::hull: return VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    case Stage::domain: return VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    case Stage::compute: return VK_SHADER_STAGE_COMPUTE_BIT;
    }
    return VK_SHADER_STAGE_ALL;
}

/// The register of the signature element `e` feeds (semantic names compare case-insensitively).
bool find_location(const std::vector<VertexInput>& inputs, const InputElement& e, uint32_t& location)
{
    for (const VertexInput& in : inputs) {
        if (in.index == e.index && in.semantic.size() == e.name.size()
                && std::equal(in.semantic.begin(), in.semantic.end(), e.name.begin(),
                              [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); })) {
            location = in.register_index;
            return true;
        }
    }
    return false;
}

} // namespace

bool Runner::create_render_pass(RenderTargets& t, VkRenderPass& pass, VkFramebuffer& fb, std::string& error)
{
    VkDevice d = dev_.device();
    if (!ensure_default_target(error))
        return false;
    for (auto& [key, r] : resources_) {
        if (key.first == ResourceKind::rtv)
            t.colors.push_back(&r);
        else if (key.first == ResourceKind::dsv)
            t.depth = &r;
    }
    GpuResource* first = !t.colors.empty() ? t.colors[0] : t.depth;
    t.width = first->image.width;
    t.height = first->image.height;
    t.samples = first->image.samples;
    std::vector<VkAttachmentDescription> attachments;
    std::vector<VkAttachmentReference> color_refs;
    std::vector<VkImageView> views;
    uint32_t max_slot = 0;
    for (GpuResource* r : t.colors)
        max_slot = std::max(max_slot, r->desc.slot + 1);
    color_refs.assign(max_slot, {VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL});
    auto add = [&](GpuResource* r) {
        VkAttachmentDescription a = {};
        a.format = r->image.format;
        a.samples = r->image.samples;
        a.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        a.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
        a.stencilStoreOp = VK_ATTACHMENT_STORE_OP_STORE;
        a.initialLayout = a.finalLayout = VK_IMAGE_LAYOUT_GENERAL;
        attachments.push_back(a);
        views.push_back(r->attachment_view);
        return static_cast<uint32_t>(attachments.size() - 1);
    };
    for (GpuResource* r : t.colors)
        color_refs[r->desc.slot].attachment = add(r);
    VkAttachmentReference depth_ref = {VK_ATTACHMENT_UNUSED, VK_IMAGE_LAYOUT_GENERAL};
    if (t.depth)
        depth_ref.attachment = add(t.depth);
    VkSubpassDescription subpass = {};
    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
    subpass.colorAttachmentCount = max_slot;
    subpass.pColorAttachments = color_refs.data();
    subpass.pDepthStencilAttachment = t.depth ? &depth_ref : nullptr;
    VkRenderPassCreateInfo rpi = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO};
    rpi.attachmentCount = static_cast<uint32_t>(attachments.size());
    rpi.pAttachments = attachments.data();
    rpi.subpassCount = 1;
    rpi.pSubpasses = &subpass;
    if (vkCreateRenderPass(d, &rpi, nullptr, &pass) != VK_SUCCESS) {
        error = "vkCreateRenderPass failed";
        return false;
    }
    VkFramebufferCreateInfo fbi = {VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fbi.renderPass = pass;
    fbi.attachmentCount = static_cast<uint32_t>(views.size());
    fbi.pAttachments = views.data();
    fbi.width = t.width;
    fbi.height = t.height;
    fbi.layers = 1;
    if (vkCreateFramebuffer(d, &fbi, nullptr, &fb) != VK_SUCCESS) {
        error = "vkCreateFramebuffer failed";
        return false;
    }

    t.color_count = max_slot;
    return true;
}

bool Runner::create_graphics_pipeline(const Command& cmd, Bound& b, VkRenderPass& pass, VkFramebuffer& fb,
                                      VkPipeline& pipeline, uint32_t& width, uint32_t& height, std::string& error)
{
    VkDevice d = dev_.device();
    // Stages.
    std::vector<const std::vector<uint32_t>*> modules;
    std::vector<Stage> stages;
    for (Stage s : {Stage::vertex, Stage::hull, Stage::domain, Stage::geometry, Stage::pixel}) {
        const auto& code = shaders_[static_cast<int>(s)];
        if (code) {
            modules.push_back(&*code);
            stages.push_back(s);
        } else if (s == Stage::vertex) {
            if (cmd.kind != Command::Kind::draw_quad || !quad_vs_) {
                error = quad_vs_ ? "draw without a vertex shader" : "the built-in quad vertex shader did not translate";
                return false;
            }
            modules.push_back(&*quad_vs_);
            stages.push_back(s);
        }
    }
    std::vector<SpirvInfo> infos(modules.size());
    for (size_t i = 0; i < modules.size(); ++i)
        if (!reflect_spirv(*modules[i], infos[i], error))
            return false;
    if (!bind_descriptors(infos, b, error))
        return false;
    std::vector<VkPipelineShaderStageCreateInfo> ssci;
    for (size_t i = 0; i < modules.size(); ++i) {
        VkShaderModuleCreateInfo mci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        mci.codeSize = modules[i]->size() * 4;
        mci.pCode = modules[i]->data();
        VkShaderModule m = VK_NULL_HANDLE;
        if (vkCreateShaderModule(d, &mci, nullptr, &m) != VK_SUCCESS) {
            error = "vkCreateShaderModule failed";
            return false;
        }
        b.modules.push_back(m);
        VkPipelineShaderStageCreateInfo s = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        s.stage = vk_stage(stages[i]);
        s.module = m;
        s.pName = infos[i].entry_point.c_str();
        ssci.push_back(s);
    }

    RenderTargets t;
    if (!create_render_pass(t, pass, fb, error))
        return false;
    width = t.width;
    height = t.height;
    uint32_t max_slot = t.color_count;

    // Vertex input: the quad, or [input layout] elements in order, one location each.
    std::vector<VkVertexInputBindingDescription> vbind;
    std::vector<VkVertexInputAttributeDescription> vattr;
    if (!shaders_[static_cast<int>(Stage::vertex)]) {
        vbind.push_back({0, 8, VK_VERTEX_INPUT_RATE_VERTEX});
        vattr.push_back({0, 0, VK_FORMAT_R32G32_SFLOAT, 0});
    } else {
        std::vector<uint32_t> offsets(32, 0);
        for (size_t i = 0; i < input_layout_.size(); ++i) {
            const InputElement& e = input_layout_[i];
            if (e.slot >= 32) {
                error = "input layout slot out of range";
                return false;
            }
            uint32_t location = static_cast<uint32_t>(i);
            if (!vertex_inputs_.empty() && !find_location(vertex_inputs_, e, location)) {
                offsets[e.slot] += e.format->texel_size; // not read by the shader
                continue;
            }
            vattr.push_back({location, e.slot, static_cast<VkFormat>(e.format->vk_format), offsets[e.slot]});
            offsets[e.slot] += e.format->texel_size;
        }
        for (uint32_t s = 0; s < 32; ++s)
            if (offsets[s])
                vbind.push_back({s, offsets[s], VK_VERTEX_INPUT_RATE_VERTEX});
    }
    VkPipelineVertexInputStateCreateInfo vi = {VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = static_cast<uint32_t>(vbind.size());
    vi.pVertexBindingDescriptions = vbind.data();
    vi.vertexAttributeDescriptionCount = static_cast<uint32_t>(vattr.size());
    vi.pVertexAttributeDescriptions = vattr.data();
    VkPipelineInputAssemblyStateCreateInfo ia = {VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = vk_topology(cmd.topology);
    VkPipelineTessellationStateCreateInfo ts = {VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
    ts.patchControlPoints = std::max(1u, cmd.control_points);
    // D3D's clip-space y points up: flip with a negative-height viewport
    // (Vulkan 1.1), as D3D-on-Vulkan layers do.
    VkViewport vp = {0, 0, float(width), float(height), 0, 1};
    if (viewport)
        vp = {(*viewport)[0], (*viewport)[1], (*viewport)[2], (*viewport)[3], (*viewport)[4], (*viewport)[5]};
    if (vp.maxDepth == 0 && vp.minDepth == 0)
        vp.maxDepth = 1;
    vp.y += vp.height;
    vp.height = -vp.height;
    VkRect2D scissor = {{0, 0}, {width, height}};
    VkPipelineViewportStateCreateInfo vps = {VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vps.viewportCount = 1;
    vps.pViewports = &vp;
    vps.scissorCount = 1;
    vps.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo rs = {VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.frontFace = VK_FRONT_FACE_CLOCKWISE; // D3D's default
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms = {VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = t.samples;
    VkSampleMask mask = sample_mask;
    ms.pSampleMask = &mask;
    VkPipelineDepthStencilStateCreateInfo ds = {VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = t.depth && depth_func ? VK_TRUE : VK_FALSE;
    ds.depthWriteEnable = t.depth ? VK_TRUE : VK_FALSE;
    ds.depthCompareOp = depth_func ? static_cast<VkCompareOp>(depth_func - 1) : VK_COMPARE_OP_ALWAYS;
    if (t.depth && !depth_func)
        ds.depthTestEnable = VK_TRUE;
    std::vector<VkPipelineColorBlendAttachmentState> blend(max_slot);
    for (auto& a : blend)
        a.colorWriteMask = 0xf;
    VkPipelineColorBlendStateCreateInfo cb = {VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = max_slot;
    cb.pAttachments = blend.data();
    VkGraphicsPipelineCreateInfo gpi = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
    gpi.stageCount = static_cast<uint32_t>(ssci.size());
    gpi.pStages = ssci.data();
    gpi.pVertexInputState = &vi;
    gpi.pInputAssemblyState = &ia;
    gpi.pTessellationState = cmd.topology == Topology::patch_list ? &ts : nullptr;
    gpi.pViewportState = &vps;
    gpi.pRasterizationState = &rs;
    gpi.pMultisampleState = &ms;
    gpi.pDepthStencilState = &ds;
    gpi.pColorBlendState = &cb;
    gpi.layout = b.layout;
    gpi.renderPass = pass;
    VkResult vr = vkCreateGraphicsPipelines(d, VK_NULL_HANDLE, 1, &gpi, nullptr, &pipeline);
    if (vr != VK_SUCCESS) {
        error = std::string("vkCreateGraphicsPipelines: ") + vk_result_name(vr);
        return false;
    }
    return true;
}

bool Runner::draw(const Command& cmd, std::string& error)
{
    VkDevice d = dev_.device();
    Bound b;
    VkRenderPass pass = VK_NULL_HANDLE;
    VkFramebuffer fb = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    uint32_t width = 0, height = 0;
    Buffer quad;
    bool ok = create_graphics_pipeline(cmd, b, pass, fb, pipeline, width, height, error);
    bool builtin_quad = ok && !shaders_[static_cast<int>(Stage::vertex)];
    if (builtin_quad) {
        static const float vertices[] = {-2.0f, -2.0f, -2.0f, 4.0f, 4.0f, -2.0f};
        ok = dev_.create_buffer(sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, quad, error);
        if (ok)
            std::copy(vertices, vertices + 6, static_cast<float*>(quad.mapped));
    }
    if (ok) {
        ok = dev_.submit([&](VkCommandBuffer c) {
            VkMemoryBarrier barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
            vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                                 &barrier, 0, nullptr, 0, nullptr);
            VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
            rbi.renderPass = pass;
            rbi.framebuffer = fb;
            rbi.renderArea = {{0, 0}, {width, height}};
            vkCmdBeginRenderPass(c, &rbi, VK_SUBPASS_CONTENTS_INLINE);
            vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
            vkCmdBindDescriptorSets(c, VK_PIPELINE_BIND_POINT_GRAPHICS, b.layout, 0, 1, &b.set, 0, nullptr);
            VkDeviceSize zero = 0;
            if (builtin_quad) {
                vkCmdBindVertexBuffers(c, 0, 1, &quad.buffer, &zero);
            } else {
                for (auto& [key, r] : resources_)
                    if (key.first == ResourceKind::vb && key.second < 32)
                        vkCmdBindVertexBuffers(c, key.second, 1, &r.buffer.buffer, &zero);
            }
            vkCmdDraw(c, cmd.kind == Command::Kind::draw_quad ? 3 : cmd.count, cmd.instances, 0, 0);
            vkCmdEndRenderPass(c);
            vkCmdPipelineBarrier(c, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                                 &barrier, 0, nullptr, 0, nullptr);
        }, error);
    }
    dev_.destroy_buffer(quad);
    if (pipeline)
        vkDestroyPipeline(d, pipeline, nullptr);
    if (fb)
        vkDestroyFramebuffer(d, fb, nullptr);
    if (pass)
        vkDestroyRenderPass(d, pass, nullptr);
    release(b);
    return ok;
}

} // namespace runner

// GPU resources from [srv N] / [uav N] / [sampler N] / [rtv N] / [dsv] /
// [vb N] sections: buffers (raw, structured, typed, counter), textures
// (1D/2D/3D/cube, arrays, multisampled) with their data, samplers, and the
// clear / copy commands.
#include "runner.h"

#include <algorithm>
#include <cstring>

namespace runner {

namespace {

bool is_buffer_dimension(Dimension d)
{
    return d == Dimension::buffer || d == Dimension::raw_buffer || d == Dimension::counter_buffer;
}

VkSamplerAddressMode vk_address(AddressMode mode)
{
    switch (mode) {
    case AddressMode::wrap: return VK_SAMPLER_ADDRESS_MODE_REPEAT;
    case AddressMode::mirror: return VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
    case AddressMode::clamp: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    case AddressMode::border: return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    case AddressMode::mirror_once: return VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE;
    }
    return VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
}

VkImageViewType view_type(Dimension d)
{
    switch (d) {
    case Dimension::tex1d: return VK_IMAGE_VIEW_TYPE_1D;
    case Dimension::tex1darray: return VK_IMAGE_VIEW_TYPE_1D_ARRAY;
    case Dimension::tex2darray: return VK_IMAGE_VIEW_TYPE_2D_ARRAY;
    case Dimension::tex3d: return VK_IMAGE_VIEW_TYPE_3D;
    case Dimension::cube: return VK_IMAGE_VIEW_TYPE_CUBE;
    case Dimension::cubearray: return VK_IMAGE_VIEW_TYPE_CUBE_ARRAY;
    default: return VK_IMAGE_VIEW_TYPE_2D;
    }
}

const Format* default_format(const ResourceSection& desc)
{
    return find_format(desc.kind == ResourceKind::dsv ? "d32-float" : "r32g32b32a32-float");
}

void full_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier,
                         0, nullptr, 0, nullptr);
}

} // namespace

Runner::~Runner()
{
    for (auto& [key, r] : resources_)
        destroy(r);
    dev_.destroy_buffer(uniform_buffer_);
}

void Runner::destroy(GpuResource& r)
{
    VkDevice d = dev_.device();
    if (r.buffer_view)
        vkDestroyBufferView(d, r.buffer_view, nullptr);
    if (r.view)
        vkDestroyImageView(d, r.view, nullptr);
    if (r.attachment_view)
        vkDestroyImageView(d, r.attachment_view, nullptr);
    if (r.sampler)
        vkDestroySampler(d, r.sampler, nullptr);
    dev_.destroy_buffer(r.buffer);
    dev_.destroy_buffer(r.counter);
    dev_.destroy_image(r.image);
}

GpuResource* Runner::find(ResourceKind kind, uint32_t slot)
{
    auto it = resources_.find({kind, slot});
    return it == resources_.end() ? nullptr : &it->second;
}

void Runner::set_uniforms(uint32_t offset, const std::vector<uint32_t>& words)
{
    size_t end = size_t(offset) + words.size();
    if (uniforms_.size() < end)
        uniforms_.resize((end + 3) & ~size_t(3), 0x7f7f7f7fu); // as vkd3d: new space is filled with 0x7f
    std::copy(words.begin(), words.end(), uniforms_.begin() + offset);
}

bool Runner::create_buffer_resource(GpuResource& r, std::string& error)
{
    const ResourceSection& d = r.desc;
    r.is_buffer = true;
    const Format* format = d.format;
    if (d.dimension == Dimension::raw_buffer || d.dimension == Dimension::counter_buffer)
        r.texel_size = 4;
    else if (d.stride)
        r.texel_size = d.stride;
    else
        r.texel_size = (format ? format : default_format(d))->texel_size;
    VkDeviceSize size = std::max<VkDeviceSize>(d.data.size(), VkDeviceSize(d.width) * r.texel_size);
    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT
            | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    bool typed = d.kind != ResourceKind::vb && !d.stride && d.dimension == Dimension::buffer;
    VkFormat vk_format = VK_FORMAT_UNDEFINED;
    if (typed) {
        vk_format = static_cast<VkFormat>((format ? format : default_format(d))->vk_format);
        if (dev_.buffer_format_supports(vk_format, VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT))
            usage |= VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
        if (dev_.buffer_format_supports(vk_format, VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT))
            usage |= VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT;
    }
    if (!dev_.create_buffer((size + 15) & ~VkDeviceSize(15), usage, r.buffer, error))
        return false;
    if (!d.data.empty())
        std::memcpy(r.buffer.mapped, d.data.data(), d.data.size());
    if (typed && (usage & (VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT))) {
        VkBufferViewCreateInfo vci = {VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
        vci.buffer = r.buffer.buffer;
        vci.format = vk_format;
        vci.range = VkDeviceSize(d.width) * r.texel_size;
        VkResult vr = vkCreateBufferView(dev_.device(), &vci, nullptr, &r.buffer_view);
        if (vr != VK_SUCCESS) {
            error = std::string("vkCreateBufferView: ") + vk_result_name(vr);
            return false;
        }
    }
    return true;
}

bool Runner::upload_image(GpuResource& r, std::string& error)
{
    const ResourceSection& d = r.desc;
    Image& img = r.image;
    std::vector<VkBufferImageCopy> regions;
    VkDeviceSize offset = 0;
    Buffer staging;
    bool has_data = !d.data.empty() && img.samples == VK_SAMPLE_COUNT_1_BIT;
    if (has_data) {
        if (!dev_.create_buffer(d.data.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, staging, error))
            return false;
        std::memcpy(staging.mapped, d.data.data(), d.data.size());
        for (uint32_t level = 0; level < img.levels; ++level) {
            uint32_t w = std::max(1u, img.width >> level), h = std::max(1u, img.height >> level);
            uint32_t depth = std::max(1u, img.depth >> level);
            VkDeviceSize bytes = VkDeviceSize(w) * h * depth * img.layers * r.texel_size;
            if (offset + bytes > d.data.size())
                break;
            VkBufferImageCopy region = {};
            region.bufferOffset = offset;
            region.imageSubresource = {img.aspect, level, 0, img.layers};
            region.imageExtent = {w, h, depth};
            regions.push_back(region);
            offset += bytes;
        }
    }
    bool ok = dev_.submit([&](VkCommandBuffer cmd) {
        VkImageMemoryBarrier barrier = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
        barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
        barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        barrier.newLayout = VK_IMAGE_LAYOUT_GENERAL;
        barrier.srcQueueFamilyIndex = barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        barrier.image = img.image;
        barrier.subresourceRange = {img.aspect, 0, img.levels, 0, img.layers};
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0,
                             nullptr, 0, nullptr, 1, &barrier);
        if (img.aspect == VK_IMAGE_ASPECT_COLOR_BIT && !has_data) {
            VkClearColorValue zero = {};
            vkCmdClearColorImage(cmd, img.image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &barrier.subresourceRange);
        }
        if (!regions.empty())
            vkCmdCopyBufferToImage(cmd, staging.buffer, img.image, VK_IMAGE_LAYOUT_GENERAL,
                                   static_cast<uint32_t>(regions.size()), regions.data());
        full_barrier(cmd);
    }, error);
    dev_.destroy_buffer(staging);
    return ok;
}

bool Runner::create_image_resource(GpuResource& r, std::string& error)
{
    ResourceSection& d = r.desc;
    const Format* format = d.format ? d.format : default_format(d);
    r.texel_size = format->texel_size;
    if ((d.kind == ResourceKind::rtv || d.kind == ResourceKind::dsv) && !d.explicit_size) {
        d.width = 640;
        d.height = 480;
    }
    VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = d.dimension == Dimension::tex3d ? VK_IMAGE_TYPE_3D
            : (d.dimension == Dimension::tex1d || d.dimension == Dimension::tex1darray) ? VK_IMAGE_TYPE_1D
            : VK_IMAGE_TYPE_2D;
    ici.format = static_cast<VkFormat>(format->vk_format);
    bool layered = d.dimension == Dimension::tex1darray || d.dimension == Dimension::tex2darray
            || d.dimension == Dimension::cube || d.dimension == Dimension::cubearray;
    ici.extent = {d.width, ici.imageType == VK_IMAGE_TYPE_1D ? 1 : d.height,
                  d.dimension == Dimension::tex3d ? d.depth : 1};
    ici.mipLevels = d.levels;
    ici.arrayLayers = layered ? d.depth : 1;
    if (d.dimension == Dimension::cube || d.dimension == Dimension::cubearray) {
        ici.arrayLayers = d.dimension == Dimension::cube ? 6 : 6 * d.depth;
        ici.flags |= VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT;
    }
    ici.samples = static_cast<VkSampleCountFlagBits>(d.samples);
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkFormatFeatureFlags needed = 0;
    bool depth = format->data_type == DataType::depth;
    if (d.kind == ResourceKind::dsv || depth) {
        ici.usage |= VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
        needed |= VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT;
    }
    if (d.kind == ResourceKind::rtv) {
        ici.usage |= VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
        needed |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT;
    }
    if (d.kind == ResourceKind::uav) {
        ici.usage |= VK_IMAGE_USAGE_STORAGE_BIT;
        needed |= VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    }
    if (dev_.format_supports(ici.format, VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT))
        ici.usage |= VK_IMAGE_USAGE_SAMPLED_BIT;
    else if (d.kind == ResourceKind::srv)
        needed |= VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT;
    if (!dev_.format_supports(ici.format, needed)) {
        error = std::string("format ") + format->name + " is not supported for this " + resource_kind_name(d.kind);
        return false;
    }
    Image& img = r.image;
    if (!dev_.create_image(ici, img, error))
        return false;
    img.aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    if (!upload_image(r, error))
        return false;

    VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = view_type(d.dimension);
    vci.format = ici.format;
    vci.subresourceRange = {img.aspect, 0, img.levels, 0, img.layers};
    VkResult vr = vkCreateImageView(dev_.device(), &vci, nullptr, &r.view);
    if (vr == VK_SUCCESS && (d.kind == ResourceKind::rtv || d.kind == ResourceKind::dsv)) {
        vci.viewType = img.layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
        vci.subresourceRange.levelCount = 1;
        vr = vkCreateImageView(dev_.device(), &vci, nullptr, &r.attachment_view);
    }
    if (vr != VK_SUCCESS) {
        error = std::string("vkCreateImageView: ") + vk_result_name(vr);
        return false;
    }
    return true;
}

bool Runner::set_resource(const ResourceSection& desc, std::string& error)
{
    GpuResource r;
    r.desc = desc;
    bool ok = true;
    if (desc.kind == ResourceKind::sampler) {
        VkSamplerCreateInfo sci = {VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
        sci.magFilter = desc.mag_linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        sci.minFilter = desc.min_linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        sci.mipmapMode = desc.mip_linear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
        sci.addressModeU = vk_address(desc.address[0]);
        sci.addressModeV = vk_address(desc.address[1]);
        sci.addressModeW = vk_address(desc.address[2]);
        sci.maxLod = VK_LOD_CLAMP_NONE;
        sci.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
        if (desc.comparison) {
            sci.compareEnable = VK_TRUE;
            sci.compareOp = static_cast<VkCompareOp>(desc.comparison - 1); // D3D12 func - 1 = VkCompareOp
        }
        VkResult vr = vkCreateSampler(dev_.device(), &sci, nullptr, &r.sampler);
        if (vr != VK_SUCCESS) {
            error = std::string("vkCreateSampler: ") + vk_result_name(vr);
            ok = false;
        }
    } else if (desc.kind == ResourceKind::vb || is_buffer_dimension(desc.dimension)) {
        ok = create_buffer_resource(r, error);
    } else {
        ok = create_image_resource(r, error);
    }
    if (!ok) {
        destroy(r);
        return false;
    }
    auto key = std::make_pair(desc.kind, desc.slot);
    if (GpuResource* old = find(desc.kind, desc.slot))
        destroy(*old);
    resources_[key] = std::move(r);
    return true;
}

bool Runner::ensure_default_target(std::string& error)
{
    if (find(ResourceKind::rtv, 0) || find(ResourceKind::dsv, 0))
        return true;
    ResourceSection rtv;
    rtv.kind = ResourceKind::rtv;
    rtv.dimension = Dimension::tex2d;
    return set_resource(rtv, error);
}

bool Runner::clear_rtv(uint32_t slot, const float color[4], std::string& error)
{
    if (!ensure_default_target(error))
        return false;
    GpuResource* r = find(ResourceKind::rtv, slot);
    if (!r) {
        error = "clear rtv " + std::to_string(slot) + ": no such render target";
        return false;
    }
    return dev_.submit([&](VkCommandBuffer cmd) {
        VkClearColorValue value;
        const Format* f = r->desc.format ? r->desc.format : find_format("r32g32b32a32-float");
        for (int i = 0; i < 4; ++i) {
            if (f->data_type == DataType::uint_)
                value.uint32[i] = static_cast<uint32_t>(color[i]);
            else if (f->data_type == DataType::sint_)
                value.int32[i] = static_cast<int32_t>(color[i]);
            else
                value.float32[i] = color[i];
        }
        VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, r->image.levels, 0, r->image.layers};
        vkCmdClearColorImage(cmd, r->image.image, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &range);
        full_barrier(cmd);
    }, error);
}

bool Runner::clear_dsv(float depth, std::string& error)
{
    GpuResource* r = find(ResourceKind::dsv, 0);
    if (!r) {
        error = "clear dsv: no [dsv] section";
        return false;
    }
    return dev_.submit([&](VkCommandBuffer cmd) {
        VkClearDepthStencilValue value = {depth, 0};
        VkImageSubresourceRange range = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, r->image.levels, 0, r->image.layers};
        vkCmdClearDepthStencilImage(cmd, r->image.image, VK_IMAGE_LAYOUT_GENERAL, &value, 1, &range);
        full_barrier(cmd);
    }, error);
}

bool Runner::copy(const Command& c, std::string& error)
{
    GpuResource* src = find(c.src_kind, c.src_slot);
    GpuResource* dst = find(c.dst_kind, c.dst_slot);
    if (!src || !dst) {
        error = "copy: undefined resource";
        return false;
    }
    if (src->is_buffer != dst->is_buffer) {
        error = "copy between a buffer and an image is not supported";
        return false;
    }
    return dev_.submit([&](VkCommandBuffer cmd) {
        full_barrier(cmd);
        if (src->is_buffer) {
            VkBufferCopy region = {0, 0, std::min(src->buffer.size, dst->buffer.size)};
            vkCmdCopyBuffer(cmd, src->buffer.buffer, dst->buffer.buffer, 1, &region);
        } else {
            std::vector<VkImageCopy> regions;
            for (uint32_t level = 0; level < std::min(src->image.levels, dst->image.levels); ++level) {
                VkImageCopy region = {};
                region.srcSubresource = {src->image.aspect, level, 0, std::min(src->image.layers, dst->image.layers)};
                region.dstSubresource = region.srcSubresource;
                region.extent = {std::max(1u, std::min(src->image.width, dst->image.width) >> level),
                                 std::max(1u, std::min(src->image.height, dst->image.height) >> level),
                                 std::max(1u, std::min(src->image.depth, dst->image.depth) >> level)};
                regions.push_back(region);
            }
            vkCmdCopyImage(cmd, src->image.image, VK_IMAGE_LAYOUT_GENERAL, dst->image.image, VK_IMAGE_LAYOUT_GENERAL,
                           static_cast<uint32_t>(regions.size()), regions.data());
        }
        full_barrier(cmd);
    }, error);
}

} // namespace runner

// probe uav / rtv / dsv: read a resource back and compare texels or
// elements with the expected values, floats within N ulp as vkd3d does.
#include "runner.h"

#include <algorithm>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace runner {

namespace {

float half_to_float(uint16_t h)
{
    uint32_t sign = uint32_t(h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    uint32_t bits;
    if (exp == 0x1f)
        bits = sign | 0x7f800000u | (mant << 13);
    else if (exp)
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    else if (mant) {
        float f = std::ldexp(static_cast<float>(mant), -24);
        return sign ? -f : f;
    } else
        bits = sign;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

/// Reads component `c` of the element/texel at `p`, as the probe kind wants it.
void read_component(const GpuResource& r, const uint8_t* p, uint32_t c, Probe::Kind kind, double& f, uint64_t& u)
{
    if (kind == Probe::Kind::f64 || kind == Probe::Kind::u64 || kind == Probe::Kind::i64) {
        std::memcpy(&u, p + 8 * c, 8);
        std::memcpy(&f, p + 8 * c, 8);
        return;
    }
    const Format* fmt = r.desc.format;
    bool raw = !fmt || r.desc.stride || r.desc.dimension == Dimension::raw_buffer || fmt->component_bits == 32
            || fmt->data_type == DataType::typeless;
    if (!raw && c >= fmt->components) {
        f = c == 3 ? 1.0 : 0.0;
        u = c == 3 ? 1 : 0;
        return;
    }
    uint32_t word = 0;
    if (raw && fmt && !r.desc.stride && r.desc.dimension != Dimension::raw_buffer && c >= fmt->components) {
        f = c == 3 ? 1.0 : 0.0; // missing components read as (0, 0, 0, 1), as D3D returns them
        u = c == 3 ? 1 : 0;
        return;
    }
    if (raw) {
        std::memcpy(&word, p + 4 * c, 4);
        float fv;
        std::memcpy(&fv, &word, 4);
        f = fv;
        u = kind == Probe::Kind::i32 ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(word))) : word;
        return;
    }
    uint32_t bits = fmt->component_bits;
    if (bits == 16) {
        uint16_t v;
        std::memcpy(&v, p + 2 * c, 2);
        word = v;
    } else if (bits == 8) {
        word = p[c];
    } else {
        std::memcpy(&word, p, 4); // packed formats: no per-component decoding
        f = word;
        u = word;
        return;
    }
    double max = double((1u << bits) - 1);
    switch (fmt->data_type) {
    case DataType::float_: f = half_to_float(static_cast<uint16_t>(word)); break;
    case DataType::unorm: f = word / max; break;
    case DataType::snorm: {
        int32_t s = static_cast<int32_t>(word << (32 - bits)) >> (32 - bits);
        f = std::max(-1.0, s / double((1u << (bits - 1)) - 1));
        break;
    }
    case DataType::sint_: f = static_cast<int32_t>(word << (32 - bits)) >> (32 - bits); break;
    default: f = word; break;
    }
    u = fmt->data_type == DataType::sint_ ? static_cast<uint64_t>(static_cast<int64_t>(f)) : word;
}

bool compare_f32(float f, float g, uint32_t ulps)
{
    if (std::isnan(f) || std::isnan(g))
        return std::isnan(f) && std::isnan(g);
    if (std::isinf(f) || std::isinf(g))
        return f == g;
    int32_t x, y;
    std::memcpy(&x, &f, 4);
    std::memcpy(&y, &g, 4);
    int64_t a = x < 0 ? int64_t(INT_MIN) - x : x, b = y < 0 ? int64_t(INT_MIN) - y : y;
    return std::llabs(a - b) <= ulps;
}

bool compare_f64(double f, double g, uint32_t ulps)
{
    if (std::isnan(f) || std::isnan(g))
        return std::isnan(f) && std::isnan(g);
    if (std::isinf(f) || std::isinf(g))
        return f == g;
    int64_t x, y;
    std::memcpy(&x, &f, 8);
    std::memcpy(&y, &g, 8);
    if (x < 0)
        x = INT64_MIN - x;
    if (y < 0)
        y = INT64_MIN - y;
    uint64_t diff = x > y ? uint64_t(x) - uint64_t(y) : uint64_t(y) - uint64_t(x);
    return diff <= ulps;
}

std::string format_value(Probe::Kind kind, double f, uint64_t u)
{
    char buf[64];
    switch (kind) {
    case Probe::Kind::f32: std::snprintf(buf, sizeof(buf), "%.9g", static_cast<float>(f)); break;
    case Probe::Kind::f64: std::snprintf(buf, sizeof(buf), "%.17g", f); break;
    case Probe::Kind::u32: std::snprintf(buf, sizeof(buf), "%" PRIu32, static_cast<uint32_t>(u)); break;
    case Probe::Kind::i32: std::snprintf(buf, sizeof(buf), "%" PRId32, static_cast<int32_t>(u)); break;
    case Probe::Kind::u64: std::snprintf(buf, sizeof(buf), "%" PRIu64, u); break;
    case Probe::Kind::i64: std::snprintf(buf, sizeof(buf), "%" PRId64, static_cast<int64_t>(u)); break;
    }
    return buf;
}

} // namespace

bool Runner::readback(GpuResource& r, uint32_t layer, std::vector<uint8_t>& data, uint32_t& width, uint32_t& height,
                      std::string& error)
{
    if (r.is_buffer) {
        const auto* p = static_cast<const uint8_t*>(r.buffer.mapped);
        data.assign(p, p + r.buffer.size);
        width = static_cast<uint32_t>(r.buffer.size / r.texel_size);
        height = 1;
        return true;
    }
    Image& img = r.image;
    bool multisampled = img.samples != VK_SAMPLE_COUNT_1_BIT;
    if (multisampled && img.aspect != VK_IMAGE_ASPECT_COLOR_BIT) {
        error = "probing a multisampled depth resource is not supported";
        return false;
    }
    bool is3d = img.type == VK_IMAGE_TYPE_3D;
    if (layer >= (is3d ? img.depth : img.layers)) {
        error = "probe layer " + std::to_string(layer) + " is out of range";
        return false;
    }
    width = img.width;
    height = img.height;
    // A multisampled colour target is resolved (averaged, as D3D's
    // ResolveSubresource does) into a single-sample image first.
    Image resolved;
    if (multisampled) {
        VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
        ici.imageType = VK_IMAGE_TYPE_2D;
        ici.format = img.format;
        ici.extent = {width, height, 1};
        ici.mipLevels = 1;
        ici.arrayLayers = 1;
        ici.samples = VK_SAMPLE_COUNT_1_BIT;
        ici.tiling = VK_IMAGE_TILING_OPTIMAL;
        ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
        if (!dev_.create_image(ici, resolved, error))
            return false;
    }
    Buffer staging;
    VkDeviceSize size = VkDeviceSize(width) * height * r.texel_size;
    if (!dev_.create_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, staging, error)) {
        dev_.destroy_image(resolved);
        return false;
    }
    bool ok = dev_.submit([&](VkCommandBuffer cmd) {
        VkMemoryBarrier barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1,
                             &barrier, 0, nullptr, 0, nullptr);
        VkImage source = img.image;
        uint32_t source_layer = is3d ? 0 : layer;
        if (multisampled) {
            VkImageMemoryBarrier to_general = {VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
            to_general.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            to_general.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
            to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
            to_general.srcQueueFamilyIndex = to_general.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
            to_general.image = resolved.image;
            to_general.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                                 nullptr, 0, nullptr, 1, &to_general);
            VkImageResolve region = {};
            region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, layer, 1};
            region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.extent = {width, height, 1};
            vkCmdResolveImage(cmd, img.image, VK_IMAGE_LAYOUT_GENERAL, resolved.image, VK_IMAGE_LAYOUT_GENERAL, 1,
                              &region);
            barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &barrier,
                                 0, nullptr, 0, nullptr);
            source = resolved.image;
            source_layer = 0;
        }
        VkBufferImageCopy region = {};
        region.imageSubresource = {img.aspect, 0, source_layer, 1};
        region.imageOffset = {0, 0, is3d ? int32_t(layer) : 0};
        region.imageExtent = {width, height, 1};
        vkCmdCopyImageToBuffer(cmd, source, VK_IMAGE_LAYOUT_GENERAL, staging.buffer, 1, &region);
        barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier, 0,
                             nullptr, 0, nullptr);
    }, error);
    dev_.destroy_image(resolved);
    if (ok) {
        const auto* p = static_cast<const uint8_t*>(staging.mapped);
        data.assign(p, p + size);
    }
    dev_.destroy_buffer(staging);
    return ok;
}

bool Runner::probe(const Probe& probe, std::string& message, std::string& error)
{
    if (probe.target == ResourceKind::rtv && !ensure_default_target(error))
        return false;
    GpuResource* r = find(probe.target, probe.slot);
    if (!r) {
        error = std::string("probe: no [") + resource_kind_name(probe.target) + " " + std::to_string(probe.slot) + "]";
        return false;
    }
    if (probe.counter) {
        if (!r->counter.buffer) {
            error = "probe: no shader used the counter of uav " + std::to_string(probe.slot);
            return false;
        }
        uint32_t value = 0;
        std::memcpy(&value, r->counter.mapped, 4);
        if (value == static_cast<uint32_t>(probe.ivalues[0]))
            return true;
        message = "counter of uav " + std::to_string(probe.slot) + ": expected " + std::to_string(uint32_t(probe.ivalues[0]))
                + ", got " + std::to_string(value);
        return false;
    }
    std::vector<uint8_t> data;
    uint32_t width = 0, height = 0;
    if (!readback(*r, probe.layer, data, width, height, error))
        return false;
    uint32_t x1 = std::min(width, probe.x + probe.w), y1 = std::min(height, probe.y + probe.h);
    bool wide = probe.kind == Probe::Kind::f64 || probe.kind == Probe::Kind::u64 || probe.kind == Probe::Kind::i64;
    uint32_t needed = probe.components * (wide ? 8 : 4);
    if (probe.x >= width || probe.y >= height) {
        error = "probe (" + std::to_string(probe.x) + ", " + std::to_string(probe.y) + ") is outside the resource ("
                + std::to_string(width) + "x" + std::to_string(height) + ")";
        return false;
    }
    for (uint32_t y = probe.y; y < y1; ++y) {
        for (uint32_t x = probe.x; x < x1; ++x) {
            size_t offset = (size_t(y) * width + x) * r->texel_size;
            if (offset + std::min(needed, r->is_buffer ? needed : 0u) > data.size()) {
                error = "probe reads past the end of the resource";
                return false;
            }
            double f[4] = {};
            uint64_t u[4] = {};
            bool match = true;
            for (uint32_t c = 0; c < probe.components; ++c) {
                read_component(*r, data.data() + offset, c, probe.kind, f[c], u[c]);
                switch (probe.kind) {
                case Probe::Kind::f32:
                    match &= compare_f32(static_cast<float>(f[c]), static_cast<float>(probe.fvalues[c]), probe.ulp);
                    break;
                case Probe::Kind::f64: match &= compare_f64(f[c], probe.fvalues[c], probe.ulp); break;
                case Probe::Kind::u32:
                case Probe::Kind::i32: match &= static_cast<uint32_t>(u[c]) == static_cast<uint32_t>(probe.ivalues[c]); break;
                default: match &= u[c] == probe.ivalues[c]; break;
                }
            }
            if (match)
                continue;
            std::string expected, got;
            for (uint32_t c = 0; c < probe.components; ++c) {
                expected.append(c ? ", " : "").append(format_value(probe.kind, probe.fvalues[c], probe.ivalues[c]));
                got.append(c ? ", " : "").append(format_value(probe.kind, f[c], u[c]));
            }
            message = "at (" + std::to_string(x) + ", " + std::to_string(y) + "): expected (" + expected + "), got ("
                    + got + ")" + (probe.ulp ? " ulp " + std::to_string(probe.ulp) : "");
            return false;
        }
    }
    return true;
}

} // namespace runner

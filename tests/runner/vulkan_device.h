// The Vulkan device of shader-runner: instance, physical device, one queue,
// memory, buffers, images and one-shot command submission. No global state;
// every object is released by the Device that created it.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace runner {

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* mapped = nullptr; ///< host-visible and coherent
    VkDeviceSize size = 0;
};

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkImageType type = VK_IMAGE_TYPE_2D;
    VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    uint32_t width = 1, height = 1, depth = 1, layers = 1, levels = 1;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

/// What the device supports, for [require] and conditions.
struct DeviceCaps {
    std::string name;
    bool float64 = false, int64 = false, int16 = false, float16 = false;
    bool geometry = false, tessellation = false, wave_ops = false, depth_bounds = false;
    bool clip_distance = false, cube_array = false, storage_read_without_format = false;
    bool barycentrics = false;         ///< VK_KHR_fragment_shader_barycentric
    bool shared_int64_atomics = false; ///< VK_KHR_shader_atomic_int64 shaderSharedInt64Atomics
};

class Device {
public:
    Device() = default;
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;
    ~Device();

    /// Creates the instance and device; false with `error` when there is no usable device.
    bool init(std::string& error);

    VkDevice device() const { return device_; }
    VkPhysicalDevice physical_device() const { return physical_; }
    const DeviceCaps& caps() const { return caps_; }

    bool create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, Buffer& out, std::string& error);
    void destroy_buffer(Buffer& buffer);
    bool create_image(const VkImageCreateInfo& info, Image& out, std::string& error);
    void destroy_image(Image& image);
    /// True when `format` supports all of `features` for optimal tiling.
    bool format_supports(VkFormat format, VkFormatFeatureFlags features) const;
    bool buffer_format_supports(VkFormat format, VkFormatFeatureFlags features) const;

    /// Records with `record`, submits and waits (at most `timeout_ms`).
    bool submit(const std::function<void(VkCommandBuffer)>& record, std::string& error, uint32_t timeout_ms = 20000);

private:
    bool find_memory(uint32_t type_bits, VkMemoryPropertyFlags flags, uint32_t& index) const;
    bool pick_device(std::string& error);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queue_family_ = 0;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkPhysicalDeviceMemoryProperties memory_ = {};
    DeviceCaps caps_;
};

/// "VK_ERROR_..." for messages.
const char* vk_result_name(VkResult result);

} // namespace runner

// The small Vulkan layer the demos share: one device with one
// graphics+compute queue, host-visible buffers, images, shader modules,
// one-shot command submission. Errors print a message and exit: a demo has
// nothing to recover.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace demo {

/// Prints "demo: <message>" to stderr and exits with `status` (1 by default;
/// 77, "skipped" for meson, when there is no Vulkan device).
[[noreturn]] void die(const char* format, ...);
[[noreturn]] void skip(const char* format, ...);

/// Exits with a message when `result` is not VK_SUCCESS.
void check(VkResult result, const char* what);

struct Buffer {
    VkBuffer buffer = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    void* data = nullptr; ///< mapped, host-coherent
    VkDeviceSize size = 0;
};

struct Image {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkDeviceMemory memory = VK_NULL_HANDLE;
    uint32_t width = 0, height = 0;
};

class Vulkan {
public:
    /// Creates the instance and the device (lavapipe works); skips when there is none.
    Vulkan();
    ~Vulkan();
    Vulkan(const Vulkan&) = delete;
    Vulkan& operator=(const Vulkan&) = delete;

    VkDevice device() const { return device_; }
    const char* device_name() const { return name_; }

    Buffer create_buffer(VkDeviceSize size, VkBufferUsageFlags usage);
    void destroy(Buffer& buffer);
    /// A 2D image of one level and its view.
    Image create_image(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage);
    void destroy(Image& image);
    VkShaderModule create_shader_module(const std::vector<uint32_t>& spirv);

    /// Records a command buffer with `record`, submits it and waits; the
    /// host then sees everything the commands wrote.
    void submit(const std::function<void(VkCommandBuffer)>& record);

private:
    uint32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags flags) const;
    VkDeviceMemory allocate(VkMemoryRequirements requirements, VkMemoryPropertyFlags flags);

    VkInstance instance_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    VkCommandPool pool_ = VK_NULL_HANDLE;
    VkPhysicalDeviceMemoryProperties memory_ = {};
    char name_[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE] = {};
};

/// A descriptor set of storage buffers: `buffers[i]` at binding `bindings[i]`,
/// with the layout and pool that hold it.
struct StorageBufferSet {
    VkDescriptorSetLayout layout = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet set = VK_NULL_HANDLE;

    StorageBufferSet(VkDevice device, const std::vector<uint32_t>& bindings, const std::vector<VkBuffer>& buffers);
    void destroy(VkDevice device);
};

/// A compute pipeline for `spirv` (entry point "main") with one descriptor
/// set layout and `push_constant_size` bytes of push constants.
struct ComputePipeline {
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;

    ComputePipeline(Vulkan& vk, const std::vector<uint32_t>& spirv, VkDescriptorSetLayout set_layout,
                    uint32_t push_constant_size);
    void destroy(VkDevice device);
};

} // namespace demo

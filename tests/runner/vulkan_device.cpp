// Vulkan instance, device, memory and submission for shader-runner.
#include "vulkan_device.h"

#include <cstring>

namespace runner {

const char* vk_result_name(VkResult result)
{
    switch (result) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
    default: return "VK_ERROR (other)";
    }
}

Device::~Device()
{
    if (device_) {
        vkDeviceWaitIdle(device_);
        if (pool_)
            vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    if (instance_)
        vkDestroyInstance(instance_, nullptr);
}

bool Device::pick_device(std::string& error)
{
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    for (VkPhysicalDevice pd : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(pd, &props);
        if (props.apiVersion < VK_API_VERSION_1_1)
            continue;
        uint32_t qcount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &qcount, nullptr);
        std::vector<VkQueueFamilyProperties> queues(qcount);
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &qcount, queues.data());
        for (uint32_t i = 0; i < qcount; ++i) {
            if ((queues[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT))
                    == (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) {
                physical_ = pd;
                queue_family_ = i;
                caps_.name = props.deviceName;
                return true;
            }
        }
    }
    error = "no Vulkan 1.1 device with a graphics+compute queue";
    return false;
}

bool Device::init(std::string& error)
{
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "shader-runner";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkResult vr = vkCreateInstance(&ici, nullptr, &instance_);
    if (vr != VK_SUCCESS) {
        error = std::string("vkCreateInstance: ") + vk_result_name(vr);
        return false;
    }
    if (!pick_device(error))
        return false;
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

    // Enable every feature the device has: the tests decide what they need.
    VkPhysicalDeviceVulkan11Features f11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceFeatures2 features = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    features.pNext = &f11;
    // Half floats (native 16-bit DXIL) need VK_KHR_shader_float16_int8 on Vulkan 1.1.
    VkPhysicalDeviceShaderFloat16Int8FeaturesKHR f16 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES_KHR};
    std::vector<const char*> extensions;
    uint32_t ext_count = 0;
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &ext_count, nullptr);
    std::vector<VkExtensionProperties> available(ext_count);
    vkEnumerateDeviceExtensionProperties(physical_, nullptr, &ext_count, available.data());
    // Optional features the tests probe for: each extension is enabled when
    // the device has it, its feature struct chained behind f11.
    VkPhysicalDeviceFragmentShaderBarycentricFeaturesKHR bary = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FRAGMENT_SHADER_BARYCENTRIC_FEATURES_KHR};
    VkPhysicalDeviceShaderAtomicInt64FeaturesKHR atomic64 = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES_KHR};
    struct Optional {
        const char* name;
        VkBaseOutStructure* feature;
    } optional[] = {{VK_KHR_SHADER_FLOAT16_INT8_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&f16)},
        {VK_KHR_FRAGMENT_SHADER_BARYCENTRIC_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&bary)},
        {VK_KHR_SHADER_ATOMIC_INT64_EXTENSION_NAME, reinterpret_cast<VkBaseOutStructure*>(&atomic64)},
        // UAV counters carry CounterBuffer (SPV_GOOGLE_hlsl_functionality1 before SPIR-V 1.4).
        {VK_GOOGLE_HLSL_FUNCTIONALITY_1_EXTENSION_NAME, nullptr}};
    for (const VkExtensionProperties& e : available)
        for (Optional& o : optional)
            if (std::strcmp(e.extensionName, o.name) == 0) {
                extensions.push_back(o.name);
                if (!o.feature)
                    continue;
                o.feature->pNext = static_cast<VkBaseOutStructure*>(f11.pNext);
                f11.pNext = o.feature;
            }
    vkGetPhysicalDeviceFeatures2(physical_, &features);
    caps_.barycentrics = bary.fragmentShaderBarycentric;
    caps_.shared_int64_atomics = atomic64.shaderSharedInt64Atomics;
    caps_.float16 = f16.shaderFloat16;
    const VkPhysicalDeviceFeatures& f = features.features;
    caps_.float64 = f.shaderFloat64;
    caps_.int64 = f.shaderInt64;
    caps_.int16 = f.shaderInt16;
    caps_.geometry = f.geometryShader;
    caps_.tessellation = f.tessellationShader;
    caps_.depth_bounds = f.depthBounds;
    caps_.clip_distance = f.shaderClipDistance;
    caps_.cube_array = f.imageCubeArray;
    caps_.storage_read_without_format = f.shaderStorageImageReadWithoutFormat;

    VkPhysicalDeviceSubgroupProperties subgroup = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 props2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    props2.pNext = &subgroup;
    vkGetPhysicalDeviceProperties2(physical_, &props2);
    caps_.wave_ops = (subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT)
            && (subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = queue_family_;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &features;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    dci.ppEnabledExtensionNames = extensions.data();
    if ((vr = vkCreateDevice(physical_, &dci, nullptr, &device_)) != VK_SUCCESS) {
        error = std::string("vkCreateDevice: ") + vk_result_name(vr);
        return false;
    }
    vkGetDeviceQueue(device_, queue_family_, 0, &queue_);
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = queue_family_;
    if ((vr = vkCreateCommandPool(device_, &pci, nullptr, &pool_)) != VK_SUCCESS) {
        error = std::string("vkCreateCommandPool: ") + vk_result_name(vr);
        return false;
    }
    return true;
}

bool Device::find_memory(uint32_t type_bits, VkMemoryPropertyFlags flags, uint32_t& index) const
{
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        if ((type_bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & flags) == flags) {
            index = i;
            return true;
        }
    }
    return false;
}

bool Device::create_buffer(VkDeviceSize size, VkBufferUsageFlags usage, Buffer& out, std::string& error)
{
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size ? size : 4;
    bci.usage = usage;
    VkResult vr = vkCreateBuffer(device_, &bci, nullptr, &out.buffer);
    if (vr != VK_SUCCESS) {
        error = std::string("vkCreateBuffer: ") + vk_result_name(vr);
        return false;
    }
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, out.buffer, &req);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    if (!find_memory(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                mai.memoryTypeIndex)) {
        error = "no host-visible coherent memory for a buffer";
        return false;
    }
    if ((vr = vkAllocateMemory(device_, &mai, nullptr, &out.memory)) != VK_SUCCESS) {
        error = std::string("vkAllocateMemory: ") + vk_result_name(vr);
        return false;
    }
    vkBindBufferMemory(device_, out.buffer, out.memory, 0);
    vkMapMemory(device_, out.memory, 0, VK_WHOLE_SIZE, 0, &out.mapped);
    std::memset(out.mapped, 0, bci.size);
    out.size = bci.size;
    return true;
}

void Device::destroy_buffer(Buffer& buffer)
{
    if (buffer.buffer)
        vkDestroyBuffer(device_, buffer.buffer, nullptr);
    if (buffer.memory)
        vkFreeMemory(device_, buffer.memory, nullptr);
    buffer = {};
}

bool Device::create_image(const VkImageCreateInfo& info, Image& out, std::string& error)
{
    VkResult vr = vkCreateImage(device_, &info, nullptr, &out.image);
    if (vr != VK_SUCCESS) {
        error = std::string("vkCreateImage: ") + vk_result_name(vr);
        return false;
    }
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, out.image, &req);
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = req.size;
    if (!find_memory(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, mai.memoryTypeIndex)
            && !find_memory(req.memoryTypeBits, 0, mai.memoryTypeIndex)) {
        error = "no memory type for an image";
        return false;
    }
    if ((vr = vkAllocateMemory(device_, &mai, nullptr, &out.memory)) != VK_SUCCESS) {
        error = std::string("vkAllocateMemory: ") + vk_result_name(vr);
        return false;
    }
    vkBindImageMemory(device_, out.image, out.memory, 0);
    out.format = info.format;
    out.type = info.imageType;
    out.width = info.extent.width;
    out.height = info.extent.height;
    out.depth = info.extent.depth;
    out.layers = info.arrayLayers;
    out.levels = info.mipLevels;
    out.samples = info.samples;
    return true;
}

void Device::destroy_image(Image& image)
{
    if (image.image)
        vkDestroyImage(device_, image.image, nullptr);
    if (image.memory)
        vkFreeMemory(device_, image.memory, nullptr);
    image = {};
}

bool Device::format_supports(VkFormat format, VkFormatFeatureFlags features) const
{
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(physical_, format, &props);
    return (props.optimalTilingFeatures & features) == features;
}

bool Device::buffer_format_supports(VkFormat format, VkFormatFeatureFlags features) const
{
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(physical_, format, &props);
    return (props.bufferFeatures & features) == features;
}

bool Device::submit(const std::function<void(VkCommandBuffer)>& record, std::string& error, uint32_t timeout_ms)
{
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = pool_;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkResult vr = vkAllocateCommandBuffers(device_, &cai, &cmd);
    if (vr != VK_SUCCESS) {
        error = std::string("vkAllocateCommandBuffers: ") + vk_result_name(vr);
        return false;
    }
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &begin);
    record(cmd);
    vkEndCommandBuffer(cmd);

    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    vkCreateFence(device_, &fci, nullptr, &fence);
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    vr = vkQueueSubmit(queue_, 1, &si, fence);
    if (vr == VK_SUCCESS)
        vr = vkWaitForFences(device_, 1, &fence, VK_TRUE, uint64_t(timeout_ms) * 1000000ull);
    if (vr != VK_SUCCESS)
        error = std::string("queue submission: ") + vk_result_name(vr);
    else
        vkFreeCommandBuffers(device_, pool_, 1, &cmd);
    vkDestroyFence(device_, fence, nullptr);
    return vr == VK_SUCCESS;
}

} // namespace runner

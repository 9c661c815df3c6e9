// The demos' Vulkan layer: see vulkan_helper.h.
#include "vulkan_helper.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace demo {

namespace {

[[noreturn]] void exit_with(int status, const char* format, va_list args)
{
    std::fprintf(stderr, "demo: ");
    std::vfprintf(stderr, format, args);
    std::fprintf(stderr, "\n");
    std::exit(status);
}

} // namespace

void die(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    exit_with(1, format, args);
}

void skip(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    exit_with(77, format, args);
}

void check(VkResult result, const char* what)
{
    if (result != VK_SUCCESS)
        die("%s failed: VkResult %d", what, int(result));
}

Vulkan::Vulkan()
{
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "dxspv demo";
    app.apiVersion = VK_API_VERSION_1_1;
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    if (vkCreateInstance(&ici, nullptr, &instance_) != VK_SUCCESS)
        skip("no Vulkan loader or driver (install mesa-vulkan-drivers for lavapipe)");

    // The first Vulkan 1.1 device with a graphics+compute queue family.
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    uint32_t family = ~0u;
    for (VkPhysicalDevice pd : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(pd, &props);
        uint32_t qcount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &qcount, nullptr);
        std::vector<VkQueueFamilyProperties> queues(qcount);
        vkGetPhysicalDeviceQueueFamilyProperties(pd, &qcount, queues.data());
        for (uint32_t i = 0; i < qcount && family == ~0u; ++i)
            if ((queues[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) && (queues[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
                family = i;
        if (family != ~0u && props.apiVersion >= VK_API_VERSION_1_1) {
            physical_ = pd;
            std::memcpy(name_, props.deviceName, sizeof(name_));
            break;
        }
        family = ~0u;
    }
    if (!physical_)
        skip("no Vulkan 1.1 device with a graphics and compute queue");
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    check(vkCreateDevice(physical_, &dci, nullptr, &device_), "vkCreateDevice");
    vkGetDeviceQueue(device_, family, 0, &queue_);
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.queueFamilyIndex = family;
    check(vkCreateCommandPool(device_, &pci, nullptr, &pool_), "vkCreateCommandPool");
}

Vulkan::~Vulkan()
{
    if (device_) {
        vkDeviceWaitIdle(device_);
        vkDestroyCommandPool(device_, pool_, nullptr);
        vkDestroyDevice(device_, nullptr);
    }
    vkDestroyInstance(instance_, nullptr);
}

uint32_t Vulkan::memory_type(uint32_t type_bits, VkMemoryPropertyFlags flags) const
{
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & flags) == flags)
            return i;
    die("no memory type with properties 0x%x", unsigned(flags));
}

VkDeviceMemory Vulkan::allocate(VkMemoryRequirements requirements, VkMemoryPropertyFlags flags)
{
    VkMemoryAllocateInfo mai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    mai.allocationSize = requirements.size;
    mai.memoryTypeIndex = memory_type(requirements.memoryTypeBits, flags);
    VkDeviceMemory memory = VK_NULL_HANDLE;
    check(vkAllocateMemory(device_, &mai, nullptr, &memory), "vkAllocateMemory");
    return memory;
}

Buffer Vulkan::create_buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    Buffer b;
    b.size = size;
    VkBufferCreateInfo bci = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = size;
    bci.usage = usage;
    check(vkCreateBuffer(device_, &bci, nullptr, &b.buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, b.buffer, &req);
    b.memory = allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    check(vkBindBufferMemory(device_, b.buffer, b.memory, 0), "vkBindBufferMemory");
    check(vkMapMemory(device_, b.memory, 0, VK_WHOLE_SIZE, 0, &b.data), "vkMapMemory");
    std::memset(b.data, 0, size);
    return b;
}

void Vulkan::destroy(Buffer& buffer)
{
    vkDestroyBuffer(device_, buffer.buffer, nullptr);
    vkFreeMemory(device_, buffer.memory, nullptr);
    buffer = {};
}

Image Vulkan::create_image(uint32_t width, uint32_t height, VkFormat format, VkImageUsageFlags usage)
{
    Image img;
    img.width = width;
    img.height = height;
    VkImageCreateInfo ici = {VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {width, height, 1};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = usage;
    ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    check(vkCreateImage(device_, &ici, nullptr, &img.image), "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, img.image, &req);
    img.memory = allocate(req, 0);
    check(vkBindImageMemory(device_, img.image, img.memory, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vci = {VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = img.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = format;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    check(vkCreateImageView(device_, &vci, nullptr, &img.view), "vkCreateImageView");
    return img;
}

void Vulkan::destroy(Image& image)
{
    vkDestroyImageView(device_, image.view, nullptr);
    vkDestroyImage(device_, image.image, nullptr);
    vkFreeMemory(device_, image.memory, nullptr);
    image = {};
}

VkShaderModule Vulkan::create_shader_module(const std::vector<uint32_t>& spirv)
{
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.size() * sizeof(uint32_t);
    smci.pCode = spirv.data();
    VkShaderModule module = VK_NULL_HANDLE;
    check(vkCreateShaderModule(device_, &smci, nullptr, &module), "vkCreateShaderModule");
    return module;
}

void Vulkan::submit(const std::function<void(VkCommandBuffer)>& record)
{
    VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = pool_;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(device_, &cbai, &cmd), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo begin = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
    record(cmd);
    // Make every write of the commands visible to the host's reads of mapped memory.
    VkMemoryBarrier to_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0,
                         nullptr, 0, nullptr);
    check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    check(vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE), "vkQueueSubmit");
    check(vkQueueWaitIdle(queue_), "vkQueueWaitIdle");
    vkFreeCommandBuffers(device_, pool_, 1, &cmd);
}

StorageBufferSet::StorageBufferSet(VkDevice device, const std::vector<uint32_t>& bindings,
                                   const std::vector<VkBuffer>& buffers)
{
    std::vector<VkDescriptorSetLayoutBinding> layout_bindings;
    for (uint32_t binding : bindings)
        layout_bindings.push_back({binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, nullptr});
    VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    lci.bindingCount = uint32_t(layout_bindings.size());
    lci.pBindings = layout_bindings.data();
    check(vkCreateDescriptorSetLayout(device, &lci, nullptr, &layout), "vkCreateDescriptorSetLayout");

    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, uint32_t(bindings.size())};
    VkDescriptorPoolCreateInfo pci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = 1;
    pci.poolSizeCount = 1;
    pci.pPoolSizes = &size;
    check(vkCreateDescriptorPool(device, &pci, nullptr, &pool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout;
    check(vkAllocateDescriptorSets(device, &ai, &set), "vkAllocateDescriptorSets");

    std::vector<VkDescriptorBufferInfo> infos;
    for (VkBuffer buffer : buffers)
        infos.push_back({buffer, 0, VK_WHOLE_SIZE});
    std::vector<VkWriteDescriptorSet> writes;
    for (size_t i = 0; i < bindings.size(); ++i) {
        VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = bindings[i];
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &infos[i];
        writes.push_back(w);
    }
    vkUpdateDescriptorSets(device, uint32_t(writes.size()), writes.data(), 0, nullptr);
}

void StorageBufferSet::destroy(VkDevice device)
{
    vkDestroyDescriptorPool(device, pool, nullptr);
    vkDestroyDescriptorSetLayout(device, layout, nullptr);
}

ComputePipeline::ComputePipeline(Vulkan& vk, const std::vector<uint32_t>& spirv, VkDescriptorSetLayout set_layout,
                                 uint32_t push_constant_size)
{
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_constant_size};
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &set_layout;
    plci.pushConstantRangeCount = push_constant_size ? 1 : 0;
    plci.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(vk.device(), &plci, nullptr, &layout), "vkCreatePipelineLayout");

    VkShaderModule module = vk.create_shader_module(spirv);
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = "main";
    cpci.layout = layout;
    check(vkCreateComputePipelines(vk.device(), VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline),
          "vkCreateComputePipelines");
    vkDestroyShaderModule(vk.device(), module, nullptr);
}

void ComputePipeline::destroy(VkDevice device)
{
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
}

} // namespace demo

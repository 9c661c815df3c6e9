// One compute dispatch with one storage buffer on runner::Device.
#include "vk_compute.h"

#include <cstring>
#include <memory>

#include "../../runner/vulkan_device.h"

namespace spirv_test {

namespace {

constexpr uint32_t u0_binding = 2000;

struct Shared {
    runner::Device device;
    ComputeDevice info;
};

Shared& shared()
{
    static Shared* s = [] {
        auto* created = new Shared;
        std::string error;
        created->info.available = created->device.init(error);
        created->info.reason = error;
        const runner::DeviceCaps& caps = created->device.caps();
        created->info.int64 = caps.int64;
        created->info.int16 = caps.int16;
        created->info.float64 = caps.float64;
        created->info.wave_ops = caps.wave_ops;
        return created;
    }();
    return *s;
}

/// Vulkan objects of one dispatch, destroyed in reverse order.
struct Objects {
    VkDevice device;
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkDescriptorPool pool = VK_NULL_HANDLE;
    ~Objects()
    {
        vkDestroyDescriptorPool(device, pool, nullptr);
        vkDestroyPipeline(device, pipeline, nullptr);
        vkDestroyPipelineLayout(device, layout, nullptr);
        vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
        vkDestroyShaderModule(device, module, nullptr);
    }
};

bool check(VkResult result, const char* what, std::string& error)
{
    if (result != VK_SUCCESS)
        error = std::string(what) + ": " + runner::vk_result_name(result);
    return result == VK_SUCCESS;
}

} // namespace

const ComputeDevice& compute_device() { return shared().info; }

bool run_compute(const std::vector<uint32_t>& words, std::vector<uint32_t>& data, std::string& error)
{
    Shared& s = shared();
    if (!s.info.available) {
        error = s.info.reason;
        return false;
    }
    runner::Device& dev = s.device;
    VkDevice device = dev.device();
    runner::Buffer buffer;
    VkDeviceSize size = data.size() * 4;
    if (!dev.create_buffer(size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, buffer, error))
        return false;
    std::memcpy(buffer.mapped, data.data(), size);
    Objects o{device};
    VkShaderModuleCreateInfo mci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = words.size() * 4;
    mci.pCode = words.data();
    VkDescriptorSetLayoutBinding binding = {u0_binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
        VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo dslci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dslci.bindingCount = 1;
    dslci.pBindings = &binding;
    bool ok = check(vkCreateShaderModule(device, &mci, nullptr, &o.module), "vkCreateShaderModule", error)
        && check(vkCreateDescriptorSetLayout(device, &dslci, nullptr, &o.set_layout), "vkCreateDescriptorSetLayout",
            error);
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &o.set_layout;
    ok = ok && check(vkCreatePipelineLayout(device, &plci, nullptr, &o.layout), "vkCreatePipelineLayout", error);
    VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = o.module;
    cpi.stage.pName = "main";
    cpi.layout = o.layout;
    ok = ok && check(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, nullptr, &o.pipeline),
        "vkCreateComputePipelines", error);
    VkDescriptorPoolSize pool_size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpci.maxSets = 1;
    dpci.poolSizeCount = 1;
    dpci.pPoolSizes = &pool_size;
    ok = ok && check(vkCreateDescriptorPool(device, &dpci, nullptr, &o.pool), "vkCreateDescriptorPool", error);
    VkDescriptorSet set = VK_NULL_HANDLE;
    VkDescriptorSetAllocateInfo dsai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dsai.descriptorPool = o.pool;
    dsai.descriptorSetCount = 1;
    dsai.pSetLayouts = &o.set_layout;
    ok = ok && check(vkAllocateDescriptorSets(device, &dsai, &set), "vkAllocateDescriptorSets", error);
    if (ok) {
        VkDescriptorBufferInfo info = {buffer.buffer, 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        write.dstSet = set;
        write.dstBinding = u0_binding;
        write.descriptorCount = 1;
        write.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        write.pBufferInfo = &info;
        vkUpdateDescriptorSets(device, 1, &write, 0, nullptr);
        ok = dev.submit([&](VkCommandBuffer cmd) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.pipeline);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o.layout, 0, 1, &set, 0, nullptr);
            vkCmdDispatch(cmd, 1, 1, 1);
            VkMemoryBarrier barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
            barrier.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
            barrier.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &barrier,
                0, nullptr, 0, nullptr);
        }, error);
    }
    if (ok)
        std::memcpy(data.data(), buffer.mapped, size);
    dev.destroy_buffer(buffer);
    return ok;
}

} // namespace spirv_test

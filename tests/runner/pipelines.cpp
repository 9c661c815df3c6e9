// Pipelines: SPIR-V reflection of the descriptors a translated shader uses,
// descriptor sets filled from the test's resources through the runner's
// binding map, compute dispatches and draws.
#include "runner.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace runner {

// ---- SPIR-V reflection -------------------------------------------------------

namespace {

struct SpirvType {
    uint32_t opcode = 0;
    uint32_t operands[8] = {};
};

VkDescriptorType descriptor_type(const std::map<uint32_t, SpirvType>& types, const std::map<uint32_t, uint32_t>& constants,
                                 uint32_t type_id, uint32_t storage, bool buffer_block, uint32_t& count)
{
    count = 1;
    auto it = types.find(type_id);
    while (it != types.end() && (it->second.opcode == 28 || it->second.opcode == 29)) { // OpTypeArray / RuntimeArray
        if (it->second.opcode == 28) {
            auto c = constants.find(it->second.operands[1]);
            count *= c != constants.end() ? c->second : 1;
        } else {
            count = ~0u;
        }
        it = types.find(it->second.operands[0]);
    }
    if (storage == 12) // StorageBuffer
        return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    if (storage == 2) // Uniform
        return buffer_block ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
    if (it == types.end())
        return VK_DESCRIPTOR_TYPE_MAX_ENUM;
    const SpirvType& t = it->second;
    if (t.opcode == 26) // OpTypeSampler
        return VK_DESCRIPTOR_TYPE_SAMPLER;
    if (t.opcode == 27) // OpTypeSampledImage
        return VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    if (t.opcode == 25) { // OpTypeImage: sampled type, dim, depth, arrayed, ms, sampled, format
        bool storage_image = t.operands[5] == 2;
        if (t.operands[1] == 5) // Dim Buffer
            return storage_image ? VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        return storage_image ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE;
    }
    return VK_DESCRIPTOR_TYPE_MAX_ENUM;
}

} // namespace

bool reflect_spirv(const std::vector<uint32_t>& words, SpirvInfo& info, std::string& error)
{
    if (words.size() < 5 || words[0] != 0x07230203u) {
        error = "not a SPIR-V module";
        return false;
    }
    std::map<uint32_t, SpirvType> types;
    std::map<uint32_t, uint32_t> constants, sets, bindings;
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> pointers; // id → (storage, pointee)
    std::vector<std::pair<uint32_t, uint32_t>> variables;         // (pointer type, id)
    std::map<uint32_t, bool> buffer_blocks;
    std::map<uint32_t, uint32_t> counter_of; // counter variable → its UAV's variable
    for (size_t i = 5; i < words.size();) {
        uint32_t count = words[i] >> 16, op = words[i] & 0xffff;
        if (count == 0 || i + count > words.size()) {
            error = "truncated SPIR-V instruction";
            return false;
        }
        const uint32_t* w = &words[i];
        if (op == 15 && count >= 4 && info.entry_point.empty()) // OpEntryPoint
            info.entry_point = reinterpret_cast<const char*>(&w[3]);
        else if (op == 71 && count >= 4 && w[2] == 34) // OpDecorate DescriptorSet
            sets[w[1]] = w[3];
        else if (op == 71 && count >= 4 && w[2] == 33) // Binding
            bindings[w[1]] = w[3];
        else if (op == 71 && count >= 3 && w[2] == 3) // BufferBlock
            buffer_blocks[w[1]] = true;
        else if (op == 332 && count >= 4 && w[2] == 5634) // OpDecorateId CounterBuffer
            counter_of[w[3]] = w[1];
        else if (op == 32 && count >= 4) // OpTypePointer
            pointers[w[1]] = {w[2], w[3]};
        else if (op == 43 && count >= 4) // OpConstant
            constants[w[2]] = w[3];
        else if (op == 59 && count >= 4) // OpVariable
            variables.push_back({w[1], w[2]});
        else if (op >= 25 && op <= 30 && count >= 2) {
            SpirvType t;
            t.opcode = op;
            for (uint32_t k = 2; k < count && k < 10; ++k)
                t.operands[k - 2] = w[k];
            types[w[1]] = t;
        }
        i += count;
    }
    for (auto [type, id] : variables) {
        auto b = bindings.find(id);
        auto p = pointers.find(type);
        if (b == bindings.end() || p == pointers.end())
            continue;
        DescriptorUse use;
        use.set = sets.count(id) ? sets[id] : 0;
        use.binding = b->second;
        auto c = counter_of.find(id);
        if (c != counter_of.end() && bindings.count(c->second))
            use.counter_of = bindings[c->second];
        // The block decoration sits on the struct, possibly behind arrays.
        uint32_t inner = p->second.second;
        while (types.count(inner) && (types[inner].opcode == 28 || types[inner].opcode == 29))
            inner = types[inner].operands[0];
        use.type = descriptor_type(types, constants, p->second.second, p->second.first, buffer_blocks.count(inner) > 0,
                                   use.count);
        if (use.type == VK_DESCRIPTOR_TYPE_MAX_ENUM) {
            error = "binding " + std::to_string(use.binding) + " has a type the runner does not know";
            return false;
        }
        info.descriptors.push_back(use);
    }
    if (info.entry_point.empty())
        info.entry_point = "main";
    return true;
}

// ---- descriptor sets ---------------------------------------------------------


void Runner::release(Bound& b)
{
    VkDevice d = dev_.device();
    for (VkShaderModule m : b.modules)
        vkDestroyShaderModule(d, m, nullptr);
    if (b.pool)
        vkDestroyDescriptorPool(d, b.pool, nullptr);
    if (b.layout)
        vkDestroyPipelineLayout(d, b.layout, nullptr);
    if (b.set_layout)
        vkDestroyDescriptorSetLayout(d, b.set_layout, nullptr);
    b = {};
}

bool Runner::write_descriptor(const DescriptorUse& use, uint32_t element, Bound& b, std::string& error)
{
    VkWriteDescriptorSet write = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write.dstSet = b.set;
    write.dstBinding = use.binding;
    write.dstArrayElement = element;
    write.descriptorCount = 1;
    write.descriptorType = use.type;
    uint32_t binding = use.binding + element;
    if (use.counter_of != ~0u) {
        // UAV counter: a 4-byte storage buffer per UAV, holding the [uav]'s
        // `counter` value on creation; the counter array of a UAV range has
        // the range's size and indices.
        uint32_t reg = use.counter_of - uav_binding_base + element;
        GpuResource* r = use.counter_of >= uav_binding_base ? find(ResourceKind::uav, reg) : nullptr;
        if (!r) {
            error = "the shader uses the counter of u" + std::to_string(reg) + " but the test has no such [uav]";
            return false;
        }
        if (!r->counter.buffer) {
            if (!dev_.create_buffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, r->counter, error))
                return false;
            std::memcpy(r->counter.mapped, &r->desc.counter, 4);
        }
        b.buffer_infos.push_back({r->counter.buffer, 0, VK_WHOLE_SIZE});
        write.pBufferInfo = &b.buffer_infos.back();
        vkUpdateDescriptorSets(dev_.device(), 1, &write, 0, nullptr);
        return true;
    }
    if (binding < srv_binding_base) {
        if (binding != 0) {
            error = "the shader reads cb" + std::to_string(binding) + "; tests can only fill cb0 (with 'uniform')";
            return false;
        }
        if (!uniform_buffer_.buffer && !dev_.create_buffer(uniform_buffer_size, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                                           uniform_buffer_, error))
            return false;
        std::memcpy(uniform_buffer_.mapped, uniforms_.data(),
                    std::min<size_t>(uniforms_.size() * 4, uniform_buffer_size));
        b.buffer_infos.push_back({uniform_buffer_.buffer, 0, VK_WHOLE_SIZE});
        write.pBufferInfo = &b.buffer_infos.back();
        vkUpdateDescriptorSets(dev_.device(), 1, &write, 0, nullptr);
        return true;
    }
    ResourceKind kind = binding < uav_binding_base ? ResourceKind::srv
            : binding < sampler_binding_base ? ResourceKind::uav : ResourceKind::sampler;
    uint32_t base = kind == ResourceKind::srv ? srv_binding_base
            : kind == ResourceKind::uav ? uav_binding_base : sampler_binding_base;
    uint32_t reg = binding - base;
    GpuResource* r = find(kind, reg);
    if (!r) {
        static const char prefix[] = {'t', 'u', 's'};
        error = std::string("the shader uses ") + prefix[kind == ResourceKind::srv ? 0 : kind == ResourceKind::uav ? 1 : 2]
                + std::to_string(reg) + " but the test has no [" + resource_kind_name(kind) + " " + std::to_string(reg) + "]";
        return false;
    }
    switch (use.type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
        if (!r->is_buffer) {
            error = std::string(resource_kind_name(kind)) + " " + std::to_string(reg) + " is a texture; the shader wants a buffer";
            return false;
        }
        b.buffer_infos.push_back({r->buffer.buffer, 0, VK_WHOLE_SIZE});
        write.pBufferInfo = &b.buffer_infos.back();
        break;
    case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
    case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
        if (!r->buffer_view) {
            error = std::string(resource_kind_name(kind)) + " " + std::to_string(reg) + " is not a typed buffer of a supported format";
            return false;
        }
        b.views.push_back(r->buffer_view);
        write.pTexelBufferView = &b.views.back();
        break;
    case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
        if (!r->view) {
            error = std::string(resource_kind_name(kind)) + " " + std::to_string(reg) + " is not a texture";
            return false;
        }
        b.image_infos.push_back({VK_NULL_HANDLE, r->view, VK_IMAGE_LAYOUT_GENERAL});
        write.pImageInfo = &b.image_infos.back();
        break;
    case VK_DESCRIPTOR_TYPE_SAMPLER:
        b.image_infos.push_back({r->sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_GENERAL});
        write.pImageInfo = &b.image_infos.back();
        break;
    default:
        error = "unsupported descriptor type";
        return false;
    }
    vkUpdateDescriptorSets(dev_.device(), 1, &write, 0, nullptr);
    return true;
}

bool Runner::bind_descriptors(const std::vector<SpirvInfo>& infos, Bound& b, std::string& error)
{
    std::map<uint32_t, DescriptorUse> uses;
    for (const SpirvInfo& info : infos) {
        for (DescriptorUse use : info.descriptors) {
            if (use.set != 0) {
                error = "descriptor set " + std::to_string(use.set) + " (the runner maps everything to set 0)";
                return false;
            }
            if (use.count == ~0u) { // unbounded: as many as the test declares from that register on
                uint32_t binding = use.counter_of != ~0u ? use.counter_of : use.binding;
                ResourceKind kind = binding < uav_binding_base ? ResourceKind::srv
                        : binding < sampler_binding_base ? ResourceKind::uav : ResourceKind::sampler;
                uint32_t reg = binding - (kind == ResourceKind::srv ? srv_binding_base
                        : kind == ResourceKind::uav ? uav_binding_base : sampler_binding_base);
                use.count = 0;
                while (reg + use.count < max_registers && find(kind, reg + use.count))
                    ++use.count;
                use.count = std::max(1u, use.count);
            }
            uses[use.binding] = use;
        }
    }
    b.buffer_infos.reserve(256);
    b.image_infos.reserve(256);
    b.views.reserve(256);
    std::vector<VkDescriptorSetLayoutBinding> lb;
    std::map<VkDescriptorType, uint32_t> pool_sizes;
    for (auto& [binding, use] : uses) {
        lb.push_back({binding, use.type, use.count, VK_SHADER_STAGE_ALL, nullptr});
        pool_sizes[use.type] += use.count;
    }
    VkDescriptorSetLayoutCreateInfo sli = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    sli.bindingCount = static_cast<uint32_t>(lb.size());
    sli.pBindings = lb.data();
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    if (vkCreateDescriptorSetLayout(dev_.device(), &sli, nullptr, &b.set_layout) != VK_SUCCESS) {
        error = "vkCreateDescriptorSetLayout failed";
        return false;
    }
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &b.set_layout;
    if (vkCreatePipelineLayout(dev_.device(), &pli, nullptr, &b.layout) != VK_SUCCESS) {
        error = "vkCreatePipelineLayout failed";
        return false;
    }
    std::vector<VkDescriptorPoolSize> sizes;
    for (auto [type, n] : pool_sizes)
        sizes.push_back({type, n});
    if (sizes.empty())
        sizes.push_back({VK_DESCRIPTOR_TYPE_SAMPLER, 1});
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = static_cast<uint32_t>(sizes.size());
    dpi.pPoolSizes = sizes.data();
    if (vkCreateDescriptorPool(dev_.device(), &dpi, nullptr, &b.pool) != VK_SUCCESS) {
        error = "vkCreateDescriptorPool failed";
        return false;
    }
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = b.pool;
    dai.descriptorSetCount = 1;
    dai.pSetLayouts = &b.set_layout;
    if (vkAllocateDescriptorSets(dev_.device(), &dai, &b.set) != VK_SUCCESS) {
        error = "vkAllocateDescriptorSets failed";
        return false;
    }
    for (auto& [binding, use] : uses)
        for (uint32_t e = 0; e < use.count; ++e)
            if (!write_descriptor(use, e, b, error))
                return false;
    return true;
}

namespace {

bool create_module(VkDevice device, const std::vector<uint32_t>& words, VkShaderModule& module, std::string& error)
{
    VkShaderModuleCreateInfo mci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = words.size() * 4;
    mci.pCode = words.data();
    VkResult vr = vkCreateShaderModule(device, &mci, nullptr, &module);
    if (vr != VK_SUCCESS)
        error = std::string("vkCreateShaderModule: ") + vk_result_name(vr);
    return vr == VK_SUCCESS;
}

void memory_barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier barrier = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    barrier.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    barrier.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier,
                         0, nullptr, 0, nullptr);
}

} // namespace

bool Runner::dispatch(const uint32_t groups[3], std::string& error)
{
    const auto& cs = shaders_[static_cast<int>(Stage::compute)];
    if (!cs) {
        error = "dispatch without a compute shader";
        return false;
    }
    SpirvInfo info;
    if (!reflect_spirv(*cs, info, error))
        return false;
    Bound b;
    VkPipeline pipeline = VK_NULL_HANDLE;
    bool ok = bind_descriptors({info}, b, error);
    if (ok) {
        b.modules.push_back(VK_NULL_HANDLE);
        ok = create_module(dev_.device(), *cs, b.modules.back(), error);
    }
    if (ok) {
        VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cpi.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
        cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cpi.stage.module = b.modules.back();
        cpi.stage.pName = info.entry_point.c_str();
        cpi.layout = b.layout;
        VkResult vr = vkCreateComputePipelines(dev_.device(), VK_NULL_HANDLE, 1, &cpi, nullptr, &pipeline);
        if (vr != VK_SUCCESS) {
            error = std::string("vkCreateComputePipelines: ") + vk_result_name(vr);
            ok = false;
        }
    }
    if (ok) {
        ok = dev_.submit([&](VkCommandBuffer cmd) {
            memory_barrier(cmd);
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b.layout, 0, 1, &b.set, 0, nullptr);
            vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
            memory_barrier(cmd);
        }, error);
    }
    if (pipeline)
        vkDestroyPipeline(dev_.device(), pipeline, nullptr);
    release(b);
    return ok;
}

} // namespace runner

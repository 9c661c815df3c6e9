// demos/append: an AppendStructuredBuffer compute shader (d3d-asm, assembled
// and translated by dxspv at run time) that fills a buffer through its UAV
// counter; prints the count and the data.
//
// The counter is what D3D hides behind Append(): dxspv makes it a storage
// buffer of its own holding one uint, bound where the binding map's counter
// entry says (here set 0, binding 1, next to the data at binding 0).
// dxspv_reflect() reports both bindings, so the application knows it must
// provide and zero a counter buffer.
//
//   build/demos/append/append
#include <algorithm>
#include <cstdio>
#include <vector>

#include "dxspv_helper.h"
#include "vulkan_helper.h"

namespace {

constexpr uint32_t thread_groups = 4, capacity = 256;

} // namespace

int main(int argc, char** argv)
{
    demo::Args args = demo::parse_args(argc, argv, "", DEMO_SOURCE_DIR);
    std::string source = args.shader_dir + "/append.asm";
    demo::Container dxbc = demo::assemble(demo::read_file(source), source);

    // u0 → set 0, binding 0; its counter → set 0, binding 1.
    dxspv_descriptor_binding binding = {};
    binding.type = DXSPV_DESCRIPTOR_TYPE_UAV;
    binding.register_count = 1;
    dxspv_counter_binding counter = {};
    counter.binding = 1;
    dxspv_interface_info interface = {DXSPV_STRUCTURE_TYPE_INTERFACE_INFO, nullptr};
    interface.bindings = &binding;
    interface.binding_count = 1;
    interface.counter_bindings = &counter;
    interface.counter_binding_count = 1;
    interface.flags = DXSPV_INTERFACE_STRICT;
    std::vector<uint32_t> spirv = demo::translate(dxbc, source, &interface);

    dxspv_reflection reflection = demo::reflect(dxbc, source, &interface);
    if (reflection.descriptor_count != 1 || !(reflection.descriptors[0].flags & DXSPV_DESCRIPTOR_INFO_UAV_COUNTER))
        demo::die("%s: expected one UAV with a counter", source.c_str());
    const dxspv_descriptor_info& u0 = reflection.descriptors[0];
    std::printf("%s: u0 (stride %u) -> set %u, binding %u; its counter -> set %u, binding %u\n", source.c_str(),
                u0.structure_stride, u0.set, u0.binding, u0.counter_set, u0.counter_binding);
    std::vector<uint32_t> bindings = {u0.binding, u0.counter_binding};
    uint32_t group_size = reflection.thread_group_size[0];
    dxspv_free_reflection(&reflection);

    demo::Vulkan vk;
    std::printf("device: %s\n", vk.device_name());
    demo::Buffer data = vk.create_buffer(capacity * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    demo::Buffer count = vk.create_buffer(sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT); // zeroed
    demo::StorageBufferSet set(vk.device(), bindings, {data.buffer, count.buffer});
    demo::ComputePipeline pipeline(vk, spirv, set.layout, 0);
    vk.submit([&](VkCommandBuffer cmd) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set.set, 0, nullptr);
        vkCmdDispatch(cmd, thread_groups, 1, 1);
    });

    // The counter says how many elements were appended; their order is the GPU's.
    uint32_t n = *static_cast<const uint32_t*>(count.data);
    std::printf("%u threads appended %u values\n", thread_groups * group_size, n);
    if (n > capacity)
        demo::die("the counter (%u) exceeds the buffer (%u elements)", n, capacity);
    const uint32_t* values = static_cast<const uint32_t*>(data.data);
    std::printf("in append order:");
    for (uint32_t i = 0; i < n; ++i)
        std::printf(" %u", values[i]);
    std::vector<uint32_t> sorted(values, values + n);
    std::sort(sorted.begin(), sorted.end());
    std::printf("\nsorted:");
    for (uint32_t v : sorted)
        std::printf(" %u", v);
    std::printf("\n");

    pipeline.destroy(vk.device());
    set.destroy(vk.device());
    vk.destroy(count);
    vk.destroy(data);
    return 0;
}

// demos/mandelbrot: a compute shader shipped as d3d-asm text (mandelbrot.asm)
// and as DXIL in LLVM IR text (mandelbrot.ll), assembled into a DXBC
// container and translated to SPIR-V by dxspv at run time, dispatched on
// Vulkan, the result written as a PNG. Both give the same picture, but for
// a few hundred pixels on the set's boundary (see mandelbrot.ll).
//
// What a translation layer does, in small: the D3D registers the shader uses
// (cbuffer b0, UAV u0) are mapped to Vulkan by a binding map given to
// dxspv_compile — here b0 becomes push constants and u0 the storage buffer
// at set 0, binding 0 — and the pipeline layout is built to match.
//
//   build/demos/mandelbrot [-o mandelbrot.png] [--dxil]
#include <cstdio>
#include <cstring>
#include <vector>

#include "dxspv_helper.h"
#include "png_writer.h"
#include "vulkan_helper.h"

namespace {

constexpr uint32_t width = 640, height = 480, max_iterations = 256;

/// cb0 as the shader reads it: cb0[0] = (center.x, center.y, scale, -),
/// cb0[1] = (width, height, max_iterations, -).
struct View {
    float center[2];
    float scale;
    float pad;
    uint32_t size[2];
    uint32_t max_iterations;
    uint32_t pad2;
};

} // namespace

int main(int argc, char** argv)
{
    demo::Args args = demo::parse_args(argc, argv, "mandelbrot.png", DEMO_SOURCE_DIR, true);

    // 1. d3d-asm text (SM5) or, with --dxil, DXIL text (SM6) → DXBC container
    //    (the library's assemblers).
    std::string source = args.shader_dir + (args.dxil ? "/mandelbrot.ll" : "/mandelbrot.asm");
    demo::Container dxbc = demo::assemble(demo::read_file(source), source,
                                          args.dxil ? DXSPV_SOURCE_TYPE_DXIL_LL : DXSPV_SOURCE_TYPE_D3D_ASM);

    // 2. DXBC → SPIR-V with the binding map (the same for both sources);
    //    reflection reports where each register went.
    dxspv_descriptor_binding bindings[2] = {};
    bindings[0].type = DXSPV_DESCRIPTOR_TYPE_CBV; // b0 → push constants at offset 0
    bindings[0].register_count = 1;
    bindings[0].flags = DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT;
    bindings[1].type = DXSPV_DESCRIPTOR_TYPE_UAV; // u0 → set 0, binding 0
    bindings[1].register_count = 1;
    dxspv_interface_info interface = {DXSPV_STRUCTURE_TYPE_INTERFACE_INFO, nullptr};
    interface.bindings = bindings;
    interface.binding_count = 2;
    interface.flags = DXSPV_INTERFACE_STRICT;
    std::vector<uint32_t> spirv = demo::translate(dxbc, source, &interface);

    dxspv_reflection reflection = demo::reflect(dxbc, source, &interface);
    std::printf("%s: cs_%u_%u, %u x %u x %u threads per group\n", source.c_str(), reflection.model_major,
                reflection.model_minor, reflection.thread_group_size[0], reflection.thread_group_size[1],
                reflection.thread_group_size[2]);
    for (unsigned i = 0; i < reflection.descriptor_count; ++i) {
        const dxspv_descriptor_info& d = reflection.descriptors[i];
        const char* kind = d.type == DXSPV_DESCRIPTOR_TYPE_CBV ? "b" : d.type == DXSPV_DESCRIPTOR_TYPE_UAV ? "u" : "t/s";
        if (d.flags & DXSPV_DESCRIPTOR_INFO_PUSH_CONSTANT)
            std::printf("  %s%u -> push constants at offset %u\n", kind, d.register_index, d.push_constant_offset);
        else
            std::printf("  %s%u -> set %u, binding %u\n", kind, d.register_index, d.set, d.binding);
    }
    uint32_t group_x = reflection.thread_group_size[0], group_y = reflection.thread_group_size[1];
    dxspv_free_reflection(&reflection);

    // 3. Vulkan: the image buffer, a pipeline whose layout matches the map, one dispatch.
    demo::Vulkan vk;
    std::printf("device: %s\n", vk.device_name());
    demo::Buffer image = vk.create_buffer(VkDeviceSize(width) * height * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    demo::StorageBufferSet set(vk.device(), {0}, {image.buffer});
    demo::ComputePipeline pipeline(vk, spirv, set.layout, sizeof(View));

    View view = {{-0.6f, 0.0f}, 3.2f / width, 0.0f, {width, height}, max_iterations, 0};
    vk.submit([&](VkCommandBuffer cmd) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.pipeline);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.layout, 0, 1, &set.set, 0, nullptr);
        vkCmdPushConstants(cmd, pipeline.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(view), &view);
        vkCmdDispatch(cmd, (width + group_x - 1) / group_x, (height + group_y - 1) / group_y, 1);
    });

    // 4. The picture.
    if (!demo::write_png(args.output, width, height, static_cast<const uint8_t*>(image.data)))
        demo::die("cannot write %s", args.output.c_str());
    std::printf("wrote %s (%u x %u)\n", args.output.c_str(), width, height);

    pipeline.destroy(vk.device());
    set.destroy(vk.device());
    vk.destroy(image);
    return 0;
}

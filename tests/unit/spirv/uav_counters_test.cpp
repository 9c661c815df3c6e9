// SPIR-V emitter tests for UAV counters (seed "Representing counter
// variables for typed buffers"): the counter block and its CounterBuffer
// decoration, explicit counter bindings from the map and implicit ones
// allocated after the module's bindings, counter arrays for ranges.
#include "asm_emit.h"

using dxspv::spirv::CounterBinding;
using dxspv::spirv::DescriptorBinding;
using dxspv::spirv::DescriptorType;
using dxspv::spirv::EmitOptions;
using namespace spirv_asm_test;

namespace {

const char* const two_counters = R"(
cs_5_1
dcl_uav_structured_opc U0[0:0], 4, space=0
dcl_uav_structured U1[1:4], 4, space=0
dcl_resource_raw T0[0:0], space=0
dcl_uav_structured_opc U2[0:0], 4, space=3
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_alloc r0.x, U0[0]
store_structured U0[0].x, r0.x, l(0), r0.x
imm_atomic_consume r0.x, U1[vThreadID.x + 1] {nonuniform}
store_structured U1[vThreadID.x + 1].x {nonuniform}, r0.x, l(0), r0.x
imm_atomic_alloc r0.x, U2[0]
ld_raw r0.y, l(0), T0[0].xxxx
store_structured U2[0].x, r0.x, l(0), r0.y
ret
)";

DescriptorBinding entry(DescriptorType type, uint32_t space, uint32_t reg, uint32_t count, uint32_t set,
                        uint32_t binding)
{
    DescriptorBinding b;
    b.type = type;
    b.space = space;
    b.register_index = reg;
    b.register_count = count;
    b.set = set;
    b.binding = binding;
    return b;
}

} // namespace

TEST_CASE("spirv: a UAV carries the CounterBuffer decoration of its counter")
{
    dxspv::vsir::Program p = assemble(two_counters);
    std::vector<std::string> texts = emit_all(p);
    for (size_t i = 0; i < texts.size(); ++i) {
        const std::string& t = texts[i];
        INFO(t);
        CHECK_HAS(t, "%u0_counter = OpVariable %_ptr_StorageBuffer_uav_counter StorageBuffer");
        CHECK(count(t, "CounterBuffer %u0_counter\n") == 1);
        CHECK(count(t, "CounterBuffer %u1_counter\n") == 1);
        CHECK(count(t, "CounterBuffer %u2_counter\n") == 1);
        CHECK(count(t, "OpDecorateId %u0 ") == 1);
        // The counter array of a range has the range's size.
        CHECK_HAS(t, "%u1_counter = OpVariable %_ptr_StorageBuffer__arr_uav_counter_uint_4 StorageBuffer");
        // Core in SPIR-V 1.4 (Vulkan 1.2 targets SPIR-V 1.5).
        CHECK(has(t, "OpExtension \"SPV_GOOGLE_hlsl_functionality1\"") == (i < 2));
        // The default mapping: register + 4000 in the UAV's set.
        CHECK_HAS(t, "OpDecorate %u0_counter Binding 4000");
        CHECK_HAS(t, "OpDecorate %u1_counter Binding 4001");
        CHECK_HAS(t, "OpDecorate %u2_counter DescriptorSet 3");
    }
}

TEST_CASE("spirv: counters without a map entry are bound after the module's bindings in their UAV's set")
{
    dxspv::vsir::Program p = assemble(two_counters);
    DescriptorBinding map[] = {
        entry(DescriptorType::uav, 0, 0, ~0u, 2, 7),  // u0 → 7, u1..u4 → 8 (one array binding)
        entry(DescriptorType::srv, 0, 0, 1, 2, 12),
        entry(DescriptorType::uav, 3, 0, 1, 5, 0),
    };
    CounterBinding counters[1];
    counters[0].register_index = 1; // u1's counter explicit, in another set
    counters[0].set = 4;
    counters[0].binding = 30;
    EmitOptions options;
    options.bindings.bindings = map;
    options.bindings.counters = counters;
    options.bindings.strict = true; // strict covers descriptors; counters may still be implicit
    std::vector<std::string> texts = emit_all(p, options);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpDecorate %u0 Binding 7");
    CHECK_HAS(t, "OpDecorate %u1 Binding 8");
    CHECK_HAS(t, "OpDecorate %t0 Binding 12");
    // After t0's 12 in set 2 (u1's explicit counter is in set 4).
    CHECK_HAS(t, "OpDecorate %u0_counter DescriptorSet 2");
    CHECK_HAS(t, "OpDecorate %u0_counter Binding 13");
    CHECK_HAS(t, "OpDecorate %u1_counter DescriptorSet 4");
    CHECK_HAS(t, "OpDecorate %u1_counter Binding 30");
    CHECK_HAS(t, "OpDecorate %u2_counter DescriptorSet 5");
    CHECK_HAS(t, "OpDecorate %u2_counter Binding 1");

    // An explicit counter in the same set is skipped over too.
    counters[0].set = 2;
    counters[0].binding = 40;
    texts = emit_all(p, options);
    CHECK_HAS(texts[1], "OpDecorate %u0_counter Binding 41");
}

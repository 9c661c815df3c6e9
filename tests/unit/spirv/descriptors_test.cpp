// SPIR-V emitter tests for descriptor access: NonUniform decorations on
// SM5.1 non-uniform indices, constant buffers read from push constants, and
// the immediate constant buffer; d3d-asm programs emitted for Vulkan
// 1.0-1.3 and validated.
#include "asm_emit.h"

#include <sstream>

using dxspv::spirv::DescriptorBinding;
using dxspv::spirv::DescriptorType;
using dxspv::spirv::EmitOptions;
using namespace spirv_asm_test;

namespace {

/// Result ids of the instructions `op` whose line also contains `operand`.
std::vector<std::string> results_of(const std::string& text, const std::string& op, const std::string& operand = "")
{
    std::vector<std::string> ids;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        size_t eq = line.find(" = " + op + " ");
        if (eq == std::string::npos || line.find(operand) == std::string::npos)
            continue;
        size_t start = line.find('%');
        ids.push_back(line.substr(start, eq - start));
    }
    return ids;
}

/// How many of the results of `op` (with `operand`) are decorated NonUniform.
size_t non_uniform_count(const std::string& text, const std::string& op, const std::string& operand = "")
{
    size_t n = 0;
    for (const std::string& id : results_of(text, op, operand))
        n += has(text, "OpDecorate " + id + " NonUniform\n");
    return n;
}

} // namespace

TEST_CASE("spirv: NonUniform decorates every access through a non-uniform descriptor index")
{
    dxspv::vsir::Program p = assemble(R"(
ps_5_1
dcl_constantbuffer CB0[0:3][1], dynamicIndexed, space=0
dcl_sampler S0[0:3], mode_default, space=0
dcl_resource_texture2d (float,float,float,float) T0[0:*], space=0
dcl_uav_typed_texture2d (uint,uint,uint,uint) U0[0:7], space=0
dcl_uav_structured U1[8:15], 4, space=0
dcl_input_ps constant v0.xy
dcl_output o0.xyzw
dcl_temps 3
ftou r0.xy, v0.xyxx
sample r1.xyzw, v0.xyxx, T0[r0.x + 0].xyzw {nonuniform}, S0[0]
sample r2.xyzw, v0.xyxx, T0[0].xyzw, S0[r0.y + 0] {nonuniform}
add r1.xyzw, r1.xyzw, r2.xyzw
sample r2.xyzw, v0.xyxx, T0[r0.y + 0].xyzw, S0[r0.y + 0]
add r1.xyzw, r1.xyzw, r2.xyzw
add r1.xyzw, r1.xyzw, CB0[r0.x + 0][0].xyzw {nonuniform}
atomic_iadd U0[r0.x + 0] {nonuniform}, l(0, 0, 0, 0), l(1)
imm_atomic_alloc r2.x, U1[r0.y + 8] {nonuniform}
store_structured U1[r0.y + 8].x {nonuniform}, r2.x, l(0), r2.x
mov o0.xyzw, r1.xyzw
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpCapability ShaderNonUniform");
    CHECK_HAS(texts[0], "OpExtension \"SPV_EXT_descriptor_indexing\"");
    CHECK_HAS_NOT(texts[3], "SPV_EXT_descriptor_indexing"); // core in SPIR-V 1.5+
    // Two of the three combined images are non-uniform (the third's indices are uniform).
    CHECK(results_of(t, "OpSampledImage").size() == 3);
    CHECK(non_uniform_count(t, "OpSampledImage") == 2);
    CHECK(non_uniform_count(t, "OpAccessChain", "%cb0 ") == 1);
    CHECK(non_uniform_count(t, "OpImageTexelPointer") == 1);
    CHECK(non_uniform_count(t, "OpAccessChain", "%u1_counter") == 1);
    CHECK(non_uniform_count(t, "OpAccessChain", "%u1 ") == 1);
    // The Vulkan features the module needs, as capabilities.
    for (const char* cap : {"SampledImageArrayNonUniformIndexing", "SampledImageArrayDynamicIndexing",
             "UniformBufferArrayNonUniformIndexing", "StorageImageArrayNonUniformIndexing",
             "StorageBufferArrayNonUniformIndexing"})
        CHECK_HAS(t, std::string("OpCapability ") + cap + "\n");
    CHECK_HAS_NOT(t, "StorageImageArrayDynamicIndexing");
}

TEST_CASE("spirv: dynamically indexed descriptor arrays declare their indexing capabilities")
{
    dxspv::vsir::Program p = assemble(R"(
cs_5_1
dcl_constantbuffer CB0[0:3][1], dynamicIndexed, space=0
dcl_resource_buffer (float,float,float,float) T0[0:3], space=0
dcl_uav_typed_buffer (uint,uint,uint,uint) U0[0:3], space=0
dcl_uav_raw U1[4:7], space=0
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 4, 1, 1
and r0.x, vThreadID.x, l(3)
ld r1.xyzw, l(0, 0, 0, 0), T0[r0.x + 0].xyzw
store_uav_typed U0[r0.x + 0].xyzw, l(0, 0, 0, 0), CB0[r0.x + 0][0].xyzw
store_raw U1[r0.x + 4].xyzw, l(0), r1.xyzw
ret
)");
    std::vector<std::string> texts = emit_all(p);
    for (const char* cap : {"UniformBufferArrayDynamicIndexing", "UniformTexelBufferArrayDynamicIndexing",
             "StorageTexelBufferArrayDynamicIndexing", "StorageBufferArrayDynamicIndexing"})
        CHECK_HAS(texts[1], std::string("OpCapability ") + cap + "\n");
    CHECK_HAS_NOT(texts[1], "NonUniform");
    CHECK_HAS(texts[0], "OpExtension \"SPV_EXT_descriptor_indexing\""); // the texel-buffer capabilities
}

TEST_CASE("spirv: constant buffers in push constants are read from the push-constant block")
{
    dxspv::vsir::Program p = assemble(R"(
vs_5_0
dcl_constantbuffer cb0[4], dynamicIndexed
dcl_constantbuffer cb1[2], immediateIndexed
dcl_input v0.x
dcl_output_siv o0.xyzw, position
dcl_temps 1
ftou r0.x, v0.x
mov r0.yzw, cb0[r0.x + 1].xxyz
add o0.xyzw, r0.yzwy, cb1[1].xyzw
ret
)");
    DescriptorBinding map[2];
    map[0].type = DescriptorType::cbv;
    map[0].register_index = 0;
    map[0].push_constant = true;
    map[0].push_constant_offset = 64;
    map[1].type = DescriptorType::cbv;
    map[1].register_index = 1;
    map[1].set = 3;
    map[1].binding = 5;
    EmitOptions options;
    options.bindings.bindings = map;
    std::vector<std::string> texts = emit_all(p, options);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpMemberDecorate %push_constants 0 Offset 64");
    CHECK_HAS(t, "OpAccessChain %_ptr_PushConstant_v4uint %push_constants_0 %uint_0");
    // A dynamically indexed buffer keeps its declared size: the block must
    // fit the pipeline's push-constant range.
    CHECK_HAS(t, "%push_constants = OpTypeStruct %_arr_v4uint_uint_4\n");
    CHECK_HAS(t, "OpDecorate %cb1 Binding 5");
    CHECK_HAS(t, "OpDecorate %cb1 DescriptorSet 3");
    CHECK(results_of(t, "OpAccessChain", "%cb1").size() == 1);
    CHECK_HAS_NOT(t, "OpDecorate %cb0");

    // Of unknown size (as a front end without sizes gives it), the member
    // extends to the end of the 256-byte push-constant block.
    for (dxspv::vsir::Declaration& d : p.decls)
        if (d.range_first == 0 && d.byte_count == 64)
            d.byte_count = 0;
    texts = emit_all(p, options);
    CHECK_HAS(texts[1], "%push_constants = OpTypeStruct %_arr_v4uint_uint_12\n");
}

TEST_CASE("spirv: a constant buffer read mostly as floats is an array of float vec4s")
{
    // cb0 is read as floats twice and as an integer once: vec4s of floats,
    // so that the float reads need no bitcast. cb1 is read as integers
    // only: vec4s of uints.
    dxspv::vsir::Program p = assemble(R"(
vs_5_0
dcl_constantbuffer cb0[2], immediateIndexed
dcl_constantbuffer cb1[1], immediateIndexed
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
mul o0.xyzw, v0.xyzw, cb0[0].xyzw
add o1.x, v0.x, cb0[1].y
iadd o1.y, cb0[1].x, cb1[0].x
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpAccessChain %_ptr_Uniform_v4float %cb0 ");
    CHECK_HAS(t, "OpAccessChain %_ptr_Uniform_v4uint %cb1 ");
    // Two bitcasts: cb0[1].x as an integer for the iadd, and its sum into
    // the float output o1.y.
    CHECK(count(t, "OpBitcast") == 2);
    CHECK_HAS(t, "OpBitcast %int");
}

TEST_CASE("spirv: immediate constant buffer read with a relative index folds to its data")
{
    dxspv::vsir::Program p = assemble(R"(
ps_5_0
dcl_immediateConstantBuffer { { 1.000000, 2.000000, 3.000000, 4.000000 },
                              { 5.000000, 6.000000, 7.000000, 8.000000 },
                              { 9.000000, 10.000000, 11.000000, 12.000000 } }
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, l(1)
mov o0.xyzw, icb[r0.x + 1].wzyx
ret
)");
    std::vector<std::string> texts = emit_all(p);
    CHECK_HAS(texts[1], "%icb = OpVariable");
    std::string folded = fold_constants(p);
    CHECK_HAS(folded, "OpConstant %float 12");
    CHECK_HAS(folded, "OpConstant %float 9");
    CHECK_HAS_NOT(folded, "OpConstant %float 5\n");
    CHECK_HAS_NOT(folded, "OpLoad");
}

TEST_CASE("spirv: switch cases fall through into the next case")
{
    // case 1 falls through into case 2, which falls through into default.
    const char* text = R"(
ps_5_0
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, l(%d)
mov r0.y, l(0)
switch r0.x
  case l(0)
  iadd r0.y, r0.y, l(1)
  break
  case l(1)
  iadd r0.y, r0.y, l(10)
  case l(2)
  iadd r0.y, r0.y, l(100)
  default
  iadd r0.y, r0.y, l(1000)
  case l(5)
  iadd r0.y, r0.y, l(10000)
  break
endswitch
mov o0.xyzw, r0.yyyy
ret
)";
    struct Case {
        int selector;
        const char* sum;
    } cases[] = {{0, "1"}, {1, "11110"}, {2, "11100"}, {3, "11000"}, {5, "10000"}};
    for (const Case& c : cases) {
        INFO("selector " << c.selector);
        char program[1024];
        snprintf(program, sizeof(program), text, c.selector);
        dxspv::vsir::Program p = assemble(program);
        std::vector<std::string> texts = emit_all(p);
        CHECK(count(texts[1], "OpSwitch") == 1);
        std::string folded = fold_constants(p);
        CHECK_HAS(folded, std::string("OpConstant %uint ") + c.sum + "\n");
        CHECK_HAS_NOT(folded, "OpSwitch");
    }
}

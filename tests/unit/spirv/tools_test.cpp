// SPIRV-Tools wrappers: target environments, validation, disassembly and
// optimisation, including their failure paths.
#include <doctest/doctest.h>

#include <vector>

#include "spirv/tools.h"

using dxspv::Code;
using dxspv::Diagnostics;
using namespace dxspv::spirv;

namespace {

// A minimal valid compute module (SPIR-V 1.0):
//   OpCapability Shader; OpMemoryModel Logical GLSL450;
//   OpEntryPoint GLCompute %main "main"; OpExecutionMode %main LocalSize 1 1 1
//   %void = OpTypeVoid; %fn = OpTypeFunction %void
//   %main = OpFunction %void None %fn; OpLabel; OpReturn; OpFunctionEnd
const std::vector<uint32_t> minimal = {
    0x07230203, 0x00010000, 0, 6, 0,
    (2 << 16) | 17, 1,                                  // OpCapability Shader
    (3 << 16) | 14, 0, 1,                               // OpMemoryModel Logical GLSL450
    (5 << 16) | 15, 5, 1, 0x6e69616d, 0,                // OpEntryPoint GLCompute %1 "main"
    (6 << 16) | 16, 1, 17, 1, 1, 1,                     // OpExecutionMode %1 LocalSize 1 1 1
    (2 << 16) | 19, 2,                                  // %2 = OpTypeVoid
    (3 << 16) | 33, 3, 2,                               // %3 = OpTypeFunction %2
    (5 << 16) | 54, 2, 1, 0, 3,                         // %1 = OpFunction %2 None %3
    (2 << 16) | 248, 4,                                 // OpLabel %4
    (1 << 16) | 253,                                    // OpReturn
    (1 << 16) | 56,                                     // OpFunctionEnd
};

} // namespace

TEST_CASE("spirv tools: target environments")
{
    CHECK(spirv_version(TargetEnv::vulkan1_0) == 0x00010000u);
    CHECK(spirv_version(TargetEnv::vulkan1_1) == 0x00010300u);
    CHECK(spirv_version(TargetEnv::vulkan1_2) == 0x00010500u);
    CHECK(spirv_version(TargetEnv::vulkan1_3) == 0x00010600u);
    TargetEnv env = TargetEnv::vulkan1_0;
    CHECK(parse_target_env("vulkan1.2", env));
    CHECK(env == TargetEnv::vulkan1_2);
    CHECK(std::string(target_env_name(TargetEnv::vulkan1_3)) == "vulkan1.3");
    CHECK_FALSE(parse_target_env("vulkan2.0", env));
    CHECK(env == TargetEnv::vulkan1_2);
}

TEST_CASE("spirv tools: validate, disassemble, optimize a valid module")
{
    for (TargetEnv env : {TargetEnv::vulkan1_0, TargetEnv::vulkan1_1, TargetEnv::vulkan1_2, TargetEnv::vulkan1_3}) {
        Diagnostics diags;
        CHECK_MESSAGE(validate_spirv(minimal, env, diags), diags.to_string());
        CHECK(diags.messages().empty());
    }
    std::string text = disassemble_spirv(minimal);
    CHECK(text.find("OpEntryPoint GLCompute %1 \"main\"") != std::string::npos);
    CHECK(text.find("; SPIR-V") == std::string::npos); // no header comment
    CHECK(text.find("\x1b[") == std::string::npos);    // no colour
    std::vector<uint32_t> words = minimal;
    Diagnostics diags;
    CHECK_MESSAGE(optimize_spirv(words, TargetEnv::vulkan1_1, diags), diags.to_string());
    CHECK(validate_spirv(words, TargetEnv::vulkan1_1, diags));
}

TEST_CASE("spirv tools: invalid input is reported, not crashed on")
{
    std::vector<uint32_t> broken = minimal;
    broken.pop_back(); // no OpFunctionEnd
    Diagnostics diags;
    CHECK_FALSE(validate_spirv(broken, TargetEnv::vulkan1_1, diags));
    CHECK(diags.has_code(Code::spirv_validation_failed));
    CHECK(diags.to_string().find("E2101") != std::string::npos);

    std::vector<uint32_t> garbage = {1, 2, 3};
    Diagnostics d2;
    CHECK_FALSE(validate_spirv(garbage, TargetEnv::vulkan1_0, d2));
    CHECK(d2.has_errors());
    CHECK(disassemble_spirv(garbage).rfind("; disassembly failed", 0) == 0);
    std::vector<uint32_t> words = garbage;
    Diagnostics d3;
    CHECK_FALSE(optimize_spirv(words, TargetEnv::vulkan1_1, d3));
    CHECK(d3.has_code(Code::spirv_optimization_failed));
    CHECK(words == garbage);
    CHECK_FALSE(validate_spirv({}, TargetEnv::vulkan1_1, d3));
}

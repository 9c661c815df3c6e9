// SPIRV-Tools in the process (see tools.h).
#include "spirv/tools.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

namespace dxspv::spirv {

static spv_target_env to_spv_env(TargetEnv env)
{
    switch (env) {
    case TargetEnv::vulkan1_0: return SPV_ENV_VULKAN_1_0;
    case TargetEnv::vulkan1_1: return SPV_ENV_VULKAN_1_1;
    case TargetEnv::vulkan1_2: return SPV_ENV_VULKAN_1_2;
    case TargetEnv::vulkan1_3: return SPV_ENV_VULKAN_1_3;
    }
    return SPV_ENV_VULKAN_1_1;
}

/// Forwards SPIRV-Tools messages (errors and warnings) to `diags` under `code`.
static spvtools::MessageConsumer forward_to(Diagnostics& diags, Code code, const char* what)
{
    return [&diags, code, what](spv_message_level_t level, const char*, const spv_position_t& pos, const char* text) {
        if (level == SPV_MSG_FATAL || level == SPV_MSG_INTERNAL_ERROR || level == SPV_MSG_ERROR)
            diags.error(code, Location::none(), "%s (SPIR-V instruction %zu): %s", what, pos.index, text);
        else if (level == SPV_MSG_WARNING)
            diags.warning(code, Location::none(), "%s (SPIR-V instruction %zu): %s", what, pos.index, text);
    };
}

bool validate_spirv(std::span<const uint32_t> words, TargetEnv env, Diagnostics& diags)
{
    spvtools::SpirvTools tools(to_spv_env(env));
    tools.SetMessageConsumer(forward_to(diags, Code::spirv_validation_failed, "spirv-val"));
    spvtools::ValidatorOptions options;
    return tools.Validate(words.data(), words.size(), options);
}

std::string disassemble_spirv(std::span<const uint32_t> words)
{
    spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
    std::string error;
    tools.SetMessageConsumer([&error](spv_message_level_t, const char*, const spv_position_t&, const char* text) {
        error += text;
    });
    std::string text;
    if (!tools.Disassemble(words.data(), words.size(), &text,
            SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES | SPV_BINARY_TO_TEXT_OPTION_NO_HEADER))
        return "; disassembly failed: " + error + "\n";
    return text;
}

bool optimize_spirv(std::vector<uint32_t>& words, TargetEnv env, Diagnostics& diags)
{
    spvtools::Optimizer optimizer(to_spv_env(env));
    optimizer.SetMessageConsumer(forward_to(diags, Code::spirv_optimization_failed, "spirv-opt"));
    optimizer.RegisterPerformancePasses();
    std::vector<uint32_t> optimized;
    if (!optimizer.Run(words.data(), words.size(), &optimized)) {
        if (!diags.has_code(Code::spirv_optimization_failed))
            diags.error(Code::spirv_optimization_failed, Location::none(), "spirv-opt failed");
        return false;
    }
    words = std::move(optimized);
    return true;
}

} // namespace dxspv::spirv

// The Vulkan target environments: SPIR-V version and name of each.
#include "spirv/target_env.h"

namespace dxspv::spirv {

uint32_t spirv_version(TargetEnv env)
{
    switch (env) {
    case TargetEnv::vulkan1_0: return 0x00010000;
    case TargetEnv::vulkan1_1: return 0x00010300;
    case TargetEnv::vulkan1_2: return 0x00010500;
    case TargetEnv::vulkan1_3: return 0x00010600;
    }
    return 0x00010300;
}

const char* target_env_name(TargetEnv env)
{
    switch (env) {
    case TargetEnv::vulkan1_0: return "vulkan1.0";
    case TargetEnv::vulkan1_1: return "vulkan1.1";
    case TargetEnv::vulkan1_2: return "vulkan1.2";
    case TargetEnv::vulkan1_3: return "vulkan1.3";
    }
    return "<invalid>";
}

bool parse_target_env(std::string_view name, TargetEnv& env)
{
    for (TargetEnv e : {TargetEnv::vulkan1_0, TargetEnv::vulkan1_1, TargetEnv::vulkan1_2, TargetEnv::vulkan1_3}) {
        if (name == target_env_name(e)) {
            env = e;
            return true;
        }
    }
    return false;
}

} // namespace dxspv::spirv

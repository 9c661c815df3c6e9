// The Vulkan target environments dxspv emits for.
#pragma once

#include <cstdint>
#include <string_view>

namespace dxspv::spirv {

/// Vulkan version the SPIR-V is meant for; fixes the SPIR-V version
/// (1.0, 1.3, 1.5, 1.6) and the validation rules.
enum class TargetEnv : uint8_t { vulkan1_0, vulkan1_1, vulkan1_2, vulkan1_3 };

/// SPIR-V version word of a target (0x00010000 for 1.0 ... 0x00010600 for 1.6).
uint32_t spirv_version(TargetEnv env);
/// "vulkan1.0" ... "vulkan1.3".
const char* target_env_name(TargetEnv env);
/// Parses "vulkan1.0" ... "vulkan1.3"; false if unknown.
bool parse_target_env(std::string_view name, TargetEnv& env);

} // namespace dxspv::spirv

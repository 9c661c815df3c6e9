// Thin wrappers over SPIRV-Tools: validation, disassembly and optimisation of
// SPIR-V words, and the Vulkan target environments dxspv emits for.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"

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

/// Runs spirv-val; every validator message becomes a spirv_validation_failed
/// error. Returns true when the module is valid.
bool validate_spirv(std::span<const uint32_t> words, TargetEnv env, Diagnostics& diags);

/// SPIRV-Tools disassembly with friendly names, without the header comment
/// and colours. Returns "; <error>" text if the words do not disassemble.
std::string disassemble_spirv(std::span<const uint32_t> words);

/// Runs SPIRV-Tools' performance passes in place. On failure the words are
/// left unchanged, a spirv_optimization_failed error is reported and false
/// returned.
bool optimize_spirv(std::vector<uint32_t>& words, TargetEnv env, Diagnostics& diags);

} // namespace dxspv::spirv

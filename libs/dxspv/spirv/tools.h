// SPIRV-Tools on SPIR-V words: validation, disassembly and optimisation.
// Two implementations with the same results: tools.cpp runs SPIRV-Tools in
// the process (libdxspv, the tests); tools_process.cpp runs its command line
// tools spirv-val, spirv-opt and spirv-dis as child processes (shader-translate,
// so that a translation that asks for none of them never loads SPIRV-Tools:
// README "Performance"). A program links exactly one of them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "spirv/target_env.h"

namespace dxspv::spirv {

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

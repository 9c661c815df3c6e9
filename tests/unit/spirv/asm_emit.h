// Helpers for the SPIR-V emitter tests written as d3d-asm: assemble a
// program into VSIR, emit it for Vulkan 1.0-1.3, validate every module with
// spirv-val and look for instructions and decorations in the disassembly.
#pragma once

#include <doctest/doctest.h>

#include <spirv-tools/optimizer.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "spirv/emit.h"
#include "spirv/tools.h"
#include "text/assembler.h"

namespace spirv_asm_test {

inline constexpr dxspv::spirv::TargetEnv all_envs[] = {dxspv::spirv::TargetEnv::vulkan1_0,
    dxspv::spirv::TargetEnv::vulkan1_1, dxspv::spirv::TargetEnv::vulkan1_2, dxspv::spirv::TargetEnv::vulkan1_3};

inline dxspv::vsir::Program assemble(const char* text)
{
    dxspv::vsir::Program p;
    dxspv::Diagnostics diags("asm");
    bool ok = dxspv::text::assemble(text, p, diags);
    REQUIRE_MESSAGE(ok, diags.to_string());
    return p;
}

/// Emits for every target; each module must validate. Returns the
/// disassembly per target (index as all_envs).
inline std::vector<std::string> emit_all(const dxspv::vsir::Program& p, dxspv::spirv::EmitOptions options = {})
{
    std::vector<std::string> texts;
    for (dxspv::spirv::TargetEnv env : all_envs) {
        INFO("target " << std::string(dxspv::spirv::target_env_name(env)));
        options.target_env = env;
        std::vector<uint32_t> words;
        dxspv::Diagnostics diags("emit");
        bool ok = dxspv::spirv::emit_spirv(p, options, words, diags);
        REQUIRE_MESSAGE(ok, diags.to_string());
        std::string text = dxspv::spirv::disassemble_spirv(words);
        dxspv::Diagnostics val("spirv-val");
        CHECK_MESSAGE(dxspv::spirv::validate_spirv(words, env, val), val.to_string() << "\n" << text);
        texts.push_back(text);
    }
    return texts;
}

/// The ids a module's bound counts that no instruction of it defines: ids
/// the emitter made for something pruning then took out again (work done
/// for nothing).
inline size_t ids_made_for_nothing(const dxspv::vsir::Program& p)
{
    std::vector<uint32_t> words;
    dxspv::Diagnostics diags("emit");
    REQUIRE_MESSAGE(dxspv::spirv::emit_spirv(p, {}, words, diags), diags.to_string());
    REQUIRE(words.size() > 5);
    std::string text = dxspv::spirv::disassemble_spirv(words);
    size_t defined = 0;
    for (size_t at = text.find(" = Op"); at != std::string::npos; at = text.find(" = Op", at + 1))
        ++defined;
    return words[3] - 1 - defined;
}

inline bool has(const std::string& text, const std::string& needle) { return text.find(needle) != std::string::npos; }

inline size_t count(const std::string& text, const std::string& needle)
{
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

/// Emits `p` for `env`, sets the given specialization constants (SpecId →
/// value text), freezes them and runs spirv-opt's performance passes, so a
/// program whose inputs are constants folds down to the constants it
/// computes. Returns the disassembly of the optimised module.
inline std::string fold_constants(const dxspv::vsir::Program& p,
    const std::unordered_map<uint32_t, std::string>& spec_values = {},
    dxspv::spirv::TargetEnv env = dxspv::spirv::TargetEnv::vulkan1_1)
{
    dxspv::spirv::EmitOptions options;
    options.target_env = env;
    std::vector<uint32_t> words;
    dxspv::Diagnostics diags("emit");
    REQUIRE_MESSAGE(dxspv::spirv::emit_spirv(p, options, words, diags), diags.to_string());
    spvtools::Optimizer opt(env == dxspv::spirv::TargetEnv::vulkan1_3 ? SPV_ENV_VULKAN_1_3 : SPV_ENV_VULKAN_1_1);
    opt.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(spec_values));
    opt.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
    opt.RegisterPerformancePasses();
    std::vector<uint32_t> folded;
    REQUIRE(opt.Run(words.data(), words.size(), &folded));
    dxspv::Diagnostics val("spirv-val");
    CHECK_MESSAGE(dxspv::spirv::validate_spirv(folded, env, val), val.to_string());
    return dxspv::spirv::disassemble_spirv(folded);
}

} // namespace spirv_asm_test

#define CHECK_HAS(text, needle) \
    CHECK_MESSAGE(spirv_asm_test::has(text, needle), "missing '" << (needle) << "' in\n" << (text))
#define CHECK_HAS_NOT(text, needle) \
    CHECK_MESSAGE(!spirv_asm_test::has(text, needle), "unexpected '" << (needle) << "' in\n" << (text))

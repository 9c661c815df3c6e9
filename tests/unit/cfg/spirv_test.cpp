// Structurized programs through the SPIR-V emitter: spirv-val must accept
// the structured control flow (OpSelectionMerge / OpLoopMerge rules). The
// test programs use temps only (the emitter does not take sr# yet).
#include <doctest/doctest.h>

#include <algorithm>

#include "cfg/structurize.h"
#include "random_cfg.h"
#include "spirv/emit.h"
#include "spirv/tools.h"
#include "vsir/printer.h"

using namespace cfg_test;
using dxspv::spirv::TargetEnv;

namespace {

/// Structurizes, emits and validates; returns the Vulkan 1.3 disassembly.
std::string check_valid_spirv(TestCfg& cfg, const std::string& name)
{
    std::string text;
    dxspv::Diagnostics diags(name);
    INFO(name << "\n" << print_program(cfg.program));
    REQUIRE_MESSAGE(dxspv::cfg::structurize(cfg.program, diags), diags.to_string());
    INFO(print_program(cfg.program));
    for (TargetEnv env : {TargetEnv::vulkan1_0, TargetEnv::vulkan1_3}) {
        dxspv::spirv::EmitOptions options;
        options.target_env = env;
        std::vector<uint32_t> words;
        REQUIRE_MESSAGE(dxspv::spirv::emit_spirv(cfg.program, options, words, diags), diags.to_string());
        text = dxspv::spirv::disassemble_spirv(words);
        INFO(text);
        CHECK_MESSAGE(dxspv::spirv::validate_spirv(words, env, diags), diags.to_string());
    }
    return text;
}

size_t count(const std::string& text, const std::string& needle)
{
    size_t n = 0;
    for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("structurize: hand-written CFGs emit valid SPIR-V")
{
    const char* cfgs[] = {
        "0: br 1 2\n1: jmp 3\n2: jmp 3\n3: ret\n",
        "0: jmp 1\n1: br 2 5\n2: br 3 4\n3: jmp 2\n4: jmp 1\n5: ret\n",
        "0: jmp 1\n1: jmp 2\n2: br 3 5\n3: br 2 4\n4: br 1 5\n5: ret\n",
        "0: jmp 1\n1: jmp 2\n2: switch 3 0=1 1=5 2=4\n3: jmp 2\n4: br 1 5\n5: ret\n",
        "0: switch 4 0=1 1=2 2=2 3=3\n1: jmp 2\n2: jmp 4\n3: jmp 4\n4: ret\n",
        "1: br 2 3\n2: br 4 5\n3: br 5 4\n4: jmp 6\n5: jmp 6\n6: ret\n",
        // Cases falling through (the arms reordered after the case values;
        // into the default arm).
        "0: switch 9 5=7 0=1 1=2 2=3 3=4 4=5 6=8 7=6\n1: jmp 2\n2: jmp 9\n3: jmp 4\n4: ret\n5: jmp 6\n6: jmp 9\n"
        "7: jmp 8\n8: jmp 9\n9: ret\n",
        "0: switch 3 0=1 1=2\n1: jmp 2\n2: jmp 3\n3: switch 6 0=4 1=5\n4: jmp 5\n5: jmp 6\n6: ret\n",
    };
    // OpLoopMerge per loop, OpSwitch per switch or remaining scope.
    const size_t loops[] = {0, 2, 2, 2, 0, 0, 0, 0}, switches[] = {0, 0, 0, 1, 1, 1, 1, 2};
    for (size_t k = 0; k < std::size(cfgs); ++k) {
        TestCfg cfg = make_cfg(cfgs[k]);
        std::string text = check_valid_spirv(cfg, cfgs[k]);
        CHECK(count(text, "OpLoopMerge") == loops[k]);
        CHECK(count(text, "OpSwitch") == switches[k]);
    }
}

TEST_CASE("structurize: random CFGs emit valid SPIR-V")
{
    // One in 20 of the property test's count (500 by default).
    const uint32_t count = std::max(1u, random_count() / 20);
    for (uint32_t seed = 0; seed < count; ++seed) {
        TestCfg cfg = random_cfg(seed * 7 + 3, seed % 3 == 0 ? 60 : 20);
        check_valid_spirv(cfg, "seed " + std::to_string(seed));
    }
}

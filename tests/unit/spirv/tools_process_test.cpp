// The child-process implementation of tools.h (tools_process.cpp): a missing
// tool is an error that names it, and inputs and outputs larger than a pipe's
// buffer pass both ways.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "spirv/tools.h"

using dxspv::Code;
using dxspv::Diagnostics;
using namespace dxspv::spirv;

namespace {

// The minimal compute module of tools_test.cpp with `strings` OpString
// instructions (debug section) in front of the types.
std::vector<uint32_t> module_with_strings(size_t strings)
{
    std::vector<uint32_t> words = {0x07230203, 0x00010000, 0, 0, 0, (2 << 16) | 17, 1, (3 << 16) | 14, 0, 1,
                                   (5 << 16) | 15, 5, 1, 0x6e69616d, 0, (6 << 16) | 16, 1, 17, 1, 1, 1};
    uint32_t id = 5;
    for (size_t i = 0; i < strings; ++i)
        words.insert(words.end(), {(4 << 16) | 7, id++, 0x676e6f6c, 0}); // %id = OpString "long"
    words.insert(words.end(), {(2 << 16) | 19, 2, (3 << 16) | 33, 3, 2, (5 << 16) | 54, 2, 1, 0, 3, (2 << 16) | 248, 4,
                               (1 << 16) | 253, (1 << 16) | 56});
    words[3] = id;
    return words;
}

} // namespace

TEST_CASE("spirv tools process: input and output larger than a pipe")
{
    std::vector<uint32_t> words = module_with_strings(20000); // 320 KB in, about 500 KB of text out
    Diagnostics diags;
    CHECK_MESSAGE(validate_spirv(words, TargetEnv::vulkan1_1, diags), diags.to_string());
    std::string text = disassemble_spirv(words);
    CHECK(text.find("%20004 = OpString \"long\"") != std::string::npos);
    CHECK(text.size() > 400000);
    CHECK(optimize_spirv(words, TargetEnv::vulkan1_1, diags));
    CHECK(validate_spirv(words, TargetEnv::vulkan1_1, diags));
}

TEST_CASE("spirv tools process: a tool not on PATH is an error naming it")
{
    const char* old = std::getenv("PATH");
    std::string saved = old ? old : "";
    setenv("PATH", "/nonexistent-dxspv-test", 1);
    std::vector<uint32_t> words = module_with_strings(0);
    Diagnostics diags;
    bool valid = validate_spirv(words, TargetEnv::vulkan1_1, diags);
    std::string text = disassemble_spirv(words);
    std::vector<uint32_t> optimized = words;
    Diagnostics opt;
    bool optimized_ok = optimize_spirv(optimized, TargetEnv::vulkan1_1, opt);
    setenv("PATH", saved.c_str(), 1);
    CHECK_FALSE(valid);
    CHECK(diags.has_code(Code::spirv_validation_failed));
    CHECK(diags.to_string().find("cannot run spirv-val") != std::string::npos);
    CHECK(text.rfind("; disassembly failed: cannot run spirv-dis", 0) == 0);
    CHECK_FALSE(optimized_ok);
    CHECK(opt.has_code(Code::spirv_optimization_failed));
    CHECK(optimized == words);
}

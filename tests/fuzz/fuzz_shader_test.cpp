// Fuzz harness: the shader-runner's .shader_test parser (no Vulkan device).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view text(reinterpret_cast<const char*>(data), size);
    runner::TestFile file;
    std::string error;
    (void)runner::parse_test_file(text, "fuzz.shader_test", file, error);
    return 0;
}

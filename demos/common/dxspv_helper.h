// How the demos use dxspv, through its C API (include/dxspv/dxspv.h):
// d3d-asm text → DXBC container, DXBC → SPIR-V with a binding map, and
// reflection. Each call prints the library's messages and exits on failure.
#pragma once

#include <dxspv/dxspv.h>

#include <cstdint>
#include <string>
#include <vector>

namespace demo {

/// The whole file at `path` (exits when it cannot be read).
std::string read_file(const std::string& path);

/// Assembles d3d-asm text into a DXBC container (what fxc would have given).
std::vector<uint8_t> assemble(const std::string& d3d_asm, const std::string& name);

/// Translates a DXBC container into validated SPIR-V for Vulkan 1.1;
/// `interface` (may be null) is the binding map chained after the compile info.
std::vector<uint32_t> translate(const std::vector<uint8_t>& dxbc, const std::string& name,
                                const dxspv_interface_info* interface);

/// A reflection of `dxbc` (with the bindings `interface` gives); free it with
/// dxspv_free_reflection().
dxspv_reflection reflect(const std::vector<uint8_t>& dxbc, const std::string& name,
                         const dxspv_interface_info* interface);

/// The command line every demo takes: `[-o OUTPUT] [--shaders DIR]`.
/// DIR (where the demo's .asm files are) defaults to its folder in the
/// source tree; OUTPUT to `default_output`.
struct Args {
    std::string output;
    std::string shader_dir;
};
Args parse_args(int argc, char** argv, const char* default_output, const char* default_shader_dir);

} // namespace demo

// How the demos use dxspv, through its C API (include/dxspv/dxspv.h):
// shader text (d3d-asm or DXIL as LLVM IR) → DXBC container, DXBC → SPIR-V
// with a binding map, and reflection. Each call prints the library's
// messages and exits on failure.
#pragma once

#include <dxspv/dxspv.h>

#include <cstdint>
#include <string>
#include <vector>

namespace demo {

/// The whole file at `path` (exits when it cannot be read).
std::string read_file(const std::string& path);

/// A shader assembled into a DXBC container, and which kind of container it is
/// (DXSPV_SOURCE_TYPE_DXBC_TPF or DXSPV_SOURCE_TYPE_DXBC_DXIL).
struct Container {
    std::vector<uint8_t> bytes;
    dxspv_source_type type;
};

/// Assembles shader text into a DXBC container (what fxc or DXC would have
/// given): d3d-asm (SM4/5) into SHEX, or DXIL as LLVM 3.7 IR text
/// (`text_type` DXSPV_SOURCE_TYPE_DXIL_LL) into a DXIL part.
Container assemble(const std::string& text, const std::string& name,
                   dxspv_source_type text_type = DXSPV_SOURCE_TYPE_D3D_ASM);

/// Translates a DXBC container into validated SPIR-V for Vulkan 1.1;
/// `interface` (may be null) is the binding map chained after the compile info.
std::vector<uint32_t> translate(const Container& dxbc, const std::string& name,
                                const dxspv_interface_info* interface);

/// A reflection of `dxbc` (with the bindings `interface` gives); free it with
/// dxspv_free_reflection().
dxspv_reflection reflect(const Container& dxbc, const std::string& name, const dxspv_interface_info* interface);

/// The command line every demo takes: `[-o OUTPUT] [--shaders DIR]`, and
/// `--dxil` for a demo that also ships its shader as DXIL (`has_dxil`).
/// DIR (where the demo's shader files are) defaults to its folder in the
/// source tree; OUTPUT to `default_output`.
struct Args {
    std::string output;
    std::string shader_dir;
    bool dxil = false;
};
Args parse_args(int argc, char** argv, const char* default_output, const char* default_shader_dir,
                bool has_dxil = false);

} // namespace demo

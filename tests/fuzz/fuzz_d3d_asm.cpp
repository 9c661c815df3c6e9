// Fuzz harness: the d3d-asm assembler through the public C API: text to a
// DXBC container and to SPIR-V.
#include <cstddef>
#include <cstdint>

#include "dxspv/dxspv.h"

namespace {

void translate(const uint8_t* data, size_t size, dxspv_target_type target)
{
    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {data, size};
    info.source_type = DXSPV_SOURCE_TYPE_D3D_ASM;
    info.target_type = target;
    info.source_name = "fuzz.asm";
    dxspv_code out = {};
    char* messages = nullptr;
    (void)dxspv_compile(&info, &out, &messages);
    dxspv_free_code(&out);
    dxspv_free_messages(messages);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    translate(data, size, DXSPV_TARGET_TYPE_DXBC_TPF);
    translate(data, size, DXSPV_TARGET_TYPE_SPIRV_BINARY);
    return 0;
}

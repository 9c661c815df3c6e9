// Fuzz harness: the whole translation through the public C API, as a
// translation layer calls it: bytes (source type detected: DXBC, DXIL
// container, d3d-asm or dxil-ll text) to SPIR-V without VSIR validation (so
// the passes and the emitter see whatever the front end produced), and to
// VSIR text with validation after every pass.
#include <cstddef>
#include <cstdint>

#include "dxspv/dxspv.h"

namespace {

void translate(const uint8_t* data, size_t size, dxspv_target_type target, bool validate_ir)
{
    dxspv_compile_option option = {DXSPV_COMPILE_OPTION_VALIDATE_IR, validate_ir ? 1u : 0u};
    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {data, size};
    info.target_type = target;
    info.options = &option;
    info.option_count = 1;
    info.source_name = "fuzz";
    dxspv_code out = {};
    char* messages = nullptr;
    (void)dxspv_compile(&info, &out, &messages);
    dxspv_free_code(&out);
    dxspv_free_messages(messages);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    translate(data, size, DXSPV_TARGET_TYPE_SPIRV_BINARY, false);
    translate(data, size, DXSPV_TARGET_TYPE_VSIR_TEXT, true);
    return 0;
}

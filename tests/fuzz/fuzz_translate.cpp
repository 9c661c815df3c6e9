// Fuzz harness: the whole translation through the public C API, as a
// translation layer calls it: bytes (source type detected) to SPIR-V with
// VSIR validation after every pass, and to VSIR text.
#include <cstddef>
#include <cstdint>

#include "dxspv/dxspv.h"

namespace {

void translate(const uint8_t* data, size_t size, dxspv_target_type target)
{
    dxspv_compile_option option = {DXSPV_COMPILE_OPTION_VALIDATE_IR, 1};
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
    translate(data, size, DXSPV_TARGET_TYPE_SPIRV_BINARY);
    translate(data, size, DXSPV_TARGET_TYPE_VSIR_TEXT);
    return 0;
}

// Fuzz harness: the dxil-ll text reader. A module that reads is printed,
// its DXIL metadata decoded, and the printed text must read back and print
// the same (the reader and the writer agree on every module they accept).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "common/diagnostics.h"
#include "dxil/dxil.h"
#include "dxil/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::string_view text(reinterpret_cast<const char*>(data), size);
    dxspv::Diagnostics diags("fuzz");
    dxspv::dxil::Module module;
    if (!dxspv::dxil::parse_module_text(text, module, diags)) {
        if (!diags.has_errors())
            __builtin_trap(); // a failure must say why
        return 0;
    }
    std::string printed = dxspv::dxil::print_module(module);
    dxspv::dxil::DxilMetadata metadata;
    (void)dxspv::dxil::read_dxil_metadata(module, metadata, diags);
    dxspv::Diagnostics again_diags("fuzz-printed");
    dxspv::dxil::Module again;
    if (!dxspv::dxil::parse_module_text(printed, again, again_diags) || dxspv::dxil::print_module(again) != printed)
        __builtin_trap();
    return 0;
}

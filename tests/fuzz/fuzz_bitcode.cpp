// Fuzz harness: the LLVM bitstream and DXIL module reader. The input is
// bitcode (the DXIL part's payload); a module that reads is printed as .ll
// text and its DXIL metadata is decoded.
#include <cstddef>
#include <cstdint>
#include <span>

#include "common/diagnostics.h"
#include "dxil/dxil.h"
#include "dxil/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    dxspv::Diagnostics diags("fuzz");
    dxspv::dxil::Module module;
    if (!dxspv::dxil::read_module(std::span<const uint8_t>(data, size), 0, module, diags))
        return 0;
    (void)dxspv::dxil::print_module(module);
    dxspv::dxil::DxilMetadata metadata;
    (void)dxspv::dxil::read_dxil_metadata(module, metadata, diags);
    return 0;
}

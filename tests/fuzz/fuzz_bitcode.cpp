// Fuzz harness: the LLVM bitstream and DXIL module reader. The input is
// bitcode (the DXIL part's payload); a module that reads is printed as .ll
// text and its DXIL metadata is decoded; it is written back as bitcode
// (which must read back to the same text) and as a DXIL container.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "dxil/dxil.h"
#include "dxil/metadata.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    dxspv::Diagnostics diags("fuzz");
    dxspv::dxil::Module module;
    if (!dxspv::dxil::read_module(std::span<const uint8_t>(data, size), 0, module, diags))
        return 0;
    std::string text = dxspv::dxil::print_module(module);
    dxspv::dxil::DxilMetadata metadata;
    (void)dxspv::dxil::read_dxil_metadata(module, metadata, diags);
    std::vector<uint8_t> bitcode, container;
    if (dxspv::dxil::write_bitcode(module, bitcode, diags)) {
        dxspv::dxil::Module again;
        if (!dxspv::dxil::read_module(bitcode, 0, again, diags) || dxspv::dxil::print_module(again) != text)
            __builtin_trap(); // the writer lost or changed something
    }
    (void)dxspv::dxil::write_container(module, nullptr, container, diags);
    return 0;
}

// Fuzz harness: DXBC container parsing, every known chunk decoded
// (signatures, SFI0, RDEF, RTS0, program header) and the --info summary.
#include <cstddef>
#include <cstdint>
#include <span>

#include "common/diagnostics.h"
#include "container/describe.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    dxspv::Diagnostics diags("fuzz");
    (void)dxspv::container::describe_container(std::span<const uint8_t>(data, size), diags);
    return 0;
}

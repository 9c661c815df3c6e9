// Fuzz harness: the SM4/5 token stream reader. The input is a SHEX chunk's
// body; a program that reads is validated, printed as VSIR text and as
// d3d-asm, and re-encoded as tokens.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "text/disassembler.h"
#include "tpf/reader.h"
#include "tpf/writer.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    dxspv::Diagnostics diags("fuzz");
    dxspv::vsir::Program program;
    if (!dxspv::tpf::read_program(std::span<const uint8_t>(data, size), 0, program, diags))
        return 0;
    if (!dxspv::vsir::validate_program(program, diags, "fuzz"))
        return 0;
    (void)dxspv::vsir::print_program(program);
    (void)dxspv::text::disassemble(program);
    std::vector<uint32_t> tokens;
    (void)dxspv::tpf::write_program(program, tokens, diags);
    return 0;
}

// The d3d-asm assembler: fxc's SM4/5 disassembly syntax (what
// text::disassemble prints) into a VSIR program following the same
// conventions as the TPF reader, so that tpf::write_program can turn it into
// tokens. Operands are typed from the TPF opcode table; typed resource
// results from the declared return types.
//
// Literals: a number with a '.' or an exponent is a float (f32 in `l()`,
// f64 in `d()`); an integer (decimal, negative, or 0x hex) gives its bits
// unchanged, whatever the operand's type. `//` and `/* */` comments are
// ignored. One instruction per line.
#pragma once

#include <string_view>

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::text {

/// Parses `text` into `out` (which should be empty). Errors are numbered
/// diagnostics (common/diag/text.def) located with Location::text(line,
/// column); parsing stops at the first error. Returns true without errors.
bool assemble(std::string_view text, vsir::Program& out, Diagnostics& diags);

} // namespace dxspv::text

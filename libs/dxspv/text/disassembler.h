// The d3d-asm disassembler: a VSIR program in the form the TPF reader
// produces, printed in fxc's SM4/5 disassembly syntax (`cs_5_0`,
// `dcl_uav_raw u0`, `ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed)
// r1.x, r0.x, u0`, `l(1.000000, 0.500000, 0, 0)`). Descriptors are printed
// in the shader model's own form: `t0`, `cb0[3]` up to SM5.0, `T0[0]`,
// `CB0[0][3]` for SM5.1. text::assemble reads the output back into an
// equal program; immediates keep their exact bits (see assembler.h).
#pragma once

#include <string>

#include "vsir/ir.h"

namespace dxspv::text {

/// The program as d3d-asm text, one instruction per line (nesting indented
/// by two spaces), ending with a newline. Never reads outside the pools.
std::string disassemble(const vsir::Program& program);

} // namespace dxspv::text

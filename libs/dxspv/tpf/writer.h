// The TPF writer: a VSIR program in the form the TPF reader produces
// (vsir/VSIR.md conventions plus "What the TPF front end adds") back into an
// SM4.0-5.1 token stream, the data of a SHDR (4.x) or SHEX (5.x) chunk.
// Driven by the reader's opcode table (tpf/opcode_table.h).
#pragma once

#include <cstdint>
#include <vector>

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::tpf {

/// Appends the tokens of `program` (version token, length token,
/// instructions) to `tokens`. Descriptor operands are converted back from
/// the SM5.1 normal form for SM <= 5.0. What TPF cannot express (DXIL-only
/// opcodes, SSA values, unknown flags, too long instructions) is reported
/// as tpf_unencodable with Location::instruction; returns false then.
bool write_program(const vsir::Program& program, std::vector<uint32_t>& tokens, Diagnostics& diags);

/// The chunk fourcc for `program`'s shader model: "SHEX" for 5.x, "SHDR" otherwise.
const char* chunk_name_for(const vsir::Program& program);

} // namespace dxspv::tpf

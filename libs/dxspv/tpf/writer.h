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

/// The component form the writer gives a parameter whose OperandForm is
/// unspecified (fxc's choices): vec4 immediates in mask form with mask 0,
/// scalar system registers 1-component (0 in most declarations), SM5.1
/// descriptor declarations swizzled, empty opaque operands 0-component.
vsir::OperandForm default_operand_form(const vsir::Register& reg, bool is_dst, bool declaration, uint8_t write_mask,
                                       uint8_t swizzle, bool sm51);

/// The chunk fourcc for `program`'s shader model: "SHEX" for 5.x, "SHDR" otherwise.
const char* chunk_name_for(const vsir::Program& program);

} // namespace dxspv::tpf

// TPF declarations (dcl_* opcodes) into VSIR declaration instructions and
// their Declaration payloads. Private to tpf/.
#pragma once

#include <cstdint>

#include "tpf/context.h"
#include "tpf/opcode_table.h"

namespace dxspv::tpf {

/// Reads declaration `entry` (opcode token `token`, payload at the cursor)
/// and appends its instruction. Returns false after reporting malformed
/// input; the caller discards what was appended.
bool read_declaration(Context& ctx, Cursor& cur, uint32_t token, const OpcodeEntry& entry);

/// VSIR type of a D3D10_SB_RESOURCE_RETURN_TYPE value (0 and 9 "unused":
/// none); false for values past 9.
bool return_type_of(uint32_t value, vsir::DataType& out);

} // namespace dxspv::tpf

// The TPF reader: an SM4.0-5.1 token stream (the data of a SHDR or SHEX
// chunk) into a VSIR program following the conventions of vsir/VSIR.md.
#pragma once

#include <cstdint>
#include <span>

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::tpf {

/// Reads the SHDR/SHEX chunk data `shex_chunk` into `out` (appending to its
/// pools). `chunk_offset_in_container` is added to token byte offsets in
/// diagnostics and Instruction::location. Malformed input gives numbered
/// diagnostics (common/diag/tpf.def); instructions with a known length are
/// skipped after an error and reading goes on, anything else stops it.
/// Returns true when no error was reported.
bool read_program(std::span<const uint8_t> shex_chunk, uint32_t chunk_offset_in_container, vsir::Program& out,
                  Diagnostics& diags);

} // namespace dxspv::tpf

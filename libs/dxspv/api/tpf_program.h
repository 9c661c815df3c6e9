// DXBC sources with SM4/5 tokens (SHDR/SHEX chunks) into VSIR, in two steps
// that can be called apart (shader-bench times them): the container, then
// the token stream.
#pragma once

#include <cstdint>
#include <span>

#include "common/diagnostics.h"
#include "container/container.h"
#include "vsir/ir.h"

namespace dxspv::api {

/// Parses the container (its checksum is checked apart, only when asked:
/// warn_checksum_mismatch), finds the SHEX/SHDR chunk (`shader`, borrowing
/// `bytes`) and reads the signatures into `program`.
bool open_dxbc_tpf(std::span<const uint8_t> bytes, container::Chunk& shader, vsir::Program& program,
                   Diagnostics& diags);

/// open_dxbc_tpf on a container already parsed.
bool open_dxbc_tpf(const container::Container& c, container::Chunk& shader, vsir::Program& program,
                   Diagnostics& diags);

/// open_dxbc_tpf, then the TPF reader on the shader chunk.
bool read_dxbc_tpf(std::span<const uint8_t> bytes, vsir::Program& program, Diagnostics& diags);

/// read_dxbc_tpf on a container already parsed.
bool read_dxbc_tpf(const container::Container& c, vsir::Program& program, Diagnostics& diags);

} // namespace dxspv::api

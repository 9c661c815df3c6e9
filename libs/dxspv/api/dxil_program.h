// DXIL sources (DXBC containers with a DXIL chunk) into VSIR.
#pragma once

#include "api/translate.h"
#include "container/program_header.h"
#include "dxil/module/module.h"
#include "vsir/ir.h"

namespace dxspv::api {

/// Reads the DXIL container of `req.source` and lowers its entry point:
/// open_dxbc_dxil, then read_dxil_bitcode.
bool read_dxbc_dxil(const Request& req, vsir::Program& program, Diagnostics& diags);

/// The container step: parses the container, checks its checksum (a
/// mismatch is a warning) and reads the DXIL program header (`header`
/// borrows `bytes`).
bool open_dxbc_dxil(std::span<const uint8_t> bytes, container::ProgramHeader& header, Diagnostics& diags);

/// The front end proper: reads the bitcode module of `header` and lowers
/// its entry point.
bool read_dxil_bitcode(const container::ProgramHeader& header, const Request& req, vsir::Program& program,
                       Diagnostics& diags);

/// Lowers the entry point of a module already read (from bitcode or text).
bool lower_dxil_module(const dxil::Module& module, const Request& req, vsir::Program& program, Diagnostics& diags);

} // namespace dxspv::api

// DXIL sources (DXBC containers with a DXIL chunk, or dxil-ll text) into
// VSIR. The container step (open_dxbc_dxil) is in api/dxil_source.h.
#pragma once

#include "api/dxil_source.h"
#include "api/translate.h"
#include "container/program_header.h"
#include "dxil/module/module.h"
#include "vsir/ir.h"

namespace dxspv::api {

/// Reads a DXIL source (dxbc-dxil container or dxil-ll text) and lowers its
/// entry point.
bool read_dxil(dxspv_source_type source, const Request& req, vsir::Program& program, Diagnostics& diags);

/// The front end proper for a container already opened (open_dxbc_dxil):
/// reads the bitcode module of `header` and lowers its entry point.
bool read_dxil_bitcode(const container::ProgramHeader& header, const Request& req, vsir::Program& program,
                       Diagnostics& diags);

/// Lowers the entry point of a module already read (from bitcode or text).
bool lower_dxil_module(const dxil::Module& module, const Request& req, vsir::Program& program, Diagnostics& diags);

} // namespace dxspv::api

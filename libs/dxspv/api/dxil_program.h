// DXIL sources (DXBC containers with a DXIL chunk) into VSIR.
#pragma once

#include "api/translate.h"
#include "dxil/module/module.h"
#include "vsir/ir.h"

namespace dxspv::api {

/// Reads a DXIL source (dxbc-dxil container or dxil-ll text) and lowers its
/// entry point.
bool read_dxil(dxspv_source_type source, const Request& req, vsir::Program& program, Diagnostics& diags);

/// Lowers the entry point of a module already read (from bitcode or text).
bool lower_dxil_module(const dxil::Module& module, const Request& req, vsir::Program& program, Diagnostics& diags);

} // namespace dxspv::api

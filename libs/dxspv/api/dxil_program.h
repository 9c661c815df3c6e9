// DXIL sources (DXBC containers with a DXIL chunk) into VSIR.
#pragma once

#include "api/translate.h"
#include "dxil/module/module.h"
#include "vsir/ir.h"

namespace dxspv::api {

/// Reads the DXIL container of `req.source` and lowers its entry point.
bool read_dxbc_dxil(const Request& req, vsir::Program& program, Diagnostics& diags);

/// Lowers the entry point of a module already read (from bitcode or text).
bool lower_dxil_module(const dxil::Module& module, const Request& req, vsir::Program& program, Diagnostics& diags);

} // namespace dxspv::api

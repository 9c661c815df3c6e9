// Targets written straight from a DXIL module, without VSIR: dxbc-dxil (a
// DXBC container with the module as LLVM 3.7 bitcode). Sources that give a
// dxil::Module (dxbc-dxil here; dxil-ll text through the .ll reader) call
// write_dxil_target().
#pragma once

#include <span>
#include <vector>

#include "api/translate.h"
#include "container/container.h"
#include "dxil/module/module.h"

namespace dxspv::api {

/// The targets of write_dxil_target(), for supported_target_types().
std::span<const dxspv_target_type> dxil_module_targets();
bool is_dxil_module_target(dxspv_target_type target);

/// Writes `module` as `target`. `source` is the container the module was
/// read from (its other chunks are kept), nullptr for text sources.
dxspv_result write_dxil_target(const dxil::Module& module, const container::Container* source,
                               dxspv_target_type target, std::vector<uint8_t>& out, Diagnostics& diags);

/// The whole request for a DXIL module target from a source of type
/// `source` (already detected and checked by resolve_source()).
dxspv_result translate_dxil_module(const Request& request, dxspv_source_type source, std::vector<uint8_t>& out,
                                   Diagnostics& diags);

} // namespace dxspv::api

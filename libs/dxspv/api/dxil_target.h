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

/// Writes `module` as `target`. `source` is the container the module was
/// read from (its other chunks are kept), nullptr for text sources.
dxspv_result write_dxil_target(const dxil::Module& module, const container::Container* source,
                               dxspv_target_type target, std::vector<uint8_t>& out, Diagnostics& diags);

} // namespace dxspv::api

// DXIL module → unstructured VSIR (the DXIL front end's last step).
//
// The result follows libs/dxspv/vsir/VSIR.md: every LLVM value becomes an
// SSA register (`sr#`) or an operand read in place (immediates, inputs,
// system values), blocks become `label`/`branch`/`switch_monolithic`, phis
// stay `phi`. The structurizer (libs/dxspv/cfg) makes it structured.
#pragma once

#include <span>

#include "common/diagnostics.h"
#include "dxil/metadata.h"
#include "dxil/module/module.h"
#include "vsir/ir.h"

namespace dxspv::dxil {

struct LowerOptions {
    bool experimental_ops = false; ///< accept ops of the experimental table (feature 0x8000)
    std::string_view entry;        ///< entry point name; empty: the only one
};

/// Lowers the entry point of `module` (with its decoded metadata) into
/// `program`. Every unsupported op or construct is reported (all of them,
/// not only the first); returns false when anything was reported.
bool lower_module(const Module& module, const DxilMetadata& metadata, const LowerOptions& options,
                  vsir::Program& program, Diagnostics& diags);

} // namespace dxspv::dxil

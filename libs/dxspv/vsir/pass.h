// The VSIR pass infrastructure. A pass is a free function
// `bool pass(Program&, Diagnostics&)` (passes/passes.h lists them, one file
// each under passes/); it returns false after reporting an error. run_pass
// runs one and validates the program after it, naming the pass; the
// pipeline is one short function calling run_pass in order.
#pragma once

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::vsir {

using PassFunction = bool (*)(Program&, Diagnostics&);

/// True in builds without NDEBUG (debug and test builds): run_pass then
/// validates after every pass whatever its `validate` argument says.
bool validation_forced();

/// Runs `pass` on `program`. When it succeeds and validation is on
/// (`validate` or validation_forced()), validates the result with `name` as
/// the pass to blame. Returns false when the pass failed or the result is
/// invalid; a pass that fails without reporting anything gets a
/// vsir_pass_failed error naming it.
bool run_pass(Program& program, Diagnostics& diags, const char* name, PassFunction pass, bool validate);

struct PipelineOptions {
    /// Validate the input and the result of every pass also in release
    /// builds.
    bool validate = false;
};

/// The VSIR pass pipeline run between a front end and the structurizer /
/// emitter (lower_phis, remove_nops; unstructured programs then go through
/// cfg::structurize). Stops at the first failing pass.
bool run_pipeline(Program& program, Diagnostics& diags, const PipelineOptions& options);

} // namespace dxspv::vsir

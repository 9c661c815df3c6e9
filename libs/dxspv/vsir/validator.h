// The VSIR validator: checks the invariants listed in VSIR.md
// ("Validator invariants") in one linear walk and reports each violation
// with its code (common/diag/vsir.def) at Location::instruction(index).
#pragma once

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::vsir {

/// Returns true when the program is valid. `after_pass` names the pass that
/// produced the program; messages start with "after pass <name>: " (no
/// prefix when null or empty).
bool validate_program(const Program& program, Diagnostics& diags, const char* after_pass);

} // namespace dxspv::vsir

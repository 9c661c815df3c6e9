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

/// validate_program()'s nesting checks alone (structured programs: every
/// construct closed in order, break and continue inside a loop or switch,
/// case and default inside a switch), as the same diagnostics. Linear and
/// without allocation unless the program nests constructs: for builds that
/// skip the full validation, where input that breaks these D3D rules must
/// still be reported the same way.
bool validate_nesting(const Program& program, Diagnostics& diags, const char* after_pass);

} // namespace dxspv::vsir

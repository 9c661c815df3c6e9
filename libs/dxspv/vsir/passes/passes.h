// Every VSIR pass, one per file in this folder. Each has the PassFunction
// shape (vsir/pass.h): it rewrites the program in place and returns false
// after reporting an error.
#pragma once

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::vsir {

/// Removes nop instructions by compacting the instruction array. Other
/// instructions keep their order, operands and locations.
bool remove_nops(Program& program, Diagnostics& diags);

/// Unstructured programs: replaces every phi by a fresh temp, copied into at
/// the end of each predecessor and read into the phi's SSA value at the
/// start of its block (lower_phis.cpp). Leaves structured programs alone.
bool lower_phis(Program& program, Diagnostics& diags);

} // namespace dxspv::vsir

// The CFG structurizer: unstructured VSIR (label / branch /
// switch_monolithic / ret, no phis: run vsir::lower_phis first) in,
// structured VSIR (if / loop / switch / break / continue / ret) out.
// structurize.cpp explains the algorithm. The documented pipeline for DXIL
// programs is lower_phis -> structurize -> remove_nops.
#pragma once

#include <cstdint>
#include <string>

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::cfg {

/// Hard limit on the nesting of the structured output (if / loop / switch
/// levels); deeper programs are refused with cfg_too_deep.
inline constexpr uint32_t max_nesting_depth = 1024;

/// What the structurizer did, summed over the program's function regions.
struct StructurizeStats {
    uint32_t regions = 0;            ///< function regions structurized
    uint32_t blocks = 0;             ///< reachable blocks
    uint32_t unreachable_blocks = 0; ///< blocks dropped
    uint32_t loops = 0;              ///< CFG loops (loop constructs emitted)
    uint32_t selections = 0;         ///< if constructs emitted
    uint32_t switches = 0;           ///< switch constructs from switch_monolithic
    uint32_t scopes = 0;             ///< breakable run-once scopes left after simplification
    uint32_t conditional_jumps = 0;  ///< breakc / continuec / retc emitted
    uint32_t multilevel_jumps = 0;   ///< jumps through the jump-target register
    uint32_t duplicated_returns = 0; ///< multilevel breaks replaced by a copy of a small return block
    uint32_t trampolines = 0;        ///< constructs followed by a jump-target check
    uint32_t max_depth = 0;          ///< deepest nesting emitted
};

/// Rewrites an unstructured program in structured form
/// (Program::control_flow = structured); a structured program is left as
/// it is. Returns false after reporting cfg_* errors (irreducible control
/// flow, nesting beyond max_nesting_depth, malformed blocks).
bool structurize(vsir::Program& program, Diagnostics& diags, StructurizeStats& stats);

/// The same with the VSIR pass shape (vsir/pass.h).
bool structurize(vsir::Program& program, Diagnostics& diags);

/// Graphviz dot of the CFG of every function region of an unstructured
/// program (one cluster per region): a node per block named by its label,
/// edges labelled T/F or by case value, back edges dashed, unreachable
/// blocks grey. Returns false (with cfg_* errors) for malformed blocks.
bool write_dot(const vsir::Program& program, std::string& out, Diagnostics& diags);

} // namespace dxspv::cfg

// Scaling mode: generated shaders of growing size, timed like files, with
// the cost per instruction / block / nesting level at each size. The cost
// must stay flat: the ratio between the largest and the smallest size's
// cost per unit is reported (<= 2 passes).
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace bench {

struct ScalingPoint {
    uint32_t size = 0;      ///< requested size (instructions, blocks, levels)
    uint64_t units = 0;     ///< measured size (generated instructions, SPIR-V blocks, levels)
    Outcome outcome;
    Timing timing;
    /// From the fastest run: on a shared machine the minimum is the
    /// repeatable figure (the median is reported beside it).
    double ns_per_unit = 0;
    double assemble_ns_per_unit = 0; ///< d3d-asm series: text::assemble, text to VSIR (fastest run)
};

struct ScalingSeries {
    std::string name;  ///< e.g. "dxbc-instructions"
    std::string unit;  ///< "instruction", "block", "level"
    std::string skipped; ///< why the series did not run, when it did not
    std::vector<ScalingPoint> points;
    /// Cost per unit at the largest size over the cost at the smallest.
    double ratio = 0;
    double assemble_ratio = 0;
    /// Every size translated and the ratio within 2 (a size that fails
    /// is not flat, whatever the others' ratio).
    bool flat() const
    {
        for (const ScalingPoint& p : points)
            if (!p.outcome.ok)
                return false;
        return skipped.empty() && ratio > 0 && ratio <= 2.0;
    }
};

/// d3d-asm text of a compute shader with about `n` instructions.
std::string generate_instructions_asm(uint32_t n);
/// d3d-asm text with if/else, loops and switches in sequence: about
/// `blocks` basic blocks.
std::string generate_blocks_asm(uint32_t blocks);
/// d3d-asm text with `depth` nested levels (if and loop alternating).
std::string generate_nesting_asm(uint32_t depth);

/// DXIL as LLVM IR text: a compute shader of about `n` instructions
/// (integer and float arithmetic, compares, selects, dx.op calls).
std::string generate_instructions_ll(uint32_t n);
/// DXIL as LLVM IR text: `n` struct types, then `n` compares and selects
/// (the type table and the instructions grow together).
std::string generate_types_ll(uint32_t n);

/// Unstructured VSIR (the form the DXIL front end gives): a chain of
/// diamonds, while loops with early breaks, switches and early returns of
/// `blocks` blocks; a single block of `n` instructions; `depth` nested loops.
void generate_cfg_blocks(uint32_t blocks, vsir::Program& program);
void generate_cfg_instructions(uint32_t n, vsir::Program& program);
void generate_cfg_nesting(uint32_t depth, vsir::Program& program);
/// Unstructured VSIR: one switch of `cases` cases, with fallthroughs,
/// early returns and breaks to the merge block.
void generate_cfg_switch(uint32_t cases, vsir::Program& program);

struct ScalingOptions {
    bool full = true;            ///< the sizes of issue 9 (1k-100k instructions, 100-100,000 blocks,
                                 ///< nesting to 1000), else small sizes for a smoke test
    std::string series;          ///< only this series (empty: all)
    std::vector<uint32_t> sizes; ///< instead of each series' sizes (empty: theirs)
};

/// Runs the series.
std::vector<ScalingSeries> run_scaling(const Settings& settings, const ScalingOptions& options);

} // namespace bench

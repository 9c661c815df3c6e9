// shader-bench: the figures it measures and the settings they depend on.
// phases.cpp translates one shader in timed phases, corpus.cpp runs files,
// scaling.cpp generated shaders, report_*.cpp print the results.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "spirv/tools.h"

namespace dxspv::vsir {
struct Program;
}

namespace bench {

namespace vsir = dxspv::vsir;

/// The translation pipeline's phases, in order (api/translate.cpp).
enum class Phase : uint8_t { container, front_end, passes, structurize, emit, validate };
inline constexpr size_t phase_count = 6;
inline constexpr const char* phase_names[phase_count] = {"container", "front_end", "passes",
                                                         "structurize", "emit",    "validate"};
/// Microseconds per phase.
using PhaseTimes = std::array<double, phase_count>;

struct Settings {
    uint32_t runs = 20; ///< timed runs per shader, after one warm-up run
    bool validate = false;
    bool verify_checksum = false; ///< DXSPV_COMPILE_OPTION_VERIFY_CHECKSUM (off in the library by default)
    dxspv::spirv::TargetEnv env = dxspv::spirv::TargetEnv::vulkan1_1;
};

enum class SourceKind : uint8_t { dxbc, dxil };
inline const char* kind_name(SourceKind k) { return k == SourceKind::dxbc ? "dxbc" : "dxil"; }

/// What one translation produced.
struct Outcome {
    bool ok = false;
    std::string error;        ///< the first error diagnostic when !ok
    uint32_t spirv_words = 0;
    uint32_t spirv_blocks = 0; ///< OpLabel count of the output
    uint32_t trampolines = 0;  ///< from the structurizer's stats; 0 for structured input
};

/// Timings of repeated runs of one shader, reduced.
struct Timing {
    double median_us = 0;
    double min_us = 0;
    PhaseTimes phases_us{}; ///< per-phase medians
};

/// Reduces per-run totals and phase times (modifies the vectors' order).
Timing reduce_runs(std::vector<double>& totals, std::vector<PhaseTimes>& phases);

double median(std::vector<double>& values);

/// True when the library was built with NDEBUG: without it vsir::run_pass
/// validates the IR after every pass, which the figures then include.
bool release_build();

/// True when the build was optimized with a profile (`./dev.sh pgo`, meson's
/// b_pgo=use).
bool profile_guided_build();

/// Process peak resident set size (getrusage), KiB.
uint64_t peak_rss_kib();

} // namespace bench

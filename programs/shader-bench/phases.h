// One translation in timed phases, calling the library's components in the
// order api/translate.cpp does (container, front end, VSIR passes,
// structurizer, SPIR-V emitter, optional spirv-val), with a clock read
// between phases and none inside them.
#pragma once

#include <cstdint>
#include <span>

#include "bench.h"
#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace bench {

/// What a translation reports: `total` reads no clock between phases (its
/// phase times stay zero: the caller times the whole call), `timing` times
/// the phases, `full` also counts the output's blocks (a pass over the words
/// that timed runs leave out).
enum class Detail { total, timing, full };

/// Translates a DXBC container holding SM4/5 tokens or DXIL to SPIR-V;
/// `name` prefixes the diagnostics.
Outcome translate_container(std::span<const uint8_t> bytes, SourceKind kind, const char* name,
                            const Settings& settings, PhaseTimes& times, Detail detail = Detail::full);

/// translate_container `runs` times without phase clock reads for the wall
/// time of each call (which also counts freeing the program), then `runs`
/// times more for the phases' times; reduced. The clock reads between
/// phases (eight, some 3 % of a small shader's time) thus stay out of the
/// totals.
Timing time_container(std::span<const uint8_t> bytes, SourceKind kind, const char* name, const Settings& settings,
                      uint32_t runs);

/// The phases after the front end, on a program already in VSIR (passes,
/// structurizer when the program is unstructured, emitter, validation);
/// adds their times to `times`.
Outcome translate_program(vsir::Program& program, const Settings& settings, PhaseTimes& times,
                          dxspv::Diagnostics& diags, Detail detail = Detail::full);

/// True when this build has the CFG structurizer (libs/dxspv/cfg).
bool have_structurizer();

} // namespace bench

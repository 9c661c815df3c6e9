// Scaling mode (scaling.h): each series generates shaders of growing size
// and times them like files. d3d-asm series go text → text::assemble (timed
// on its own) → DXBC container (api::translate) → the same phases as a
// corpus file; the DXIL series goes `.ll` text → DXIL container
// (api::translate) → the phases of a corpus DXIL file; CFG series start
// from generated unstructured VSIR.
#include "scaling.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "api/translate.h"
#include "phases.h"
#include "text/assembler.h"

namespace bench {

namespace {

using Clock = std::chrono::steady_clock;

double since_us(Clock::time_point start)
{
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

/// Fewer runs for large sizes (the runs of a 1000-unit size at most), at
/// least three (or the requested count when smaller).
uint32_t runs_for(const Settings& settings, uint32_t size)
{
    const uint64_t scaled = uint64_t(settings.runs) * 1000 / std::max<uint32_t>(size, 1);
    return std::max<uint32_t>(uint32_t(std::min<uint64_t>(settings.runs, scaled)), std::min(settings.runs, 3u));
}

void finish(ScalingSeries& series)
{
    for (ScalingPoint& p : series.points)
        if (p.outcome.ok && p.units)
            p.ns_per_unit = p.timing.min_us * 1000 / double(p.units);
    const ScalingPoint* first = nullptr;
    const ScalingPoint* last = nullptr;
    for (const ScalingPoint& p : series.points) {
        if (!p.outcome.ok)
            continue;
        if (!first)
            first = &p;
        last = &p;
    }
    if (first && last != first) {
        series.ratio = last->ns_per_unit / first->ns_per_unit;
        if (first->assemble_ns_per_unit > 0)
            series.assemble_ratio = last->assemble_ns_per_unit / first->assemble_ns_per_unit;
    }
}

/// Source text (d3d-asm or `.ll`) of about `size` units.
using TextGenerator = std::string (*)(uint32_t);

/// What a series' unit counts: VSIR instructions after assembly, blocks of
/// the SPIR-V output, or the requested size itself (nesting levels).
enum class Units { instructions, spirv_blocks, size };

/// Writes `text` (d3d-asm or DXIL `.ll`) as a container with the library
/// and times its translation: the rest of a text series' point.
bool translate_text(const std::string& text, dxspv_source_type source, SourceKind kind, Units units,
                    uint32_t runs, const Settings& settings, ScalingPoint& p)
{
    dxspv::api::Request request;
    request.source = {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
    request.source_type = source;
    request.target_type = kind == SourceKind::dxbc ? DXSPV_TARGET_TYPE_DXBC_TPF : DXSPV_TARGET_TYPE_DXBC_DXIL;
    std::vector<uint8_t> container;
    dxspv::Diagnostics diags("generated");
    if (dxspv::api::translate(request, container, diags) != DXSPV_OK) {
        p.outcome.error = diags.to_string();
        return false;
    }
    PhaseTimes times;
    p.outcome = translate_container(container, kind, "generated", settings, times);
    if (!p.outcome.ok)
        return false;
    if (units == Units::spirv_blocks)
        p.units = p.outcome.spirv_blocks;
    else if (units == Units::size)
        p.units = p.size;
    p.timing = time_container(container, kind, "generated", settings, runs);
    return true;
}

/// A d3d-asm series point: assemble (timed), write DXBC, translate.
ScalingPoint asm_point(TextGenerator generate, uint32_t size, Units units, const Settings& settings)
{
    ScalingPoint p;
    p.size = size;
    const std::string text = generate(size);
    const uint32_t runs = runs_for(settings, size);
    std::vector<double> assemble_us;
    for (uint32_t run = 0; run < runs; ++run) {
        vsir::Program program;
        dxspv::Diagnostics diags("generated");
        const Clock::time_point start = Clock::now();
        const bool ok = dxspv::text::assemble(text, program, diags);
        assemble_us.push_back(since_us(start));
        if (!ok) {
            p.outcome.error = diags.to_string();
            return p;
        }
        if (units == Units::instructions)
            p.units = program.instructions.size();
    }
    if (translate_text(text, DXSPV_SOURCE_TYPE_D3D_ASM, SourceKind::dxbc, units, runs, settings, p) && p.units)
        p.assemble_ns_per_unit = *std::min_element(assemble_us.begin(), assemble_us.end()) * 1000 / double(p.units);
    return p;
}

/// A DXIL series point: `.ll` text to a DXIL container (untimed), then the
/// phases of a corpus DXIL file; the unit is the generator's size.
ScalingPoint ll_point(TextGenerator generate, uint32_t size, const Settings& settings)
{
    ScalingPoint p;
    p.size = size;
    translate_text(generate(size), DXSPV_SOURCE_TYPE_DXIL_LL, SourceKind::dxil, Units::size, runs_for(settings, size),
                   settings, p);
    return p;
}

using CfgGenerator = void (*)(uint32_t, vsir::Program&);

/// A CFG series point: generate (untimed), then passes, structurizer,
/// emitter.
ScalingPoint cfg_point(CfgGenerator generate, uint32_t size, const Settings& settings)
{
    ScalingPoint p;
    p.size = size;
    p.units = size;
    const uint32_t runs = runs_for(settings, size);
    std::vector<double> totals;
    std::vector<PhaseTimes> phases;
    for (uint32_t run = 0; run <= runs; ++run) { // run 0: warm-up
        vsir::Program program;
        generate(size, program);
        dxspv::Diagnostics diags("generated");
        PhaseTimes times{};
        const Clock::time_point start = Clock::now();
        Outcome outcome = translate_program(program, settings, times, diags, run == 0 ? Detail::full : Detail::timing);
        const double total = since_us(start);
        if (run == 0) {
            p.outcome = outcome;
            if (!outcome.ok)
                return p;
            continue;
        }
        totals.push_back(total);
        phases.push_back(times);
    }
    p.timing = reduce_runs(totals, phases);
    return p;
}

} // namespace

std::vector<ScalingSeries> run_scaling(const Settings& settings, const ScalingOptions& options)
{
    const bool full = options.full;
    const std::vector<uint32_t> instructions = full ? std::vector<uint32_t>{1000, 10000, 100000}
                                                    : std::vector<uint32_t>{100, 1000};
    const std::vector<uint32_t> blocks = full ? std::vector<uint32_t>{100, 1000, 10000, 100000}
                                              : std::vector<uint32_t>{100, 1000};
    const std::vector<uint32_t> depths = full ? std::vector<uint32_t>{10, 100, 1000}
                                              : std::vector<uint32_t>{10, 100};
    // A switch's cases are VSIR sources (two each): at most 32,766.
    const std::vector<uint32_t> cases = full ? std::vector<uint32_t>{100, 1000, 10000, 30000}
                                             : std::vector<uint32_t>{100, 1000};
    struct AsmSeries {
        const char* name;
        const char* unit;
        TextGenerator generate;
        const std::vector<uint32_t>& sizes;
        Units units;
    } asm_series[] = {
        {"dxbc-instructions", "instruction", generate_instructions_asm, instructions, Units::instructions},
        {"dxbc-blocks", "block", generate_blocks_asm, blocks, Units::spirv_blocks},
        {"dxbc-nesting", "level", generate_nesting_asm, depths, Units::size},
    };
    struct CfgSeries {
        const char* name;
        const char* unit;
        CfgGenerator generate;
        const std::vector<uint32_t>& sizes;
    } cfg_series[] = {
        {"cfg-instructions", "instruction", generate_cfg_instructions, instructions},
        {"cfg-blocks", "block", generate_cfg_blocks, blocks},
        {"cfg-nesting", "level", generate_cfg_nesting, depths},
        {"cfg-switch", "case", generate_cfg_switch, cases},
    };

    struct LlSeries {
        const char* name;
        const char* unit;
        TextGenerator generate;
    } ll_series[] = {
        {"dxil-instructions", "instruction", generate_instructions_ll},
        {"dxil-types", "type and compare", generate_types_ll},
    };

    std::vector<ScalingSeries> out;
    // One series: its points at each size, unless it is not wanted or this
    // build lacks what it needs (`skipped`).
    auto run = [&](const char* name, const char* unit, const std::vector<uint32_t>& own_sizes, const char* skipped,
                   auto point) {
        if (!options.series.empty() && options.series != name)
            return;
        ScalingSeries series{name, unit};
        if (skipped) {
            series.skipped = skipped;
        } else {
            for (uint32_t size : options.sizes.empty() ? own_sizes : options.sizes)
                series.points.push_back(point(size));
            finish(series);
        }
        out.push_back(std::move(series));
    };
    const char* no_structurizer = have_structurizer()
                                      ? nullptr
                                      : "the CFG structurizer (libs/dxspv/cfg), which DXIL needs, is not in this build";
    for (const AsmSeries& s : asm_series)
        run(s.name, s.unit, s.sizes, nullptr,
            [&](uint32_t size) { return asm_point(s.generate, size, s.units, settings); });
    for (const LlSeries& s : ll_series)
        run(s.name, s.unit, instructions, no_structurizer,
            [&](uint32_t size) { return ll_point(s.generate, size, settings); });
    for (const CfgSeries& s : cfg_series)
        run(s.name, s.unit, s.sizes, no_structurizer,
            [&](uint32_t size) { return cfg_point(s.generate, size, settings); });
    return out;
}

} // namespace bench

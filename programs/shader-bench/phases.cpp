// One translation in timed phases (see phases.h).
#include "phases.h"

#include <chrono>

#include "api/dxil_program.h"
#include "api/translate.h"
#include "api/tpf_program.h"
#include "spirv/emit.h"
#include "tpf/reader.h"
#include "vsir/pass.h"

#if __has_include("cfg/structurize.h")
#include "cfg/structurize.h"
#define BENCH_HAVE_STRUCTURIZER 1
#else
#define BENCH_HAVE_STRUCTURIZER 0
#endif

namespace bench {

namespace {

using Clock = std::chrono::steady_clock;

/// Reads the clock and charges the time since the previous read to a phase
/// (unless Detail::total asks for no clock reads).
class PhaseClock {
public:
    PhaseClock(PhaseTimes& times, Detail detail) : times_(times), on_(detail != Detail::total)
    {
        times_.fill(0);
        if (on_)
            last_ = Clock::now();
    }
    void charge(Phase phase)
    {
        if (!on_)
            return;
        const Clock::time_point now = Clock::now();
        times_[size_t(phase)] += std::chrono::duration<double, std::micro>(now - last_).count();
        last_ = now;
    }

private:
    PhaseTimes& times_;
    const bool on_;
    Clock::time_point last_;
};

Outcome failure(const dxspv::Diagnostics& diags)
{
    Outcome out;
    for (const dxspv::Message& m : diags.messages()) {
        if (m.severity == dxspv::Severity::error) {
            out.error = diags.format(m);
            break;
        }
    }
    if (out.error.empty())
        out.error = "failed without an error message";
    return out;
}

uint32_t count_blocks(const std::vector<uint32_t>& words)
{
    constexpr uint32_t op_label = 248, header_words = 5;
    uint32_t blocks = 0;
    for (size_t i = header_words; i < words.size();) {
        const uint32_t count = words[i] >> 16;
        blocks += (words[i] & 0xffff) == op_label;
        i += count ? count : 1;
    }
    return blocks;
}

bool front_end(std::span<const uint8_t> bytes, SourceKind kind, vsir::Program& program, dxspv::Diagnostics& diags,
               PhaseClock& clock)
{
    if (kind == SourceKind::dxbc) {
        dxspv::container::Chunk shader;
        const bool opened = dxspv::api::open_dxbc_tpf(bytes, shader, program, diags);
        clock.charge(Phase::container);
        return opened && dxspv::tpf::read_program(shader.data, shader.offset, program, diags);
    }
    dxspv::container::ProgramHeader header;
    const bool opened = dxspv::api::open_dxbc_dxil(bytes, header, diags);
    clock.charge(Phase::container);
    dxspv::api::Request request;
    request.source = bytes;
    return opened && dxspv::api::read_dxil_bitcode(header, request, program, diags);
}

} // namespace

bool have_structurizer()
{
    return BENCH_HAVE_STRUCTURIZER;
}

Outcome translate_container(std::span<const uint8_t> bytes, SourceKind kind, const char* name,
                            const Settings& settings, PhaseTimes& times, Detail detail)
{
    dxspv::Diagnostics diags(name);
    vsir::Program program;
    PhaseClock clock(times, detail);
    if (settings.verify_checksum)
        dxspv::api::warn_checksum_mismatch(bytes, diags);
    const bool ok = front_end(bytes, kind, program, diags, clock);
    clock.charge(Phase::front_end);
    if (!ok)
        return failure(diags);
    return translate_program(program, settings, times, diags, detail);
}

Timing time_container(std::span<const uint8_t> bytes, SourceKind kind, const char* name, const Settings& settings,
                      uint32_t runs)
{
    std::vector<double> totals;
    std::vector<PhaseTimes> phases(runs);
    totals.reserve(runs);
    for (uint32_t run = 0; run < runs; ++run) {
        const Clock::time_point start = Clock::now();
        translate_container(bytes, kind, name, settings, phases[run], Detail::total);
        totals.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    }
    for (uint32_t run = 0; run < runs; ++run)
        translate_container(bytes, kind, name, settings, phases[run], Detail::timing);
    return reduce_runs(totals, phases);
}

Outcome translate_program(vsir::Program& program, const Settings& settings, PhaseTimes& times,
                          dxspv::Diagnostics& diags, Detail detail)
{
    PhaseTimes after{};
    PhaseClock clock(after, detail);
    Outcome out;
    bool ok = vsir::run_pipeline(program, diags, vsir::PipelineOptions{});
    clock.charge(Phase::passes);
    if (ok && program.control_flow == vsir::ControlFlow::unstructured) {
#if BENCH_HAVE_STRUCTURIZER
        dxspv::cfg::StructurizeStats stats;
        ok = dxspv::cfg::structurize(program, diags, stats);
        out.trampolines = stats.trampolines;
#endif
        clock.charge(Phase::structurize);
    }
    std::vector<uint32_t> words;
    if (ok) {
        dxspv::spirv::EmitOptions options;
        options.target_env = settings.env;
        ok = dxspv::spirv::emit_spirv(program, options, words, diags);
        clock.charge(Phase::emit);
    }
    if (ok && settings.validate) {
        ok = dxspv::spirv::validate_spirv(words, settings.env, diags);
        clock.charge(Phase::validate);
    }
    for (size_t p = 0; p < phase_count; ++p)
        times[p] += after[p];
    if (!ok)
        return failure(diags);
    out.ok = true;
    out.spirv_words = uint32_t(words.size());
    if (detail == Detail::full)
        out.spirv_blocks = count_blocks(words);
    return out;
}

} // namespace bench

// The text report: per-file rows, failures, aggregates per input kind,
// scaling series.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "report.h"

namespace bench {

namespace {

const char* base_name(const std::string& path)
{
    const size_t slash = path.rfind('/');
    return path.c_str() + (slash == std::string::npos ? 0 : slash + 1);
}

/// The file name cut to its last `width` characters (corpus names differ
/// at the end).
const char* name_tail(const std::string& path, size_t width)
{
    const char* name = base_name(path);
    const size_t length = std::strlen(name);
    return length > width ? name + length - width : name;
}

void print_phase_header()
{
    for (const char* name : phase_names)
        std::printf(" %11s", name);
}

void print_phases(const PhaseTimes& phases)
{
    for (double us : phases)
        std::printf(" %11.1f", us);
}

void print_files(const std::vector<FileResult>& files)
{
    std::printf("%-60s %4s %8s %9s %9s %7s", "file", "kind", "bytes", "median_us", "min_us", "MB/s");
    print_phase_header();
    std::printf(" %8s %5s %8s\n", "words", "tramp", "heap_KiB");
    for (const FileResult& r : files) {
        if (!r.outcome.ok)
            continue;
        std::printf("%-60s %4s %8llu %9.1f %9.1f %7.1f", name_tail(r.path, 60), kind_name(r.kind),
                    (unsigned long long)r.bytes, r.timing.median_us, r.timing.min_us,
                    r.timing.median_us > 0 ? double(r.bytes) / r.timing.median_us : 0);
        print_phases(r.timing.phases_us);
        std::printf(" %8u %5u %8llu\n", r.outcome.spirv_words, r.outcome.trampolines,
                    (unsigned long long)(r.peak_heap / 1024));
    }
}

void print_failures(const std::vector<FileResult>& files)
{
    size_t failed = 0;
    for (const FileResult& r : files)
        failed += !r.outcome.ok;
    if (!failed)
        return;
    std::printf("\nnot translated (%zu, excluded from the figures):\n", failed);
    for (const FileResult& r : files)
        if (!r.outcome.ok)
            std::printf("  [%s] %s\n", kind_name(r.kind), r.outcome.error.c_str());
}

void print_aggregates(const Report& report)
{
    std::printf("\n%-5s %6s %6s %9s %9s %9s %10s %7s", "kind", "files", "ok", "median_us", "min_us", "mean_us",
                "total_ms", "MB/s");
    print_phase_header();
    std::printf(" %11s %5s %8s\n", "words/shader", "tramp", "heap_KiB");
    struct {
        const char* name;
        Aggregate a;
    } rows[] = {{"dxbc", aggregate(report.files, SourceKind::dxbc, false)},
                {"dxil", aggregate(report.files, SourceKind::dxil, false)},
                {"all", aggregate(report.files, SourceKind::dxbc, true)}};
    for (const auto& row : rows) {
        const Aggregate& a = row.a;
        if (!a.files)
            continue;
        std::printf("%-5s %6u %6u %9.1f %9.1f %9.1f %10.2f %7.1f", row.name, a.files, a.translated, a.median_us,
                    a.min_us, a.mean_us, a.total_us / 1000, a.mb_per_s());
        print_phases(a.phases_us);
        std::printf(" %12.0f %5u %8llu\n", a.translated ? double(a.spirv_words) / a.translated : 0, a.trampolines,
                    (unsigned long long)(a.peak_heap / 1024));
    }
    std::printf("(median_us: median of the per-file medians; phases: per-file medians summed, us)\n");
}

void print_scaling(const std::vector<ScalingSeries>& all)
{
    std::printf("\nscaling (ns/unit from the fastest run; flat when largest/smallest <= 2):\n");
    for (const ScalingSeries& s : all) {
        if (!s.skipped.empty()) {
            std::printf("%s: skipped: %s\n", s.name.c_str(), s.skipped.c_str());
            continue;
        }
        std::printf("%s (per %s):\n", s.name.c_str(), s.unit.c_str());
        std::printf("  %8s %8s %11s %11s %11s %12s", "size", "units", "median_us", "min_us", "ns/unit", "asm_ns/unit");
        print_phase_header();
        std::printf(" %5s\n", "tramp");
        for (const ScalingPoint& p : s.points) {
            if (!p.outcome.ok) {
                std::printf("  %8u failed: %s\n", p.size, p.outcome.error.c_str());
                continue;
            }
            std::printf("  %8u %8llu %11.1f %11.1f %11.1f %12.1f", p.size, (unsigned long long)p.units,
                        p.timing.median_us, p.timing.min_us, p.ns_per_unit, p.assemble_ns_per_unit);
            print_phases(p.timing.phases_us);
            std::printf(" %5u\n", p.outcome.trampolines);
        }
        std::printf("  ratio largest/smallest: %.2f (%s)", s.ratio, s.flat() ? "flat" : "NOT flat");
        if (s.assemble_ratio > 0)
            std::printf(", assembler %.2f", s.assemble_ratio);
        std::printf("\n");
    }
}

} // namespace

std::string cpu_model()
{
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const size_t colon = line.find(':');
            return colon == std::string::npos ? line : line.substr(line.find_first_not_of(' ', colon + 1));
        }
    }
    return "unknown";
}

unsigned processor_count()
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? unsigned(n) : 1;
}

void print_text(const Report& report, bool per_file)
{
    const Settings& s = report.settings;
    std::printf("shader-bench: %zu files, %u runs each after a warm-up, %s, validation %s, checksum %s, %s build\n",
                report.files.size(), s.runs, dxspv::spirv::target_env_name(s.env), s.validate ? "on" : "off",
                s.verify_checksum ? "checked" : "not checked",
                !release_build()         ? "debug (VSIR validated after every pass)"
                : profile_guided_build() ? "release, profile-guided"
                                         : "release");
    std::printf("machine: %s, %u processors\n", cpu_model().c_str(), processor_count());
    if (!report.files.empty()) {
        if (per_file) {
            std::printf("\n");
            print_files(report.files);
        }
        print_failures(report.files);
        print_aggregates(report);
    }
    if (report.scaling_ran)
        print_scaling(report.scaling);
    std::printf("\npeak RSS: %.1f MiB\n", double(report.peak_rss_kib) / 1024);
}

} // namespace bench

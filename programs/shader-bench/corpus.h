// Benchmarking shader files: collecting them, translating each one a
// number of times after a warm-up, and the per-kind aggregates.
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace bench {

struct FileResult {
    std::string path;
    SourceKind kind = SourceKind::dxbc;
    uint64_t bytes = 0;
    Outcome outcome;       ///< of the warm-up run
    Timing timing;         ///< of the timed runs (when outcome.ok)
    uint64_t peak_heap = 0; ///< bytes, highest heap use during the warm-up run
};

struct Aggregate {
    uint32_t files = 0;
    uint32_t translated = 0;
    double median_us = 0;  ///< median of the per-file medians
    double min_us = 0;     ///< fastest run of any file
    double mean_us = 0;    ///< mean of the per-file medians
    double total_us = 0;   ///< sum of the per-file medians: the set translated once
    uint64_t bytes = 0;    ///< input bytes of the translated files
    PhaseTimes phases_us{}; ///< sums of the per-file phase medians
    uint64_t spirv_words = 0;
    uint32_t trampolines = 0;
    uint64_t peak_heap = 0; ///< highest per-file peak
    double mb_per_s() const { return total_us > 0 ? double(bytes) / total_us : 0; }
};

/// Files to benchmark from command-line arguments: a directory gives its
/// *.dxbc / *.dxil / *.cso files, sorted by name (at most `limit` per
/// directory when not 0); a file is taken as it is. Returns false after
/// printing an error for a path that cannot be read.
bool collect_files(const std::vector<std::string>& paths, uint32_t limit, std::vector<std::string>& files);

/// Reads and benchmarks one file. The kind comes from the container (a DXIL
/// chunk makes it DXIL); files that fail keep their first error and are
/// not timed.
FileResult bench_file(const std::string& path, const Settings& settings);

/// The aggregate of the files of `kind` (all files when `all`).
Aggregate aggregate(const std::vector<FileResult>& results, SourceKind kind, bool all);

} // namespace bench

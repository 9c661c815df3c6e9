// Benchmarking shader files (corpus.h).
#include "corpus.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/scratch.h"
#include "container/container.h"
#include "heap.h"
#include "phases.h"

namespace bench {

namespace fs = std::filesystem;

namespace {

bool is_shader_file(const fs::path& p)
{
    const std::string ext = p.extension().string();
    return ext == ".dxbc" || ext == ".dxil" || ext == ".cso";
}

bool read_file(const std::string& path, std::vector<uint8_t>& bytes)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

/// DXIL when the container has a DXIL chunk, else DXBC (the TPF path, which
/// reports what is wrong with anything else).
SourceKind kind_of(std::span<const uint8_t> bytes)
{
    dxspv::Diagnostics ignored;
    dxspv::container::Container c;
    if (dxspv::container::parse_container(bytes, c, ignored) && c.find(dxspv::container::fourcc("DXIL")))
        return SourceKind::dxil;
    return SourceKind::dxbc;
}

} // namespace

bool collect_files(const std::vector<std::string>& paths, uint32_t limit, std::vector<std::string>& files)
{
    for (const std::string& path : paths) {
        std::error_code ec;
        if (!fs::is_directory(path, ec)) {
            if (!fs::is_regular_file(path, ec)) {
                std::fprintf(stderr, "shader-bench: '%s' is neither a file nor a directory\n", path.c_str());
                return false;
            }
            files.push_back(path);
            continue;
        }
        std::vector<std::string> found;
        for (const fs::directory_entry& e : fs::directory_iterator(path, ec))
            if (e.is_regular_file() && is_shader_file(e.path()))
                found.push_back(e.path().string());
        if (ec) {
            std::fprintf(stderr, "shader-bench: cannot list '%s': %s\n", path.c_str(), ec.message().c_str());
            return false;
        }
        std::sort(found.begin(), found.end());
        if (limit && found.size() > limit)
            found.resize(limit);
        files.insert(files.end(), found.begin(), found.end());
    }
    return true;
}

FileResult bench_file(const std::string& path, const Settings& settings)
{
    FileResult r;
    r.path = path;
    std::vector<uint8_t> bytes;
    if (!read_file(path, bytes)) {
        r.outcome.error = path + ": cannot read the file";
        return r;
    }
    r.bytes = bytes.size();
    r.kind = kind_of(bytes);
    const char* name = path.c_str() + (path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);

    PhaseTimes times;
    dxspv::ScratchArena::take_peak_scope_bytes();
    start_heap_tracking();
    r.outcome = translate_container(bytes, r.kind, name, settings, times);
    // The heap's peak and the most the translation's steps took from the
    // scratch arena (common/scratch.h: chunks that the heap count does not
    // see): an upper bound of the translation's peak.
    r.peak_heap = stop_heap_tracking() + dxspv::ScratchArena::take_peak_scope_bytes();
    if (!r.outcome.ok)
        return r;

    r.timing = time_container(bytes, r.kind, name, settings, settings.runs);
    return r;
}

Aggregate aggregate(const std::vector<FileResult>& results, SourceKind kind, bool all)
{
    Aggregate a;
    std::vector<double> medians;
    for (const FileResult& r : results) {
        if (!all && r.kind != kind)
            continue;
        ++a.files;
        if (!r.outcome.ok)
            continue;
        ++a.translated;
        medians.push_back(r.timing.median_us);
        a.min_us = a.translated == 1 ? r.timing.min_us : std::min(a.min_us, r.timing.min_us);
        a.total_us += r.timing.median_us;
        a.bytes += r.bytes;
        for (size_t p = 0; p < phase_count; ++p)
            a.phases_us[p] += r.timing.phases_us[p];
        a.spirv_words += r.outcome.spirv_words;
        a.trampolines += r.outcome.trampolines;
        a.peak_heap = std::max(a.peak_heap, r.peak_heap);
    }
    if (a.translated)
        a.mean_us = a.total_us / a.translated;
    a.median_us = median(medians);
    return a;
}

} // namespace bench

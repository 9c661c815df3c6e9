// vkd3d-anchor: times vkd3d-shader's vkd3d_shader_compile (DXBC or DXIL ->
// SPIR-V; DXIL needs vkd3d-shader 1.9 or later) in-process on the same
// files as shader-bench, the anchor of README "Performance". Each file is
// translated once as a warm-up and then RUNS times in a child process of its
// own (vkd3d-shader 1.2 aborts on some inputs); prints the median of the
// per-file medians and the SPIR-V words per shader over the files it
// translates; with --per-file, also a line per file translated: "file PATH
// median_us MIN_US" (compare_times.py reads them).
//
// With --interleaved, the child times dxspv_compile (the library's C API)
// and vkd3d_shader_compile on the same bytes in turns, which one goes first
// alternating from run to run, so that both see the same machine: on a
// shared virtual machine its speed drifts over seconds, which separate
// processes one after the other each see differently. It prints a line per
// file both translate, "pair PATH OURS_MEDIAN OURS_MIN THEIRS_MEDIAN
// THEIRS_MIN OURS_WORDS THEIRS_WORDS"; with 8 files or more, the median of
// the per-file ratios in each quarter of them by input size, "size quarter
// Q: N files of MIN to MAX bytes, ..."; and over all of them the medians of
// the per-file medians and minimums of each and their ratios, the median of
// the per-file ratios and the SPIR-V words per shader of each.
//
// usage: vkd3d-anchor [--per-file | --interleaved] RUNS FILE...
#include <cstddef> // vkd3d_shader.h 1.2 uses size_t without including it
#include <cstdint>

#include <vkd3d_shader.h>

#include <dxspv/dxspv.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>
#include <vector>

namespace {

struct Result {
    double median_us;
    double min_us;
    double words;
};

/// Both translators' results on one file (--interleaved).
struct Pair {
    Result ours, theirs;
};

/// Whether `bytes` hold DXIL (SM 6.x) rather than a TPF token stream, as
/// dxspv's detection says.
bool is_dxil(const std::vector<char>& bytes)
{
    const dxspv_code code = {bytes.data(), bytes.size()};
    return dxspv_detect_source_type(&code) == DXSPV_SOURCE_TYPE_DXBC_DXIL;
}

/// VKD3D_SHADER_SOURCE_DXBC_DXIL (vkd3d-shader 1.9 and later), which
/// 1.2's header does not name; 1.2 refuses it, and the file then counts as
/// failed.
constexpr auto vkd3d_source_dxbc_dxil = vkd3d_shader_source_type(4);

/// vkd3d_shader_compile on one file's bytes, set up once.
class Vkd3d {
public:
    explicit Vkd3d(const std::vector<char>& bytes)
    {
        info_.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
        info_.source.code = bytes.data();
        info_.source.size = bytes.size();
        info_.source_type = is_dxil(bytes) ? vkd3d_source_dxbc_dxil : VKD3D_SHADER_SOURCE_DXBC_TPF;
        info_.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
        info_.log_level = VKD3D_SHADER_LOG_NONE;
    }
    /// One translation; the SPIR-V words, or -1 if it fails.
    double run()
    {
        vkd3d_shader_code out = {};
        char* messages = nullptr;
        const int status = vkd3d_shader_compile(&info_, &out, &messages);
        vkd3d_shader_free_messages(messages);
        const double words = status < 0 ? -1 : double(out.size / 4);
        vkd3d_shader_free_shader_code(&out);
        return words;
    }

private:
    vkd3d_shader_compile_info info_ = {};
};

/// dxspv_compile on one file's bytes (the library's defaults: Vulkan 1.1).
class Dxspv {
public:
    explicit Dxspv(const std::vector<char>& bytes)
    {
        info_.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
        info_.source = {bytes.data(), bytes.size()};
        info_.source_type = is_dxil(bytes) ? DXSPV_SOURCE_TYPE_DXBC_DXIL : DXSPV_SOURCE_TYPE_DXBC_TPF;
        info_.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    }
    double run()
    {
        dxspv_code out = {};
        const dxspv_result status = dxspv_compile(&info_, &out, nullptr);
        const double words = status < 0 ? -1 : double(out.size / 4);
        dxspv_free_code(&out);
        return words;
    }

private:
    dxspv_compile_info info_ = {};
};

std::vector<char> read_file(const char* path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The microseconds of `run()`.
template <class T>
double timed(T& translator)
{
    const auto start = std::chrono::steady_clock::now();
    translator.run();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

/// Sorts `times` and puts their median and minimum in `result`.
void reduce(std::vector<double>& times, Result& result)
{
    std::sort(times.begin(), times.end());
    result.median_us = times[times.size() / 2];
    result.min_us = times.front();
}

/// In the child: RUNS timed translations of `path`; false if it fails.
bool measure(const char* path, int runs, Result& result)
{
    const std::vector<char> bytes = read_file(path);
    Vkd3d vkd3d(bytes);
    result.words = vkd3d.run();
    if (result.words < 0)
        return false;
    std::vector<double> times;
    for (int i = 0; i < runs; ++i)
        times.push_back(timed(vkd3d));
    reduce(times, result);
    return true;
}

/// In the child (--interleaved): RUNS timed translations of `path` by each,
/// in turns; false if either fails.
bool measure_pair(const char* path, int runs, Pair& result)
{
    const std::vector<char> bytes = read_file(path);
    Vkd3d vkd3d(bytes);
    Dxspv dxspv(bytes);
    result.theirs.words = vkd3d.run();
    result.ours.words = dxspv.run();
    if (result.theirs.words < 0 || result.ours.words < 0)
        return false;
    std::vector<double> ours, theirs;
    for (int i = 0; i < runs; ++i) {
        if (i % 2 == 0) {
            ours.push_back(timed(dxspv));
            theirs.push_back(timed(vkd3d));
        } else {
            theirs.push_back(timed(vkd3d));
            ours.push_back(timed(dxspv));
        }
    }
    reduce(ours, result.ours);
    reduce(theirs, result.theirs);
    return true;
}

/// Runs `measure(result)` in a child process (vkd3d-shader may abort);
/// false if it fails or dies.
template <class R, class F>
bool in_child(R& result, F measure)
{
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        return false;
    const pid_t pid = fork();
    if (pid == 0) {
        close(pipe_fds[0]);
        R r;
        if (!measure(r))
            _exit(1);
        _exit(write(pipe_fds[1], &r, sizeof(r)) == ssize_t(sizeof(r)) ? 0 : 1);
    }
    close(pipe_fds[1]);
    const ssize_t got = read(pipe_fds[0], &result, sizeof(result));
    close(pipe_fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return got == ssize_t(sizeof(result)) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

/// --interleaved, with 8 files or more: the median of the per-file ratios
/// in each quarter of the files by input size, smallest first, a line
/// each. A fixed cost per shader shows as ratios that fall with the size, a
/// cost per instruction as ratios that rise.
void print_by_size(std::vector<std::pair<size_t, double>> size_ratios)
{
    if (size_ratios.size() < 8)
        return;
    std::sort(size_ratios.begin(), size_ratios.end());
    const size_t n = size_ratios.size();
    for (size_t q = 0; q < 4; ++q) {
        const size_t begin = q * n / 4, end = (q + 1) * n / 4;
        std::vector<double> ratios;
        for (size_t i = begin; i < end; ++i)
            ratios.push_back(size_ratios[i].second);
        printf("size quarter %zu: %zu files of %zu to %zu bytes, median of the per-file ratios %.3fx\n", q + 1,
            end - begin, size_ratios[begin].first, size_ratios[end - 1].first, median(ratios));
    }
}

/// --interleaved: a line per file both translate, the ratios by input size,
/// then the summary.
int interleaved(int runs, char** files, int count)
{
    std::vector<double> ours_medians, theirs_medians, ours_mins, theirs_mins, ratios;
    std::vector<std::pair<size_t, double>> size_ratios;
    double ours_words = 0, theirs_words = 0;
    for (int f = 0; f < count; ++f) {
        Pair p;
        if (!in_child(p, [&](Pair& r) { return measure_pair(files[f], runs, r); }))
            continue;
        std::error_code error; // a file read a moment ago: its size
        const size_t bytes = size_t(std::filesystem::file_size(files[f], error));
        size_ratios.push_back({error ? 0 : bytes, p.ours.median_us / p.theirs.median_us});
        printf("pair %s %.3f %.3f %.3f %.3f %.0f %.0f\n", files[f], p.ours.median_us, p.ours.min_us,
            p.theirs.median_us, p.theirs.min_us, p.ours.words, p.theirs.words);
        ours_words += p.ours.words;
        theirs_words += p.theirs.words;
        ours_medians.push_back(p.ours.median_us);
        theirs_medians.push_back(p.theirs.median_us);
        ours_mins.push_back(p.ours.min_us);
        theirs_mins.push_back(p.theirs.min_us);
        ratios.push_back(p.ours.median_us / p.theirs.median_us);
    }
    if (ratios.empty()) {
        printf("no file translated by both\n");
        return 1;
    }
    print_by_size(std::move(size_ratios));
    const double om = median(ours_medians), tm = median(theirs_medians);
    const double on = median(ours_mins), tn = median(theirs_mins);
    printf("interleaved, %zu of %d files translated by both: medians of the per-file medians %.2f us (dxspv) "
           "against %.2f us (vkd3d-shader), %.3fx; of the minimums %.2f against %.2f, %.3fx; median of the "
           "per-file ratios %.3fx; SPIR-V words per shader %.1f against %.1f\n",
        ratios.size(), count, om, tm, om / tm, on, tn, on / tn, median(ratios), ours_words / double(ratios.size()),
        theirs_words / double(ratios.size()));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string_view mode = argc > 1 ? argv[1] : "";
    const bool per_file = mode == "--per-file", pairs = mode == "--interleaved";
    const int first = per_file || pairs ? 3 : 2;
    if (argc <= first) {
        fprintf(stderr, "usage: vkd3d-anchor [--per-file | --interleaved] RUNS FILE...\n");
        return 2;
    }
    const int runs = std::clamp(atoi(argv[first - 1]), 1, 1000);
    if (pairs)
        return interleaved(runs, argv + first, argc - first);
    std::vector<double> medians;
    double words = 0;
    for (int f = first; f < argc; ++f) {
        Result r;
        if (!in_child(r, [&](Result& out) { return measure(argv[f], runs, out); }))
            continue;
        medians.push_back(r.median_us);
        words += r.words;
        if (per_file)
            printf("file %s %.3f %.3f\n", argv[f], r.median_us, r.min_us);
    }
    if (medians.empty()) {
        printf("vkd3d-shader: no file translated\n");
        return 1;
    }
    printf("vkd3d-shader in-process: %zu of %d files translated, median of the per-file medians %.1f us, "
           "%.0f SPIR-V words per shader\n",
        medians.size(), argc - first, median(medians), words / double(medians.size()));
    return 0;
}

// vkd3d-anchor: times vkd3d-shader's vkd3d_shader_compile (DXBC -> SPIR-V)
// in-process on the same files as shader-bench, the anchor of README
// "Performance". Each file is translated once as a warm-up and then RUNS
// times in a child process of its own (vkd3d-shader 1.2 aborts on some
// inputs); prints the median of the per-file medians and the SPIR-V words per
// shader over the files it translates; with --per-file, also a line per file
// translated: "file PATH median_us MIN_US" (compare_times.py reads them).
//
// usage: vkd3d-anchor [--per-file] RUNS FILE...
#include <cstddef> // vkd3d_shader.h 1.2 uses size_t without including it
#include <cstdint>

#include <vkd3d_shader.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

/// In the child: RUNS timed translations of `path`; false if it fails.
bool measure(const char* path, int runs, Result& result)
{
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    vkd3d_shader_compile_info info = {};
    info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
    info.source.code = bytes.data();
    info.source.size = bytes.size();
    info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
    info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
    info.log_level = VKD3D_SHADER_LOG_NONE;
    vkd3d_shader_code out = {};
    char* messages = nullptr;
    int status = vkd3d_shader_compile(&info, &out, &messages);
    vkd3d_shader_free_messages(messages);
    if (status < 0)
        return false;
    result.words = double(out.size / 4);
    vkd3d_shader_free_shader_code(&out);
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        auto start = std::chrono::steady_clock::now();
        vkd3d_shader_compile(&info, &out, &messages);
        times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
        vkd3d_shader_free_messages(messages);
        vkd3d_shader_free_shader_code(&out);
    }
    std::sort(times.begin(), times.end());
    result.median_us = times[times.size() / 2];
    result.min_us = times.front();
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    const bool per_file = argc > 1 && std::string_view(argv[1]) == "--per-file";
    const int first = per_file ? 3 : 2;
    if (argc <= first) {
        fprintf(stderr, "usage: vkd3d-anchor [--per-file] RUNS FILE...\n");
        return 2;
    }
    int runs = std::clamp(atoi(argv[first - 1]), 1, 1000);
    std::vector<double> medians;
    double words = 0;
    for (int f = first; f < argc; ++f) {
        int pipe_fds[2];
        if (pipe(pipe_fds) != 0)
            return 1;
        pid_t pid = fork();
        if (pid == 0) {
            close(pipe_fds[0]);
            Result r;
            if (!measure(argv[f], runs, r))
                _exit(1);
            _exit(write(pipe_fds[1], &r, sizeof(r)) == sizeof(r) ? 0 : 1);
        }
        close(pipe_fds[1]);
        Result r;
        ssize_t got = read(pipe_fds[0], &r, sizeof(r));
        close(pipe_fds[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        if (got == ssize_t(sizeof(r)) && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
            medians.push_back(r.median_us);
            words += r.words;
            if (per_file)
                printf("file %s %.3f %.3f\n", argv[f], r.median_us, r.min_us);
        }
    }
    if (medians.empty()) {
        printf("vkd3d-shader: no file translated\n");
        return 1;
    }
    std::sort(medians.begin(), medians.end());
    printf("vkd3d-shader in-process: %zu of %d files translated, median of the per-file medians %.1f us, "
           "%.0f SPIR-V words per shader\n",
        medians.size(), argc - first, medians[medians.size() / 2], words / double(medians.size()));
    return 0;
}

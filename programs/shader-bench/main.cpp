// shader-bench: translation speed of dxspv, in-process. Files (or the
// corpus) each translated --runs times after a warm-up, and generated
// shaders of growing size (--scaling). See --help and README "Performance".
#include <pthread.h>

#include <cstdio>

#include "options.h"
#include "report.h"

namespace {

using namespace bench;

/// The stack the benchmark runs on. glslang's spv::Builder orders blocks
/// recursively (InReadableOrder.cpp, from Builder::postProcessCFG and
/// Function::dump), one frame per block of a sequence: a generated
/// 100,000-block CFG overflows the 8 MiB main-thread stack (README
/// "Performance"). The benchmark measures speed, so it gives that
/// recursion room; the crash itself is the emitter's to fix.
constexpr size_t stack_bytes = size_t(512) << 20;

int run(Options& o)
{
    if (o.corpus) {
        const std::string dir = corpus_dir();
        if (dir.empty()) {
            std::fprintf(stderr, "shader-bench: no corpus folder: set DXSPV_CORPUS\n");
            return 2;
        }
        o.paths.push_back(dir + "/dxbc");
        o.paths.push_back(dir + "/dxil");
    }
    if (o.paths.empty() && !o.scaling) {
        std::fprintf(stderr, "shader-bench: nothing to do: give files, a directory, --corpus or --scaling\n");
        return 2;
    }
    std::vector<std::string> files;
    if (!collect_files(o.paths, o.limit, files))
        return 2;

    Report report;
    report.settings = o.settings;
    for (const std::string& path : files)
        report.files.push_back(bench_file(path, o.settings));
    if (o.scaling) {
        report.scaling = run_scaling(o.settings, {!o.scaling_small, o.series, o.sizes});
        report.scaling_ran = true;
    }
    report.peak_rss_kib = peak_rss_kib();
    if (o.json)
        print_json(report);
    else
        print_text(report, !o.summary);
    return 0;
}

struct Job {
    Options* options;
    int status;
};

void* run_job(void* arg)
{
    Job* job = static_cast<Job*>(arg);
    job->status = run(*job->options);
    return nullptr;
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parse_options(argc, argv, o))
        return 2;
    if (o.help) {
        print_usage();
        return 0;
    }
    Job job{&o, 1};
    pthread_attr_t attr;
    pthread_t thread;
    if (pthread_attr_init(&attr) != 0 || pthread_attr_setstacksize(&attr, stack_bytes) != 0 ||
        pthread_create(&thread, &attr, run_job, &job) != 0) {
        std::fprintf(stderr, "shader-bench: cannot start a thread with a %zu MiB stack\n", stack_bytes >> 20);
        return 1;
    }
    pthread_join(thread, nullptr);
    pthread_attr_destroy(&attr);
    return job.status;
}

// shader-bench: translation speed of dxspv, in-process. Files (or the
// corpus) each translated --runs times after a warm-up, and generated
// shaders of growing size (--scaling). See --help and README "Performance".
#include <cstdio>

#include "options.h"
#include "report.h"

int main(int argc, char** argv)
{
    using namespace bench;
    Options o;
    if (!parse_options(argc, argv, o))
        return 2;
    if (o.help) {
        print_usage();
        return 0;
    }
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
        report.scaling = run_scaling(o.settings, !o.scaling_small);
        report.scaling_ran = true;
    }
    report.peak_rss_kib = peak_rss_kib();
    if (o.json)
        print_json(report);
    else
        print_text(report, !o.summary);
    return 0;
}

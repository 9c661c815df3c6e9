// shader-bench's command line (options.h).
#include "options.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#ifndef BENCH_DEFAULT_CORPUS
#define BENCH_DEFAULT_CORPUS ""
#endif

namespace bench {

namespace {

bool parse_count(const char* option, const char* text, uint32_t min, uint32_t& out)
{
    char* end = nullptr;
    const unsigned long value = text ? std::strtoul(text, &end, 10) : 0;
    if (!text || !*text || *end || value < min || value > 1000000) {
        std::fprintf(stderr, "shader-bench: %s needs a number from %u to 1000000\n", option, min);
        return false;
    }
    out = uint32_t(value);
    return true;
}

} // namespace

void print_usage()
{
    std::printf(
        "usage: shader-bench [options] [FILE | DIR]...\n"
        "Translates DXBC (SM4/5) and DXIL containers to SPIR-V in-process, each file\n"
        "--runs times after a warm-up, and reports time per shader and per phase,\n"
        "input MB/s, peak memory, output size and structurizer trampolines.\n"
        "A directory gives its *.dxbc, *.dxil and *.cso files.\n"
        "\n"
        "  --corpus         add the corpus's dxbc/ and dxil/ folders ($DXSPV_CORPUS,\n"
        "                   default %s)\n"
        "  --runs N         timed runs per shader after one warm-up (default 20), and\n"
        "                   N more for the phases (their clock reads stay out of the totals)\n"
        "  --limit N        at most N files per directory, by name\n"
        "  --validate       run spirv-val too (timed as its own phase)\n"
        "  --verify-checksum\n"
        "                   check each container's checksum, as the library's\n"
        "                   DXSPV_COMPILE_OPTION_VERIFY_CHECKSUM does (container phase)\n"
        "  --env ENV        vulkan1.0 ... vulkan1.3 (default vulkan1.1)\n"
        "  --scaling        generated shaders of growing size: cost per instruction,\n"
        "                   block, nesting level and switch case\n"
        "  --scaling-small  the same with small sizes (a quick check)\n"
        "  --series NAME    only this scaling series (dxbc-instructions, dxbc-blocks,\n"
        "                   dxbc-nesting, dxil-instructions, dxil-types,\n"
        "                   cfg-instructions, cfg-blocks, cfg-nesting, cfg-switch: at\n"
        "                   most 32,766 cases)\n"
        "  --sizes N,N...   scaling sizes instead of the series' own (for profiling)\n"
        "  --summary        text output without the per-file rows\n"
        "  --json           JSON output\n"
        "  -h, --help       this text\n",
        BENCH_DEFAULT_CORPUS);
}

std::string corpus_dir()
{
    if (const char* env = std::getenv("DXSPV_CORPUS"); env && *env)
        return env;
    return BENCH_DEFAULT_CORPUS;
}

bool parse_options(int argc, char** argv, Options& out)
{
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        const char* next = i + 1 < argc ? argv[i + 1] : nullptr;
        if (arg == "-h" || arg == "--help") {
            out.help = true;
        } else if (arg == "--corpus") {
            out.corpus = true;
        } else if (arg == "--runs") {
            if (!parse_count("--runs", next, 1, out.settings.runs))
                return false;
            ++i;
        } else if (arg == "--limit") {
            if (!parse_count("--limit", next, 1, out.limit))
                return false;
            ++i;
        } else if (arg == "--validate") {
            out.settings.validate = true;
        } else if (arg == "--verify-checksum") {
            out.settings.verify_checksum = true;
        } else if (arg == "--env") {
            if (!next || !dxspv::spirv::parse_target_env(next, out.settings.env)) {
                std::fprintf(stderr, "shader-bench: --env needs vulkan1.0, vulkan1.1, vulkan1.2 or vulkan1.3\n");
                return false;
            }
            ++i;
        } else if (arg == "--scaling") {
            out.scaling = true;
        } else if (arg == "--scaling-small") {
            out.scaling = out.scaling_small = true;
        } else if (arg == "--series" && next) {
            out.series = next;
            ++i;
        } else if (arg == "--sizes" && next) {
            for (const char* at = next; *at;) {
                char* end = nullptr;
                const unsigned long size = std::strtoul(at, &end, 10);
                if (end == at || size < 2 || size > 10000000 || (*end && *end != ',')) {
                    std::fprintf(stderr, "shader-bench: --sizes needs numbers from 2 to 10000000, comma-separated\n");
                    return false;
                }
                out.sizes.push_back(uint32_t(size));
                at = *end ? end + 1 : end;
            }
            ++i;
        } else if (arg == "--summary") {
            out.summary = true;
        } else if (arg == "--json") {
            out.json = true;
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::fprintf(stderr, "shader-bench: unknown option '%s' (--help lists them)\n", argv[i]);
            return false;
        } else {
            out.paths.emplace_back(arg);
        }
    }
    return true;
}

} // namespace bench

// shader-bench's command line.
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace bench {

struct Options {
    Settings settings;
    std::vector<std::string> paths; ///< files and directories
    bool corpus = false;            ///< add the corpus's dxbc/ and dxil/ folders
    uint32_t limit = 0;             ///< at most this many files per directory (0: all)
    bool scaling = false;
    bool scaling_small = false;     ///< small scaling sizes (smoke test)
    std::string series;             ///< only this scaling series (empty: all)
    std::vector<uint32_t> sizes;    ///< scaling sizes instead of the series' own
    bool json = false;
    bool summary = false;           ///< text: aggregates only, no per-file rows
    bool help = false;
};

/// Parses argv; prints the problem and returns false on a bad command line.
bool parse_options(int argc, char** argv, Options& out);

void print_usage();

/// The corpus folder: $DXSPV_CORPUS, else the build's default
/// (../shared/corpus beside the source tree).
std::string corpus_dir();

} // namespace bench

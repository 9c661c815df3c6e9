// shader-bench's output: a text table (report_text.cpp) or JSON
// (report_json.cpp) of the same figures.
#pragma once

#include <string>
#include <vector>

#include "corpus.h"
#include "scaling.h"

namespace bench {

struct Report {
    Settings settings;
    std::vector<FileResult> files;
    std::vector<ScalingSeries> scaling;
    bool scaling_ran = false;
    uint64_t peak_rss_kib = 0;
};

/// The CPU model (/proc/cpuinfo) and the number of online processors.
std::string cpu_model();
unsigned processor_count();

void print_text(const Report& report, bool per_file);
void print_json(const Report& report);

} // namespace bench

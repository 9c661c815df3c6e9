// Medians and the reduction of repeated runs.
#include <sys/resource.h>

#include <algorithm>

#include "bench.h"

namespace bench {

double median(std::vector<double>& values)
{
    if (values.empty())
        return 0;
    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    double upper = values[mid];
    if (values.size() % 2)
        return upper;
    double lower = *std::max_element(values.begin(), values.begin() + mid);
    return (lower + upper) / 2;
}

Timing reduce_runs(std::vector<double>& totals, std::vector<PhaseTimes>& phases)
{
    Timing t;
    if (totals.empty())
        return t;
    t.min_us = *std::min_element(totals.begin(), totals.end());
    t.median_us = median(totals);
    std::vector<double> column(phases.size());
    for (size_t p = 0; p < phase_count; ++p) {
        for (size_t r = 0; r < phases.size(); ++r)
            column[r] = phases[r][p];
        t.phases_us[p] = median(column);
    }
    return t;
}

bool release_build()
{
#ifdef NDEBUG
    return true;
#else
    return false;
#endif
}

bool profile_guided_build()
{
#ifdef DXSPV_PROFILE_GUIDED
    return true;
#else
    return false;
#endif
}

uint64_t peak_rss_kib()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return uint64_t(usage.ru_maxrss);
}

} // namespace bench

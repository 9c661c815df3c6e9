// stable_sort_short: the same order as std::stable_sort (equal keys keep
// their order) on short and long arrays, including empty and one-element ones.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "common/stable_sort.h"

TEST_CASE("stable sort of short and long arrays keeps equal keys in order")
{
    std::mt19937 rng(7);
    for (size_t n : {0, 1, 2, 3, 5, 16, 31, 32, 33, 100}) {
        for (int round = 0; round < 20; ++round) {
            std::vector<std::pair<int, int>> v(n); // key, original position
            for (size_t i = 0; i < n; ++i)
                v[i] = {int(rng() % 5), int(i)};
            auto expected = v;
            auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
            std::stable_sort(expected.begin(), expected.end(), by_key);
            dxspv::stable_sort_short(v.begin(), v.end(), by_key);
            CHECK(v == expected);
        }
    }
}

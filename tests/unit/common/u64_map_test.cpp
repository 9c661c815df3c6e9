// U64Map: insertion, lookup and growth, with keys that collide in the low
// bits and the keys 0 and ~0.
#include <doctest/doctest.h>

#include <unordered_map>

#include "common/u64_map.h"

using dxspv::U64Map;

TEST_CASE("u64 map: values stay with their keys through growth")
{
    U64Map map;
    CHECK(map.find(0) == 0);
    std::unordered_map<uint64_t, uint32_t> expected;
    for (uint32_t i = 1; i <= 5000; ++i) {
        uint64_t key = uint64_t(i) << 32 | (i % 7); // low bits collide
        map[key] = i;
        expected[key] = i;
    }
    map[0] = 77;
    map[~0ull] = 78;
    CHECK(map.size() == expected.size() + 2);
    for (const auto& [key, value] : expected)
        CHECK(map.find(key) == value);
    CHECK(map.find(0) == 77);
    CHECK(map.find(~0ull) == 78);
    CHECK(map.find(12345) == 0);
    uint32_t& existing = map[uint64_t(3) << 32 | 3];
    CHECK(existing == 3);
    CHECK(map.size() == expected.size() + 2); // no new entry
    CHECK(map[999] == 0);                     // a new one, 0 until set
    CHECK(map.size() == expected.size() + 3);
}

TEST_CASE("u64 map: clear() empties the map, which fills again")
{
    U64Map map;
    for (uint64_t k = 1; k <= 100; ++k)
        map[k * 977] = uint32_t(k);
    map.clear();
    CHECK(map.size() == 0);
    for (uint64_t k = 1; k <= 100; ++k)
        CHECK(map.find(k * 977) == 0);
    map[977] = 5;
    CHECK(map[977] == 5);
    CHECK(map.find(2 * 977) == 0);
    for (uint64_t k = 1000; k < 1300; ++k) // grows after a clear
        map[k] = uint32_t(k);
    CHECK(map.find(1299) == 1299);
    CHECK(map.find(977) == 5);
    CHECK(map.size() == 301);
}

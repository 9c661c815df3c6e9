// PodVector (common/pod_vector.h), the ScratchVector of trivially copyable
// elements: the std::vector operations the code uses, with memset/memcpy, in
// the arena and on the heap.
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/scratch.h"

using dxspv::PodVector;
using dxspv::ScratchScope;
using dxspv::ScratchVector;

static_assert(std::is_same_v<ScratchVector<uint32_t>, PodVector<uint32_t>>);
static_assert(std::is_same_v<ScratchVector<const uint32_t*>, PodVector<const uint32_t*>>);
namespace {
struct WithDefault {
    uint32_t a = 7; // value-initialisation is not zeroing: its constructor runs
};
struct NotTriviallyCopyable {
    NotTriviallyCopyable& operator=(const NotTriviallyCopyable&) { return *this; }
};
} // namespace
static_assert(std::is_same_v<ScratchVector<WithDefault>, PodVector<WithDefault>>);
static_assert(!std::is_same_v<ScratchVector<NotTriviallyCopyable>, PodVector<NotTriviallyCopyable>>);

namespace {

std::vector<uint32_t> as_std(const PodVector<uint32_t>& v) { return {v.begin(), v.end()}; }

void exercise()
{
    PodVector<uint32_t> v;
    CHECK(v.empty());
    for (uint32_t i = 0; i < 100; ++i)
        v.push_back(i);
    CHECK(v.size() == 100);
    CHECK(v[99] == 99);
    CHECK(v.back() == 99);

    v.resize(3);
    CHECK(as_std(v) == std::vector<uint32_t>{0, 1, 2});
    v.resize(6); // the new elements are zero, also where old values were
    CHECK(as_std(v) == std::vector<uint32_t>{0, 1, 2, 0, 0, 0});
    v.resize(7, 9);
    CHECK(v[6] == 9);

    uint32_t* room = v.append_uninitialized(2);
    room[0] = 10;
    room[1] = 11;
    CHECK(v.size() == 9);
    CHECK(v[8] == 11);

    v.assign(4, 5);
    CHECK(as_std(v) == std::vector<uint32_t>{5, 5, 5, 5});
    v.insert(v.begin() + 1, {1, 2});
    CHECK(as_std(v) == std::vector<uint32_t>{5, 1, 2, 5, 5, 5});
    v.insert(v.end(), v.begin(), v.begin() + 3); // from itself, with growth
    CHECK(as_std(v) == std::vector<uint32_t>{5, 1, 2, 5, 5, 5, 5, 1, 2});
    std::vector<uint32_t> other{7, 8};
    v.insert(v.begin(), other.begin(), other.end()); // another kind of iterator
    CHECK(as_std(v) == std::vector<uint32_t>{7, 8, 5, 1, 2, 5, 5, 5, 5, 1, 2});
    v.insert(v.begin() + 2, 2, 0);
    CHECK(as_std(v) == std::vector<uint32_t>{7, 8, 0, 0, 5, 1, 2, 5, 5, 5, 5, 1, 2});
    v.erase(v.begin() + 2, v.begin() + 4);
    v.erase(v.begin());
    CHECK(as_std(v) == std::vector<uint32_t>{8, 5, 1, 2, 5, 5, 5, 5, 1, 2});

    PodVector<uint32_t> copy(v);
    CHECK(copy == v);
    copy.pop_back();
    CHECK(!(copy == v));
    PodVector<uint32_t> moved(std::move(copy));
    CHECK(copy.empty());
    CHECK(moved.size() == 9);
    copy = moved;
    CHECK(copy == moved);
    v = std::move(moved);
    CHECK(v.size() == 9);
    v.clear();
    CHECK(v.empty());

    PodVector<uint8_t> zeros(5);
    CHECK(zeros.size() == 5);
    CHECK(std::vector<uint8_t>(zeros.begin(), zeros.end()) == std::vector<uint8_t>(5, 0));
    PodVector<uint32_t> counted(3, 4);
    CHECK(as_std(counted) == std::vector<uint32_t>{4, 4, 4}); // (count, value), not an iterator pair
    CHECK(PodVector<uint32_t>(counted.begin() + 1, counted.end()).size() == 2);

    // Default member values: resize and the size constructor run the
    // constructor (not a memset), emplace_back initialises what it is not given.
    PodVector<WithDefault> defaults(2);
    defaults.resize(4);
    defaults.emplace_back();
    for (const WithDefault& d : defaults)
        CHECK(d.a == 7);
    defaults.emplace_back(WithDefault{9});
    CHECK(defaults.back().a == 9);
}

} // namespace

TEST_CASE("pod vector: the vector operations, in the scratch arena")
{
    ScratchScope scope;
    exercise();
}

TEST_CASE("pod vector: the vector operations, on the heap")
{
    exercise();
}

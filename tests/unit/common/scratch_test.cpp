// ScratchArena / ScratchAllocator (common/scratch.h): containers inside a
// scope take the thread's arena, the memory comes back at the scope's end and
// is reused by the next scope; containers made outside keep the heap.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <thread>

#include "common/scratch.h"
#include "common/u64_map.h"

#ifdef DXSPV_SCRATCH_ASAN
#include <sanitizer/asan_interface.h>
#endif

using dxspv::ScratchAllocator;
using dxspv::ScratchArena;
using dxspv::ScratchScope;
using dxspv::ScratchVector;

namespace {

/// The arena is off under ThreadSanitizer (the heap): the arena checks only
/// hold with it.
bool arena_enabled()
{
    ScratchScope scope;
    return ScratchArena::current() != nullptr;
}

} // namespace

TEST_CASE("scratch: a scope makes the arena current, nested scopes change nothing")
{
    CHECK(ScratchArena::current() == nullptr);
    {
        ScratchScope outer;
        ScratchArena* arena = ScratchArena::current();
        {
            ScratchScope inner;
            CHECK(ScratchArena::current() == arena);
        }
        CHECK(ScratchArena::current() == arena);
    }
    CHECK(ScratchArena::current() == nullptr);
}

TEST_CASE("scratch: containers keep their values, large ones included")
{
    ScratchScope scope;
    ScratchVector<uint32_t> small, large;
    for (uint32_t i = 0; i < 1000; ++i)
        small.push_back(i * 3);
    large.resize(3u << 20); // 12 MiB: past the huge-page chunk size
    std::iota(large.begin(), large.end(), 7u);
    ScratchVector<uint64_t> wide(5, 0x123456789abcdefull);
    for (uint32_t i = 0; i < 1000; ++i)
        CHECK(small[i] == i * 3);
    CHECK(large.front() == 7u);
    CHECK(large.back() == 7u + (3u << 20) - 1);
    CHECK(reinterpret_cast<uintptr_t>(wide.data()) % alignof(uint64_t) == 0);
    CHECK(wide[4] == 0x123456789abcdefull);
}

TEST_CASE("scratch: a container made outside a scope keeps the heap inside one")
{
    ScratchVector<int> v;
    {
        ScratchScope scope;
        v.resize(100000, 5);
        bool heap_here = v.get_allocator() == ScratchAllocator<int>(); // a new allocator takes the arena
        CHECK(heap_here == !arena_enabled());
    }
    v.push_back(6); // still valid after the scope's end
    CHECK(v[99999] == 5);
    CHECK(v.back() == 6);
    CHECK(v.get_allocator() == ScratchAllocator<int>());
}

TEST_CASE("scratch: the next scope reuses the memory; freeing the last allocation gives it back")
{
    if (!arena_enabled())
        return;
    uintptr_t first = 0;
    {
        ScratchScope scope;
        ScratchVector<uint32_t> a(100);
        first = reinterpret_cast<uintptr_t>(a.data());
        ScratchArena* arena = ScratchArena::current();
        void* p = arena->allocate(64, 8);
        arena->deallocate(p, 64);
        CHECK(arena->allocate(64, 8) == p);
    }
    {
        ScratchScope scope;
        ScratchVector<uint32_t> b(100);
        CHECK(reinterpret_cast<uintptr_t>(b.data()) == first);
    }
}

TEST_CASE("scratch: a ScopeVector leaves its memory to the scope's end, on the heap it frees it")
{
    struct Element { // trivially copyable, with a default member value
        uint32_t id = 7;
        uint32_t count;
    };
    {
        ScratchScope scope;
        void* last = nullptr;
        {
            dxspv::ScopeVector<Element> v;
            v.resize(3);
            CHECK(v[2].id == 7);
            last = v.data();
        }
        if (arena_enabled()) { // a PodVector would have given the last allocation back
            void* after = ScratchArena::current()->allocate(sizeof(Element), alignof(Element));
            CHECK(after != last);
        }
        ScratchVector<uint32_t> kept(4, 5u);
        dxspv::ScopeVector<uint32_t> copy;
        copy = kept;
        CHECK(copy.size() == 4);
        CHECK(copy[3] == 5u);
    }
    // Outside a scope: the heap, freed by the destructor (the sanitizer builds
    // report a leak otherwise).
    dxspv::ScopeVector<Element> heap(2);
    CHECK(heap[1].id == 7);
    CHECK(heap.get_allocator().arena() == nullptr);
}

TEST_CASE("scratch: the largest chunk stays for the next scope, large ones too, so scopes of one size settle in one chunk")
{
    if (!arena_enabled())
        return;
    constexpr size_t a_size = size_t(3) << 19, b_size = size_t(3) << 20; // 1.5 and 3 MiB
    uintptr_t a_at[4] = {}, b_at[4] = {};
    for (int scope = 0; scope < 4; ++scope) {
        ScratchScope open;
        ScratchArena* arena = ScratchArena::current();
        auto* a = static_cast<uint8_t*>(arena->allocate(a_size, 8));
        auto* b = static_cast<uint8_t*>(arena->allocate(b_size, 8));
        a[0] = a[a_size - 1] = b[0] = b[b_size - 1] = 1; // usable, also past `retained`
        a_at[scope] = reinterpret_cast<uintptr_t>(a);
        b_at[scope] = reinterpret_cast<uintptr_t>(b);
    }
    // The first scope may need a second chunk for b (what earlier tests on
    // this thread left decides), and so may the second (its kept chunk may
    // hold b alone); from the third on, b follows a in the kept chunk (red
    // zones apart), and that chunk stays.
    for (int scope = 2; scope < 4; ++scope) {
        CHECK(b_at[scope] >= a_at[scope] + a_size);
        CHECK(b_at[scope] <= a_at[scope] + a_size + 64);
    }
    CHECK(a_at[3] == a_at[2]);
}

TEST_CASE("scratch: each thread has its own arena")
{
    ScratchArena* here = nullptr;
    ScratchArena* there = nullptr;
    ScratchScope scope;
    here = ScratchArena::current();
    std::thread t([&] {
        CHECK(ScratchArena::current() == nullptr);
        ScratchScope other;
        there = ScratchArena::current();
        ScratchVector<int> v(1000, 1);
        CHECK(v[999] == 1);
    });
    t.join();
    if (arena_enabled())
        CHECK(here != there);
}

TEST_CASE("u64 map: reserve, then values through growth in a scope")
{
    ScratchScope scope;
    dxspv::U64Map map;
    map.reserve(100);
    for (uint32_t i = 1; i <= 3000; ++i)
        map[uint64_t(i) * 0x10001] = i;
    CHECK(map.size() == 3000);
    for (uint32_t i = 1; i <= 3000; ++i)
        CHECK(map.find(uint64_t(i) * 0x10001) == i);
    map.reserve(10); // smaller than what it has: nothing changes
    CHECK(map.find(0x10001) == 1);
}

#ifdef DXSPV_SCRATCH_ASAN
TEST_CASE("scratch: under AddressSanitizer, red zones and freed memory are poisoned")
{
    ScratchScope scope;
    ScratchVector<uint32_t> v(10, 1);
    const uint32_t* data = v.data();
    CHECK(__asan_address_is_poisoned(data + 9) == 0);
    CHECK(__asan_address_is_poisoned(data + 10) != 0); // just past the end: the red zone
    ScratchVector<uint32_t> after(4, 2);                 // v's memory is no longer the last
    v.resize(1000);                                      // moves: the old buffer is freed
    CHECK(__asan_address_is_poisoned(data) != 0);
    CHECK(__asan_address_is_poisoned(v.data() + 999) == 0);
}
#endif

#include <doctest/doctest.h>

#include "common/arena.h"

using namespace dxspv;

TEST_CASE("arena allocations are aligned and stable; class elements get their initialisers")
{
    Arena arena(128);
    uint64_t* a = arena.alloc_array<uint64_t>(4); // scalars: unset, the caller writes them
    CHECK(reinterpret_cast<uintptr_t>(a) % alignof(uint64_t) == 0);
    a[0] = 42;
    struct Pair {
        uint32_t x = 7;
        std::string_view name = "n";
    };
    Pair* pairs = arena.alloc_array<Pair>(3);
    for (int i = 0; i < 3; ++i)
        CHECK((pairs[i].x == 7 && pairs[i].name == "n"));
    // Larger than a block: gets its own block, earlier pointers stay valid.
    uint32_t* big = arena.alloc_array<uint32_t>(1000);
    big[999] = 7;
    CHECK(a[0] == 42);
    std::string_view s = arena.intern("hello");
    CHECK(s == "hello");
    CHECK(s.data()[5] == 0);
    CHECK(arena.bytes_allocated() >= 4 * 8 + 4000 + 6);
    arena.reset();
    CHECK(arena.bytes_allocated() == 0);
}

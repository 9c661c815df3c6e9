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

TEST_CASE("an arena on a scratch scope takes its blocks from it; a moved arena keeps its memory")
{
    ScratchArena::take_peak_scope_bytes(); // from here
    bool scratch_used = false;
    {
        ScratchScope scope;
        scratch_used = ScratchArena::current() != nullptr; // not under ThreadSanitizer (scratch.h)
        Arena arena(ScratchArena::current(), 128);
        uint64_t* a = arena.alloc_array<uint64_t>(4);
        CHECK(reinterpret_cast<uintptr_t>(a) % alignof(uint64_t) == 0);
        a[3] = 42;
        uint32_t* big = arena.alloc_array<uint32_t>(1000); // past the block size
        big[999] = 7;
        std::string_view s = arena.intern("scratch");
        uint64_t* after_chars = arena.alloc_array<uint64_t>(1);
        CHECK(reinterpret_cast<uintptr_t>(after_chars) % alignof(uint64_t) == 0);
        Arena moved(std::move(arena));
        CHECK(a[3] == 42);
        CHECK(big[999] == 7);
        CHECK(s == "scratch");
        CHECK(moved.bytes_allocated() >= 4 * 8 + 4000 + 8);
        CHECK(arena.bytes_allocated() == 0);
        // The moved-from arena starts a block of its own; the moved one goes on.
        uint8_t* x = arena.alloc_array<uint8_t>(16);
        uint8_t* y = moved.alloc_array<uint8_t>(16);
        std::memset(x, 1, 16);
        std::memset(y, 2, 16);
        CHECK((x[15] == 1 && y[0] == 2 && a[3] == 42));
    }
    if (scratch_used)
        CHECK(ScratchArena::take_peak_scope_bytes() >= 4000); // the blocks were the scope's

    Arena heap(64); // a heap arena moves too
    char* h = heap.alloc_array<char>(10);
    h[9] = 'h';
    Arena heap_moved(std::move(heap));
    CHECK(h[9] == 'h');
    CHECK(heap.alloc_array<char>(1) != nullptr);
}

TEST_CASE("a cleared arena keeps its first block of the usual size for the next allocations")
{
    Arena arena(256);
    CHECK_FALSE(arena.holds_block());
    char* first = arena.alloc_array<char>(100);
    arena.alloc_array<char>(200); // a second block
    arena.clear();
    CHECK(arena.bytes_allocated() == 0);
    CHECK(arena.holds_block());
    CHECK(arena.alloc_array<char>(100) == first); // the first block again, from its start
    uint64_t* words = arena.alloc_array<uint64_t>(2);
    CHECK(reinterpret_cast<uintptr_t>(words) % alignof(uint64_t) == 0);

    Arena large(256);
    large.alloc_array<char>(1000); // a first block larger than the usual: not kept
    large.clear();
    CHECK_FALSE(large.holds_block());
    CHECK(large.alloc_array<char>(10) != nullptr);
}

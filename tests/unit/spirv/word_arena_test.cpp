// The builder's block word storage: the block being written grows in place,
// the one written to before it keeps exactly its words, a block written to
// again moves to the end, and every block keeps its contents.
#include <doctest/doctest.h>

#include <vector>

#include "spirv/word_arena.h"

using dxspv::spirv::WordArena;
using dxspv::spirv::Words;

namespace {

void fill(WordArena& arena, Words& w, uint32_t count, uint32_t first)
{
    uint32_t* at = arena.append(w, count);
    for (uint32_t i = 0; i < count; ++i)
        at[i] = first + i;
}

bool holds(const Words& w, uint32_t first, uint32_t count)
{
    if (w.size != count)
        return false;
    for (uint32_t i = 0; i < count; ++i)
        if (w[i] != first + i)
            return false;
    return true;
}

} // namespace

TEST_CASE("word arena: the open block grows in place, the previous one keeps its words exactly")
{
    WordArena arena;
    Words a, b;
    fill(arena, a, 3, 100);
    const uint32_t* a_data = a.data;
    for (uint32_t i = 0; i < 40; ++i)
        fill(arena, a, 1, 103 + i); // in place: no move
    CHECK(a.data == a_data);
    CHECK(holds(a, 100, 43));
    fill(arena, b, 5, 500);
    CHECK(a.capacity == a.size); // gave back its room
    CHECK(b.data == a.data + a.size); // packed right after it
    CHECK(holds(a, 100, 43));
    CHECK(holds(b, 500, 5));
}

TEST_CASE("word arena: a block written to again moves to the end with its words")
{
    WordArena arena;
    Words header, body, merge;
    fill(arena, header, 4, 10);
    fill(arena, body, 6, 20);
    fill(arena, merge, 2, 30);
    fill(arena, header, 3, 14); // the header gets its merge and branch
    CHECK(holds(header, 10, 7));
    CHECK(header.data == merge.data + merge.size);
    CHECK(holds(body, 20, 6));
    CHECK(holds(merge, 30, 2));
    header.size -= 3; // an instruction taken back
    fill(arena, header, 1, 99);
    CHECK(header.size == 5);
    CHECK(header[4] == 99);
}

TEST_CASE("word arena: blocks larger than a chunk and many chunks keep their contents")
{
    WordArena arena;
    std::vector<Words> blocks(300);
    for (uint32_t k = 0; k < blocks.size(); ++k)
        fill(arena, blocks[k], 1 + (k * 37) % 700, k * 1000);
    fill(arena, blocks[7], 5000, 7000000); // past any chunk so far
    for (uint32_t k = 0; k < blocks.size(); ++k) {
        const uint32_t count = 1 + (k * 37) % 700;
        if (k == 7) {
            CHECK(holds(Words{blocks[k].data, count, count}, k * 1000, count));
            CHECK(blocks[k].size == count + 5000);
            CHECK(blocks[k][count + 4999] == 7000000 + 4999);
        } else {
            CHECK(holds(blocks[k], k * 1000, count));
        }
    }
}

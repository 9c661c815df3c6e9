// A Program's arrays are recycled per thread (program_storage.cpp): the next
// Program starts empty with the capacity of the last one destroyed.
#include <doctest/doctest.h>

#include <thread>

#include "vsir/ir.h"

using namespace dxspv;
using namespace dxspv::vsir;

namespace {

/// A program whose arrays hold `n` entries each.
void fill(Program& p, uint32_t n)
{
    for (uint32_t i = 0; i < n; ++i) {
        p.add_declaration(p.add_instruction(Opcode::mov, 1, 1));
        p.u32_pool.push_back(i);
        p.inputs.emplace_back();
        p.outputs.emplace_back();
        p.patch_constants.emplace_back();
    }
}

} // namespace

TEST_CASE("a program starts empty with the arrays of the last one this thread destroyed")
{
    { Program warm; fill(warm, 100); } // whatever earlier tests left
    const Instruction* instructions;
    {
        Program first;
        fill(first, 100);
        instructions = first.instructions.data();
    }
    Program second;
    CHECK(second.instructions.empty());
    CHECK(second.dsts.empty());
    CHECK(second.srcs.empty());
    CHECK(second.decls.empty());
    CHECK(second.u32_pool.empty());
    CHECK(second.inputs.empty());
    CHECK(second.outputs.empty());
    CHECK(second.patch_constants.empty());
    CHECK(second.instructions.data() == instructions);
    CHECK(second.instructions.capacity() >= 100);
    CHECK(second.dsts.capacity() >= 100);
    CHECK(second.srcs.capacity() >= 100);
    CHECK(second.decls.capacity() >= 100);
    CHECK(second.u32_pool.capacity() >= 100);
    CHECK(second.inputs.capacity() >= 100);
    CHECK(second.outputs.capacity() >= 100);
    CHECK(second.patch_constants.capacity() >= 100);

    // A program alive at the same time gets none of them.
    Program third;
    CHECK(third.instructions.capacity() == 0);
}

TEST_CASE("a program's string arena is recycled emptied, with its first block")
{
    const char* first_name;
    {
        Program p;
        first_name = p.arena.intern("SV_Position").data();
    }
    {
        Program moved_from;
        Program q = std::move(moved_from); // gives back no arena: q's keeps the block
        CHECK(q.arena.bytes_allocated() == 0);
        CHECK(q.arena.intern("TEXCOORD").data() == first_name); // the same memory, from its start
    }
    Program r;
    CHECK(r.arena.holds_block());
    Program s; // alive at the same time: none
    CHECK_FALSE(s.arena.holds_block());
}

TEST_CASE("a moved-from program gives back nothing, and large arrays are freed")
{
    { Program warm; fill(warm, 100); }
    {
        Program a;
        Program b = std::move(a); // a's arrays: empty, without capacity
    } // b gives its arrays back first; a's empty ones must not replace them
    {
        Program c;
        CHECK(c.instructions.capacity() >= 100);
        c.instructions.reserve(1 << 20); // more than a thread keeps
    }
    Program d;
    CHECK(d.instructions.capacity() == 0);
}

TEST_CASE("each thread recycles its own arrays")
{
    { Program warm; fill(warm, 100); }
    size_t other_capacity = 1;
    std::thread([&] {
        Program p;
        other_capacity = p.instructions.capacity();
    }).join();
    CHECK(other_capacity == 0);
}

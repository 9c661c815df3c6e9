// Program's pools: instructions appended with default or given parameters,
// declaration payloads.
#include <doctest/doctest.h>

#include "build_helpers.h"

using namespace dxspv;
using namespace dxspv::vsir;
using namespace dxspv::vsir::test;

TEST_CASE("add_instruction: default parameters reserved after the pools' last")
{
    Program p = make_program(ShaderStage::pixel);
    p.add_src(imm_u(7));
    uint32_t i = p.add_instruction(Opcode::mad, 1, 3, 0x40);
    REQUIRE(i == 0);
    const Instruction& ins = p.instructions[i];
    CHECK(ins.opcode == Opcode::mad);
    CHECK(ins.location == 0x40);
    CHECK(ins.dst_first == 0);
    CHECK(ins.dst_count == 1);
    CHECK(ins.src_first == 1);
    CHECK(ins.src_count == 3);
    CHECK(ins.decl == invalid_index);
    REQUIRE(p.srcs.size() == 4);
    CHECK(p.srcs[0].reg.file == RegisterFile::immediate);
    for (uint32_t k = 1; k < 4; ++k) {
        CHECK(p.srcs[k].reg.file == RegisterFile::null);
        CHECK(p.srcs[k].swizzle == swizzle_identity);
        CHECK(p.srcs[k].reg.idx[0].rel_addr == invalid_index);
    }
    CHECK(p.dsts[0].write_mask == 0);
}

TEST_CASE("add_instruction: parameters copied from spans")
{
    Program p = make_program(ShaderStage::pixel);
    add(p, Opcode::mov, {dst(temp(0), X)}, {imm_f(1.0f)});
    const DstParam dsts[] = {dst(temp(1), XYZW)};
    const SrcParam srcs[] = {src(temp(0), XXXX), imm_f(2.0f)};
    uint32_t i = p.add_instruction(Opcode::add, dsts, srcs, 12);
    REQUIRE(i == 1);
    const Instruction& ins = p.instructions[i];
    CHECK(ins.opcode == Opcode::add);
    CHECK(ins.location == 12);
    CHECK(ins.dst_first == 1);
    CHECK(ins.dst_count == 1);
    CHECK(ins.src_first == 1);
    CHECK(ins.src_count == 2);
    CHECK(p.dst(ins, 0).reg.idx[0].offset == 1);
    CHECK(p.dst(ins, 0).write_mask == XYZW);
    CHECK(p.src(ins, 0).reg.file == RegisterFile::temp);
    CHECK(p.src(ins, 0).swizzle == XXXX);
    CHECK(p.src(ins, 1).reg.file == RegisterFile::immediate);

    uint32_t none = p.add_instruction(Opcode::ret, {}, {});
    CHECK(p.instructions[none].dst_count == 0);
    CHECK(p.instructions[none].src_count == 0);
    CHECK(p.instructions[none].dst_first == 2);
    CHECK(p.instructions[none].src_first == 3);
}

TEST_CASE("add_declaration: a copy of the payload, linked to its instruction")
{
    Program p = make_program(ShaderStage::compute);
    add_decl(p, Opcode::dcl_temps).count = 2;
    Declaration d;
    d.thread_group[0] = 8;
    d.thread_group[1] = 4;
    d.thread_group[2] = 1;
    uint32_t i = p.add_instruction(Opcode::dcl_thread_group, 0, 0);
    p.add_declaration(i, d);
    REQUIRE(p.decls.size() == 2);
    CHECK(p.instructions[i].decl == 1);
    CHECK(p.decls[1].thread_group[0] == 8);
    CHECK(p.decls[1].thread_group[1] == 4);
    CHECK(p.decls[0].count == 2);
}

// text::assemble: small texts assembled, written as tokens, read back
// (equal VSIR), disassembled and assembled again; every error code with its
// line and column.
#include <doctest/doctest.h>

#include "helpers.h"
#include "text/assembler.h"
#include "text/disassembler.h"

using namespace dxspv;

namespace {

void round_trip(const char* source)
{
    vsir::Program p;
    Diagnostics diags;
    bool ok = text::assemble(source, p, diags);
    INFO(diags.to_string());
    REQUIRE(ok);
    std::string expected = text_test::print(p);
    CHECK(text_test::write_and_read(p, diags) == expected);
    vsir::Program again;
    CHECK(text::assemble(text::disassemble(p), again, diags));
    CHECK(text_test::print(again) == expected);
}

void expect_error(const char* source, Code code, uint32_t line, uint32_t column)
{
    vsir::Program p;
    Diagnostics diags;
    CHECK_FALSE(text::assemble(source, p, diags));
    INFO(diags.to_string());
    REQUIRE(diags.messages().size() == 1);
    const Message& m = diags.messages()[0];
    CHECK(m.code == code);
    CHECK(m.location.kind == Location::Kind::text);
    CHECK(m.location.a == line);
    CHECK(m.location.b == column);
}

} // namespace

TEST_CASE("assembler: compute shader with raw and structured UAVs")
{
    round_trip("cs_5_0\n"
               "dcl_globalFlags refactoringAllowed\n"
               "dcl_uav_raw u0\n"
               "dcl_uav_structured_opc u1, 16\n"
               "dcl_input vThreadID.x\n"
               "dcl_temps 2\n"
               "dcl_thread_group 64, 1, 1\n"
               "ishl r0.x, vThreadID.x, l(2)  // byte offset\n"
               "ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.x, r0.x, u0.xxxx\n"
               "store_raw u0.x, r0.x, r1.x\n"
               "ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r1.xy, vThreadID.x, l(4), u1.xyxx\n"
               "store_structured u1.xy, vThreadID.x, l(0), r1.xyxx\n"
               "imm_atomic_alloc r0.y, u1\n"
               "sync_uglobal_g_t\n"
               "ret\n");
}

TEST_CASE("assembler: control flow")
{
    round_trip("cs_5_1\n"
               "dcl_constantbuffer CB0[0:0][2], dynamicIndexed, space=1\n"
               "dcl_temps 2\n"
               "dcl_indexableTemp x0[4], 4\n"
               "dcl_thread_group 1, 1, 1\n"
               "mov r0.x, l(0)\n"
               "loop\n"
               "  uge r0.y, r0.x, CB0[0][r0.x + 1].x\n"
               "  breakc_nz r0.y\n"
               "  switch r0.x\n"
               "    case l(1)\n"
               "    mov x0[r0.x + 0].xyzw, l(1.000000, 0.500000, 0, -2.5)\n"
               "    break\n"
               "    default\n"
               "    break\n"
               "  endswitch\n"
               "  if_z r0.x\n"
               "    iadd r0.x, r0.x, l(1)\n"
               "  else\n"
               "    iadd r0.x, r0.x, l(-1)\n"
               "  endif\n"
               "endloop\n"
               "ret\n");
}

TEST_CASE("assembler: pixel shader with sample")
{
    round_trip("ps_4_0\n"
               "dcl_constantbuffer cb0[3], immediateIndexed\n"
               "dcl_sampler s0, mode_default\n"
               "dcl_resource_texture2d (float,float,float,float) t0\n"
               "dcl_resource_texture2d (uint,uint,uint,uint) t1\n"
               "dcl_input_ps linear v1.xy\n"
               "dcl_output o0.xyzw\n"
               "dcl_temps 1\n"
               "sample r0.xyzw, v1.xyxx, t0.xyzw, s0\n"
               "mul_sat o0.xyzw, r0.xyzw, cb0[2].xyzw\n"
               "ld_aoffimmi(1,-1,0) r0.xyzw, l(0, 0, 0, 0), t1.xyzw\n"
               "resinfo_uint r0.xy, l(0), t0.xyzw\n"
               "discard_nz -|r0.x|\n"
               "ret\n");
}

TEST_CASE("assembler: every error code with its line and column")
{
    expect_error("xs_5_0\n", Code::text_bad_header, 1, 1);
    expect_error("cs_5_0\nmov r0.x r1.x\n", Code::text_syntax, 2, 10);
    expect_error("cs_5_0\nfrobnicate r0.x\n", Code::text_unknown_opcode, 2, 1);
    expect_error("cs_5_0\nadd_wobble r0.x, r0.x, r0.x\n", Code::text_unknown_suffix, 2, 5);
    expect_error("cs_5_0\nmov r0.x, q7.x\n", Code::text_unknown_register, 2, 11);
    expect_error("cs_5_0\nmov r0.x, x0.x\n", Code::text_bad_index_count, 2, 11);
    expect_error("cs_5_0\nmov r0.x, r1.xq\n", Code::text_bad_swizzle, 2, 11);
    expect_error("cs_5_0\nmov r0.x, l(1, 2)\n", Code::text_bad_number, 2, 11);
    expect_error("cs_5_0\nadd r0.x, r1.x\n", Code::text_operand_count, 2, 5);
    expect_error("cs_5_0\nmov r0.x, t0\n", Code::text_bad_operand, 2, 11);
    expect_error("cs_5_0\ndcl_sampler s0, mode_wrong\n", Code::text_bad_declaration, 2, 17);
    expect_error("cs_5_0\nmov r0.x, x0[x0[x0[x0[r0.x + 0].x + 0].x + 0].x + 0].x\n", Code::text_too_deep, 2, 23);
}

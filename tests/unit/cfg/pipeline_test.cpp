// The documented sequence for DXIL programs: vsir::run_pipeline
// (lower_phis, remove_nops), then cfg::structurize, each validated.
#include <doctest/doctest.h>

#include "cfg/structurize.h"
#include "cfg_builder.h"
#include "vsir/pass.h"
#include "vsir/printer.h"

using namespace cfg_test;

namespace {

Register ssa_reg(uint32_t n, DataType type)
{
    const uint32_t idx[] = {n};
    return make_register(RegisterFile::ssa, type, Dimension::scalar, idx);
}
DstParam ssa_dst(uint32_t n, DataType type)
{
    DstParam d;
    d.reg = ssa_reg(n, type);
    d.write_mask = 1;
    return d;
}
SrcParam ssa_src(uint32_t n, DataType type)
{
    SrcParam s;
    s.reg = ssa_reg(n, type);
    s.swizzle = make_swizzle(0, 0, 0, 0);
    return s;
}
SrcParam imm_i32(uint32_t v)
{
    SrcParam s = imm(v);
    s.reg.type = DataType::i32;
    return s;
}

} // namespace

TEST_CASE("pipeline: lower_phis, remove_nops, structurize")
{
    // for (i = 0; i < 10; ++i) {} as DXIL gives it: a phi in the loop header.
    TestCfg cfg = empty_cfg();
    Program& p = cfg.program;
    p.temp_count = 0;
    p.ssa_count = 3;
    p.label_count = 4;
    add_ins(p, Opcode::label, {}, {label_src(0)});
    add_ins(p, Opcode::nop, {}, {});
    add_ins(p, Opcode::branch, {}, {label_src(1)});
    add_ins(p, Opcode::label, {}, {label_src(1)});
    add_ins(p, Opcode::phi, {ssa_dst(0, DataType::i32)}, {imm_i32(0), label_src(0), ssa_src(1, DataType::i32), label_src(2)});
    add_ins(p, Opcode::ilt, {ssa_dst(2, DataType::u32)}, {ssa_src(0, DataType::i32), imm_i32(10)});
    add_ins(p, Opcode::branch, {}, {ssa_src(2, DataType::u32), label_src(2), label_src(3)}, flag_test_nonzero);
    add_ins(p, Opcode::label, {}, {label_src(2)});
    add_ins(p, Opcode::iadd, {ssa_dst(1, DataType::i32)}, {ssa_src(0, DataType::i32), imm_i32(1)});
    add_ins(p, Opcode::branch, {}, {label_src(1)});
    add_ins(p, Opcode::label, {}, {label_src(3)});
    add_ins(p, Opcode::ret, {}, {});

    dxspv::Diagnostics diags("pipeline");
    dxspv::vsir::PipelineOptions options;
    options.validate = true;
    REQUIRE_MESSAGE(run_pipeline(p, diags, options), diags.to_string());
    REQUIRE_MESSAGE(run_pass(p, diags, "structurize", dxspv::cfg::structurize, true), diags.to_string());
    CHECK(print_program(p) == R"(cs_6_0 structured
; temps=1 ssa=3 labels=4
dcl_thread_group 1, 1, 1
mov r0.x, l(0):i32
loop
  mov sr0, r0.x
  ilt sr2, sr0, l(10):i32
  retc_z sr2
  iadd sr1, sr0, l(1):i32
  mov r0.x, sr1
endloop
)");
}

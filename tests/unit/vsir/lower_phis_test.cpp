#include <doctest/doctest.h>

#include "build_helpers.h"
#include "vsir/pass.h"
#include "vsir/passes/passes.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

using namespace dxspv;
using namespace dxspv::vsir;
using namespace dxspv::vsir::test;

namespace {

DstParam ssa_dst(uint32_t n, DataType type = DataType::u32) { return dst(ssa(n, type), X); }
SrcParam ssa_src(uint32_t n, DataType type = DataType::u32) { return src(ssa(n, type), XXXX); }
SrcParam imm_d(double v)
{
    Register r;
    r.file = RegisterFile::immediate64;
    r.type = DataType::f64;
    r.dimension = Dimension::scalar;
    std::memcpy(&r.u64[0], &v, 8);
    r.u64[1] = r.u64[0];
    SrcParam s;
    s.reg = r;
    s.swizzle = make_swizzle(0, 1, 0, 1);
    return s;
}

Program unstructured()
{
    Program p = make_program(ShaderStage::compute, 6, 0, ControlFlow::unstructured);
    p.label_count = 8;
    p.ssa_count = 8;
    return p;
}

std::string lowered(Program& p)
{
    Diagnostics diags("test");
    INFO(print_program(p));
    REQUIRE_MESSAGE(validate_program(p, diags, "input"), diags.to_string());
    REQUIRE_MESSAGE(run_pass(p, diags, "lower_phis", lower_phis, true), diags.to_string());
    return print_program(p);
}

} // namespace

TEST_CASE("lower_phis: a diamond's phis become temps copied in the predecessors")
{
    Program p = unstructured();
    add(p, Opcode::label, {}, {label(0)});
    add(p, Opcode::mov, {ssa_dst(0)}, {imm_u(1)});
    add(p, Opcode::branch, {}, {ssa_src(0), label(1), label(2)}, flag_test_nonzero);
    add(p, Opcode::label, {}, {label(1)});
    add(p, Opcode::branch, {}, {label(3)});
    add(p, Opcode::label, {}, {label(2)});
    add(p, Opcode::switch_monolithic, {}, {ssa_src(0), label(3), imm_u(4), label(3)});
    add(p, Opcode::label, {}, {label(3)});
    add(p, Opcode::phi, {ssa_dst(1)}, {imm_u(5), label(1), ssa_src(0), label(2), ssa_src(0), label(2)});
    add(p, Opcode::phi, {ssa_dst(2, DataType::f64)}, {imm_d(1.5), label(1), imm_d(2.0), label(2)});
    add(p, Opcode::iadd, {ssa_dst(3, DataType::i32)}, {ssa_src(1, DataType::i32), imm_i(1)});
    add(p, Opcode::ret);
    CHECK(lowered(p) == R"(cs_6_0 unstructured
; temps=2 ssa=8 labels=8
label l0:
  mov sr0, l(1)
  branch_nz sr0, l1, l2
label l1:
  mov r0.x, l(5)
  mov r1.xy, d(1.5)
  branch l3
label l2:
  mov r0.x, sr0
  mov r1.xy, d(2.0)
  switch_monolithic sr0, l3, [l(4), l3]
label l3:
  mov sr1, r0.x
  mov sr2, r1.xyxy
  iadd sr3, sr1, l(1):i32
  ret
)");
    CHECK(p.temp_count == 2);
}

TEST_CASE("lower_phis: loop-carried swap")
{
    // l1: a = phi [0, l0], [b, l1]; b = phi [1, l0], [a, l1]; loop on itself.
    Program p = unstructured();
    add(p, Opcode::label, {}, {label(0)});
    add(p, Opcode::branch, {}, {label(1)});
    add(p, Opcode::label, {}, {label(1)});
    add(p, Opcode::phi, {ssa_dst(0)}, {imm_u(0), label(0), ssa_src(1), label(1)});
    add(p, Opcode::phi, {ssa_dst(1)}, {imm_u(1), label(0), ssa_src(0), label(1)});
    add(p, Opcode::branch, {}, {ssa_src(0), label(1), label(2)}, flag_test_nonzero);
    add(p, Opcode::label, {}, {label(2)});
    add(p, Opcode::ret);
    CHECK(lowered(p) == R"(cs_6_0 unstructured
; temps=2 ssa=8 labels=8
label l0:
  mov r0.x, l(0)
  mov r1.x, l(1)
  branch l1
label l1:
  mov sr0, r0.x
  mov sr1, r1.x
  mov r0.x, sr1
  mov r1.x, sr0
  branch_nz sr0, l1, l2
label l2:
  ret
)");
}

TEST_CASE("lower_phis: errors and no-ops")
{
    Program p = unstructured();
    add(p, Opcode::label, {}, {label(0)});
    add(p, Opcode::branch, {}, {label(1)});
    add(p, Opcode::label, {}, {label(2)});
    add(p, Opcode::ret);
    add(p, Opcode::label, {}, {label(1)});
    add(p, Opcode::phi, {ssa_dst(0)}, {imm_u(0), label(0), imm_u(1), label(0), imm_u(2), label(2)});
    add(p, Opcode::ret);
    Diagnostics diags("test");
    CHECK_FALSE(lower_phis(p, diags));
    CHECK(diags.has_code(Code::cfg_phi_conflict));
    CHECK(diags.has_code(Code::cfg_phi_predecessor));

    Program structured = make_program(ShaderStage::pixel);
    add(structured, Opcode::ret);
    Diagnostics none("test");
    CHECK(lower_phis(structured, none));
    CHECK(structured.instructions.size() == 1);
}

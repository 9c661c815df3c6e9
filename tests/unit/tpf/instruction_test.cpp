// Instruction controls (test, saturate, resinfo, precise), extended opcode
// tokens, control flow and subroutines.
#include <doctest/doctest.h>

#include "tpf_builder.h"

using namespace tpf_test;
using dxspv::vsir::DataType;
using dxspv::vsir::Opcode;
using dxspv::vsir::RegisterFile;
using dxspv::vsir::ResourceDimension;

namespace {

constexpr uint32_t ps = 0, vs = 1;

void require_ok(const Result& r)
{
    INFO(r.diags.to_string());
    REQUIRE(r.ok);
}

} // namespace

TEST_CASE("tpf: structured control flow and test flags")
{
    Result r;
    read(Prog(ps, 4, 0)
             .op(op_if, {sel(operand_temp, {0}, 1)}, test_nonzero_bit)
             .op(op_else)
             .op(op_endif)
             .op(op_loop)
             .op(op_breakc, {sel(operand_temp, {0}, 0)})
             .op(op_continuec, {sel(operand_temp, {0}, 0)}, test_nonzero_bit)
             .op(op_switch, {sel(operand_temp, {1}, 0)})
             .op(op_case, {imm(3)})
             .op(op_break)
             .op(op_default)
             .op(op_break)
             .op(op_endswitch)
             .op(op_endloop)
             .op(op_discard, {sel(operand_temp, {2}, 0)}, test_nonzero_bit)
             .op(op_retc, {sel(operand_temp, {2}, 0)})
             .op(op_ret)
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    REQUIRE(p.instructions.size() == 16);
    CHECK(p.instructions[0].opcode == Opcode::if_);
    CHECK(p.instructions[0].flags == dxspv::vsir::flag_test_nonzero);
    CHECK(p.src(p.instructions[0], 0).reg.type == DataType::u32);
    CHECK(p.src(p.instructions[0], 0).swizzle == dxspv::vsir::make_swizzle(1, 1, 1, 1));
    CHECK(p.instructions[4].opcode == Opcode::breakc);
    CHECK(p.instructions[4].flags == 0);
    CHECK(p.instructions[5].flags == dxspv::vsir::flag_test_nonzero);
    CHECK(p.instructions[6].opcode == Opcode::switch_);
    CHECK(p.src(p.instructions[6], 0).reg.type == DataType::i32);
    CHECK(p.instructions[7].opcode == Opcode::case_);
    CHECK(p.src(p.instructions[7], 0).reg.u32[0] == 3);
    CHECK(p.src(p.instructions[7], 0).reg.type == DataType::i32);
    CHECK(p.instructions[13].opcode == Opcode::discard);
    CHECK(p.instructions[13].flags == dxspv::vsir::flag_test_nonzero);
    CHECK(p.instructions[14].opcode == Opcode::retc);
    CHECK(p.instructions[14].flags == 0);
}

TEST_CASE("tpf: subroutines and labels")
{
    Result r;
    read(Prog(vs, 4, 0)
             .op(op_call, {zero(operand_label, {0})})
             .op(op_callc, {sel(operand_temp, {0}, 0), zero(operand_label, {1})}, test_nonzero_bit)
             .op(op_ret)
             .op(op_label, {zero(operand_label, {0})})
             .op(op_ret)
             .op(op_label, {zero(operand_label, {1})})
             .op(op_ret)
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    CHECK(p.label_count == 2);
    CHECK(p.instructions[1].flags == dxspv::vsir::flag_test_nonzero);
    CHECK(p.src(p.instructions[1], 1).reg.file == RegisterFile::label);
    CHECK(p.src(p.instructions[1], 1).reg.type == DataType::opaque);
    CHECK(p.instructions[5].opcode == Opcode::label);
    CHECK(p.src(p.instructions[5], 0).reg.idx[0].offset == 1);
}

TEST_CASE("tpf: saturate, precise, resinfo and sampleinfo controls")
{
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_add, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_temp, {2})},
                 saturate_bit | 0x5u << precise_shift)
             .op(op_resinfo, {dst(operand_temp, {0}), imm(0), src(operand_resource, {0})}, 2u << 11)
             .op(op_resinfo, {dst(operand_temp, {0}), imm(0), src(operand_resource, {0})}, 1u << 11)
             .op(op_sample_info, {dst(operand_temp, {0}), src(operand_resource, {0})}, 1u << 11)
             .op(op_sample_info, {dst(operand_temp, {0}), src(operand_rasterizer, {})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    CHECK(p.dst(p.instructions[0], 0).modifiers == dxspv::vsir::dst_saturate);
    CHECK((p.instructions[0].flags & dxspv::vsir::flag_precise_mask) == 0x5u << 8);
    CHECK(p.instructions[1].flags == dxspv::vsir::flag_resinfo_uint);
    CHECK(p.dst(p.instructions[1], 0).reg.type == DataType::u32);
    CHECK(p.src(p.instructions[1], 0).reg.type == DataType::u32);
    CHECK(p.instructions[2].flags == dxspv::vsir::flag_resinfo_rcp_float);
    CHECK(p.dst(p.instructions[2], 0).reg.type == DataType::f32);
    CHECK(p.instructions[3].flags == dxspv::vsir::flag_resinfo_uint);
    CHECK(p.dst(p.instructions[3], 0).reg.type == DataType::u32);
    CHECK(p.src(p.instructions[4], 0).reg.file == RegisterFile::rasterizer);
}

TEST_CASE("tpf: extended opcode tokens: texel offsets, resource dimension and return type")
{
    uint32_t offsets = ext_sample_controls | (0xfu << 9) | (2u << 13) | (0x8u << 17); // -1, 2, -8
    uint32_t dim = ext_resource_dim | (12u << 6) | (24u << 11);                      // structured, stride 24
    uint32_t ret = ext_return_type | (0x3333u << 6);                                  // sint
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_sample, {dst(operand_temp, {0}), src(operand_input, {0}), src(operand_resource, {0}),
                             zero(operand_sampler, {0})},
                 0, {offsets})
             .op(op_ld_structured, {dst(operand_temp, {0}), imm(0), imm(0), src(operand_resource, {1})}, 0,
                 {dim, ret})
             .op(op_gather4_po_c, {dst(operand_temp, {0}), src(operand_input, {0}), src(operand_temp, {1}),
                                   src(operand_resource, {0}), zero(operand_sampler, {0}), sel(operand_temp, {2}, 0)})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    const auto& s = p.instructions[0];
    CHECK(s.texel_offset[0] == -1);
    CHECK(s.texel_offset[1] == 2);
    CHECK(s.texel_offset[2] == -8);
    const auto& l = p.instructions[1];
    CHECK(l.resource_dimension == ResourceDimension::structured_buffer);
    CHECK(l.resource_stride == 24);
    CHECK(l.resource_type[0] == DataType::i32);
    CHECK(l.resource_type[3] == DataType::i32);
    const auto& g = p.instructions[2];
    CHECK(g.opcode == Opcode::gather4_po_c);
    CHECK(p.src(g, 1).reg.type == DataType::i32);
    CHECK(p.src(g, 4).reg.type == DataType::f32);
}

TEST_CASE("tpf: resource loads take the declared return type")
{
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_dcl_resource, {zero(operand_resource, {0})}, 3u << 11, {}, {0x4444})
             .op(op_dcl_resource, {zero(operand_resource, {1})}, 1u << 11, {}, {0x3333})
             .op(op_ld, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_resource, {0})})
             .op(op_ld, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_resource, {1})})
             .op(op_ld, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_resource, {7})})
             .op(op_ld_s, {dst(operand_temp, {0}), dst(operand_temp, {2}, 1), src(operand_temp, {1}),
                           src(operand_resource, {0})})
             .op(op_check_access_fully_mapped, {dst(operand_temp, {2}, 2), sel(operand_temp, {2}, 0)})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    CHECK(p.dst(p.instructions[2], 0).reg.type == DataType::u32);
    CHECK(p.src(p.instructions[2], 0).reg.type == DataType::i32);
    CHECK(p.dst(p.instructions[3], 0).reg.type == DataType::i32);
    CHECK(p.dst(p.instructions[4], 0).reg.type == DataType::f32); // undeclared
    CHECK(p.instructions[5].opcode == Opcode::ld_s);
    CHECK(p.dst(p.instructions[5], 0).reg.type == DataType::u32);
    CHECK(p.dst(p.instructions[5], 1).reg.type == DataType::u32);
    CHECK(p.instructions[6].opcode == Opcode::check_access_fully_mapped);
}

TEST_CASE("tpf: value types of range ids past the reader's in-place table")
{
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_dcl_resource, {zero(operand_resource, {40})}, 3u << 11, {}, {0x3333})
             .op(op_dcl_uav_typed, {zero(operand_uav, {31})}, 3u << 11, {}, {0x4444})
             .op(op_dcl_uav_typed, {zero(operand_uav, {32})}, 3u << 11, {}, {0x3333})
             .op(op_ld, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_resource, {40})})
             .op(op_ld, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_resource, {39})})
             .op(op_ld, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_resource, {1000})})
             .op(op_ld_uav_typed, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_uav, {31})})
             .op(op_ld_uav_typed, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_uav, {32})})
             .op(op_ld_uav_typed, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_uav, {40})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    CHECK(p.dst(p.instructions[3], 0).reg.type == DataType::i32);
    CHECK(p.dst(p.instructions[4], 0).reg.type == DataType::f32); // undeclared, below a declared one
    CHECK(p.dst(p.instructions[5], 0).reg.type == DataType::f32); // undeclared, past the declared ones
    CHECK(p.dst(p.instructions[6], 0).reg.type == DataType::u32);
    CHECK(p.dst(p.instructions[7], 0).reg.type == DataType::i32);
    CHECK(p.dst(p.instructions[8], 0).reg.type == DataType::f32); // t40 is declared, u40 is not
}

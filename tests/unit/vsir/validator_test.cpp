#include <doctest/doctest.h>

#include <string>

#include "build_helpers.h"
#include "vsir/validator.h"

using namespace dxspv;
using namespace dxspv::vsir;
using namespace dxspv::vsir::test;

namespace {

/// A small valid structured pixel shader touching most register files.
Program valid_structured()
{
    Program p = make_program(ShaderStage::pixel, 5, 1);
    p.temp_count = 2;
    add_decl(p, Opcode::dcl_temps).count = 2;
    Declaration& cb = add_decl(p, Opcode::dcl_constant_buffer,
                               {dst(reg(RegisterFile::constant_buffer, DataType::opaque, Dimension::vec4, {0}), 0)});
    cb.count = 4;
    Declaration& t = add_decl(p, Opcode::dcl_resource_raw,
                              {dst(reg(RegisterFile::resource, DataType::opaque, Dimension::none, {0}), 0)});
    t.range_first = 0;
    t.range_last = ~0u;
    Declaration& x = add_decl(p, Opcode::dcl_indexable_temp);
    x.count = 4;
    x.component_count = 4;
    add_decl(p, Opcode::dcl_input_ps, {dst(reg(RegisterFile::input, DataType::f32, Dimension::vec4, {0}), X | Y)});
    add_decl(p, Opcode::dcl_output, {dst(reg(RegisterFile::output, DataType::f32, Dimension::vec4, {0}), XYZW)});

    Register cb_reg = reg(RegisterFile::constant_buffer, DataType::f32, Dimension::vec4, {0, 0, 1});
    cb_reg.idx[2].rel_addr = p.add_src(src(temp(1, DataType::u32), XXXX));
    Register x_reg = reg(RegisterFile::indexable_temp, DataType::f32, Dimension::vec4, {0, 0});
    x_reg.idx[1].rel_addr = p.add_src(src(temp(1, DataType::i32), make_swizzle(1, 1, 1, 1)));
    add(p, Opcode::mov, {dst(temp(0), XYZW)}, {src(reg(RegisterFile::input, DataType::f32, Dimension::vec4, {0}))});
    add(p, Opcode::mov, {dst(x_reg, XYZW)}, {src(cb_reg)});
    add(p, Opcode::ld_raw, {dst(temp(1, DataType::u32), X)},
        {imm_u(0), src(reg(RegisterFile::resource, DataType::opaque, Dimension::none, {0, 5}), XXXX)});
    add(p, Opcode::loop);
    add(p, Opcode::breakc, {}, {src(temp(1, DataType::u32), XXXX)}, flag_test_nonzero);
    add(p, Opcode::switch_, {}, {src(temp(1, DataType::i32), XXXX)});
    add(p, Opcode::case_, {}, {imm_i(1)});
    add(p, Opcode::continue_);
    add(p, Opcode::default_);
    add(p, Opcode::break_);
    add(p, Opcode::endswitch);
    add(p, Opcode::if_, {}, {src(temp(1, DataType::u32), XXXX)}, flag_test_nonzero);
    add(p, Opcode::break_);
    add(p, Opcode::else_);
    add(p, Opcode::nop);
    add(p, Opcode::endif);
    add(p, Opcode::endloop);
    add(p, Opcode::mov, {dst(reg(RegisterFile::depth_out, DataType::f32, Dimension::scalar, {}), X)}, {imm_f(0.5f)});
    add(p, Opcode::mov, {dst(reg(RegisterFile::output, DataType::f32, Dimension::vec4, {0}), XYZW)}, {src(x_reg)});
    add(p, Opcode::ret);
    return p;
}

/// A small valid unstructured compute shader with a loop and a phi.
Program valid_unstructured()
{
    Program p = make_program(ShaderStage::compute, 6, 0, ControlFlow::unstructured);
    p.ssa_count = 3;
    p.label_count = 3;
    Declaration& tg = add_decl(p, Opcode::dcl_thread_group);
    tg.thread_group[0] = tg.thread_group[1] = tg.thread_group[2] = 1;
    add(p, Opcode::label, {}, {label(0)});
    add(p, Opcode::mov, {dst(ssa(0), X)}, {imm_u(0)});
    add(p, Opcode::branch, {}, {label(1)});
    add(p, Opcode::label, {}, {label(1)});
    add(p, Opcode::phi, {dst(ssa(1), X)}, {src(ssa(0)), label(0), src(ssa(2)), label(1)});
    add(p, Opcode::iadd, {dst(ssa(2, DataType::i32), X)}, {src(ssa(1, DataType::i32)), imm_i(1)});
    add(p, Opcode::switch_monolithic, {}, {src(ssa(2)), label(2), imm_u(3), label(1)});
    add(p, Opcode::label, {}, {label(2)});
    add(p, Opcode::ret);
    return p;
}

/// Validates `p` and checks that it fails with `code`, naming the pass.
void expect_code(const Program& p, Code code)
{
    Diagnostics diags;
    const bool ok = validate_program(p, diags, "test_pass");
    INFO(diags.to_string());
    CHECK_FALSE(ok);
    CHECK(diags.has_code(code));
    for (const Message& m : diags.messages())
        CHECK(m.text.rfind("after pass test_pass: ", 0) == 0);
}

void expect_valid(const Program& p)
{
    Diagnostics diags;
    const bool ok = validate_program(p, diags, "test_pass");
    INFO(diags.to_string());
    CHECK(ok);
    CHECK(diags.error_count() == 0);
}

/// Index of the first instruction with opcode `op`.
uint32_t find(const Program& p, Opcode op, uint32_t nth = 0)
{
    for (uint32_t i = 0; i < p.instructions.size(); ++i)
        if (p.instructions[i].opcode == op && nth-- == 0)
            return i;
    FAIL("opcode not found");
    return 0;
}

DstParam& first_dst(Program& p, Opcode op, uint32_t nth = 0) { return p.dst(p.instructions[find(p, op, nth)], 0); }
SrcParam& first_src(Program& p, Opcode op, uint32_t nth = 0) { return p.src(p.instructions[find(p, op, nth)], 0); }

} // namespace

TEST_CASE("validator: valid programs pass")
{
    expect_valid(valid_structured());
    expect_valid(valid_unstructured());
    Program empty = make_program(ShaderStage::vertex);
    expect_valid(empty);
}

TEST_CASE("validator: message format names the pass, the instruction and its text")
{
    Program p = valid_structured();
    p.temp_count = 1;
    p.decls[0].count = 1;
    Diagnostics diags("shader.dxbc");
    CHECK_FALSE(validate_program(p, diags, "lower_phis"));
    REQUIRE(diags.messages().size() >= 1);
    CHECK(diags.format(diags.messages()[0]) ==
          "shader.dxbc:instruction 7: E9009: after pass lower_phis: temp r1 outside temp_count 1: "
          "`mov x0[r1.y].xyzw, cb0[0][r1.x + 1].xyzw`");
    Diagnostics plain;
    CHECK_FALSE(validate_program(p, plain, nullptr));
    CHECK(plain.messages()[0].text.rfind("temp r1 outside", 0) == 0);
}

TEST_CASE("validator: opcode, counts and pools")
{
    Program p = valid_structured();
    p.instructions[find(p, Opcode::ret)].opcode = Opcode::count;
    expect_code(p, Code::vsir_invalid_opcode);

    p = valid_structured();
    p.instructions[find(p, Opcode::mov)].src_count = 2;
    expect_code(p, Code::vsir_operand_count);

    p = valid_unstructured();
    p.instructions[find(p, Opcode::branch)].src_count = 2;
    expect_code(p, Code::vsir_operand_count);

    p = valid_unstructured();
    p.instructions[find(p, Opcode::phi)].src_count = 3;
    expect_code(p, Code::vsir_operand_count);

    p = valid_structured();
    p.instructions[find(p, Opcode::mov)].src_first = uint32_t(p.srcs.size());
    expect_code(p, Code::vsir_operand_range);

    p = valid_structured();
    p.instructions[find(p, Opcode::mov)].dst_first = 0xffffffffu;
    expect_code(p, Code::vsir_operand_range);
}

TEST_CASE("validator: register values, index counts and dimensions")
{
    Program p = valid_structured();
    first_dst(p, Opcode::mov).reg.file = RegisterFile::count;
    expect_code(p, Code::vsir_invalid_register);

    p = valid_structured();
    first_src(p, Opcode::mov).reg.dimension = Dimension(7);
    expect_code(p, Code::vsir_invalid_register);

    p = valid_structured();
    first_src(p, Opcode::mov).reg.index_count = 4;
    expect_code(p, Code::vsir_index_count);

    p = valid_structured(); // cb operands carry 3 indices
    p.src(p.instructions[find(p, Opcode::mov, 1)], 0).reg.index_count = 2;
    expect_code(p, Code::vsir_index_count);

    p = valid_structured(); // descriptor declarations carry 1
    first_dst(p, Opcode::dcl_resource_raw).reg.index_count = 2;
    expect_code(p, Code::vsir_index_count);

    p = valid_structured(); // resource operands carry 2
    p.src(p.instructions[find(p, Opcode::ld_raw)], 1).reg.index_count = 1;
    expect_code(p, Code::vsir_index_count);

    p = valid_structured();
    first_dst(p, Opcode::mov).reg.dimension = Dimension::scalar;
    expect_code(p, Code::vsir_dimension);

    p = valid_structured(); // oDepth is scalar
    p.dst(p.instructions[find(p, Opcode::mov, 2)], 0).reg.dimension = Dimension::vec4;
    expect_code(p, Code::vsir_dimension);
}

TEST_CASE("validator: types and modifiers")
{
    Program p = valid_structured();
    first_src(p, Opcode::mov).reg.type = DataType::none;
    expect_code(p, Code::vsir_missing_type);

    p = valid_structured();
    first_src(p, Opcode::mov).reg.type = DataType(200);
    expect_code(p, Code::vsir_invalid_register);

    p = valid_structured();
    first_src(p, Opcode::mov).modifier = SrcModifier(9);
    expect_code(p, Code::vsir_modifier);

    p = valid_structured();
    first_dst(p, Opcode::mov).modifiers = 0x80;
    expect_code(p, Code::vsir_modifier);
}

TEST_CASE("validator: relative addresses")
{
    Program p = valid_structured();
    Register& cb = p.src(p.instructions[find(p, Opcode::mov, 1)], 0).reg;
    cb.idx[2].rel_addr = uint32_t(p.srcs.size());
    expect_code(p, Code::vsir_relative_address);

    p = valid_structured(); // pointing at an instruction's own source
    Register& cb2 = p.src(p.instructions[find(p, Opcode::mov, 1)], 0).reg;
    cb2.idx[2].rel_addr = p.instructions[find(p, Opcode::mov)].src_first;
    expect_code(p, Code::vsir_relative_address);

    p = valid_structured(); // a relative address that addresses itself
    uint32_t rel = p.src(p.instructions[find(p, Opcode::mov, 1)], 0).reg.idx[2].rel_addr;
    p.srcs[rel].reg = reg(RegisterFile::indexable_temp, DataType::u32, Dimension::vec4, {0, 0});
    p.srcs[rel].reg.idx[1].rel_addr = rel;
    expect_code(p, Code::vsir_relative_address);

    p = valid_structured(); // float index
    rel = p.src(p.instructions[find(p, Opcode::mov, 1)], 0).reg.idx[2].rel_addr;
    p.srcs[rel].reg.type = DataType::f32;
    expect_code(p, Code::vsir_relative_address);

    p = valid_structured(); // temps cannot be relatively addressed
    first_dst(p, Opcode::mov).reg.idx[0].rel_addr = rel;
    expect_code(p, Code::vsir_relative_address);

    p = valid_structured(); // a relative address shared by two operands is fine
    uint32_t shared = p.src(p.instructions[find(p, Opcode::mov, 1)], 0).reg.idx[2].rel_addr;
    p.src(p.instructions[find(p, Opcode::mov, 3)], 0).reg.idx[1].rel_addr = shared;
    p.dst(p.instructions[find(p, Opcode::mov, 1)], 0).reg.idx[1].rel_addr = shared;
    expect_valid(p);
}

TEST_CASE("validator: write masks")
{
    Program p = valid_structured();
    first_dst(p, Opcode::mov).write_mask = 0;
    expect_code(p, Code::vsir_write_mask);

    p = valid_structured();
    first_dst(p, Opcode::mov).write_mask = 0x10;
    expect_code(p, Code::vsir_write_mask);

    p = valid_structured(); // scalar oDepth: only x
    p.dst(p.instructions[find(p, Opcode::mov, 2)], 0).write_mask = Y;
    expect_code(p, Code::vsir_write_mask);
}

TEST_CASE("validator: temps, SSA values and labels")
{
    Program p = valid_structured();
    p.temp_count = 1;
    p.decls[0].count = 1;
    expect_code(p, Code::vsir_temp_index);

    p = valid_structured();
    p.decls[0].count = 3;
    expect_code(p, Code::vsir_declaration);

    p = valid_unstructured();
    p.ssa_count = 2;
    expect_code(p, Code::vsir_ssa_index);

    p = valid_unstructured();
    p.ssa_count = 0xffffffffu;
    expect_code(p, Code::vsir_ssa_index);

    p = valid_unstructured();
    first_dst(p, Opcode::iadd).reg.idx[0].offset = 1; // sr1 is the phi's
    expect_code(p, Code::vsir_ssa_redefined);

    p = valid_unstructured();
    p.instructions[find(p, Opcode::mov)].opcode = Opcode::nop; // sr0 now never defined
    p.instructions[find(p, Opcode::nop)].dst_count = 0;
    p.instructions[find(p, Opcode::nop)].src_count = 0;
    expect_code(p, Code::vsir_ssa_undefined);

    p = valid_unstructured();
    p.label_count = 2;
    expect_code(p, Code::vsir_label_index);

    p = valid_unstructured();
    first_src(p, Opcode::label, 2).reg.idx[0].offset = 1;
    expect_code(p, Code::vsir_label_redefined);

    p = valid_unstructured();
    p.label_count = 4;
    first_src(p, Opcode::branch).reg.idx[0].offset = 3;
    expect_code(p, Code::vsir_label_undefined);
}

TEST_CASE("validator: operand register files")
{
    Program p = valid_structured();
    first_dst(p, Opcode::mov).reg = make_immediate(DataType::f32, 0);
    expect_code(p, Code::vsir_operand_file);

    p = valid_structured();
    first_src(p, Opcode::case_) = src(temp(1, DataType::i32), XXXX);
    expect_code(p, Code::vsir_operand_file);

    p = valid_unstructured(); // label operand in an arithmetic slot
    p.src(p.instructions[find(p, Opcode::iadd)], 1) = label(0);
    expect_code(p, Code::vsir_operand_file);

    p = valid_unstructured(); // branch target that is not a label
    first_src(p, Opcode::branch) = imm_u(1);
    expect_code(p, Code::vsir_operand_file);

    p = valid_unstructured();
    first_dst(p, Opcode::phi).reg = temp(0, DataType::u32);
    p.temp_count = 1;
    expect_code(p, Code::vsir_operand_file);
}

TEST_CASE("validator: declaration payloads")
{
    Program p = valid_structured();
    p.instructions[find(p, Opcode::dcl_temps)].decl = invalid_index;
    expect_code(p, Code::vsir_declaration);

    p = valid_structured();
    p.instructions[find(p, Opcode::dcl_temps)].decl = 99;
    expect_code(p, Code::vsir_declaration);

    p = valid_structured();
    p.instructions[find(p, Opcode::ret)].decl = 0;
    expect_code(p, Code::vsir_declaration);

    p = valid_structured();
    p.decls[p.instructions[find(p, Opcode::dcl_resource_raw)].decl].range_first = 5;
    p.decls[p.instructions[find(p, Opcode::dcl_resource_raw)].decl].range_last = 4;
    expect_code(p, Code::vsir_declaration);

    p = valid_structured();
    add_decl(p, Opcode::dcl_immediate_constant_buffer).data_count = 4;
    expect_code(p, Code::vsir_declaration);
}

TEST_CASE("validator: structured nesting")
{
    Program p = valid_structured();
    p.instructions[find(p, Opcode::endloop)].opcode = Opcode::nop;
    expect_code(p, Code::vsir_nesting); // loop never closed

    p = valid_structured();
    p.instructions[find(p, Opcode::endif)].opcode = Opcode::endloop; // crossed
    expect_code(p, Code::vsir_nesting);

    p = valid_structured();
    p.instructions[find(p, Opcode::else_)].opcode = Opcode::default_; // default outside a switch
    expect_code(p, Code::vsir_nesting);

    p = valid_structured();
    p.instructions[find(p, Opcode::case_)].opcode = Opcode::nop; // case expected after switch
    p.instructions[find(p, Opcode::nop)].src_count = 0;
    p.instructions[find(p, Opcode::continue_)].opcode = Opcode::break_;
    expect_code(p, Code::vsir_nesting);

    p = valid_structured();
    p.instructions[find(p, Opcode::case_)].opcode = Opcode::default_; // two defaults
    p.instructions[find(p, Opcode::default_)].src_count = 0;
    expect_code(p, Code::vsir_nesting);

    p = valid_structured();
    add(p, Opcode::break_); // after endloop
    expect_code(p, Code::vsir_nesting);

    Program q = make_program(ShaderStage::pixel);
    q.temp_count = 1;
    add(q, Opcode::switch_, {}, {src(temp(0, DataType::i32), XXXX)});
    add(q, Opcode::default_);
    add(q, Opcode::continue_); // a switch is not a loop
    add(q, Opcode::endswitch);
    expect_code(q, Code::vsir_nesting);

    Program r = make_program(ShaderStage::pixel);
    r.label_count = 1;
    add(r, Opcode::loop);
    add(r, Opcode::label, {}, {label(0)}); // subroutine inside a loop
    add(r, Opcode::ret);
    expect_code(r, Code::vsir_nesting);
}

TEST_CASE("validator: control-flow form")
{
    Program p = valid_structured();
    p.label_count = 1;
    add(p, Opcode::label, {}, {label(0)});
    add(p, Opcode::branch, {}, {label(0)});
    expect_code(p, Code::vsir_control_flow_form);

    p = valid_unstructured();
    p.instructions[find(p, Opcode::mov)].opcode = Opcode::loop;
    p.instructions[find(p, Opcode::loop)].dst_count = 0;
    p.instructions[find(p, Opcode::loop)].src_count = 0;
    expect_code(p, Code::vsir_control_flow_form);
}

TEST_CASE("validator: unstructured blocks")
{
    Program p = valid_unstructured();
    p.instructions[find(p, Opcode::branch)].opcode = Opcode::nop; // falls into the next label
    p.instructions[find(p, Opcode::nop)].src_count = 0;
    expect_code(p, Code::vsir_block);

    p = valid_unstructured();
    std::swap(p.instructions[find(p, Opcode::phi)], p.instructions[find(p, Opcode::iadd)]); // phi after iadd
    expect_code(p, Code::vsir_block);

    p = valid_unstructured();
    p.instructions.pop_back(); // last block has no terminator
    expect_code(p, Code::vsir_block);

    p = valid_unstructured();
    add(p, Opcode::mov, {dst(ssa(2), X)}, {imm_u(0)}); // after the final ret
    p.ssa_count = 3;
    expect_code(p, Code::vsir_block);
}

TEST_CASE("validator: hull shader phases")
{
    auto hull = [](std::initializer_list<Opcode> phases) {
        Program p = make_program(ShaderStage::hull);
        for (Opcode op : phases) {
            add(p, op);
            add(p, Opcode::ret);
        }
        return p;
    };
    expect_valid(hull({Opcode::hs_decls, Opcode::hs_control_point_phase, Opcode::hs_fork_phase, Opcode::hs_fork_phase,
                       Opcode::hs_join_phase}));
    expect_code(hull({Opcode::hs_fork_phase, Opcode::hs_control_point_phase}), Code::vsir_phase);
    expect_code(hull({Opcode::hs_join_phase, Opcode::hs_fork_phase}), Code::vsir_phase);
    expect_code(hull({Opcode::hs_control_point_phase, Opcode::hs_control_point_phase}), Code::vsir_phase);

    Program p = hull({Opcode::hs_fork_phase});
    p.model.stage = ShaderStage::domain;
    expect_code(p, Code::vsir_phase);

    Program open = make_program(ShaderStage::hull);
    open.temp_count = 1;
    add(open, Opcode::hs_fork_phase);
    add(open, Opcode::if_, {}, {src(temp(0, DataType::u32), XXXX)});
    add(open, Opcode::hs_fork_phase); // the if is still open
    add(open, Opcode::ret);
    expect_code(open, Code::vsir_nesting);
}

TEST_CASE("validator: DXIL value types and operand classes")
{
    // A structured compute program with SSA values of the new types.
    auto program = [] {
        Program p = make_program(ShaderStage::compute, 6, 0);
        p.ssa_count = 8;
        Register vec = reg(RegisterFile::ssa, DataType::f16, Dimension::vec4, {1});
        add(p, Opcode::mov, {dst(ssa(0, DataType::i64), X)}, {src(make_immediate(DataType::u32, 0))});
        p.srcs.back().reg.file = RegisterFile::immediate64;
        p.srcs.back().reg.type = DataType::i64;
        add(p, Opcode::ftof, {dst(vec, X | Y)}, {imm_f(1.0f)});
        add(p, Opcode::ilt, {dst(ssa(2, DataType::boolean), X)}, {src(ssa(0, DataType::i64)), src(ssa(0, DataType::i64))});
        add(p, Opcode::isnan, {dst(ssa(3, DataType::boolean), X)}, {src(vec, make_swizzle(1, 1, 1, 1))});
        add(p, Opcode::unpack64, {dst(ssa(4, DataType::u32), X), dst(reg(RegisterFile::null, DataType::u32, Dimension::scalar, {}), X)},
            {src(ssa(0, DataType::i64))});
        add(p, Opcode::wave_ballot, {dst(reg(RegisterFile::ssa, DataType::u32, Dimension::vec4, {5}), XYZW)},
            {src(ssa(2, DataType::boolean))});
        add(p, Opcode::wave_read_lane_at, {dst(ssa(6, DataType::boolean), X)},
            {src(ssa(3, DataType::boolean)), src(ssa(4, DataType::u32))});
        add(p, Opcode::mov, {dst(ssa(7, DataType::u64), X)}, {src(ssa(0, DataType::i64))});
        add(p, Opcode::ret);
        return p;
    };
    expect_valid(program());

    Program p = program();
    first_dst(p, Opcode::ilt).reg.type = DataType::unorm; // not a value type
    expect_code(p, Code::vsir_operand_type);

    p = program();
    first_dst(p, Opcode::ftof).reg.dimension = Dimension::none;
    expect_code(p, Code::vsir_dimension);

    p = program();
    first_src(p, Opcode::isnan).reg.type = DataType::i16; // class test of an integer
    expect_code(p, Code::vsir_operand_type);

    p = program();
    first_src(p, Opcode::unpack64).reg.type = DataType::u32; // not 64-bit
    expect_code(p, Code::vsir_operand_type);

    p = program();
    first_dst(p, Opcode::wave_ballot).reg.type = DataType::boolean;
    expect_code(p, Code::vsir_operand_type);

    p = program();
    first_dst(p, Opcode::wave_read_lane_at).reg.type = DataType::u32; // T differs from the value's
    expect_code(p, Code::vsir_operand_type);

    p = program();
    first_dst(p, Opcode::mov, 1).reg.type = DataType::u32; // a bit copy keeps the width
    expect_code(p, Code::vsir_operand_type);

    p = program();
    p.instructions[find(p, Opcode::ftof)].dst_count = 2; // operand counts of the new opcodes
    expect_code(p, Code::vsir_operand_count);
}

// Operand forms: component selection, index counts and representations,
// immediates, extended operand tokens, descriptor normalisation, typing.
#include <doctest/doctest.h>

#include "tpf/opcode_table.h"
#include "tpf_builder.h"

using namespace tpf_test;
using dxspv::vsir::DataType;
using dxspv::vsir::Dimension;
using dxspv::vsir::Opcode;
using dxspv::vsir::RegisterFile;
using dxspv::vsir::SrcModifier;
using dxspv::vsir::make_swizzle;

namespace {

constexpr uint32_t ps = 0, vs = 1, gs = 2;

void require_ok(const Result& r)
{
    INFO(r.diags.to_string());
    REQUIRE(r.ok);
}

} // namespace

TEST_CASE("tpf: version token gives the shader model")
{
    Result r;
    read(Prog(gs, 4, 1).op(op_ret).bytes(), r);
    require_ok(r);
    CHECK(r.program.model.stage == dxspv::ShaderStage::geometry);
    CHECK(r.program.model.major == 4);
    CHECK(r.program.model.minor == 1);
    CHECK(r.program.control_flow == dxspv::vsir::ControlFlow::structured);
    REQUIRE(r.program.instructions.size() == 1);
    CHECK(r.program.instructions[0].opcode == Opcode::ret);
    CHECK(r.program.instructions[0].location == 8);
}

TEST_CASE("tpf: locations add the chunk offset")
{
    Result r;
    read(Prog(ps, 5, 0).op(op_nop).op(op_ret).bytes(), r, 0x100);
    require_ok(r);
    REQUIRE(r.program.instructions.size() == 2);
    CHECK(r.program.instructions[0].location == 0x108);
    CHECK(r.program.instructions[1].location == 0x10c);
}

TEST_CASE("tpf: mask, swizzle and select-1 component selection")
{
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_add, {dst(operand_temp, {0}, 0x3), src(operand_input, {1}, make_swizzle(2, 3, 0, 1)),
                          sel(operand_temp, {2}, 1)})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    const auto& ins = p.instructions.at(0);
    CHECK(ins.opcode == Opcode::add);
    const auto& d = p.dst(ins, 0);
    CHECK(d.reg.file == RegisterFile::temp);
    CHECK(d.reg.type == DataType::f32);
    CHECK(d.reg.dimension == Dimension::vec4);
    CHECK(d.reg.index_count == 1);
    CHECK(d.reg.idx[0].offset == 0);
    CHECK(d.write_mask == 0x3);
    CHECK(p.src(ins, 0).reg.file == RegisterFile::input);
    CHECK(p.src(ins, 0).reg.idx[0].offset == 1);
    CHECK(p.src(ins, 0).swizzle == make_swizzle(2, 3, 0, 1));
    CHECK(p.src(ins, 1).swizzle == make_swizzle(1, 1, 1, 1));
    CHECK(p.src(ins, 1).reg.idx[0].offset == 2);
}

TEST_CASE("tpf: operand types follow the opcode")
{
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_iadd, {dst(operand_temp, {0}), src(operand_temp, {1}), imm(7)})
             .op(op_ushr, {dst(operand_temp, {0}), src(operand_temp, {1}), imm(2)})
             .op(op_ftoi, {dst(operand_temp, {0}), src(operand_temp, {1})})
             .op(op_lt, {dst(operand_temp, {0}), src(operand_temp, {1}), src(operand_temp, {2})})
             .op(op_dadd, {dst(operand_temp, {0}, 0x3), src(operand_temp, {1}), src(operand_temp, {2})})
             .op(op_dtof, {dst(operand_temp, {0}, 0x1), src(operand_temp, {1})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    auto dtype = [&](size_t i) { return p.dst(p.instructions.at(i), 0).reg.type; };
    auto stype = [&](size_t i, uint32_t s) { return p.src(p.instructions.at(i), s).reg.type; };
    CHECK(dtype(0) == DataType::i32);
    CHECK(stype(0, 1) == DataType::i32);
    CHECK(dtype(1) == DataType::u32);
    CHECK(stype(1, 1) == DataType::u32);
    CHECK(dtype(2) == DataType::i32);
    CHECK(stype(2, 0) == DataType::f32);
    CHECK(dtype(3) == DataType::u32);
    CHECK(stype(3, 0) == DataType::f32);
    CHECK(dtype(4) == DataType::f64);
    CHECK(stype(4, 1) == DataType::f64);
    CHECK(dtype(5) == DataType::f32);
    CHECK(stype(5, 0) == DataType::f64);
}

TEST_CASE("tpf: immediates, scalar and vector, 32 and 64 bits")
{
    Opnd d64 = make(operand_immediate64, {}, components_4, 0, 0);
    d64.immediates = {0, 0x3ff00000, 0, 0x40000000}; // 1.0, 2.0
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_mov, {dst(operand_output, {0}), imm4(1, 2, 3, 4)})
             .op(op_mov, {dst(operand_temp, {0}, 0x1), imm(f32(0.5f))})
             .op(op_dmov, {dst(operand_temp, {1}, 0xf), d64})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    const auto& v = p.src(p.instructions.at(0), 0);
    CHECK(v.reg.file == RegisterFile::immediate);
    CHECK(v.reg.dimension == Dimension::vec4);
    CHECK(v.reg.type == DataType::f32);
    CHECK(v.reg.u32[0] == 1);
    CHECK(v.reg.u32[3] == 4);
    CHECK(v.swizzle == dxspv::vsir::swizzle_identity);
    const auto& s = p.src(p.instructions.at(1), 0);
    CHECK(s.reg.dimension == Dimension::scalar);
    CHECK(s.reg.u32[0] == f32(0.5f));
    CHECK(s.swizzle == make_swizzle(0, 0, 0, 0));
    const auto& d = p.src(p.instructions.at(2), 0);
    CHECK(d.reg.file == RegisterFile::immediate64);
    CHECK(d.reg.type == DataType::f64);
    CHECK(d.reg.u64[0] == 0x3ff0000000000000ull);
    CHECK(d.reg.u64[1] == 0x4000000000000000ull);
}

TEST_CASE("tpf: 0-, 1- and 2-index operands; scalar system registers")
{
    Result r;
    read(Prog(gs, 4, 0)
             .op(op_mov, {dst(operand_temp, {0}), src(operand_input, {2, 3})})
             .op(op_mov, {dst(operand_temp, {1}, 0x2), one(operand_primitive_id)})
             .op(op_mov, {dst(operand_temp, {1}, 0x4), src(operand_immediate_constant_buffer, {5})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    const auto& v = p.src(p.instructions.at(0), 0);
    CHECK(v.reg.index_count == 2);
    CHECK(v.reg.idx[0].offset == 2);
    CHECK(v.reg.idx[1].offset == 3);
    const auto& prim = p.src(p.instructions.at(1), 0);
    CHECK(prim.reg.file == RegisterFile::primitive_id);
    CHECK(prim.reg.dimension == Dimension::scalar);
    CHECK(prim.reg.index_count == 0);
    CHECK(prim.swizzle == make_swizzle(0, 0, 0, 0));
    const auto& icb = p.src(p.instructions.at(2), 0);
    CHECK(icb.reg.file == RegisterFile::immediate_constant_buffer);
    CHECK(icb.reg.idx[0].offset == 5);
}

TEST_CASE("tpf: relative addressing, immediate + relative and relative only")
{
    Opnd x = src(operand_indexable_temp, {1, 3});
    x.relative(1, sel(operand_temp, {2}, 0));
    Opnd cb = src(operand_constant_buffer, {0, 0});
    cb.relative(1, sel(operand_temp, {4}, 3), false);
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_mov, {dst(operand_temp, {0}), x})
             .op(op_mov, {dst(operand_temp, {0}), cb})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    const auto& xs = p.src(p.instructions.at(0), 0);
    CHECK(xs.reg.file == RegisterFile::indexable_temp);
    CHECK(xs.reg.idx[0].offset == 1);
    CHECK(xs.reg.idx[0].rel_addr == dxspv::vsir::invalid_index);
    CHECK(xs.reg.idx[1].offset == 3);
    REQUIRE(xs.reg.idx[1].rel_addr < p.srcs.size());
    const auto& rel = p.srcs[xs.reg.idx[1].rel_addr];
    CHECK(rel.reg.file == RegisterFile::temp);
    CHECK(rel.reg.idx[0].offset == 2);
    CHECK(rel.reg.type == DataType::u32);
    CHECK(rel.swizzle == make_swizzle(0, 0, 0, 0));

    const auto& cbs = p.src(p.instructions.at(1), 0);
    REQUIRE(cbs.reg.index_count == 3); // SM5.1 form
    CHECK(cbs.reg.idx[0].offset == 0);
    CHECK(cbs.reg.idx[1].offset == 0);
    CHECK(cbs.reg.idx[2].offset == 0);
    REQUIRE(cbs.reg.idx[2].rel_addr < p.srcs.size());
    CHECK(p.srcs[cbs.reg.idx[2].rel_addr].reg.idx[0].offset == 4);
    CHECK(p.srcs[cbs.reg.idx[2].rel_addr].swizzle == make_swizzle(3, 3, 3, 3));
}

TEST_CASE("tpf: 64-bit immediate index")
{
    Opnd v = src(operand_input, {9});
    v.imm64_index(0, 0);
    Result r;
    read(Prog(vs, 5, 0).op(op_mov, {dst(operand_temp, {0}), v}).bytes(), r);
    require_ok(r);
    CHECK(r.program.src(r.program.instructions.at(0), 0).reg.idx[0].offset == 9);
}

TEST_CASE("tpf: extended operand modifiers, minimum precision and non-uniform")
{
    Opnd a = src(operand_temp, {1});
    a.modifier(1);
    Opnd b = src(operand_temp, {2});
    b.modifier(3, 1);
    Opnd c = src(operand_temp, {3});
    c.modifier(2, 0, true);
    Result r;
    read(Prog(ps, 5, 0).op(op_mad, {dst(operand_temp, {0}), a, b, c}).bytes(), r);
    require_ok(r);
    const auto& p = r.program;
    const auto& ins = p.instructions.at(0);
    CHECK(p.src(ins, 0).modifier == SrcModifier::neg);
    CHECK(p.src(ins, 1).modifier == SrcModifier::abs_neg);
    CHECK(p.src(ins, 1).reg.precision == dxspv::MinPrecision::float16);
    CHECK(p.src(ins, 2).modifier == SrcModifier::abs);
    CHECK((p.src(ins, 2).reg.flags & dxspv::vsir::register_non_uniform) != 0);
}

TEST_CASE("tpf: SM4/5.0 descriptors become the SM5.1 form")
{
    Result r;
    read(Prog(ps, 4, 0)
             .op(op_sample, {dst(operand_temp, {0}), src(operand_input, {1}), src(operand_resource, {2}),
                             zero(operand_sampler, {3})})
             .op(op_mul, {dst(operand_temp, {0}), src(operand_temp, {0}), src(operand_constant_buffer, {1, 7})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    const auto& ins = p.instructions.at(0);
    const auto& t = p.src(ins, 1);
    CHECK(t.reg.file == RegisterFile::resource);
    CHECK(t.reg.type == DataType::opaque);
    CHECK(t.reg.dimension == Dimension::none);
    REQUIRE(t.reg.index_count == 2);
    CHECK(t.reg.idx[0].offset == 2);
    CHECK(t.reg.idx[1].offset == 2);
    const auto& s = p.src(ins, 2);
    CHECK(s.reg.file == RegisterFile::sampler);
    REQUIRE(s.reg.index_count == 2);
    CHECK(s.reg.idx[1].offset == 3);
    const auto& cb = p.src(p.instructions.at(1), 1);
    REQUIRE(cb.reg.index_count == 3);
    CHECK(cb.reg.idx[0].offset == 1);
    CHECK(cb.reg.idx[1].offset == 1);
    CHECK(cb.reg.idx[2].offset == 7);
    CHECK(cb.reg.dimension == Dimension::vec4);
    CHECK(cb.reg.type == DataType::f32);
}

TEST_CASE("tpf: every table entry matches the VSIR opcode's operand counts")
{
    for (uint32_t n = 0; n < op_count; ++n) {
        const auto& e = opcode_entry(n);
        if (e.handling != Handling::instruction)
            continue;
        const auto& info = dxspv::vsir::opcode_info(e.op);
        INFO("TPF opcode " << n << " -> " << info.name);
        CHECK(int(e.dst_count) == info.dst_count);
        CHECK(int(e.src_count) == info.src_count);
    }
    CHECK(opcode_entry(107).handling == Handling::unknown);
    CHECK(opcode_entry(0x7ff).handling == Handling::unknown);
}

#include <doctest/doctest.h>

#include <limits>

#include "build_helpers.h"
#include "vsir/printer.h"

using namespace dxspv;
using namespace dxspv::vsir;
using namespace dxspv::vsir::test;

namespace {

Register descriptor(RegisterFile file, uint32_t range_id)
{
    return reg(file, DataType::opaque, Dimension::none, {range_id});
}

Declaration& add_range(Program& p, Opcode op, RegisterFile file, uint32_t id, uint32_t first, uint32_t last,
                       uint32_t space)
{
    Declaration& d = add_decl(p, op, {dst(descriptor(file, id), 0)});
    d.range_first = first;
    d.range_last = last;
    d.space = space;
    return d;
}

} // namespace

TEST_CASE("printer: header, counts and declarations")
{
    Program p = make_program(ShaderStage::compute, 5, 1);
    p.temp_count = 2;
    add_decl(p, Opcode::dcl_global_flags).value = 0x1 | 0x8 | 0x100;
    add_decl(p, Opcode::dcl_temps).count = 2;
    Declaration& xt = add_decl(p, Opcode::dcl_indexable_temp);
    xt.index = 1;
    xt.count = 16;
    xt.component_count = 4;
    Declaration& cb = add_range(p, Opcode::dcl_constant_buffer, RegisterFile::constant_buffer, 0, 2, 2, 0);
    cb.count = 16;
    cb.value = 1;
    add_range(p, Opcode::dcl_sampler, RegisterFile::sampler, 0, 0, 0, 0).value = 1;
    Declaration& tex = add_range(p, Opcode::dcl_resource, RegisterFile::resource, 1, 3, 10, 1);
    tex.dimension = ResourceDimension::texture_2dms;
    tex.sample_count = 4;
    for (DataType& t : tex.return_type)
        t = DataType::f32;
    add_range(p, Opcode::dcl_resource_raw, RegisterFile::resource, 2, 0, ~0u, 3);
    Declaration& uav = add_range(p, Opcode::dcl_uav_structured, RegisterFile::uav, 0, 0, 0, 0);
    uav.structure_stride = 4;
    uav.value = uav_globally_coherent | uav_has_counter;
    Declaration& typed = add_range(p, Opcode::dcl_uav_typed, RegisterFile::uav, 1, 1, 1, 0);
    typed.dimension = ResourceDimension::buffer;
    typed.return_type[0] = typed.return_type[1] = DataType::u32;
    typed.return_type[2] = typed.return_type[3] = DataType::i32;
    add_decl(p, Opcode::dcl_tgsm_raw, {dst(reg(RegisterFile::groupshared, DataType::u32, Dimension::none, {0}), 0)})
        .byte_count = 256;
    Declaration& tgsm =
        add_decl(p, Opcode::dcl_tgsm_structured, {dst(reg(RegisterFile::groupshared, DataType::u32, Dimension::none, {1}), 0)});
    tgsm.structure_stride = 16;
    tgsm.count = 64;
    Declaration& tg = add_decl(p, Opcode::dcl_thread_group);
    tg.thread_group[0] = 8;
    tg.thread_group[1] = 8;
    tg.thread_group[2] = 1;
    Declaration& icb = add_decl(p, Opcode::dcl_immediate_constant_buffer);
    p.u32_pool = {0x3f800000, 0, 0, 0, 1, 2};
    icb.data_first = 0;
    icb.data_count = 6;
    add_decl(p, Opcode::dcl_input, {dst(reg(RegisterFile::thread_id, DataType::u32, Dimension::vec4, {}), X | Y)});

    CHECK(print_program(p) ==
          "cs_5_1 structured\n"
          "; temps=2 ssa=0 labels=0\n"
          "dcl_globalFlags refactoringAllowed | enableRawAndStructuredBuffers | 0x100\n"
          "dcl_temps 2\n"
          "dcl_indexableTemp x1[16], 4\n"
          "dcl_constantbuffer cb0[2:2], 16, dynamicIndexed, space=0\n"
          "dcl_sampler s0[0:0], mode_comparison, space=0\n"
          "dcl_resource t1[3:10], texture2dms, (float,float,float,float), samples=4, space=1\n"
          "dcl_resource_raw t2[0:*], space=3\n"
          "dcl_uav_structured u0[0:0], 4, globallycoherent | counter, space=0\n"
          "dcl_uav_typed u1[1:1], buffer, (uint,uint,sint,sint), space=0\n"
          "dcl_tgsm_raw g0, 256\n"
          "dcl_tgsm_structured g1, 16, 64\n"
          "dcl_thread_group 8, 8, 1\n"
          "dcl_immediateConstantBuffer { {0x3f800000, 0x00000000, 0x00000000, 0x00000000}, {0x00000001, "
          "0x00000002} }\n"
          "dcl_input vThreadID.xy\n");
}

TEST_CASE("printer: stage declarations and signatures")
{
    Program p = make_program(ShaderStage::hull);
    SignatureElement pos;
    pos.semantic_name = "SV_Position";
    pos.system_value = SystemValue::position;
    pos.component_type = ComponentType::float32;
    pos.mask = XYZW;
    pos.used_mask = X | Y;
    SignatureElement tex;
    tex.semantic_name = "TEXCOORD";
    tex.semantic_index = 1;
    tex.register_index = 1;
    tex.component_type = ComponentType::uint32;
    tex.mask = X | Y;
    tex.min_precision = MinPrecision::uint16;
    p.inputs = {pos, tex};
    SignatureElement tess;
    tess.semantic_name = "SV_TessFactor";
    tess.system_value = SystemValue::final_tri_edge_tessfactor;
    tess.component_type = ComponentType::float32;
    tess.mask = X;
    p.patch_constants = {tess};

    add(p, Opcode::hs_decls);
    add_decl(p, Opcode::dcl_input_control_point_count).count = 3;
    add_decl(p, Opcode::dcl_tessellator_domain).value = 2;
    add_decl(p, Opcode::dcl_tessellator_partitioning).value = 3;
    add_decl(p, Opcode::dcl_tessellator_output_primitive).value = 4;
    add_decl(p, Opcode::dcl_hs_max_tessfactor).float_value = 64.0f;
    add(p, Opcode::hs_fork_phase);
    add_decl(p, Opcode::dcl_hs_fork_phase_instance_count).count = 3;
    Declaration& sv = add_decl(p, Opcode::dcl_output_siv, {dst(reg(RegisterFile::output, DataType::f32, Dimension::vec4, {0}), X)});
    sv.system_value = SystemValue::final_tri_edge_tessfactor;
    add(p, Opcode::ret);

    CHECK(print_program(p) ==
          "hs_5_0 structured\n"
          "; input signature\n"
          ";   v0.xyzw SV_Position0 float used=xy SV_Position\n"
          ";   v1.xy TEXCOORD1 uint used= min16u\n"
          "; patch constant signature\n"
          ";   pc0.x SV_TessFactor0 float used= SV_FinalTriEdgeTessFactor\n"
          "hs_decls\n"
          "dcl_input_control_point_count 3\n"
          "dcl_tessellator_domain domain_tri\n"
          "dcl_tessellator_partitioning partitioning_fractional_odd\n"
          "dcl_tessellator_output_primitive output_triangle_ccw\n"
          "dcl_hs_max_tessfactor l(64.0)\n"
          "hs_fork_phase\n"
          "dcl_hs_fork_phase_instance_count 3\n"
          "dcl_output_siv o0.x, SV_FinalTriEdgeTessFactor\n"
          "ret\n");
}

TEST_CASE("printer: pixel shader inputs")
{
    Program p = make_program(ShaderStage::pixel, 4, 0);
    add_decl(p, Opcode::dcl_input_ps, {dst(reg(RegisterFile::input, DataType::f32, Dimension::vec4, {1}), X | Y)})
        .interpolation = InterpolationMode::linear_noperspective_centroid;
    Declaration& ff =
        add_decl(p, Opcode::dcl_input_ps_sgv, {dst(reg(RegisterFile::input, DataType::u32, Dimension::vec4, {2}), X)});
    ff.system_value = SystemValue::is_front_face;
    ff.interpolation = InterpolationMode::constant;
    add_decl(p, Opcode::dcl_output, {dst(reg(RegisterFile::depth_out, DataType::f32, Dimension::scalar, {}), X)});
    CHECK(print_program(p) ==
          "ps_4_0 structured\n"
          "dcl_input_ps v1.xy, linear noperspective centroid\n"
          "dcl_input_ps_sgv v2.x, SV_IsFrontFace, constant\n"
          "dcl_output oDepth\n");
}

TEST_CASE("printer: arithmetic with modifiers, swizzles, masks and flags")
{
    Program p = make_program(ShaderStage::pixel);
    p.temp_count = 2;
    const uint8_t zwxx = make_swizzle(2, 3, 0, 0);
    uint32_t add_i = add(p, Opcode::add, {dst(temp(0), X | Y)},
                         {src(temp(1), zwxx, SrcModifier::neg),
                          src(reg(RegisterFile::input, DataType::f32, Dimension::vec4, {0}), XXXX, SrcModifier::abs)});
    p.dst(p.instructions[add_i], 0).modifiers = dst_saturate;
    add(p, Opcode::mov, {dst(temp(0), W)},
        {src(reg(RegisterFile::constant_buffer, DataType::f32, Dimension::vec4, {0, 0, 3}), XXXX,
             SrcModifier::abs_neg)});
    add(p, Opcode::not_, {dst(temp(1, DataType::u32), XYZW)}, {src(temp(0, DataType::u32), swizzle_identity, SrcModifier::bitwise_not)});
    add(p, Opcode::mul, {dst(temp(0), X)}, {src(temp(1)), src(temp(1))}, flag_precise_x * (X | Z));
    add(p, Opcode::resinfo, {dst(temp(0, DataType::u32), XYZW)},
        {imm_u(0), src(reg(RegisterFile::resource, DataType::opaque, Dimension::none, {0, 0}))}, flag_resinfo_uint);
    add(p, Opcode::sync, {}, {}, flag_sync_tgsm | flag_sync_thread_group | flag_sync_uav_global);
    add(p, Opcode::discard, {}, {src(temp(0, DataType::u32), XXXX)}, flag_test_nonzero);
    add(p, Opcode::mov, {dst(reg(RegisterFile::depth_out, DataType::f32, Dimension::scalar, {}), X)}, {imm_f(0.5f)});
    uint32_t s = add(p, Opcode::sample, {dst(temp(0), XYZW)},
                     {src(temp(1)), src(reg(RegisterFile::resource, DataType::opaque, Dimension::none, {0, 0}), make_swizzle(1, 0, 2, 3)),
                      src(reg(RegisterFile::sampler, DataType::opaque, Dimension::none, {0, 0}))});
    Instruction& sample = p.instructions[s];
    sample.texel_offset[0] = -1;
    sample.texel_offset[1] = 2;
    sample.resource_dimension = ResourceDimension::texture_2d;
    for (DataType& t : sample.resource_type)
        t = DataType::f32;
    uint32_t ls = add(p, Opcode::ld_structured, {dst(temp(0, DataType::u32), X)},
                      {imm_u(0), imm_u(4), src(reg(RegisterFile::resource, DataType::opaque, Dimension::none, {1, 1}), XXXX)});
    p.instructions[ls].resource_dimension = ResourceDimension::structured_buffer;
    p.instructions[ls].resource_stride = 16;
    Register half = temp(1);
    half.precision = MinPrecision::float16;
    add(p, Opcode::mov, {dst(half, X)}, {src(half, XXXX)}, 1u << 20);

    CHECK(print_program(p) ==
          "ps_5_0 structured\n"
          "; temps=2 ssa=0 labels=0\n"
          "add_sat r0.xy, -r1.zwxx, |v0.x|\n"
          "mov r0.w, -|cb0[0][3].x|\n"
          "not r1.xyzw, ~r0.xyzw\n"
          "mul_precise(xz) r0.x, r1.xyzw, r1.xyzw\n"
          "resinfo_uint r0.xyzw, l(0), t0[0]\n"
          "sync_uglobal_g_t\n"
          "discard_nz r0.x\n"
          "mov oDepth, l(0.5)\n"
          "sample_aoffimmi(-1,2,0)_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.xyzw, t0[0].yxzw, "
          "s0[0]\n"
          "ld_structured_indexable(structured_buffer, stride=16) r0.x, l(0), l(4), t1[1].x\n"
          "mov_flags(0x100000) r1.x {min16f}, r1.x {min16f}\n");

    PrintOptions typed;
    typed.show_types = true;
    CHECK(print_instruction(p, ls, typed) ==
          "ld_structured_indexable(structured_buffer, stride=16) r0.x:u32, l(0), l(4), t1[1].x:opaque");
}

TEST_CASE("printer: immediates of each type")
{
    Program p = make_program(ShaderStage::vertex);
    p.temp_count = 1;
    auto vec4 = [](DataType type, uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
        return src(make_immediate_vec4(type, x, y, z, w));
    };
    const uint32_t one = 0x3f800000, minus_zero = 0x80000000, big = 0x7149f2ca /* 1e30 */;
    add(p, Opcode::mov, {dst(temp(0), XYZW)}, {vec4(DataType::f32, one, minus_zero, big, 0x3dcccccd /* 0.1 */)});
    add(p, Opcode::mov, {dst(temp(0), XYZW)}, {vec4(DataType::f32, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001)});
    add(p, Opcode::mov, {dst(temp(0), XYZW)}, {vec4(DataType::f32, 0x4cbebc20 /* 1e8 */, 0x4b800000 /* 2^24 */, 0xc2f6e979, 0x3eaaaaab)});
    add(p, Opcode::iadd, {dst(temp(0, DataType::i32), XYZW)}, {vec4(DataType::i32, 0xffffffff, 2, 0x80000000, 0x7fffffff)});
    add(p, Opcode::and_, {dst(temp(0, DataType::u32), X)}, {imm_u(0xffffffff)});
    add(p, Opcode::ishl, {dst(temp(0, DataType::i32), X)}, {imm_i(-3)});
    add(p, Opcode::mov, {dst(temp(0, DataType::boolean), X)}, {src(make_immediate(DataType::boolean, 1))});
    add(p, Opcode::mov, {dst(temp(0, DataType::f16), X)}, {src(make_immediate(DataType::f16, 0x3c00))});
    Register d = make_immediate_vec4(DataType::f64, 0, 0, 0, 0);
    d.file = RegisterFile::immediate64;
    d.u64[0] = 0x3ff0000000000000ull; // 1.0
    d.u64[1] = 0x3fb999999999999aull; // 0.1
    add(p, Opcode::dmov, {dst(temp(0, DataType::f64), XYZW)}, {src(d)});
    d.type = DataType::u64;
    d.u64[0] = 18446744073709551615ull;
    add(p, Opcode::dmov, {dst(temp(0, DataType::u64), XYZW)}, {src(d)});
    d.type = DataType::i64;
    add(p, Opcode::dmov, {dst(temp(0, DataType::i64), XYZW)}, {src(d)});
    d.dimension = Dimension::scalar;
    d.type = DataType::f64;
    d.u64[0] = 0x7ff8000000000001ull;
    add(p, Opcode::dmov, {dst(temp(0, DataType::f64), X | Y)}, {src(d)});
    add(p, Opcode::mov, {dst(temp(0), XYZW)}, {src(make_immediate_vec4(DataType::f32, one, 0, 0, 0), make_swizzle(1, 0, 0, 0))});
    add(p, Opcode::mov, {dst(temp(0, DataType::f64), XYZW)}, {src(make_immediate_vec4(DataType::f64, 0, one, 2, 3))});
    d.type = DataType::u32;
    add(p, Opcode::dmov, {dst(temp(0, DataType::u32), X | Y)}, {src(d)});

    CHECK(print_program(p) ==
          "vs_5_0 structured\n"
          "; temps=1 ssa=0 labels=0\n"
          "mov r0.xyzw, l(1.0, -0.0, 1e+30, 0.1)\n"
          "mov r0.xyzw, l(inf, -inf, nan(0x7fc00000), 1e-45)\n"
          "mov r0.xyzw, l(1e+08, 16777216.0, -123.456, 0.33333334)\n"
          "iadd r0.xyzw, l(-1, 2, -2147483648, 2147483647):i32\n"
          "and r0.x, l(4294967295)\n"
          "ishl r0.x, l(-3):i32\n"
          "mov r0.x, l(0x1):bool\n"
          "mov r0.x, l(0x3c00):f16\n"
          "dmov r0.xyzw, d(1.0, 0.1)\n"
          "dmov r0.xyzw, d(18446744073709551615, 4591870180066957722):u64\n"
          "dmov r0.xyzw, d(-1, 4591870180066957722):i64\n"
          "dmov r0.xy, d(nan(0x7ff8000000000001))\n"
          "mov r0.xyzw, l(1.0, 0.0, 0.0, 0.0).yxxx\n"
          "mov r0.xyzw, l(0x0, 0x3f800000, 0x2, 0x3):f64\n"
          "dmov r0.xy, d(0x7ff8000000000001):u32\n");
}

TEST_CASE("printer: relative addressing and descriptor indices")
{
    Program p = make_program(ShaderStage::pixel, 5, 1);
    p.temp_count = 2;
    auto rel = [&](uint32_t reg_index, unsigned component) {
        return p.add_src(src(temp(reg_index, DataType::u32), make_swizzle(component, component, component, component)));
    };
    Register x = reg(RegisterFile::indexable_temp, DataType::f32, Dimension::vec4, {0, 4});
    x.idx[1].rel_addr = rel(1, 0);
    Register cb = reg(RegisterFile::constant_buffer, DataType::f32, Dimension::vec4, {1, 5, 2});
    cb.idx[2].rel_addr = rel(0, 1);
    Register icb = reg(RegisterFile::immediate_constant_buffer, DataType::u32, Dimension::vec4, {0});
    icb.idx[0].rel_addr = rel(0, 2);
    Register t = reg(RegisterFile::resource, DataType::opaque, Dimension::none, {3, 7});
    t.idx[0].rel_addr = rel(1, 3);
    t.idx[1].rel_addr = t.idx[0].rel_addr;
    t.flags = register_non_uniform;
    // Nested: x0[x0[r1.x + 0].y + 1]
    Register inner = reg(RegisterFile::indexable_temp, DataType::u32, Dimension::vec4, {0, 0});
    inner.idx[1].rel_addr = rel(1, 0);
    Register outer = reg(RegisterFile::indexable_temp, DataType::f32, Dimension::vec4, {0, 1});
    outer.idx[1].rel_addr = p.add_src(src(inner, make_swizzle(1, 1, 1, 1)));
    Register gs_in = reg(RegisterFile::input, DataType::f32, Dimension::vec4, {2, 1});

    uint32_t a = add(p, Opcode::mov, {dst(x, XYZW)}, {src(cb)});
    uint32_t b = add(p, Opcode::mov, {dst(temp(0, DataType::u32), X)}, {src(icb, XXXX)});
    uint32_t c = add(p, Opcode::ld_raw, {dst(temp(0, DataType::u32), X)}, {imm_u(0), src(t, XXXX)});
    uint32_t d = add(p, Opcode::mov, {dst(temp(0), X)}, {src(outer, XXXX)});
    uint32_t e = add(p, Opcode::mov, {dst(temp(0), X)}, {src(gs_in, XXXX)});
    CHECK(print_instruction(p, a) == "mov x0[r1.x + 4].xyzw, cb1[5][r0.y + 2].xyzw");
    CHECK(print_instruction(p, b) == "mov r0.x, icb[r0.z].x");
    CHECK(print_instruction(p, c) == "ld_raw r0.x, l(0), t[r1.w + 3][r1.w + 7].x {nonuniform}");
    CHECK(print_instruction(p, d) == "mov r0.x, x0[x0[r1.x].y + 1].x");
    CHECK(print_instruction(p, e) == "mov r0.x, v[2][1].x");

    // A cycle or a bad index prints without looping or reading outside the pool.
    p.srcs[p.instructions[d].src_first].reg.idx[1].rel_addr = p.instructions[d].src_first;
    CHECK(print_instruction(p, d) == "mov r0.x, x0[x0[x0[x0[x0[<...> + 1].x + 1].x + 1].x + 1].x + 1].x");
    p.srcs[p.instructions[d].src_first].reg.idx[1].rel_addr = 999;
    CHECK(print_instruction(p, d) == "mov r0.x, x0[<invalid rel 999> + 1].x");
}

TEST_CASE("printer: structured control flow indentation")
{
    Program p = make_program(ShaderStage::pixel);
    p.temp_count = 1;
    const SrcParam cond = src(temp(0, DataType::u32), XXXX);
    add(p, Opcode::loop);
    add(p, Opcode::if_, {}, {cond}, flag_test_nonzero);
    add(p, Opcode::breakc, {}, {cond});
    add(p, Opcode::else_);
    add(p, Opcode::switch_, {}, {src(temp(0, DataType::i32), XXXX)});
    add(p, Opcode::case_, {}, {imm_i(0)});
    add(p, Opcode::case_, {}, {imm_i(1)});
    add(p, Opcode::mov, {dst(temp(0), X)}, {imm_f(1.0f)});
    add(p, Opcode::break_);
    add(p, Opcode::default_);
    add(p, Opcode::break_);
    add(p, Opcode::endswitch);
    add(p, Opcode::endif);
    add(p, Opcode::continuec, {}, {cond}, flag_test_nonzero);
    add(p, Opcode::endloop);
    add(p, Opcode::retc, {}, {cond});
    add(p, Opcode::ret);
    add(p, Opcode::label, {}, {label(0)});
    add(p, Opcode::ret);

    CHECK(print_program(p) ==
          "ps_5_0 structured\n"
          "; temps=1 ssa=0 labels=0\n"
          "loop\n"
          "  if_nz r0.x\n"
          "    breakc_z r0.x\n"
          "  else\n"
          "    switch r0.x\n"
          "      case l(0):i32\n"
          "      case l(1):i32\n"
          "        mov r0.x, l(1.0)\n"
          "        break\n"
          "      default\n"
          "        break\n"
          "    endswitch\n"
          "  endif\n"
          "  continuec_nz r0.x\n"
          "endloop\n"
          "retc_z r0.x\n"
          "ret\n"
          "label l0:\n"
          "ret\n");
}

TEST_CASE("printer: unstructured control flow")
{
    Program p = make_program(ShaderStage::compute, 6, 0, ControlFlow::unstructured);
    p.ssa_count = 3;
    p.label_count = 4;
    Declaration& tg = add_decl(p, Opcode::dcl_thread_group);
    tg.thread_group[0] = tg.thread_group[1] = tg.thread_group[2] = 1;
    add(p, Opcode::label, {}, {label(0)});
    add(p, Opcode::mov, {dst(ssa(0), X)}, {imm_u(1)});
    add(p, Opcode::switch_monolithic, {}, {src(ssa(0)), label(3), imm_u(0), label(1), imm_u(7), label(2)});
    add(p, Opcode::label, {}, {label(1)});
    add(p, Opcode::branch, {}, {src(ssa(0)), label(2), label(3)}, flag_test_nonzero);
    add(p, Opcode::label, {}, {label(2)});
    add(p, Opcode::branch, {}, {label(3)});
    add(p, Opcode::label, {}, {label(3)});
    add(p, Opcode::phi, {dst(ssa(1), X)}, {src(ssa(0)), label(0), imm_u(5), label(2)});
    add(p, Opcode::ret);

    CHECK(print_program(p) ==
          "cs_6_0 unstructured\n"
          "; temps=0 ssa=3 labels=4\n"
          "dcl_thread_group 1, 1, 1\n"
          "label l0:\n"
          "  mov sr0, l(1)\n"
          "  switch_monolithic sr0, l3, [l(0), l1], [l(7), l2]\n"
          "label l1:\n"
          "  branch_nz sr0, l2, l3\n"
          "label l2:\n"
          "  branch l3\n"
          "label l3:\n"
          "  phi sr1, [sr0, l0], [l(5), l2]\n"
          "  ret\n");
}

TEST_CASE("printer: broken instructions print safely")
{
    Program p = make_program(ShaderStage::pixel);
    uint32_t i = add(p, Opcode::mov, {dst(temp(0), X)}, {imm_f(1.0f)});
    p.instructions[i].src_first = 100;
    CHECK(print_instruction(p, i) == "mov <operands out of range: dst 0+1, src 100+1>");
    p.instructions[i].opcode = Opcode(999);
    CHECK(print_instruction(p, i) == "<invalid opcode 999> <operands out of range: dst 0+1, src 100+1>");
    CHECK(print_instruction(p, 5) == "<invalid instruction 5>");
    uint32_t d = add(p, Opcode::dcl_temps);
    CHECK(print_instruction(p, d) == "dcl_temps <no declaration>");
    p.instructions[d].decl = 7;
    CHECK(print_instruction(p, d) == "dcl_temps <invalid decl 7>");
    uint32_t n = add(p, Opcode::nop);
    p.instructions[n].decl = 0;
    CHECK(print_instruction(p, n) == "nop <decl 0>");
}

TEST_CASE("printer: SSA values of the DXIL conventions")
{
    Program p = make_program(ShaderStage::compute, 6, 0);
    p.ssa_count = 4;
    Register vec = reg(RegisterFile::ssa, DataType::f64, Dimension::vec4, {1});
    Register imm64 = make_immediate(DataType::i64, 0);
    imm64.file = RegisterFile::immediate64;
    imm64.u64[0] = imm64.u64[1] = ~0ull;
    add(p, Opcode::itoi, {dst(ssa(0, DataType::i64), X)}, {src(make_immediate(DataType::boolean, 1), XXXX)});
    add(p, Opcode::ftof, {dst(vec, X | Y)}, {imm_f(0.5f)});
    add(p, Opcode::idiv, {dst(ssa(2, DataType::i64), X), dst(reg(RegisterFile::null, DataType::i64, Dimension::scalar, {}), X)},
        {src(ssa(0, DataType::i64)), src(imm64, XXXX)});
    add(p, Opcode::wave_read_lane_first, {dst(ssa(3, DataType::f64), X)}, {src(vec, make_swizzle(1, 1, 1, 1))});
    PrintOptions options;
    options.show_types = true;
    CHECK(print_program(p, options) ==
          "cs_6_0 structured\n"
          "; temps=0 ssa=4 labels=0\n"
          "itoi sr0:i64, l(0x1):bool\n"
          "ftof sr1.xy:f64, l(0.5)\n"
          "idiv sr2:i64, null:i64, sr0:i64, d(-1):i64\n"
          "wave_read_lane_first sr3:f64, sr1.y:f64\n");
}

// Declarations of every kind, SM5.1 ranges and spaces, hull shader phases.
#include <doctest/doctest.h>

#include "tpf_builder.h"

using namespace tpf_test;
using dxspv::SystemValue;
using dxspv::vsir::DataType;
using dxspv::vsir::Declaration;
using dxspv::vsir::Dimension;
using dxspv::vsir::InterpolationMode;
using dxspv::vsir::Opcode;
using dxspv::vsir::RegisterFile;
using dxspv::vsir::ResourceDimension;

namespace {

constexpr uint32_t ps = 0, gs = 2, hs = 3, cs = 5;

void require_ok(const Result& r)
{
    INFO(r.diags.to_string());
    REQUIRE(r.ok);
}

const Declaration& decl_of(const Result& r, size_t i)
{
    const auto& ins = r.program.instructions.at(i);
    REQUIRE(ins.decl < r.program.decls.size());
    return r.program.decls[ins.decl];
}

} // namespace

TEST_CASE("tpf: pixel shader declarations")
{
    Result r;
    read(Prog(ps, 5, 0)
             .op(op_dcl_global_flags, {}, 1u << 11 | 1u << 13)
             .op(op_dcl_constant_buffer, {src(operand_constant_buffer, {0, 4})})
             .op(op_dcl_constant_buffer, {src(operand_constant_buffer, {1, 8})}, 1u << 11)
             .op(op_dcl_sampler, {zero(operand_sampler, {2})}, 1u << 11)
             .op(op_dcl_resource, {zero(operand_resource, {3})}, 8u << 11, {}, {0x5555})
             .op(op_dcl_resource, {zero(operand_resource, {4})}, 4u << 11 | 4u << 16, {}, {0x4444})
             .op(op_dcl_input_ps, {dst(operand_input, {1}, 0x3)}, 3u << 11)
             .op(op_dcl_input_ps_siv, {dst(operand_input, {0}, 0xf)}, 4u << 11, {}, {1})
             .op(op_dcl_input_ps_sgv, {dst(operand_input, {2}, 0x1)}, 1u << 11, {}, {9})
             .op(op_dcl_output, {dst(operand_output, {0})})
             .op(op_dcl_output, {one(operand_depth)})
             .op(op_dcl_temps, {}, 0, {}, {5})
             .op(op_dcl_indexable_temp, {}, 0, {}, {1, 16, 4})
             .op(op_dcl_index_range, {dst(operand_input, {1}, 0x3)}, 0, {}, {2})
             .op(op_ret)
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    REQUIRE(p.instructions.size() == 15);
    CHECK(p.instructions[0].opcode == Opcode::dcl_global_flags);
    CHECK(decl_of(r, 0).value == 0x5);

    CHECK(p.instructions[1].opcode == Opcode::dcl_constant_buffer);
    const auto& cb0 = p.dst(p.instructions[1], 0);
    CHECK(cb0.reg.file == RegisterFile::constant_buffer);
    CHECK(cb0.reg.index_count == 1);
    CHECK(cb0.reg.idx[0].offset == 0);
    CHECK(decl_of(r, 1).count == 4);
    CHECK(decl_of(r, 1).range_first == 0);
    CHECK(decl_of(r, 1).range_last == 0);
    CHECK(decl_of(r, 1).value == 0);
    CHECK(decl_of(r, 2).count == 0); // dynamically indexed
    CHECK(decl_of(r, 2).byte_count == 128);
    CHECK(decl_of(r, 2).value == 1);
    CHECK(decl_of(r, 2).range_first == 1);

    CHECK(p.instructions[3].opcode == Opcode::dcl_sampler);
    CHECK(decl_of(r, 3).value == 1); // comparison
    CHECK(p.dst(p.instructions[3], 0).reg.idx[0].offset == 2);

    CHECK(p.instructions[4].opcode == Opcode::dcl_resource);
    CHECK(decl_of(r, 4).dimension == ResourceDimension::texture_2d_array);
    CHECK(decl_of(r, 4).return_type[0] == DataType::f32);
    CHECK(decl_of(r, 4).return_type[3] == DataType::f32);
    CHECK(decl_of(r, 4).range_first == 3);
    CHECK(decl_of(r, 4).range_last == 3);
    CHECK(decl_of(r, 4).space == 0);
    CHECK(decl_of(r, 5).dimension == ResourceDimension::texture_2dms);
    CHECK(decl_of(r, 5).sample_count == 4);
    CHECK(decl_of(r, 5).return_type[1] == DataType::u32);

    CHECK(p.instructions[6].opcode == Opcode::dcl_input_ps);
    CHECK(decl_of(r, 6).interpolation == InterpolationMode::linear_centroid);
    CHECK(p.dst(p.instructions[6], 0).write_mask == 0x3);
    CHECK(decl_of(r, 7).system_value == SystemValue::position);
    CHECK(decl_of(r, 7).interpolation == InterpolationMode::linear_noperspective);
    CHECK(decl_of(r, 8).system_value == SystemValue::is_front_face);
    CHECK(decl_of(r, 8).interpolation == InterpolationMode::constant);
    CHECK(p.dst(p.instructions[10], 0).reg.file == RegisterFile::depth_out);
    CHECK(p.dst(p.instructions[10], 0).reg.dimension == Dimension::scalar);

    CHECK(decl_of(r, 11).count == 5);
    CHECK(p.temp_count == 5);
    CHECK(p.instructions[12].opcode == Opcode::dcl_indexable_temp);
    CHECK(decl_of(r, 12).index == 1);
    CHECK(decl_of(r, 12).count == 16);
    CHECK(decl_of(r, 12).component_count == 4);
    CHECK(p.instructions[13].opcode == Opcode::dcl_index_range);
    CHECK(decl_of(r, 13).count == 2);
}

TEST_CASE("tpf: geometry shader declarations")
{
    Result r;
    read(Prog(gs, 5, 0)
             .op(op_dcl_gs_input_primitive, {}, 3u << 11)
             .op(op_dcl_gs_output_topology, {}, 5u << 11)
             .op(op_dcl_max_output_vertex_count, {}, 0, {}, {3})
             .op(op_dcl_gs_instance_count, {}, 0, {}, {2})
             .op(op_dcl_stream, {zero(operand_stream, {1})})
             .op(op_dcl_input, {dst(operand_input, {3, 0}, 0x7)})
             .op(op_dcl_input, {one(operand_gs_instance_id)})
             .op(op_dcl_output_siv, {dst(operand_output, {0})}, 0, {}, {1})
             .op(op_emit_stream, {zero(operand_stream, {1})})
             .op(op_cut_stream, {zero(operand_stream, {1})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    CHECK(decl_of(r, 0).value == 3);
    CHECK(decl_of(r, 1).value == 5);
    CHECK(p.instructions[2].opcode == Opcode::dcl_max_output_vertex_count);
    CHECK(decl_of(r, 2).count == 3);
    CHECK(p.instructions[3].opcode == Opcode::dcl_gs_instances);
    CHECK(decl_of(r, 3).count == 2);
    CHECK(p.instructions[4].opcode == Opcode::dcl_stream);
    CHECK(decl_of(r, 4).index == 1);
    CHECK(p.dst(p.instructions[4], 0).reg.file == RegisterFile::stream);
    CHECK(p.dst(p.instructions[5], 0).reg.index_count == 2);
    CHECK(p.dst(p.instructions[6], 0).reg.file == RegisterFile::gs_instance_id);
    CHECK(decl_of(r, 7).system_value == SystemValue::position);
    CHECK(p.instructions[8].opcode == Opcode::emit_stream);
    CHECK(p.src(p.instructions[8], 0).reg.file == RegisterFile::stream);
}

TEST_CASE("tpf: hull shader declarations and phases")
{
    Result r;
    read(Prog(hs, 5, 0)
             .op(op_hs_decls)
             .op(op_dcl_input_control_point_count, {}, 3u << 11)
             .op(op_dcl_output_control_point_count, {}, 4u << 11)
             .op(op_dcl_tess_domain, {}, 3u << 11)
             .op(op_dcl_tess_partitioning, {}, 3u << 11)
             .op(op_dcl_tess_output_primitive, {}, 3u << 11)
             .op(op_dcl_hs_max_tessfactor, {}, 0, {}, {f32(64.0f)})
             .op(op_hs_control_point_phase)
             .op(op_dcl_temps, {}, 0, {}, {2})
             .op(op_mov, {dst(operand_output, {0}), src(operand_input_control_point, {0, 1})})
             .op(op_ret)
             .op(op_hs_fork_phase)
             .op(op_dcl_hs_fork_phase_instance_count, {}, 0, {}, {4})
             .op(op_dcl_input, {one(operand_fork_instance_id)})
             .op(op_dcl_temps, {}, 0, {}, {7})
             .op(op_dcl_output_siv, {dst(operand_output, {0}, 0x1)}, 0, {}, {13})
             .op(op_mov, {dst(operand_output, {0}, 0x1), one(operand_fork_instance_id)})
             .op(op_ret)
             .op(op_hs_join_phase)
             .op(op_dcl_hs_join_phase_instance_count, {}, 0, {}, {1})
             .op(op_dcl_temps, {}, 0, {}, {1})
             .op(op_ret)
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    CHECK(p.instructions[0].opcode == Opcode::hs_decls);
    CHECK(decl_of(r, 1).count == 3);
    CHECK(decl_of(r, 2).count == 4);
    CHECK(decl_of(r, 3).value == 3);
    CHECK(decl_of(r, 4).value == 3);
    CHECK(decl_of(r, 5).value == 3);
    CHECK(decl_of(r, 6).float_value == 64.0f);
    CHECK(p.instructions[7].opcode == Opcode::hs_control_point_phase);
    CHECK(p.src(p.instructions[9], 0).reg.file == RegisterFile::input_control_point);
    CHECK(p.instructions[11].opcode == Opcode::hs_fork_phase);
    CHECK(decl_of(r, 12).count == 4);
    CHECK(decl_of(r, 15).system_value == SystemValue::final_quad_edge_tessfactor);
    CHECK(decl_of(r, 15).value == 13);
    CHECK(p.src(p.instructions[16], 0).reg.dimension == Dimension::scalar);
    CHECK(p.instructions[18].opcode == Opcode::hs_join_phase);
    CHECK(p.temp_count == 7); // max over the phases
}

TEST_CASE("tpf: compute shader with raw and structured UAVs, TGSM and atomics")
{
    Result r;
    read(Prog(cs, 5, 0)
             .op(op_dcl_thread_group, {}, 0, {}, {8, 4, 1})
             .op(op_dcl_uav_raw, {zero(operand_uav, {0})}, uav_globally_coherent_bit)
             .op(op_dcl_uav_structured, {zero(operand_uav, {1})}, uav_has_counter_bit, {}, {16})
             .op(op_dcl_uav_typed, {zero(operand_uav, {2})}, 3u << 11 | uav_rasterizer_ordered_bit, {}, {0x3333})
             .op(op_dcl_resource_raw, {zero(operand_resource, {0})})
             .op(op_dcl_resource_structured, {zero(operand_resource, {1})}, 0, {}, {12})
             .op(op_dcl_tgsm_raw, {zero(operand_tgsm, {0})}, 0, {}, {256})
             .op(op_dcl_tgsm_structured, {zero(operand_tgsm, {1})}, 0, {}, {8, 64})
             .op(op_dcl_input, {dst(operand_thread_id, {}, 0x7)})
             .op(op_ld_raw, {dst(operand_temp, {0}, 0x3), sel(operand_thread_id, {}, 0), src(operand_uav, {0})})
             .op(op_store_raw, {dst(operand_uav, {0}, 0x3), imm(16), src(operand_temp, {0})})
             .op(op_ld_structured, {dst(operand_temp, {1}), sel(operand_thread_id, {}, 0), imm(4),
                                    src(operand_resource, {1})})
             .op(op_store_structured, {dst(operand_uav, {1}, 0x1), imm(3), imm(0), sel(operand_temp, {1}, 2)})
             .op(op_imm_atomic_alloc, {dst(operand_temp, {2}, 0x1), zero(operand_uav, {1})})
             .op(op_imm_atomic_iadd, {dst(operand_temp, {2}, 0x1), zero(operand_tgsm, {0}), imm(0), imm(1)})
             .op(op_ld_uav_typed, {dst(operand_temp, {3}), src(operand_thread_id, {}), src(operand_uav, {2})})
             .op(op_store_uav_typed, {dst(operand_uav, {2}), src(operand_thread_id, {}), src(operand_temp, {3})})
             .op(op_sync, {}, sync_thread_group | sync_tgsm)
             .op(op_ret)
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    CHECK(decl_of(r, 0).thread_group[0] == 8);
    CHECK(decl_of(r, 0).thread_group[1] == 4);
    CHECK(decl_of(r, 0).thread_group[2] == 1);
    CHECK(p.instructions[1].opcode == Opcode::dcl_uav_raw);
    CHECK(decl_of(r, 1).dimension == ResourceDimension::raw_buffer);
    CHECK(decl_of(r, 1).value == dxspv::vsir::uav_globally_coherent);
    CHECK(decl_of(r, 2).dimension == ResourceDimension::structured_buffer);
    CHECK(decl_of(r, 2).structure_stride == 16);
    CHECK(decl_of(r, 2).value == dxspv::vsir::uav_has_counter);
    CHECK(decl_of(r, 3).dimension == ResourceDimension::texture_2d);
    CHECK(decl_of(r, 3).return_type[0] == DataType::i32);
    CHECK(decl_of(r, 3).value == dxspv::vsir::uav_rasterizer_ordered);
    CHECK(decl_of(r, 4).dimension == ResourceDimension::raw_buffer);
    CHECK(decl_of(r, 5).structure_stride == 12);
    CHECK(p.instructions[6].opcode == Opcode::dcl_tgsm_raw);
    CHECK(decl_of(r, 6).byte_count == 256);
    CHECK(p.dst(p.instructions[6], 0).reg.file == RegisterFile::groupshared);
    CHECK(decl_of(r, 7).structure_stride == 8);
    CHECK(decl_of(r, 7).count == 64);

    const auto& ld = p.instructions[9];
    CHECK(ld.opcode == Opcode::ld_raw);
    CHECK(p.dst(ld, 0).reg.type == DataType::u32);
    CHECK(p.src(ld, 0).reg.file == RegisterFile::thread_id);
    CHECK(p.src(ld, 1).reg.file == RegisterFile::uav);
    CHECK(p.src(ld, 1).reg.idx[1].offset == 0);
    const auto& st = p.instructions[10];
    CHECK(st.opcode == Opcode::store_raw);
    CHECK(p.dst(st, 0).reg.file == RegisterFile::uav);
    CHECK(p.dst(st, 0).write_mask == 0x3);
    CHECK(p.src(st, 0).reg.type == DataType::u32);
    CHECK(p.instructions[11].opcode == Opcode::ld_structured);
    CHECK(p.src(p.instructions[11], 2).reg.file == RegisterFile::resource);
    CHECK(p.instructions[12].opcode == Opcode::store_structured);
    CHECK(p.instructions[13].opcode == Opcode::imm_atomic_alloc);
    const auto& atomic = p.instructions[14];
    CHECK(atomic.opcode == Opcode::imm_atomic_iadd);
    CHECK(p.dst(atomic, 1).reg.file == RegisterFile::groupshared);
    CHECK(p.src(atomic, 1).reg.type == DataType::i32);
    CHECK(p.dst(p.instructions[15], 0).reg.type == DataType::i32); // sint UAV
    CHECK(p.src(p.instructions[16], 1).reg.type == DataType::i32);
    CHECK(p.instructions[17].flags == (dxspv::vsir::flag_sync_thread_group | dxspv::vsir::flag_sync_tgsm));
}

TEST_CASE("tpf: SM5.1 ranges, spaces and dynamically indexed descriptors")
{
    Opnd t = src(operand_resource, {1, 0});
    t.relative(1, sel(operand_temp, {0}, 0)).modifier(0, 0, true);
    Result r;
    read(Prog(ps, 5, 1)
             .op(op_dcl_constant_buffer, {src(operand_constant_buffer, {0, 2, 2})}, 0, {}, {16, 3})
             .op(op_dcl_sampler, {zero(operand_sampler, {0, 1, 1})}, 0, {}, {0})
             .op(op_dcl_resource, {zero(operand_resource, {1, 4, 0xffffffff})}, 3u << 11, {}, {0x5555, 2})
             .op(op_dcl_uav_structured, {zero(operand_uav, {0, 0, 7})}, 0, {}, {4, 1})
             .op(op_sample, {dst(operand_temp, {0}), src(operand_input, {0}), t, zero(operand_sampler, {0, 1})})
             .op(op_mov, {dst(operand_temp, {1}), src(operand_constant_buffer, {0, 2, 5})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    const auto& cb = decl_of(r, 0);
    CHECK(p.dst(p.instructions[0], 0).reg.index_count == 1);
    CHECK(p.dst(p.instructions[0], 0).reg.idx[0].offset == 0);
    CHECK(cb.range_first == 2);
    CHECK(cb.range_last == 2);
    CHECK(cb.count == 16);
    CHECK(cb.space == 3);
    CHECK(decl_of(r, 1).range_first == 1);
    CHECK(decl_of(r, 1).space == 0);
    const auto& res = decl_of(r, 2);
    CHECK(res.index == 1);
    CHECK(res.range_first == 4);
    CHECK(res.range_last == ~0u);
    CHECK(res.space == 2);
    CHECK(res.dimension == ResourceDimension::texture_2d);
    CHECK(decl_of(r, 3).structure_stride == 4);
    CHECK(decl_of(r, 3).space == 1);
    CHECK(decl_of(r, 3).range_last == 7);

    const auto& sample = p.instructions[4];
    const auto& tr = p.src(sample, 1).reg;
    REQUIRE(tr.index_count == 2);
    CHECK(tr.idx[0].offset == 1);
    CHECK(tr.idx[1].offset == 0);
    CHECK(tr.idx[1].rel_addr < p.srcs.size());
    CHECK((tr.flags & dxspv::vsir::register_non_uniform) != 0);
    CHECK(p.dst(sample, 0).reg.type == DataType::f32);
    const auto& cbr = p.src(p.instructions[5], 0).reg;
    REQUIRE(cbr.index_count == 3);
    CHECK(cbr.idx[1].offset == 2);
    CHECK(cbr.idx[2].offset == 5);
}

TEST_CASE("tpf: immediate constant buffer goes into the u32 pool; comments are skipped")
{
    Result r;
    read(Prog(ps, 4, 0)
             .raw({custom_comment << 11 | op_customdata, 3, 0x12345678})
             .raw({custom_icb << 11 | op_customdata, 10, 1, 2, 3, 4, 5, 6, 7, 8})
             .op(op_mov, {dst(operand_temp, {0}), src(operand_immediate_constant_buffer, {1})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    REQUIRE(p.instructions.size() == 2);
    CHECK(p.instructions[0].opcode == Opcode::dcl_immediate_constant_buffer);
    CHECK(p.instructions[0].location == 20);
    const auto& d = decl_of(r, 0);
    CHECK(d.data_count == 8);
    CHECK(d.count == 2);
    REQUIRE(d.data_first + d.data_count <= p.u32_pool.size());
    CHECK(p.u32_pool[d.data_first] == 1);
    CHECK(p.u32_pool[d.data_first + 7] == 8);
}

TEST_CASE("tpf: shader messages, debug info and opaque custom data blocks are skipped by their length")
{
    Result r;
    read(Prog(ps, 5, 0)
             .raw({custom_shader_message << 11 | op_customdata, 6, 0, 1, 0x6c6c6568, 0x6f})
             .raw({custom_debug_info << 11 | op_customdata, 2})
             .raw({custom_opaque << 11 | op_customdata, 4, 0xdeadbeef, 0})
             .op(op_mov, {dst(operand_temp, {0}), src(operand_temp, {1})})
             .bytes(),
         r);
    require_ok(r);
    const auto& p = r.program;
    REQUIRE(p.instructions.size() == 1);
    CHECK(p.instructions[0].opcode == Opcode::mov);
    CHECK(p.instructions[0].location == 8 + 4 * (6 + 2 + 4));
}

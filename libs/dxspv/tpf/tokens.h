// Numbers and bit fields of the SM4/5 tokenized program format (TPF), as
// laid out in the D3D tokenized program format reference. Private to tpf/.
#pragma once

#include <cstdint>

namespace dxspv::tpf {

/// Extracts `count` bits of `token` starting at bit `first`.
constexpr uint32_t bits(uint32_t token, unsigned first, unsigned count)
{
    return (token >> first) & ((count >= 32 ? 0u : (1u << count)) - 1u);
}

/// `flag` when `set`, else 0.
constexpr uint32_t flag_if(bool set, uint32_t flag) { return set ? flag : 0u; }

/// TPF opcode numbers (opcode token bits [10:00]).
enum Op : uint16_t {
    op_add = 0, op_and, op_break, op_breakc, op_call, op_callc, op_case, op_continue, op_continuec,
    op_cut, op_default, op_deriv_rtx, op_deriv_rty, op_discard, op_div, op_dp2, op_dp3, op_dp4,
    op_else, op_emit, op_emitthencut, op_endif, op_endloop, op_endswitch, op_eq, op_exp, op_frc,
    op_ftoi, op_ftou, op_ge, op_iadd, op_if, op_ieq, op_ige, op_ilt, op_imad, op_imax, op_imin,
    op_imul, op_ine, op_ineg, op_ishl, op_ishr, op_itof, op_label, op_ld, op_ld_ms, op_log,
    op_loop, op_lt, op_mad, op_min, op_max, op_customdata, op_mov, op_movc, op_mul, op_ne,
    op_nop, op_not, op_or, op_resinfo, op_ret, op_retc, op_round_ne, op_round_ni, op_round_pi,
    op_round_z, op_rsq, op_sample, op_sample_c, op_sample_c_lz, op_sample_l, op_sample_d,
    op_sample_b, op_sqrt, op_switch, op_sincos, op_udiv, op_ult, op_uge, op_umul, op_umad,
    op_umax, op_umin, op_ushr, op_utof, op_xor,
    op_dcl_resource = 88, op_dcl_constant_buffer, op_dcl_sampler, op_dcl_index_range,
    op_dcl_gs_output_topology, op_dcl_gs_input_primitive, op_dcl_max_output_vertex_count,
    op_dcl_input, op_dcl_input_sgv, op_dcl_input_siv, op_dcl_input_ps, op_dcl_input_ps_sgv,
    op_dcl_input_ps_siv, op_dcl_output, op_dcl_output_sgv, op_dcl_output_siv, op_dcl_temps,
    op_dcl_indexable_temp, op_dcl_global_flags,
    // 107 reserved
    op_lod = 108, op_gather4, op_sample_pos, op_sample_info,
    // 112 reserved
    op_hs_decls = 113, op_hs_control_point_phase, op_hs_fork_phase, op_hs_join_phase,
    op_emit_stream, op_cut_stream, op_emitthencut_stream, op_interface_call, op_bufinfo,
    op_deriv_rtx_coarse, op_deriv_rtx_fine, op_deriv_rty_coarse, op_deriv_rty_fine, op_gather4_c,
    op_gather4_po, op_gather4_po_c, op_rcp, op_f32tof16, op_f16tof32, op_uaddc, op_usubb,
    op_countbits, op_firstbit_hi, op_firstbit_lo, op_firstbit_shi, op_ubfe, op_ibfe, op_bfi,
    op_bfrev, op_swapc, op_dcl_stream, op_dcl_function_body, op_dcl_function_table,
    op_dcl_interface, op_dcl_input_control_point_count, op_dcl_output_control_point_count,
    op_dcl_tess_domain, op_dcl_tess_partitioning, op_dcl_tess_output_primitive,
    op_dcl_hs_max_tessfactor, op_dcl_hs_fork_phase_instance_count,
    op_dcl_hs_join_phase_instance_count, op_dcl_thread_group, op_dcl_uav_typed, op_dcl_uav_raw,
    op_dcl_uav_structured, op_dcl_tgsm_raw, op_dcl_tgsm_structured, op_dcl_resource_raw,
    op_dcl_resource_structured, op_ld_uav_typed, op_store_uav_typed, op_ld_raw, op_store_raw,
    op_ld_structured, op_store_structured, op_atomic_and, op_atomic_or, op_atomic_xor,
    op_atomic_cmp_store, op_atomic_iadd, op_atomic_imax, op_atomic_imin, op_atomic_umax,
    op_atomic_umin, op_imm_atomic_alloc, op_imm_atomic_consume, op_imm_atomic_iadd,
    op_imm_atomic_and, op_imm_atomic_or, op_imm_atomic_xor, op_imm_atomic_exch,
    op_imm_atomic_cmp_exch, op_imm_atomic_imax, op_imm_atomic_imin, op_imm_atomic_umax,
    op_imm_atomic_umin, op_sync, op_dadd, op_dmax, op_dmin, op_dmul, op_deq, op_dge, op_dlt,
    op_dne, op_dmov, op_dmovc, op_dtof, op_ftod, op_eval_snapped, op_eval_sample_index,
    op_eval_centroid, op_dcl_gs_instance_count, op_abort, op_debug_break,
    // 209 reserved
    op_ddiv = 210, op_dfma, op_drcp, op_msad, op_dtoi, op_dtou, op_itod, op_utod,
    // 218 reserved
    op_gather4_s = 219, op_gather4_c_s, op_gather4_po_s, op_gather4_po_c_s, op_ld_s, op_ld2dms_s,
    op_ld_uav_typed_s, op_ld_raw_s, op_ld_structured_s, op_sample_l_s, op_sample_c_lz_s,
    op_sample_cl_s, op_sample_b_cl_s, op_sample_d_cl_s, op_sample_c_cl_s,
    op_check_access_fully_mapped,
    op_count // one past the last defined opcode number (235 is reserved)
};

// Opcode token.
constexpr unsigned opcode_bits = 11;          // [10:00]
constexpr unsigned length_shift = 24;         // [30:24]
constexpr unsigned length_bits = 7;
constexpr uint32_t extended_bit = 1u << 31;   // more tokens follow (opcode and operand)
constexpr uint32_t saturate_bit = 1u << 13;
constexpr uint32_t test_nonzero_bit = 1u << 18;
constexpr unsigned precise_shift = 19;        // [22:19]

// Extended opcode token types ([05:00]).
enum ExtendedOpcode : uint8_t { ext_empty = 0, ext_sample_controls = 1, ext_resource_dim = 2, ext_return_type = 3 };

// Custom data classes (opcode token [31:11]).
enum CustomData : uint32_t {
    custom_comment = 0, custom_debug_info, custom_opaque, custom_icb, custom_shader_message,
    custom_clip_plane_mappings,
};

// Operand token.
enum OperandType : uint8_t {
    operand_temp = 0, operand_input, operand_output, operand_indexable_temp, operand_immediate32,
    operand_immediate64, operand_sampler, operand_resource, operand_constant_buffer,
    operand_immediate_constant_buffer, operand_label, operand_primitive_id, operand_depth,
    operand_null, operand_rasterizer, operand_coverage_mask_out, operand_stream,
    operand_function_body, operand_function_table, operand_interface, operand_function_input,
    operand_function_output, operand_output_control_point_id, operand_fork_instance_id,
    operand_join_instance_id, operand_input_control_point, operand_output_control_point,
    operand_patch_constant, operand_domain_point, operand_this_pointer, operand_uav,
    operand_tgsm, operand_thread_id, operand_thread_group_id, operand_thread_id_in_group,
    operand_coverage_mask_in, operand_thread_id_in_group_flattened, operand_gs_instance_id,
    operand_depth_ge, operand_depth_le, operand_cycle_counter, operand_stencil_ref,
    operand_inner_coverage,
    operand_type_count
};

enum ComponentCount : uint8_t { components_0 = 0, components_1 = 1, components_4 = 2, components_n = 3 };
enum SelectionMode : uint8_t { select_mask = 0, select_swizzle = 1, select_one = 2 };
enum IndexRepresentation : uint8_t {
    index_imm32 = 0, index_imm64 = 1, index_relative = 2, index_imm32_relative = 3, index_imm64_relative = 4,
};
enum ExtendedOperand : uint8_t { ext_operand_empty = 0, ext_operand_modifier = 1 };

// Declaration control bits (opcode token).
constexpr uint32_t uav_globally_coherent_bit = 1u << 16;
constexpr uint32_t uav_rasterizer_ordered_bit = 1u << 17;
constexpr uint32_t uav_has_counter_bit = 1u << 23;

// Sync flags (opcode token [14:11]).
constexpr uint32_t sync_thread_group = 1u << 11;
constexpr uint32_t sync_tgsm = 1u << 12;
constexpr uint32_t sync_uav_group = 1u << 13;
constexpr uint32_t sync_uav_global = 1u << 14;

} // namespace dxspv::tpf

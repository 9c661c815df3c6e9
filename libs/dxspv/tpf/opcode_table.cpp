#include "tpf/opcode_table.h"

#include <array>

#include "tpf/tokens.h"

namespace dxspv::tpf {

namespace {

using vsir::Opcode;

constexpr Slot slot_of(char c)
{
    switch (c) {
    case 'f': return Slot::f32;
    case 'i': return Slot::i32;
    case 'u': return Slot::u32;
    case 'd': return Slot::f64;
    case 'r': return Slot::value;
    default: return Slot::any;
    }
}

constexpr size_t length_of(const char* s)
{
    size_t n = 0;
    while (s[n])
        ++n;
    return n;
}

struct Row {
    uint16_t number;
    OpcodeEntry entry;
};

/// An instruction: `dst` and `src` spell the slot types, one letter per
/// operand: f f32, i i32, u u32, d f64, r resource value type, * opaque.
constexpr Row I(uint16_t number, Opcode op, const char* dst, const char* src)
{
    Row row{number, {}};
    row.entry.op = op;
    row.entry.handling = Handling::instruction;
    row.entry.dst_count = uint8_t(length_of(dst));
    row.entry.src_count = uint8_t(length_of(src));
    for (size_t i = 0; i < row.entry.dst_count; ++i)
        row.entry.dst[i] = slot_of(dst[i]);
    for (size_t i = 0; i < row.entry.src_count; ++i)
        row.entry.src[i] = slot_of(src[i]);
    for (Slot slot : row.entry.dst)
        row.entry.value_slots |= slot == Slot::value;
    for (Slot slot : row.entry.src)
        row.entry.value_slots |= slot == Slot::value;
    return row;
}

constexpr Row D(uint16_t number, Opcode op)
{
    Row row{number, {}};
    row.entry.op = op;
    row.entry.handling = Handling::declaration;
    return row;
}

constexpr Row special(uint16_t number, Handling handling)
{
    Row row{number, {}};
    row.entry.handling = handling;
    return row;
}

constexpr Row rows[] = {
    // Control flow
    I(op_if, Opcode::if_, "", "u"),
    I(op_else, Opcode::else_, "", ""),
    I(op_endif, Opcode::endif, "", ""),
    I(op_loop, Opcode::loop, "", ""),
    I(op_endloop, Opcode::endloop, "", ""),
    I(op_break, Opcode::break_, "", ""),
    I(op_breakc, Opcode::breakc, "", "u"),
    I(op_continue, Opcode::continue_, "", ""),
    I(op_continuec, Opcode::continuec, "", "u"),
    I(op_switch, Opcode::switch_, "", "i"),
    I(op_case, Opcode::case_, "", "i"),
    I(op_default, Opcode::default_, "", ""),
    I(op_endswitch, Opcode::endswitch, "", ""),
    I(op_ret, Opcode::ret, "", ""),
    I(op_retc, Opcode::retc, "", "u"),
    I(op_call, Opcode::call, "", "*"),
    I(op_callc, Opcode::callc, "", "u*"),
    I(op_label, Opcode::label, "", "*"),
    I(op_discard, Opcode::discard, "", "u"),
    I(op_nop, Opcode::nop, "", ""),
    I(op_abort, Opcode::abort, "", ""),
    I(op_debug_break, Opcode::debug_break, "", ""),
    I(op_hs_decls, Opcode::hs_decls, "", ""),
    I(op_hs_control_point_phase, Opcode::hs_control_point_phase, "", ""),
    I(op_hs_fork_phase, Opcode::hs_fork_phase, "", ""),
    I(op_hs_join_phase, Opcode::hs_join_phase, "", ""),

    // Geometry output and synchronisation
    I(op_emit, Opcode::emit, "", ""),
    I(op_cut, Opcode::cut, "", ""),
    I(op_emitthencut, Opcode::emit_then_cut, "", ""),
    I(op_emit_stream, Opcode::emit_stream, "", "*"),
    I(op_cut_stream, Opcode::cut_stream, "", "*"),
    I(op_emitthencut_stream, Opcode::emit_then_cut_stream, "", "*"),
    I(op_sync, Opcode::sync, "", ""),

    // Moves
    I(op_mov, Opcode::mov, "f", "f"),
    I(op_movc, Opcode::movc, "f", "uff"),
    I(op_swapc, Opcode::swapc, "ff", "uff"),
    I(op_dmov, Opcode::dmov, "d", "d"),
    I(op_dmovc, Opcode::dmovc, "d", "udd"),

    // Float arithmetic
    I(op_add, Opcode::add, "f", "ff"),
    I(op_mul, Opcode::mul, "f", "ff"),
    I(op_mad, Opcode::mad, "f", "fff"),
    I(op_div, Opcode::div, "f", "ff"),
    I(op_dp2, Opcode::dp2, "f", "ff"),
    I(op_dp3, Opcode::dp3, "f", "ff"),
    I(op_dp4, Opcode::dp4, "f", "ff"),
    I(op_min, Opcode::min, "f", "ff"),
    I(op_max, Opcode::max, "f", "ff"),
    I(op_frc, Opcode::frc, "f", "f"),
    I(op_round_ne, Opcode::round_ne, "f", "f"),
    I(op_round_ni, Opcode::round_ni, "f", "f"),
    I(op_round_pi, Opcode::round_pi, "f", "f"),
    I(op_round_z, Opcode::round_z, "f", "f"),
    I(op_exp, Opcode::exp, "f", "f"),
    I(op_log, Opcode::log, "f", "f"),
    I(op_sqrt, Opcode::sqrt, "f", "f"),
    I(op_rsq, Opcode::rsq, "f", "f"),
    I(op_rcp, Opcode::rcp, "f", "f"),
    I(op_sincos, Opcode::sincos, "ff", "f"),
    I(op_eq, Opcode::eq, "u", "ff"),
    I(op_ne, Opcode::ne, "u", "ff"),
    I(op_lt, Opcode::lt, "u", "ff"),
    I(op_ge, Opcode::ge, "u", "ff"),
    I(op_deriv_rtx, Opcode::deriv_rtx, "f", "f"),
    I(op_deriv_rty, Opcode::deriv_rty, "f", "f"),
    I(op_deriv_rtx_coarse, Opcode::deriv_rtx_coarse, "f", "f"),
    I(op_deriv_rtx_fine, Opcode::deriv_rtx_fine, "f", "f"),
    I(op_deriv_rty_coarse, Opcode::deriv_rty_coarse, "f", "f"),
    I(op_deriv_rty_fine, Opcode::deriv_rty_fine, "f", "f"),
    I(op_eval_centroid, Opcode::eval_centroid, "f", "f"),
    I(op_eval_sample_index, Opcode::eval_sample_index, "f", "fi"),
    I(op_eval_snapped, Opcode::eval_snapped, "f", "fi"),

    // Integer arithmetic and bit operations
    I(op_iadd, Opcode::iadd, "i", "ii"),
    I(op_imul, Opcode::imul, "ii", "ii"),
    I(op_umul, Opcode::umul, "uu", "uu"),
    I(op_imad, Opcode::imad, "i", "iii"),
    I(op_umad, Opcode::umad, "u", "uuu"),
    I(op_udiv, Opcode::udiv, "uu", "uu"),
    I(op_imin, Opcode::imin, "i", "ii"),
    I(op_imax, Opcode::imax, "i", "ii"),
    I(op_umin, Opcode::umin, "u", "uu"),
    I(op_umax, Opcode::umax, "u", "uu"),
    I(op_ineg, Opcode::ineg, "i", "i"),
    I(op_ishl, Opcode::ishl, "i", "iu"),
    I(op_ishr, Opcode::ishr, "i", "iu"),
    I(op_ushr, Opcode::ushr, "u", "uu"),
    I(op_and, Opcode::and_, "u", "uu"),
    I(op_or, Opcode::or_, "u", "uu"),
    I(op_xor, Opcode::xor_, "u", "uu"),
    I(op_not, Opcode::not_, "u", "u"),
    I(op_bfi, Opcode::bfi, "u", "uuuu"),
    I(op_ubfe, Opcode::ubfe, "u", "uuu"),
    I(op_ibfe, Opcode::ibfe, "i", "uui"),
    I(op_bfrev, Opcode::bfrev, "u", "u"),
    I(op_countbits, Opcode::countbits, "u", "u"),
    I(op_firstbit_hi, Opcode::firstbit_hi, "u", "u"),
    I(op_firstbit_lo, Opcode::firstbit_lo, "u", "u"),
    I(op_firstbit_shi, Opcode::firstbit_shi, "u", "i"),
    I(op_uaddc, Opcode::uaddc, "uu", "uu"),
    I(op_usubb, Opcode::usubb, "uu", "uu"),
    I(op_msad, Opcode::msad, "u", "uuu"),
    I(op_ieq, Opcode::ieq, "u", "ii"),
    I(op_ine, Opcode::ine, "u", "ii"),
    I(op_ilt, Opcode::ilt, "u", "ii"),
    I(op_ige, Opcode::ige, "u", "ii"),
    I(op_ult, Opcode::ult, "u", "uu"),
    I(op_uge, Opcode::uge, "u", "uu"),

    // Conversions
    I(op_ftoi, Opcode::ftoi, "i", "f"),
    I(op_ftou, Opcode::ftou, "u", "f"),
    I(op_itof, Opcode::itof, "f", "i"),
    I(op_utof, Opcode::utof, "f", "u"),
    I(op_f32tof16, Opcode::f32tof16, "u", "f"),
    I(op_f16tof32, Opcode::f16tof32, "f", "u"),
    I(op_ftod, Opcode::ftod, "d", "f"),
    I(op_dtof, Opcode::dtof, "f", "d"),
    I(op_dtoi, Opcode::dtoi, "i", "d"),
    I(op_dtou, Opcode::dtou, "u", "d"),
    I(op_itod, Opcode::itod, "d", "i"),
    I(op_utod, Opcode::utod, "d", "u"),

    // Doubles
    I(op_dadd, Opcode::dadd, "d", "dd"),
    I(op_dmul, Opcode::dmul, "d", "dd"),
    I(op_ddiv, Opcode::ddiv, "d", "dd"),
    I(op_dfma, Opcode::dfma, "d", "ddd"),
    I(op_drcp, Opcode::drcp, "d", "d"),
    I(op_dmin, Opcode::dmin, "d", "dd"),
    I(op_dmax, Opcode::dmax, "d", "dd"),
    I(op_deq, Opcode::deq, "u", "dd"),
    I(op_dne, Opcode::dne, "u", "dd"),
    I(op_dlt, Opcode::dlt, "u", "dd"),
    I(op_dge, Opcode::dge, "u", "dd"),

    // Resource reads and queries
    I(op_sample, Opcode::sample, "r", "f**"),
    I(op_sample_b, Opcode::sample_b, "r", "f**f"),
    I(op_sample_l, Opcode::sample_l, "r", "f**f"),
    I(op_sample_d, Opcode::sample_d, "r", "f**ff"),
    I(op_sample_c, Opcode::sample_c, "f", "f**f"),
    I(op_sample_c_lz, Opcode::sample_c_lz, "f", "f**f"),
    I(op_gather4, Opcode::gather4, "r", "f**"),
    I(op_gather4_c, Opcode::gather4_c, "f", "f**f"),
    I(op_gather4_po, Opcode::gather4_po, "r", "fi**"),
    I(op_gather4_po_c, Opcode::gather4_po_c, "f", "fi**f"),
    I(op_ld, Opcode::ld, "r", "i*"),
    I(op_ld_ms, Opcode::ld2dms, "r", "i*i"),
    I(op_ld_uav_typed, Opcode::ld_uav_typed, "r", "i*"),
    I(op_ld_raw, Opcode::ld_raw, "u", "u*"),
    I(op_ld_structured, Opcode::ld_structured, "u", "uu*"),
    I(op_lod, Opcode::lod, "f", "f**"),
    I(op_resinfo, Opcode::resinfo, "f", "u*"),
    I(op_sample_info, Opcode::sampleinfo, "f", "*"),
    I(op_sample_pos, Opcode::samplepos, "f", "*i"),
    I(op_bufinfo, Opcode::bufinfo, "u", "*"),
    I(op_check_access_fully_mapped, Opcode::check_access_fully_mapped, "u", "u"),
    I(op_ld_s, Opcode::ld_s, "ru", "i*"),
    I(op_ld2dms_s, Opcode::ld2dms_s, "ru", "i*i"),
    I(op_ld_uav_typed_s, Opcode::ld_uav_typed_s, "ru", "i*"),
    I(op_ld_raw_s, Opcode::ld_raw_s, "uu", "u*"),
    I(op_ld_structured_s, Opcode::ld_structured_s, "uu", "uu*"),
    I(op_sample_l_s, Opcode::sample_l_s, "ru", "f**f"),
    I(op_sample_c_lz_s, Opcode::sample_c_lz_s, "fu", "f**f"),
    I(op_sample_cl_s, Opcode::sample_cl_s, "ru", "f**f"),
    I(op_sample_b_cl_s, Opcode::sample_b_cl_s, "ru", "f**ff"),
    I(op_sample_d_cl_s, Opcode::sample_d_cl_s, "ru", "f**fff"),
    I(op_sample_c_cl_s, Opcode::sample_c_cl_s, "fu", "f**ff"),
    I(op_gather4_s, Opcode::gather4_s, "ru", "f**"),
    I(op_gather4_c_s, Opcode::gather4_c_s, "fu", "f**f"),
    I(op_gather4_po_s, Opcode::gather4_po_s, "ru", "fi**"),
    I(op_gather4_po_c_s, Opcode::gather4_po_c_s, "fu", "fi**f"),

    // Resource writes and atomics
    I(op_store_uav_typed, Opcode::store_uav_typed, "*", "ur"),
    I(op_store_raw, Opcode::store_raw, "*", "uu"),
    I(op_store_structured, Opcode::store_structured, "*", "uuu"),
    I(op_atomic_and, Opcode::atomic_and, "*", "uu"),
    I(op_atomic_or, Opcode::atomic_or, "*", "uu"),
    I(op_atomic_xor, Opcode::atomic_xor, "*", "uu"),
    I(op_atomic_cmp_store, Opcode::atomic_cmp_store, "*", "uuu"),
    I(op_atomic_iadd, Opcode::atomic_iadd, "*", "ui"),
    I(op_atomic_imax, Opcode::atomic_imax, "*", "ui"),
    I(op_atomic_imin, Opcode::atomic_imin, "*", "ui"),
    I(op_atomic_umax, Opcode::atomic_umax, "*", "uu"),
    I(op_atomic_umin, Opcode::atomic_umin, "*", "uu"),
    I(op_imm_atomic_alloc, Opcode::imm_atomic_alloc, "u", "*"),
    I(op_imm_atomic_consume, Opcode::imm_atomic_consume, "u", "*"),
    I(op_imm_atomic_iadd, Opcode::imm_atomic_iadd, "i*", "ui"),
    I(op_imm_atomic_and, Opcode::imm_atomic_and, "u*", "uu"),
    I(op_imm_atomic_or, Opcode::imm_atomic_or, "u*", "uu"),
    I(op_imm_atomic_xor, Opcode::imm_atomic_xor, "u*", "uu"),
    I(op_imm_atomic_exch, Opcode::imm_atomic_exch, "u*", "uu"),
    I(op_imm_atomic_cmp_exch, Opcode::imm_atomic_cmp_exch, "u*", "uuu"),
    I(op_imm_atomic_imax, Opcode::imm_atomic_imax, "i*", "ui"),
    I(op_imm_atomic_imin, Opcode::imm_atomic_imin, "i*", "ui"),
    I(op_imm_atomic_umax, Opcode::imm_atomic_umax, "u*", "uu"),
    I(op_imm_atomic_umin, Opcode::imm_atomic_umin, "u*", "uu"),

    // Declarations
    D(op_dcl_global_flags, Opcode::dcl_global_flags),
    D(op_dcl_temps, Opcode::dcl_temps),
    D(op_dcl_indexable_temp, Opcode::dcl_indexable_temp),
    D(op_dcl_constant_buffer, Opcode::dcl_constant_buffer),
    D(op_dcl_sampler, Opcode::dcl_sampler),
    D(op_dcl_resource, Opcode::dcl_resource),
    D(op_dcl_resource_raw, Opcode::dcl_resource_raw),
    D(op_dcl_resource_structured, Opcode::dcl_resource_structured),
    D(op_dcl_uav_typed, Opcode::dcl_uav_typed),
    D(op_dcl_uav_raw, Opcode::dcl_uav_raw),
    D(op_dcl_uav_structured, Opcode::dcl_uav_structured),
    D(op_dcl_tgsm_raw, Opcode::dcl_tgsm_raw),
    D(op_dcl_tgsm_structured, Opcode::dcl_tgsm_structured),
    D(op_dcl_input, Opcode::dcl_input),
    D(op_dcl_input_sgv, Opcode::dcl_input_sgv),
    D(op_dcl_input_siv, Opcode::dcl_input_siv),
    D(op_dcl_input_ps, Opcode::dcl_input_ps),
    D(op_dcl_input_ps_sgv, Opcode::dcl_input_ps_sgv),
    D(op_dcl_input_ps_siv, Opcode::dcl_input_ps_siv),
    D(op_dcl_output, Opcode::dcl_output),
    D(op_dcl_output_sgv, Opcode::dcl_output_sgv),
    D(op_dcl_output_siv, Opcode::dcl_output_siv),
    D(op_dcl_index_range, Opcode::dcl_index_range),
    D(op_dcl_thread_group, Opcode::dcl_thread_group),
    D(op_dcl_gs_input_primitive, Opcode::dcl_gs_input_primitive),
    D(op_dcl_gs_output_topology, Opcode::dcl_gs_output_topology),
    D(op_dcl_max_output_vertex_count, Opcode::dcl_max_output_vertex_count),
    D(op_dcl_gs_instance_count, Opcode::dcl_gs_instances),
    D(op_dcl_stream, Opcode::dcl_stream),
    D(op_dcl_input_control_point_count, Opcode::dcl_input_control_point_count),
    D(op_dcl_output_control_point_count, Opcode::dcl_output_control_point_count),
    D(op_dcl_tess_domain, Opcode::dcl_tessellator_domain),
    D(op_dcl_tess_partitioning, Opcode::dcl_tessellator_partitioning),
    D(op_dcl_tess_output_primitive, Opcode::dcl_tessellator_output_primitive),
    D(op_dcl_hs_max_tessfactor, Opcode::dcl_hs_max_tessfactor),
    D(op_dcl_hs_fork_phase_instance_count, Opcode::dcl_hs_fork_phase_instance_count),
    D(op_dcl_hs_join_phase_instance_count, Opcode::dcl_hs_join_phase_instance_count),

    special(op_customdata, Handling::custom_data),
    special(op_dcl_function_body, Handling::interface),
    special(op_dcl_function_table, Handling::interface),
    special(op_dcl_interface, Handling::interface),
    special(op_interface_call, Handling::interface),
};

constexpr std::array<OpcodeEntry, op_count> build_table()
{
    std::array<OpcodeEntry, op_count> table{};
    for (const Row& row : rows)
        table[row.number] = row.entry;
    return table;
}

constexpr std::array<OpcodeEntry, op_count> table = build_table();

constexpr bool every_row_unique()
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); ++i)
        for (size_t j = i + 1; j < sizeof(rows) / sizeof(rows[0]); ++j)
            if (rows[i].number == rows[j].number)
                return false;
    return true;
}
static_assert(every_row_unique(), "an opcode number appears twice in the TPF opcode table");

constexpr std::array<uint16_t, size_t(Opcode::count)> build_reverse()
{
    std::array<uint16_t, size_t(Opcode::count)> reverse{};
    for (uint16_t& number : reverse)
        number = op_count;
    for (const Row& row : rows)
        if (row.entry.handling == Handling::instruction || row.entry.handling == Handling::declaration)
            reverse[size_t(row.entry.op)] = row.number;
    return reverse;
}

constexpr std::array<uint16_t, size_t(Opcode::count)> reverse_table = build_reverse();

} // namespace

const OpcodeEntry& opcode_entry(uint32_t number)
{
    static constexpr OpcodeEntry unknown{};
    return number < table.size() ? table[number] : unknown;
}

uint32_t tpf_opcode_number(vsir::Opcode op)
{
    return size_t(op) < reverse_table.size() ? reverse_table[size_t(op)] : uint32_t(op_count);
}

const OpcodeEntry& opcode_entry_of(vsir::Opcode op)
{
    return opcode_entry(tpf_opcode_number(op));
}

uint32_t return_type_code(vsir::DataType type)
{
    switch (type) {
    case vsir::DataType::unorm: return 1;
    case vsir::DataType::snorm: return 2;
    case vsir::DataType::i32: return 3;
    case vsir::DataType::u32: return 4;
    case vsir::DataType::f32: return 5;
    case vsir::DataType::mixed: return 6;
    case vsir::DataType::f64: return 7;
    case vsir::DataType::continued: return 8;
    default: return 0;
    }
}

vsir::DataType value_type_of_return_type(vsir::DataType type)
{
    switch (type) {
    case vsir::DataType::i32: return vsir::DataType::i32;
    case vsir::DataType::u32:
    case vsir::DataType::mixed:
    case vsir::DataType::f64:
    case vsir::DataType::continued: return vsir::DataType::u32;
    default: return vsir::DataType::f32;
    }
}

} // namespace dxspv::tpf

#include "tpf/writer.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "tpf/opcode_table.h"
#include "tpf/tokens.h"

namespace dxspv::tpf {

namespace {

using vsir::DataType;
using vsir::Dimension;
using vsir::Opcode;
using vsir::RegisterFile;

constexpr uint32_t no_operand_type = ~0u;

/// TPF operand type of a VSIR register file (the inverse of the reader's file table).
uint32_t operand_type_of(RegisterFile file)
{
    switch (file) {
    case RegisterFile::temp: return operand_temp;
    case RegisterFile::input: return operand_input;
    case RegisterFile::output: return operand_output;
    case RegisterFile::indexable_temp: return operand_indexable_temp;
    case RegisterFile::immediate: return operand_immediate32;
    case RegisterFile::immediate64: return operand_immediate64;
    case RegisterFile::sampler: return operand_sampler;
    case RegisterFile::resource: return operand_resource;
    case RegisterFile::constant_buffer: return operand_constant_buffer;
    case RegisterFile::immediate_constant_buffer: return operand_immediate_constant_buffer;
    case RegisterFile::label: return operand_label;
    case RegisterFile::primitive_id: return operand_primitive_id;
    case RegisterFile::depth_out: return operand_depth;
    case RegisterFile::null: return operand_null;
    case RegisterFile::rasterizer: return operand_rasterizer;
    case RegisterFile::coverage_out: return operand_coverage_mask_out;
    case RegisterFile::stream: return operand_stream;
    case RegisterFile::output_control_point_id: return operand_output_control_point_id;
    case RegisterFile::fork_instance_id: return operand_fork_instance_id;
    case RegisterFile::join_instance_id: return operand_join_instance_id;
    case RegisterFile::input_control_point: return operand_input_control_point;
    case RegisterFile::output_control_point: return operand_output_control_point;
    case RegisterFile::patch_constant: return operand_patch_constant;
    case RegisterFile::tess_coord: return operand_domain_point;
    case RegisterFile::uav: return operand_uav;
    case RegisterFile::groupshared: return operand_tgsm;
    case RegisterFile::thread_id: return operand_thread_id;
    case RegisterFile::thread_group_id: return operand_thread_group_id;
    case RegisterFile::local_thread_id: return operand_thread_id_in_group;
    case RegisterFile::coverage_in: return operand_coverage_mask_in;
    case RegisterFile::local_thread_index: return operand_thread_id_in_group_flattened;
    case RegisterFile::gs_instance_id: return operand_gs_instance_id;
    case RegisterFile::depth_out_ge: return operand_depth_ge;
    case RegisterFile::depth_out_le: return operand_depth_le;
    case RegisterFile::cycle_counter: return operand_cycle_counter;
    case RegisterFile::stencil_ref: return operand_stencil_ref;
    case RegisterFile::inner_coverage: return operand_inner_coverage;
    default: return no_operand_type;
    }
}

bool is_descriptor(RegisterFile file)
{
    return file == RegisterFile::resource || file == RegisterFile::uav || file == RegisterFile::sampler ||
           file == RegisterFile::constant_buffer;
}

/// Register file shapes as the reader decodes them (one component, none, or
/// per-component).
bool is_scalar_file(RegisterFile file)
{
    switch (file) {
    case RegisterFile::primitive_id:
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le:
    case RegisterFile::coverage_out:
    case RegisterFile::coverage_in:
    case RegisterFile::output_control_point_id:
    case RegisterFile::fork_instance_id:
    case RegisterFile::join_instance_id:
    case RegisterFile::local_thread_index:
    case RegisterFile::gs_instance_id:
    case RegisterFile::stencil_ref:
    case RegisterFile::inner_coverage: return true;
    default: return false;
    }
}

bool is_opaque(RegisterFile file)
{
    switch (file) {
    case RegisterFile::sampler:
    case RegisterFile::resource:
    case RegisterFile::uav:
    case RegisterFile::groupshared:
    case RegisterFile::label:
    case RegisterFile::stream:
    case RegisterFile::rasterizer: return true;
    default: return false;
    }
}

/// A parameter as the operand encoder sees it.
struct Selection {
    bool is_dst = false;
    uint8_t mask = 0;
    uint8_t swizzle = vsir::swizzle_identity;
    vsir::OperandForm form = vsir::OperandForm::unspecified;
    uint8_t form_mask = 0;
    uint8_t token_flags = 0;
};

/// Scalar files fxc declares with a 1-component operand (the others: 0 components).
bool declared_with_one_component(RegisterFile file)
{
    switch (file) {
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le:
    case RegisterFile::stencil_ref:
    case RegisterFile::coverage_in:
    case RegisterFile::inner_coverage: return true;
    default: return false;
    }
}

class Writer {
public:
    Writer(const vsir::Program& program, std::vector<uint32_t>& out, Diagnostics& diags)
        : p_(program), out_(out), diags_(diags), sm51_(program.model.major == 5 && program.model.minor == 1)
    {
    }

    bool write();

private:
    bool fail(const char* fmt, ...) __attribute__((format(printf, 2, 3)));
    bool instruction(const vsir::Instruction& ins);
    bool declaration(const vsir::Instruction& ins, uint32_t number);
    bool declaration_payload(const vsir::Instruction& ins, const vsir::Declaration& d, uint32_t number,
                             uint32_t& controls);
    bool icb(const vsir::Declaration& d);
    bool extended_opcodes(const vsir::Instruction& ins, std::vector<uint32_t>& ext);
    bool controls_of(const vsir::Instruction& ins, uint32_t& controls);
    bool operand(const vsir::Register& reg, Selection sel, vsir::SrcModifier modifier, bool declaration,
                 unsigned depth);
    bool index(const vsir::RegisterIndex& index, uint32_t& repr, unsigned depth, uint8_t flags, unsigned i);
    bool descriptor_declaration(const vsir::Instruction& ins, const vsir::Declaration& d);
    bool src(const vsir::SrcParam& s, unsigned depth = 0)
    {
        return operand(s.reg, {false, 0, s.swizzle, s.form, s.form_mask, s.token_flags}, s.modifier, false, depth);
    }
    bool dst(const vsir::DstParam& d, bool declaration = false)
    {
        return operand(d.reg, {true, d.write_mask, vsir::swizzle_identity, d.form, 0, d.token_flags},
                       vsir::SrcModifier::none, declaration, 0);
    }
    bool begin(uint32_t controls_and_number);
    bool end();

    const vsir::Program& p_;
    std::vector<uint32_t>& out_;
    Diagnostics& diags_;
    bool sm51_;
    uint32_t current_ = 0; ///< instruction index (diagnostics)
    size_t start_ = 0;     ///< position of the current opcode token
};

bool Writer::fail(const char* fmt, ...)
{
    char text[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    diags_.error(Code::tpf_unencodable, Location::instruction(current_), "%s", text);
    return false;
}

bool Writer::begin(uint32_t token)
{
    start_ = out_.size();
    out_.push_back(token);
    return true;
}

/// Patches the length of the instruction begun at start_.
bool Writer::end()
{
    size_t length = out_.size() - start_;
    if (length > 127)
        return fail("instruction of %zu tokens (at most 127)", length);
    out_[start_] |= uint32_t(length) << length_shift;
    return true;
}

bool Writer::index(const vsir::RegisterIndex& idx, uint32_t& repr, unsigned depth, uint8_t flags, unsigned i)
{
    bool imm64 = flags & (vsir::token_index0_imm64 << i);
    auto immediate = [&] {
        if (imm64)
            out_.push_back(0);
        out_.push_back(idx.offset);
    };
    if (idx.rel_addr == vsir::invalid_index) {
        repr = imm64 ? index_imm64 : index_imm32;
        immediate();
        return true;
    }
    if (idx.rel_addr >= p_.srcs.size())
        return fail("relative address %u outside the source pool", idx.rel_addr);
    if (depth >= 3)
        return fail("relative addresses nested too deeply");
    bool with_imm = idx.offset || imm64 || (flags & (vsir::token_index0_imm_relative << i));
    repr = !with_imm ? index_relative : imm64 ? index_imm64_relative : index_imm32_relative;
    if (with_imm)
        immediate();
    return src(p_.srcs[idx.rel_addr], depth + 1);
}

bool Writer::operand(const vsir::Register& reg, Selection sel, vsir::SrcModifier modifier, bool declaration,
                     unsigned depth)
{
    uint32_t type = operand_type_of(reg.file);
    if (type == no_operand_type)
        return fail("register file %s has no TPF operand type", vsir::register_prefix(reg.file));
    // Components.
    uint32_t token = type << 12;
    bool immediate = reg.file == RegisterFile::immediate || reg.file == RegisterFile::immediate64;
    vsir::OperandForm form = sel.form != vsir::OperandForm::unspecified
                                 ? sel.form
                                 : default_operand_form(reg, sel.is_dst, declaration, sel.mask, sel.swizzle, sm51_);
    switch (form) {
    case vsir::OperandForm::unspecified:
    case vsir::OperandForm::none: token |= components_0; break;
    case vsir::OperandForm::one: token |= components_1; break;
    case vsir::OperandForm::mask:
        token |= components_4 | (select_mask << 2) | (uint32_t(sel.is_dst ? sel.mask : sel.form_mask) & 0xf) << 4;
        break;
    case vsir::OperandForm::swizzle: token |= components_4 | (select_swizzle << 2) | (uint32_t(sel.swizzle) << 4); break;
    case vsir::OperandForm::select:
        token |= components_4 | (select_one << 2) | (vsir::swizzle_component(sel.swizzle, 0) << 4);
        break;
    }

    // Indices: descriptors go back to their SM <= 5.0 form.
    vsir::RegisterIndex indices[3];
    uint32_t count = reg.index_count > 3 ? 3 : reg.index_count;
    if (!immediate)
        for (uint32_t i = 0; i < count; ++i)
            indices[i] = reg.idx[i];
    if (immediate)
        count = 0;
    if (is_descriptor(reg.file) && !declaration && !sm51_) {
        if (count < 2)
            return fail("descriptor register %s with %u indices", vsir::register_prefix(reg.file), count);
        for (uint32_t i = 1; i < count; ++i)
            indices[i - 1] = indices[i];
        --count;
    }
    token |= count << 20;

    uint32_t ext = 0;
    if (modifier != vsir::SrcModifier::none || reg.precision != MinPrecision::none ||
        (reg.flags & vsir::register_non_uniform) || (sel.token_flags & vsir::token_empty_modifier)) {
        if (modifier == vsir::SrcModifier::bitwise_not)
            return fail("the bitwise-not source modifier has no TPF encoding");
        ext = ext_operand_modifier | (uint32_t(modifier) << 6) | (uint32_t(reg.precision) << 14) |
              flag_if(reg.flags & vsir::register_non_uniform, 1u << 17);
        token |= extended_bit;
    }
    size_t at = out_.size();
    out_.push_back(token);
    if (ext)
        out_.push_back(ext);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t repr = 0;
        if (!index(indices[i], repr, depth, sel.token_flags, i))
            return false;
        out_[at] |= repr << (22 + 3 * i);
    }
    if (immediate) {
        bool scalar = form == vsir::OperandForm::one || form == vsir::OperandForm::none;
        uint32_t words = reg.file == RegisterFile::immediate64 ? (scalar ? 2 : 4) : (scalar ? 1 : 4);
        for (uint32_t i = 0; i < words; ++i)
            out_.push_back(reg.u32[i]);
    }
    return true;
}

bool Writer::controls_of(const vsir::Instruction& ins, uint32_t& controls)
{
    controls = 0;
    uint32_t flags = ins.flags;
    if (ins.opcode == Opcode::sync) {
        controls |= flag_if(flags & vsir::flag_sync_thread_group, sync_thread_group) |
                    flag_if(flags & vsir::flag_sync_tgsm, sync_tgsm) |
                    flag_if(flags & vsir::flag_sync_uav_group, sync_uav_group) |
                    flag_if(flags & vsir::flag_sync_uav_global, sync_uav_global);
        flags &= ~uint32_t(vsir::flag_sync_thread_group | vsir::flag_sync_tgsm | vsir::flag_sync_uav_group |
                           vsir::flag_sync_uav_global);
    }
    if (flags & vsir::flag_test_nonzero)
        controls |= test_nonzero_bit;
    controls |= ((flags & vsir::flag_precise_mask) >> 8) << precise_shift;
    if (ins.opcode == Opcode::resinfo)
        controls |= (flags & vsir::flag_resinfo_rcp_float) ? 1u << 11 : (flags & vsir::flag_resinfo_uint) ? 2u << 11 : 0;
    if (ins.opcode == Opcode::sampleinfo && (flags & vsir::flag_resinfo_uint))
        controls |= 1u << 11;
    flags &= ~uint32_t(vsir::flag_test_nonzero | vsir::flag_precise_mask | vsir::flag_resinfo_rcp_float |
                       vsir::flag_resinfo_uint);
    if (flags)
        return fail("instruction flags 0x%x have no TPF encoding", flags);
    bool saturate = false;
    for (const vsir::DstParam& d : p_.dsts_of(ins)) {
        if (d.modifiers & ~uint32_t(vsir::dst_saturate))
            return fail("destination modifiers 0x%x have no TPF encoding", d.modifiers);
        saturate |= (d.modifiers & vsir::dst_saturate) != 0;
    }
    if (saturate)
        controls |= saturate_bit;
    return true;
}

bool Writer::extended_opcodes(const vsir::Instruction& ins, std::vector<uint32_t>& ext)
{
    if (ins.texel_offset[0] || ins.texel_offset[1] || ins.texel_offset[2]) {
        uint32_t t = ext_sample_controls;
        for (unsigned i = 0; i < 3; ++i) {
            if (ins.texel_offset[i] < -8 || ins.texel_offset[i] > 7)
                return fail("texel offset %d out of range", ins.texel_offset[i]);
            t |= (uint32_t(ins.texel_offset[i]) & 0xf) << (9 + 4 * i);
        }
        ext.push_back(t);
    }
    if (ins.resource_dimension != vsir::ResourceDimension::unknown || ins.resource_stride) {
        if (ins.resource_stride >= (1u << 12))
            return fail("resource stride %u out of range", ins.resource_stride);
        ext.push_back(ext_resource_dim | (uint32_t(ins.resource_dimension) << 6) | (ins.resource_stride << 11));
    }
    bool typed = false;
    uint32_t t = ext_return_type;
    for (unsigned c = 0; c < 4; ++c) {
        typed |= ins.resource_type[c] != DataType::none;
        t |= return_type_code(ins.resource_type[c]) << (6 + 4 * c);
    }
    if (typed)
        ext.push_back(t);
    for (size_t i = 0; i + 1 < ext.size(); ++i)
        ext[i] |= extended_bit;
    return true;
}

bool Writer::instruction(const vsir::Instruction& ins)
{
    uint32_t number = tpf_opcode_number(ins.opcode);
    const OpcodeEntry& entry = opcode_entry(number);
    if (entry.handling == Handling::declaration)
        return declaration(ins, number);
    if (entry.handling != Handling::instruction)
        return fail("%s has no TPF encoding", vsir::opcode_info(ins.opcode).name);
    if (ins.dst_count != entry.dst_count || ins.src_count != entry.src_count)
        return fail("%s with %u destinations and %u sources (%u and %u expected)", vsir::opcode_info(ins.opcode).name,
                    ins.dst_count, ins.src_count, entry.dst_count, entry.src_count);
    if (size_t(ins.dst_first) + ins.dst_count > p_.dsts.size() || size_t(ins.src_first) + ins.src_count > p_.srcs.size())
        return fail("operands outside the pools");
    uint32_t controls = 0;
    std::vector<uint32_t> ext;
    if (!controls_of(ins, controls) || !extended_opcodes(ins, ext))
        return false;
    begin(number | controls | (ext.empty() ? 0 : extended_bit));
    out_.insert(out_.end(), ext.begin(), ext.end());
    for (const vsir::DstParam& d : p_.dsts_of(ins))
        if (!dst(d))
            return false;
    for (const vsir::SrcParam& s : p_.srcs_of(ins))
        if (!src(s))
            return false;
    if (ins.tail_count) {
        if (uint64_t(ins.tail_first) + ins.tail_count > p_.u32_pool.size())
            return fail("instruction tail tokens outside the pool");
        out_.insert(out_.end(), p_.u32_pool.begin() + ins.tail_first,
                    p_.u32_pool.begin() + ins.tail_first + ins.tail_count);
    }
    return end();
}

bool Writer::icb(const vsir::Declaration& d)
{
    if (uint64_t(d.data_first) + d.data_count > p_.u32_pool.size())
        return fail("immediate constant buffer data outside the pool");
    out_.push_back(op_customdata | (custom_icb << opcode_bits));
    out_.push_back(d.data_count + 2);
    out_.insert(out_.end(), p_.u32_pool.begin() + d.data_first, p_.u32_pool.begin() + d.data_first + d.data_count);
    return true;
}

/// t/u/s/cb declarations: SM5.1 (id, first, last) or the register number.
bool Writer::descriptor_declaration(const vsir::Instruction& ins, const vsir::Declaration& d)
{
    if (ins.dst_count != 1)
        return fail("descriptor declaration without a register");
    const vsir::Register& reg = p_.dst(ins, 0).reg;
    bool cb = reg.file == RegisterFile::constant_buffer;
    vsir::OperandForm form = p_.dst(ins, 0).form;
    if (form == vsir::OperandForm::unspecified)
        form = cb || sm51_ ? vsir::OperandForm::swizzle : vsir::OperandForm::none;
    uint32_t token = (operand_type_of(reg.file) << 12) |
                     (form == vsir::OperandForm::swizzle ? components_4 | (select_swizzle << 2) | (vsir::swizzle_identity << 4)
                      : form == vsir::OperandForm::one   ? components_1
                                                         : components_0);
    uint32_t size = d.count ? d.count : d.byte_count / 16;
    if (sm51_) {
        out_.push_back(token | (3u << 20));
        out_.push_back(reg.index_count ? reg.idx[0].offset : d.index);
        out_.push_back(d.range_first);
        out_.push_back(d.range_last);
        if (cb)
            out_.push_back(size);
    } else if (cb) {
        out_.push_back(token | (2u << 20));
        out_.push_back(d.range_first);
        out_.push_back(size);
    } else {
        out_.push_back(token | (1u << 20));
        out_.push_back(d.range_first);
    }
    return true;
}

uint32_t system_value_name_of(const vsir::Declaration& d)
{
    if (d.value)
        return d.value;
    uint32_t sv = uint32_t(d.system_value);
    switch (d.system_value) {
    case SystemValue::final_quad_edge_tessfactor: return 11;
    case SystemValue::final_quad_inside_tessfactor: return 15;
    case SystemValue::final_tri_edge_tessfactor: return 17;
    case SystemValue::final_tri_inside_tessfactor: return 20;
    case SystemValue::final_line_detail_tessfactor: return 21;
    case SystemValue::final_line_density_tessfactor: return 22;
    default: return sv;
    }
}

bool Writer::declaration_payload(const vsir::Instruction& ins, const vsir::Declaration& d, uint32_t number,
                                 uint32_t& controls)
{
    auto space = [&] {
        if (sm51_)
            out_.push_back(d.space);
    };
    auto dst0 = [&] { return ins.dst_count == 1 ? dst(p_.dst(ins, 0), true) : fail("declaration without a register"); };
    auto uav_controls = [&] {
        return flag_if(d.value & vsir::uav_globally_coherent, uav_globally_coherent_bit) |
               flag_if(d.value & vsir::uav_rasterizer_ordered, uav_rasterizer_ordered_bit) |
               flag_if(d.value & vsir::uav_has_counter, uav_has_counter_bit);
    };
    uint32_t types = 0;
    for (unsigned c = 0; c < 4; ++c)
        types |= return_type_code(d.return_type[c]) << (4 * c);
    switch (number) {
    case op_dcl_global_flags: controls = (d.value & 0x1fff) << 11; return true;
    case op_dcl_temps: out_.push_back(d.count); return true;
    case op_dcl_indexable_temp: out_.insert(out_.end(), {d.index, d.count, d.component_count}); return true;
    case op_dcl_constant_buffer:
        controls = (d.value & 1) << 11;
        if (!descriptor_declaration(ins, d))
            return false;
        space();
        return true;
    case op_dcl_sampler:
        controls = (d.value & 0xf) << 11;
        if (!descriptor_declaration(ins, d))
            return false;
        space();
        return true;
    case op_dcl_resource:
        controls = (uint32_t(d.dimension) << 11) | ((d.sample_count & 0x7f) << 16);
        if (!descriptor_declaration(ins, d))
            return false;
        out_.push_back(types);
        space();
        return true;
    case op_dcl_resource_raw:
    case op_dcl_uav_raw:
        controls = number == op_dcl_uav_raw ? uav_controls() : 0;
        if (!descriptor_declaration(ins, d))
            return false;
        space();
        return true;
    case op_dcl_resource_structured:
    case op_dcl_uav_structured:
        controls = number == op_dcl_uav_structured ? uav_controls() : 0;
        if (!descriptor_declaration(ins, d))
            return false;
        out_.push_back(d.structure_stride);
        space();
        return true;
    case op_dcl_uav_typed:
        controls = uav_controls() | (uint32_t(d.dimension) << 11);
        if (!descriptor_declaration(ins, d))
            return false;
        out_.push_back(types);
        space();
        return true;
    case op_dcl_tgsm_raw:
        if (!dst0())
            return false;
        out_.push_back(d.byte_count);
        return true;
    case op_dcl_tgsm_structured:
        if (!dst0())
            return false;
        out_.insert(out_.end(), {d.structure_stride, d.count});
        return true;
    case op_dcl_input:
    case op_dcl_output:
    case op_dcl_stream: return dst0();
    case op_dcl_input_ps:
        controls = uint32_t(d.interpolation) << 11;
        return dst0();
    case op_dcl_input_ps_sgv:
    case op_dcl_input_ps_siv:
        controls = uint32_t(d.interpolation) << 11;
        [[fallthrough]];
    case op_dcl_input_sgv:
    case op_dcl_input_siv:
    case op_dcl_output_sgv:
    case op_dcl_output_siv:
        if (!dst0())
            return false;
        out_.push_back(system_value_name_of(d));
        return true;
    case op_dcl_index_range:
        if (!dst0())
            return false;
        out_.push_back(d.count);
        return true;
    case op_dcl_thread_group:
        out_.insert(out_.end(), {d.thread_group[0], d.thread_group[1], d.thread_group[2]});
        return true;
    case op_dcl_gs_input_primitive: controls = (d.value & 0x3f) << 11; return true;
    case op_dcl_gs_output_topology: controls = (d.value & 0x7f) << 11; return true;
    case op_dcl_max_output_vertex_count:
    case op_dcl_gs_instance_count:
    case op_dcl_hs_fork_phase_instance_count:
    case op_dcl_hs_join_phase_instance_count: out_.push_back(d.count); return true;
    case op_dcl_input_control_point_count:
    case op_dcl_output_control_point_count: controls = (d.count & 0x3f) << 11; return true;
    case op_dcl_tess_domain: controls = (d.value & 3) << 11; return true;
    case op_dcl_tess_partitioning:
    case op_dcl_tess_output_primitive: controls = (d.value & 7) << 11; return true;
    case op_dcl_hs_max_tessfactor: {
        uint32_t w = 0;
        std::memcpy(&w, &d.float_value, 4);
        out_.push_back(w);
        return true;
    }
    default: return fail("%s has no TPF encoding", vsir::opcode_info(ins.opcode).name);
    }
}

bool Writer::declaration(const vsir::Instruction& ins, uint32_t number)
{
    if (ins.decl >= p_.decls.size())
        return fail("%s without a declaration payload", vsir::opcode_info(ins.opcode).name);
    if (size_t(ins.dst_first) + ins.dst_count > p_.dsts.size())
        return fail("operands outside the pools");
    const vsir::Declaration& d = p_.decls[ins.decl];
    begin(number);
    uint32_t controls = 0;
    if (!declaration_payload(ins, d, number, controls))
        return false;
    out_[start_] |= controls;
    return end();
}

bool Writer::write()
{
    const ShaderModel& m = p_.model;
    if (uint32_t(m.stage) > uint32_t(ShaderStage::compute) || (m.major != 4 && m.major != 5) || m.minor > 1)
        return fail("shader model %s_%u_%u has no TPF encoding", stage_short_name(m.stage), m.major, m.minor);
    if (p_.control_flow != vsir::ControlFlow::structured)
        return fail("unstructured control flow has no TPF encoding");
    size_t base = out_.size();
    out_.push_back((uint32_t(m.stage) << 16) | (uint32_t(m.major) << 4) | m.minor);
    out_.push_back(0);
    for (current_ = 0; current_ < p_.instructions.size(); ++current_) {
        const vsir::Instruction& ins = p_.instructions[current_];
        bool ok = ins.opcode == Opcode::dcl_immediate_constant_buffer
                      ? (ins.decl < p_.decls.size() ? icb(p_.decls[ins.decl]) : fail("icb without a payload"))
                      : instruction(ins);
        if (!ok)
            return false;
    }
    out_[base + 1] = uint32_t(out_.size() - base);
    return true;
}

} // namespace

bool write_program(const vsir::Program& program, std::vector<uint32_t>& tokens, Diagnostics& diags)
{
    size_t before = tokens.size();
    if (Writer(program, tokens, diags).write())
        return true;
    tokens.resize(before);
    return false;
}

vsir::OperandForm default_operand_form(const vsir::Register& reg, bool is_dst, bool declaration, uint8_t write_mask,
                                       uint8_t swizzle, bool sm51)
{
    using vsir::OperandForm;
    RegisterFile file = reg.file;
    if (file == RegisterFile::immediate || file == RegisterFile::immediate64)
        return reg.dimension == Dimension::vec4 ? OperandForm::mask : OperandForm::one;
    if (is_scalar_file(file))
        return !declaration || declared_with_one_component(file) ? OperandForm::one : OperandForm::none;
    if (file == RegisterFile::null)
        return reg.dimension == Dimension::vec4 ? (is_dst ? OperandForm::mask : OperandForm::swizzle)
               : reg.dimension == Dimension::scalar ? OperandForm::one : OperandForm::none;
    if (declaration && is_descriptor(file))
        return file == RegisterFile::constant_buffer || sm51 ? OperandForm::swizzle : OperandForm::none;
    bool vec4 = !is_opaque(file);
    bool empty = is_dst ? write_mask == 0 && (!vec4 || declaration) : swizzle == 0 && !vec4;
    if (empty)
        return OperandForm::none;
    return is_dst ? OperandForm::mask : OperandForm::swizzle;
}

const char* chunk_name_for(const vsir::Program& program)
{
    return program.model.major >= 5 ? "SHEX" : "SHDR";
}

} // namespace dxspv::tpf

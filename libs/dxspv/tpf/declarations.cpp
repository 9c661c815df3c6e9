#include "tpf/declarations.h"

#include <cstring>

#include "tpf/operand.h"
#include "tpf/tokens.h"

namespace dxspv::tpf {

namespace {

using vsir::DataType;
using vsir::Declaration;
using vsir::Opcode;
using vsir::RegisterFile;

/// Largest range id whose return type is remembered for Slot::value typing.
constexpr uint32_t max_tracked_range_id = 1u << 16;

/// D3D10_SB_NAME → D3D_NAME (the four quad edges, two quad insides and three
/// triangle edges fold into one system value each).
bool system_value_of(uint32_t name, SystemValue& out)
{
    if (name <= 10) {
        out = SystemValue(name);
        return true;
    }
    switch (name) {
    case 11: case 12: case 13: case 14: out = SystemValue::final_quad_edge_tessfactor; return true;
    case 15: case 16: out = SystemValue::final_quad_inside_tessfactor; return true;
    case 17: case 18: case 19: out = SystemValue::final_tri_edge_tessfactor; return true;
    case 20: out = SystemValue::final_tri_inside_tessfactor; return true;
    case 21: out = SystemValue::final_line_detail_tessfactor; return true;
    case 22: out = SystemValue::final_line_density_tessfactor; return true;
    case 23: out = SystemValue::barycentrics; return true;
    case 24: out = SystemValue::shading_rate; return true;
    case 25: out = SystemValue::cull_primitive; return true;
    default: return false;
    }
}

/// Type a load from a resource of this return type produces.
DataType value_type_of(DataType return_type)
{
    switch (return_type) {
    case DataType::i32: return DataType::i32;
    case DataType::u32:
    case DataType::mixed:
    case DataType::f64:
    case DataType::continued: return DataType::u32;
    default: return DataType::f32;
    }
}

/// Nominal type of a declared input or output register: f32 for the
/// signature files and float system values, u32 for integer system values.
DataType declared_type(RegisterFile file)
{
    switch (file) {
    case RegisterFile::input:
    case RegisterFile::output:
    case RegisterFile::input_control_point:
    case RegisterFile::output_control_point:
    case RegisterFile::patch_constant:
    case RegisterFile::tess_coord:
    case RegisterFile::depth_out:
    case RegisterFile::depth_out_ge:
    case RegisterFile::depth_out_le: return DataType::f32;
    default: return DataType::u32;
    }
}

/// Reads a declaration's payload into its instruction, which read_declaration
/// appends first: the payload is decoded in place, not copied in afterwards.
class DeclarationReader {
public:
    /// `decl` and `reg` (nullptr when the declaration declares no register)
    /// are the appended instruction's; decoding operands appends to the src
    /// pool only, so they stay valid.
    DeclarationReader(Context& ctx, Cursor& cur, uint32_t token, Opcode op, Declaration& decl, vsir::DstParam* reg)
        : ctx_(ctx), cur_(cur), token_(token), op_(op), decl_(decl), dst_(reg ? *reg : no_register_)
    {
    }

    bool payload(uint32_t number);

private:
    bool word(uint32_t& value, const char* what)
    {
        return cur_.next(value) || report_truncated(ctx_, cur_, what);
    }
    bool bad(const char* what, uint32_t value)
    {
        return ctx_.fail(Code::tpf_bad_declaration, cur_.start, "%s: invalid %s %u", name(), what, value);
    }
    const char* name() const { return vsir::opcode_info(op_).name; }
    bool descriptor(RegisterFile file);
    bool space();
    bool return_types(uint32_t word);
    bool resource_dimension(uint32_t value);
    bool signature_register();
    bool system_value();
    bool interpolation();
    bool plain_register(RegisterFile file);
    void remember_value_type(RegisterFile file);

    Context& ctx_;
    Cursor& cur_;
    uint32_t token_;
    Opcode op_;
    Declaration& decl_;
    vsir::DstParam no_register_; ///< dst_ of declarations without a register (never written by their payload)
    vsir::DstParam& dst_;
};

/// The declared register of a t/u/s/cb declaration (VSIR.md convention 3):
/// dst 0 gets the range id, the Declaration the range.
bool DeclarationReader::descriptor(RegisterFile file)
{
    uint32_t at = cur_.pos;
    Operand op;
    if (!read_operand(ctx_, cur_, DataType::opaque, DescriptorForm::raw, op))
        return false;
    const vsir::Register& reg = op.reg;
    if (reg.file != file)
        return ctx_.fail(Code::tpf_bad_declaration, at, "%s of register file %s, expected %s", name(),
                         vsir::register_prefix(reg.file), vsir::register_prefix(file));
    bool cb = file == RegisterFile::constant_buffer;
    uint32_t want = ctx_.sm51 ? 3 : cb ? 2 : 1;
    if (reg.index_count != want)
        return ctx_.fail(Code::tpf_bad_index_count, at, "%s with %u indices (%u expected)", name(),
                         reg.index_count, want);
    for (unsigned i = 0; i < reg.index_count; ++i)
        if (reg.idx[i].rel_addr != vsir::invalid_index)
            return ctx_.fail(Code::tpf_bad_declaration, at, "relative address in %s", name());
    uint32_t id = reg.idx[0].offset;
    decl_.index = id;
    decl_.range_first = ctx_.sm51 ? reg.idx[1].offset : id;
    decl_.range_last = ctx_.sm51 ? reg.idx[2].offset : id;
    if (cb && !ctx_.sm51)
        decl_.count = reg.idx[1].offset;
    vsir::Register& declared = dst_.reg; // (default-constructed: dimension none, no relative address)
    declared.file = file;
    declared.type = DataType::opaque;
    declared.index_count = 1;
    declared.idx[0].offset = id;
    dst_.write_mask = 0;
    dst_.form = op.form;
    dst_.token_flags = op.token_flags;
    return true;
}

bool DeclarationReader::space()
{
    return !ctx_.sm51 || word(decl_.space, "register space");
}

bool DeclarationReader::return_types(uint32_t value)
{
    for (unsigned c = 0; c < 4; ++c)
        if (!return_type_of(bits(value, 4 * c, 4), decl_.return_type[c]))
            return bad("resource return type", bits(value, 4 * c, 4));
    return true;
}

bool DeclarationReader::resource_dimension(uint32_t value)
{
    if (value > uint32_t(vsir::ResourceDimension::structured_buffer))
        return bad("resource dimension", value);
    decl_.dimension = vsir::ResourceDimension(value);
    return true;
}

void DeclarationReader::remember_value_type(RegisterFile file)
{
    if (decl_.index >= max_tracked_range_id)
        return;
    auto& types = file == RegisterFile::uav ? ctx_.uav_value_types : ctx_.resource_value_types;
    types.set(decl_.index, value_type_of(decl_.return_type[0]));
}

/// v#/o#/system registers of input and output declarations.
bool DeclarationReader::signature_register()
{
    uint32_t at = cur_.pos;
    Operand op;
    if (!read_operand(ctx_, cur_, DataType::f32, DescriptorForm::raw, op))
        return false;
    RegisterFile file = op.reg.file;
    if (is_opaque_file(file) || file == RegisterFile::immediate || file == RegisterFile::immediate64 ||
        file == RegisterFile::temp || file == RegisterFile::indexable_temp || file == RegisterFile::null ||
        file == RegisterFile::constant_buffer || file == RegisterFile::immediate_constant_buffer)
        return ctx_.fail(Code::tpf_bad_declaration, at, "%s of register file %s", name(),
                         vsir::register_prefix(file));
    dst_.reg = op.reg;
    dst_.reg.type = declared_type(file);
    dst_.write_mask = op.mask;
    dst_.form = op.form;
    dst_.token_flags = op.token_flags;
    return true;
}

bool DeclarationReader::system_value()
{
    uint32_t name = 0;
    if (!word(name, "system value name"))
        return false;
    name = bits(name, 0, 16);
    if (!system_value_of(name, decl_.system_value))
        return bad("system value name", name);
    decl_.value = name;
    return true;
}

bool DeclarationReader::interpolation()
{
    uint32_t mode = bits(token_, 11, 4);
    if (mode > uint32_t(vsir::InterpolationMode::linear_noperspective_sample))
        return bad("interpolation mode", mode);
    decl_.interpolation = vsir::InterpolationMode(mode);
    return true;
}

/// TGSM and stream declarations: one register of `file`, one index.
bool DeclarationReader::plain_register(RegisterFile file)
{
    uint32_t at = cur_.pos;
    Operand op;
    if (!read_operand(ctx_, cur_, DataType::opaque, DescriptorForm::raw, op))
        return false;
    if (op.reg.file != file || op.reg.index_count != 1)
        return ctx_.fail(Code::tpf_bad_declaration, at, "%s expects one %s register", name(),
                         vsir::register_prefix(file));
    dst_.reg = op.reg;
    dst_.write_mask = 0;
    dst_.form = op.form;
    dst_.token_flags = op.token_flags;
    decl_.index = op.reg.idx[0].offset;
    return true;
}

bool DeclarationReader::payload(uint32_t number)
{
    uint32_t w = 0;
    switch (number) {
    case op_dcl_global_flags: decl_.value = bits(token_, 11, 13); return true;
    case op_dcl_temps:
        if (!word(decl_.count, "temp count"))
            return false;
        if (decl_.count > ctx_.program->temp_count)
            ctx_.program->temp_count = decl_.count;
        return true;
    case op_dcl_indexable_temp:
        if (!word(decl_.index, "register") || !word(decl_.count, "register count") ||
            !word(decl_.component_count, "component count"))
            return false;
        return decl_.component_count >= 1 && decl_.component_count <= 4 ? true
               : bad("indexable temp component count", decl_.component_count);
    case op_dcl_constant_buffer:
        if (!descriptor(RegisterFile::constant_buffer) || (ctx_.sm51 && !word(decl_.count, "size")) || !space())
            return false;
        decl_.value = bits(token_, 11, 1);
        decl_.byte_count = decl_.count * 16;
        if (decl_.value)
            decl_.count = 0; // dynamically indexed: VSIR.md convention 3
        return true;
    case op_dcl_sampler:
        decl_.value = bits(token_, 11, 4);
        return descriptor(RegisterFile::sampler) && space();
    case op_dcl_resource:
        decl_.sample_count = bits(token_, 16, 7);
        if (!resource_dimension(bits(token_, 11, 5)) || !descriptor(RegisterFile::resource) ||
            !word(w, "return type") || !return_types(w) || !space())
            return false;
        remember_value_type(RegisterFile::resource);
        return true;
    case op_dcl_resource_raw:
        decl_.dimension = vsir::ResourceDimension::raw_buffer;
        return descriptor(RegisterFile::resource) && space();
    case op_dcl_resource_structured:
        decl_.dimension = vsir::ResourceDimension::structured_buffer;
        return descriptor(RegisterFile::resource) && word(decl_.structure_stride, "stride") && space();
    case op_dcl_uav_typed:
    case op_dcl_uav_raw:
    case op_dcl_uav_structured: {
        decl_.value = flag_if(token_ & uav_globally_coherent_bit, vsir::uav_globally_coherent) |
                      flag_if(token_ & uav_rasterizer_ordered_bit, vsir::uav_rasterizer_ordered) |
                      flag_if(number == op_dcl_uav_structured && (token_ & uav_has_counter_bit), vsir::uav_has_counter);
        if (number == op_dcl_uav_raw)
            decl_.dimension = vsir::ResourceDimension::raw_buffer;
        else if (number == op_dcl_uav_structured)
            decl_.dimension = vsir::ResourceDimension::structured_buffer;
        else if (!resource_dimension(bits(token_, 11, 5)))
            return false;
        if (!descriptor(RegisterFile::uav))
            return false;
        if (number == op_dcl_uav_typed && (!word(w, "return type") || !return_types(w)))
            return false;
        if (number == op_dcl_uav_structured && !word(decl_.structure_stride, "stride"))
            return false;
        if (!space())
            return false;
        if (number == op_dcl_uav_typed)
            remember_value_type(RegisterFile::uav);
        return true;
    }
    case op_dcl_tgsm_raw:
        return plain_register(RegisterFile::groupshared) && word(decl_.byte_count, "byte count");
    case op_dcl_tgsm_structured:
        return plain_register(RegisterFile::groupshared) && word(decl_.structure_stride, "stride") &&
               word(decl_.count, "structure count");
    case op_dcl_input:
    case op_dcl_output: return signature_register();
    case op_dcl_input_sgv:
    case op_dcl_input_siv:
    case op_dcl_output_sgv:
    case op_dcl_output_siv:
        return signature_register() && system_value();
    case op_dcl_input_ps: return interpolation() && signature_register();
    case op_dcl_input_ps_sgv:
    case op_dcl_input_ps_siv: return interpolation() && signature_register() && system_value();
    case op_dcl_index_range: return signature_register() && word(decl_.count, "register count");
    case op_dcl_thread_group:
        return word(decl_.thread_group[0], "thread group size") && word(decl_.thread_group[1], "thread group size") &&
               word(decl_.thread_group[2], "thread group size");
    case op_dcl_gs_input_primitive: decl_.value = bits(token_, 11, 6); return true;
    case op_dcl_gs_output_topology: decl_.value = bits(token_, 11, 7); return true;
    case op_dcl_max_output_vertex_count:
    case op_dcl_gs_instance_count:
    case op_dcl_hs_fork_phase_instance_count:
    case op_dcl_hs_join_phase_instance_count: return word(decl_.count, "count");
    case op_dcl_stream: return plain_register(RegisterFile::stream);
    case op_dcl_input_control_point_count:
    case op_dcl_output_control_point_count: decl_.count = bits(token_, 11, 6); return true;
    case op_dcl_tess_domain: decl_.value = bits(token_, 11, 2); return true;
    case op_dcl_tess_partitioning:
    case op_dcl_tess_output_primitive: decl_.value = bits(token_, 11, 3); return true;
    case op_dcl_hs_max_tessfactor:
        if (!word(w, "max tessfactor"))
            return false;
        std::memcpy(&decl_.float_value, &w, 4);
        return true;
    default: return ctx_.fail(Code::tpf_unknown_opcode, cur_.start, "unhandled declaration opcode %u", number);
    }
}

} // namespace

bool return_type_of(uint32_t value, DataType& out)
{
    static constexpr DataType types[] = {
        DataType::none, DataType::unorm, DataType::snorm, DataType::i32, DataType::u32,
        DataType::f32, DataType::mixed, DataType::f64, DataType::continued, DataType::none,
    };
    if (value >= sizeof(types) / sizeof(types[0]))
        return false;
    out = types[value];
    return true;
}

bool read_declaration(Context& ctx, Cursor& cur, uint32_t token, const OpcodeEntry& entry)
{
    vsir::Program& program = *ctx.program;
    uint32_t dst_count = vsir::opcode_info(entry.op).dst_count ? 1 : 0; // declarations declare at most one register
    uint32_t inst = program.add_instruction(entry.op, dst_count, 0, ctx.offset_of(cur.start));
    Declaration& decl = program.add_declaration(inst);
    vsir::DstParam* reg = dst_count ? &program.dsts.back() : nullptr;
    return DeclarationReader(ctx, cur, token, entry.op, decl, reg).payload(bits(token, 0, opcode_bits));
}

} // namespace dxspv::tpf

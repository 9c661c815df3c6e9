#include "tpf/reader.h"

#include <cstdarg>
#include <cstdio>

#include "tpf/context.h"
#include "tpf/declarations.h"
#include "tpf/opcode_table.h"
#include "tpf/operand.h"
#include "tpf/tokens.h"

namespace dxspv::tpf {

bool Context::fail(Code code, uint32_t index, const char* fmt, ...) const
{
    char text[256];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    diags->error(code, location(index), "%s", text);
    return false;
}

namespace {

using vsir::DataType;
using vsir::Opcode;

/// What the extended opcode tokens of an instruction say.
struct ExtendedOpcode {
    int8_t texel_offset[3] = {0, 0, 0};
    vsir::ResourceDimension dimension = vsir::ResourceDimension::unknown;
    uint32_t stride = 0;
    DataType return_type[4] = {DataType::none, DataType::none, DataType::none, DataType::none};
};

/// Reads the chain of extended opcode tokens after the opcode token.
bool read_extended_opcodes(Context& ctx, Cursor& cur, uint32_t token, ExtendedOpcode& ext)
{
    while (token & extended_bit) {
        if (!cur.next(token))
            return report_truncated(ctx, cur, "extended opcode token");
        switch (bits(token, 0, 6)) {
        case ext_empty: break;
        case ext_sample_controls:
            for (unsigned i = 0; i < 3; ++i) {
                uint32_t v = bits(token, 9 + 4 * i, 4);
                ext.texel_offset[i] = int8_t(v & 8 ? int(v) - 16 : int(v));
            }
            break;
        case ext_resource_dim:
            if (bits(token, 6, 5) > uint32_t(vsir::ResourceDimension::structured_buffer))
                return ctx.fail(Code::tpf_unknown_extended_token, cur.start, "unknown resource dimension %u",
                                bits(token, 6, 5));
            ext.dimension = vsir::ResourceDimension(bits(token, 6, 5));
            ext.stride = bits(token, 11, 12);
            break;
        case ext_return_type:
            for (unsigned c = 0; c < 4; ++c)
                if (!return_type_of(bits(token, 6 + 4 * c, 4), ext.return_type[c]))
                    return ctx.fail(Code::tpf_unknown_extended_token, cur.start, "unknown resource return type %u",
                                    bits(token, 6 + 4 * c, 4));
            break;
        default:
            return ctx.fail(Code::tpf_unknown_extended_token, cur.start, "unknown extended opcode type %u",
                            bits(token, 0, 6));
        }
    }
    return true;
}

bool tests_condition(Opcode op)
{
    return op == Opcode::if_ || op == Opcode::breakc || op == Opcode::continuec || op == Opcode::retc ||
           op == Opcode::discard || op == Opcode::callc;
}

/// Instruction flags and destination modifiers from opcode token bits [23:11].
void apply_controls(vsir::Program& program, vsir::Instruction& ins, uint32_t token)
{
    if (!bits(token, 11, 12)) // the usual instruction: no control set (every case below reads only these bits)
        return;
    if (ins.opcode == Opcode::sync) {
        ins.flags |= flag_if(token & sync_thread_group, vsir::flag_sync_thread_group) |
                     flag_if(token & sync_tgsm, vsir::flag_sync_tgsm) |
                     flag_if(token & sync_uav_group, vsir::flag_sync_uav_group) |
                     flag_if(token & sync_uav_global, vsir::flag_sync_uav_global);
        return;
    }
    if (tests_condition(ins.opcode) && (token & test_nonzero_bit))
        ins.flags |= vsir::flag_test_nonzero;
    ins.flags |= bits(token, precise_shift, 4) << 8; // flag_precise_x..w
    if (token & saturate_bit)
        for (vsir::DstParam& dst : program.dsts_of(ins))
            dst.modifiers |= vsir::dst_saturate;
    uint32_t return_type = bits(token, 11, 2);
    if (ins.opcode == Opcode::resinfo && return_type == 1)
        ins.flags |= vsir::flag_resinfo_rcp_float;
    bool uint_result = (ins.opcode == Opcode::resinfo && return_type == 2) ||
                       (ins.opcode == Opcode::sampleinfo && return_type == 1);
    if (uint_result) {
        ins.flags |= vsir::flag_resinfo_uint;
        program.dst(ins, 0).reg.type = DataType::u32;
    }
}

/// Types the Slot::value operands from the declaration of the instruction's
/// resource or UAV (f32 when it has none).
void type_resource_values(const Context& ctx, vsir::Program& program, const vsir::Instruction& ins,
                          const OpcodeEntry& entry)
{
    const vsir::Register* resource = nullptr;
    for (const vsir::SrcParam& src : program.srcs_of(ins))
        if (!resource && (src.reg.file == vsir::RegisterFile::resource || src.reg.file == vsir::RegisterFile::uav))
            resource = &src.reg;
    for (const vsir::DstParam& dst : program.dsts_of(ins))
        if (!resource && dst.reg.file == vsir::RegisterFile::uav)
            resource = &dst.reg;
    DataType type = DataType::f32;
    if (resource) {
        const auto& types = resource->file == vsir::RegisterFile::uav ? ctx.uav_value_types : ctx.resource_value_types;
        type = types.get(resource->idx[0].offset);
    }
    for (uint32_t i = 0; i < ins.dst_count; ++i)
        if (entry.dst[i] == Slot::value)
            program.dst(ins, i).reg.type = type;
    for (uint32_t i = 0; i < ins.src_count; ++i)
        if (entry.src[i] == Slot::value)
            program.src(ins, i).reg.type = type;
}

/// Resource, sampler, UAV, TGSM, label and stream operands go in opaque
/// slots and nowhere else.
bool check_slot(const Context& ctx, uint32_t at, const OpcodeEntry& entry, Slot slot, const Operand& op)
{
    if ((slot == Slot::any) == op.opaque)
        return true;
    return ctx.fail(Code::tpf_bad_operand, at, "register file %s not allowed in this operand of %s",
                    vsir::register_prefix(op.reg.file), vsir::opcode_info(entry.op).name);
}

bool read_instruction(Context& ctx, Cursor& cur, uint32_t token, const OpcodeEntry& entry, const ExtendedOpcode& ext)
{
    vsir::Program& program = *ctx.program;
    uint32_t inst = program.add_instruction(entry.op, entry.dst_count, entry.src_count, ctx.offset_of(cur.start));
    // Operands are decoded into a local: relative addresses grow the src pool.
    Operand op;
    for (uint32_t i = 0; i < entry.dst_count; ++i) {
        uint32_t at = cur.pos;
        if (!read_dst(ctx, cur, slot_type(entry.dst[i]), op) || !check_slot(ctx, at, entry, entry.dst[i], op))
            return false;
        set_dst(program.dsts[program.instructions[inst].dst_first + i], op);
    }
    for (uint32_t i = 0; i < entry.src_count; ++i) {
        uint32_t at = cur.pos;
        if (!read_src(ctx, cur, slot_type(entry.src[i]), op) || !check_slot(ctx, at, entry, entry.src[i], op))
            return false;
        set_src(program.srcs[program.instructions[inst].src_first + i], op);
    }

    vsir::Instruction& ins = program.instructions[inst];
    if (cur.remaining()) {
        if (cur.remaining() > 0xff)
            return ctx.fail(Code::tpf_bad_instruction_length, cur.start, "%u tokens after the last operand",
                            cur.remaining());
        ins.tail_first = uint32_t(program.u32_pool.size());
        ins.tail_count = uint8_t(cur.remaining());
        uint32_t w = 0;
        while (cur.next(w))
            program.u32_pool.push_back(w);
    }
    if (token & extended_bit) { // (else ext holds the instruction's defaults)
        for (unsigned i = 0; i < 3; ++i)
            ins.texel_offset[i] = ext.texel_offset[i];
        ins.resource_dimension = ext.dimension;
        ins.resource_stride = ext.stride;
        for (unsigned c = 0; c < 4; ++c)
            ins.resource_type[c] = ext.return_type[c];
    }
    apply_controls(program, ins, token);
    if (entry.value_slots)
        type_resource_values(ctx, program, ins, entry);

    if (entry.op == Opcode::case_ && program.src(ins, 0).reg.file != vsir::RegisterFile::immediate)
        return ctx.fail(Code::tpf_bad_operand, cur.start, "case value is not an immediate");
    if (entry.op == Opcode::label || entry.op == Opcode::call || entry.op == Opcode::callc) {
        const vsir::SrcParam& label = program.src(ins, entry.op == Opcode::callc ? 1 : 0);
        if (label.reg.file != vsir::RegisterFile::label || label.reg.index_count != 1)
            return ctx.fail(Code::tpf_bad_operand, cur.start, "%s without a label operand",
                            vsir::opcode_info(entry.op).name);
        if (label.reg.idx[0].offset >= program.label_count)
            program.label_count = label.reg.idx[0].offset + 1;
    }
    return true;
}

/// Reads the custom data block at `pos`; returns false when its length is
/// unusable (reading must stop), true otherwise (also after reporting an
/// error on a block it could skip).
bool read_custom_data(Context& ctx, uint32_t& pos)
{
    uint32_t token = ctx.word(pos);
    if (ctx.word_count - pos < 2)
        return ctx.fail(Code::tpf_bad_custom_data, pos, "custom data block without a length token");
    uint32_t length = ctx.word(pos + 1);
    if (length < 2 || length > ctx.word_count - pos)
        return ctx.fail(Code::tpf_bad_custom_data, pos, "custom data block length %u (%u tokens left)", length,
                        ctx.word_count - pos);
    uint32_t start = pos;
    pos += length;
    if (bits(token, opcode_bits, 21) != custom_icb)
        return true; // comments, debug info, shader messages, DX9 clip plane mappings: not needed
    uint32_t count = length - 2;
    if (count % 4) {
        ctx.fail(Code::tpf_bad_custom_data, start, "immediate constant buffer of %u values (not whole vec4s)", count);
        return true;
    }
    vsir::Program& program = *ctx.program;
    uint32_t inst = program.add_instruction(Opcode::dcl_immediate_constant_buffer, 0, 0, ctx.offset_of(start));
    vsir::Declaration& decl = program.add_declaration(inst);
    decl.data_first = uint32_t(program.u32_pool.size());
    decl.data_count = count;
    decl.count = count / 4;
    program.u32_pool.reserve(program.u32_pool.size() + count);
    for (uint32_t i = 0; i < count; ++i)
        program.u32_pool.push_back(ctx.word(start + 2 + i));
    return true;
}

const char* interface_opcode_name(uint32_t number)
{
    switch (number) {
    case op_dcl_function_body: return "dcl_function_body";
    case op_dcl_function_table: return "dcl_function_table";
    case op_dcl_interface: return "dcl_interface";
    default: return "fcall";
    }
}

/// Drops what a failed instruction appended. read_declaration and
/// read_instruction append the instruction first, then its declaration and
/// the sources of its relative addresses: what the instruction records is
/// where the pools ended before it (no copy of every pool's size per
/// instruction). Neither changes temp_count or label_count before it can
/// no longer fail.
void drop_failed(vsir::Program& p, size_t instruction_count)
{
    if (p.instructions.size() == instruction_count)
        return;
    const vsir::Instruction& ins = p.instructions[instruction_count];
    p.dsts.resize(ins.dst_first);
    p.srcs.resize(ins.src_first);
    if (ins.decl != vsir::invalid_index)
        p.decls.resize(ins.decl);
    p.instructions.resize(instruction_count);
}

/// Reads one instruction at `pos`; returns false when reading must stop.
bool read_one(Context& ctx, uint32_t& pos)
{
    uint32_t token = ctx.word(pos);
    uint32_t number = bits(token, 0, opcode_bits);
    const OpcodeEntry& entry = opcode_entry(number);
    if (entry.handling == Handling::custom_data)
        return read_custom_data(ctx, pos);
    if (entry.handling == Handling::interface)
        return ctx.fail(Code::tpf_interfaces_unsupported, pos, "interfaces and class linkage are not supported (%s)",
                        interface_opcode_name(number));

    uint32_t length = bits(token, length_shift, length_bits);
    if (length == 0 || length > ctx.word_count - pos)
        return ctx.fail(Code::tpf_bad_instruction_length, pos, "instruction length %u (%u tokens left)", length,
                        ctx.word_count - pos);
    Cursor cur{ctx.bytes, pos, pos + 1, pos + length};
    pos += length;
    if (entry.handling == Handling::unknown) {
        ctx.fail(Code::tpf_unknown_opcode, cur.start, "unknown opcode 0x%x", number);
        return true;
    }

    size_t instruction_count = ctx.program->instructions.size();
    ExtendedOpcode ext;
    bool ok = read_extended_opcodes(ctx, cur, token, ext) &&
              (entry.handling == Handling::declaration ? read_declaration(ctx, cur, token, entry)
                                                       : read_instruction(ctx, cur, token, entry, ext));
    if (!ok)
        drop_failed(*ctx.program, instruction_count);
    return !ctx.refused;
}

/// Makes room for `count` more elements. The arrays usually come with the
/// room (recycled from the last program): one subtraction tells, where
/// reserve() first works out the size and checks it against max_size().
template <class T>
void reserve_room(std::vector<T>& array, size_t count)
{
    if (size_t(array.capacity() - array.size()) < count)
        array.reserve(array.size() + count);
}

bool read_header(std::span<const uint8_t> chunk, Context& ctx, ShaderModel& model)
{
    if (chunk.size() < 8)
        return ctx.fail(Code::tpf_truncated_program, 0, "shader program of %zu bytes has no version and length tokens",
                        chunk.size());
    uint32_t version = load_le32(chunk.data());
    uint32_t length = load_le32(chunk.data() + 4);
    uint32_t type = bits(version, 16, 16);
    uint32_t major = bits(version, 4, 4);
    uint32_t minor = bits(version, 0, 4);
    if (type > uint32_t(ShaderStage::compute) || (major != 4 && major != 5) || minor > 1)
        return ctx.fail(Code::tpf_bad_version, 0, "unsupported program type %u, shader model %u.%u", type, major,
                        minor);
    if (length < 2 || length > chunk.size() / 4)
        return ctx.fail(Code::tpf_truncated_program, 1, "program length %u tokens, chunk holds %zu", length,
                        chunk.size() / 4);
    model.stage = ShaderStage(type);
    model.major = uint8_t(major);
    model.minor = uint8_t(minor);
    ctx.word_count = length;
    ctx.sm51 = major == 5 && minor == 1;
    return true;
}

} // namespace

bool read_program(std::span<const uint8_t> shex_chunk, uint32_t chunk_offset_in_container, vsir::Program& out,
                  Diagnostics& diags)
{
    size_t errors_before = diags.error_count();
    Context ctx;
    ctx.bytes = shex_chunk.data();
    ctx.base_offset = chunk_offset_in_container;
    ctx.program = &out;
    ctx.diags = &diags;
    if (!read_header(shex_chunk, ctx, out.model))
        return false;
    out.control_flow = vsir::ControlFlow::structured;
    // Typical density: an instruction per 4 tokens, 2.5 parameters each.
    reserve_room(out.instructions, ctx.word_count / 4);
    reserve_room(out.dsts, ctx.word_count / 4);
    reserve_room(out.srcs, ctx.word_count / 2);
    reserve_room(out.decls, 8 + ctx.word_count / 32);

    uint32_t pos = 2;
    while (pos < ctx.word_count)
        if (!read_one(ctx, pos))
            break;
    return diags.error_count() == errors_before;
}

} // namespace dxspv::tpf

// Emitter core: module setup, the instruction walk and dispatch, types,
// constants and value helpers.
#include "spirv/emitter.h"

#include <algorithm>
#include <bit>
#include <cstdarg>
#include <cstdio>
#include <memory>

namespace dxspv::spirv {

// ---- entry point ----

bool emit_spirv(const vsir::Program& program, const EmitOptions& options, std::vector<uint32_t>& words,
    Diagnostics& diags)
{
    words.clear();
    ScratchScope scratch; // the emitter's and the builder's containers (common/scratch.h)
    Emitter emitter(program, options, diags);
    // Each structured control-flow instruction opens at most a few SPIR-V
    // blocks, so this bounds the block count.
    size_t blocks = 4 * emitter.control_flow_count();
    if (blocks > max_emit_blocks) {
        diags.error(Code::spirv_too_many_blocks, Location::none(),
            "the program has too many control-flow constructs to emit (about %zu blocks, at most %zu)", blocks,
            max_emit_blocks);
        return false;
    }
    return emitter.run(words);
}

NumberedName::NumberedName(std::string_view prefix, uint64_t n, std::string_view suffix)
{
    char digits[20];
    size_t count = 0;
    do {
        digits[count++] = char('0' + n % 10);
        n /= 10;
    } while (n);
    size_t at = std::min(prefix.size(), sizeof(text_) - 1);
    std::copy_n(prefix.begin(), at, text_);
    while (count && at < sizeof(text_) - 1)
        text_[at++] = digits[--count];
    size_t tail = std::min(suffix.size(), sizeof(text_) - 1 - at);
    std::copy_n(suffix.begin(), tail, text_ + at);
    text_[at + tail] = 0;
}

Emitter::Emitter(const vsir::Program& program, const EmitOptions& options, Diagnostics& diags)
    : prog_(program), options_(options), diags_(diags),
      b_(spirv_version(options.target_env), std::max<size_t>(program.instructions.size(), 1)),
      dst_pool_size_(program.dsts.size()), src_pool_size_(program.srcs.size())
{
    using vsir::Opcode;
    int depth = 0;
    // The sizes in locals: the stores below could alias the vectors' own.
    const std::span<const vsir::Instruction> instructions = program.instructions;
    const size_t decl_count = program.decls.size();
    for (uint32_t i = 0; i < instructions.size(); ++i) {
        const vsir::Instruction& ins = instructions[i];
        const vsir::OpcodeKind kind = vsir::opcode_info(ins.opcode).kind;
        if (ins.decl < decl_count || kind == vsir::OpcodeKind::phase)
            declared_.push_back(i);
        has_attribute_at_vertex_ |= ins.opcode == Opcode::attribute_at_vertex;
        if (kind != vsir::OpcodeKind::structured_cf)
            continue;
        ++control_flow_count_;
        straight_line_ &= ins.opcode == Opcode::ret && depth == 0;
        switch (ins.opcode) {
        case Opcode::if_:
        case Opcode::loop:
        case Opcode::switch_: ++depth; break;
        case Opcode::endif:
        case Opcode::endloop:
        case Opcode::endswitch: --depth; break;
        case Opcode::ret: returns_only_at_top_ &= depth == 0; break;
        case Opcode::call:
        case Opcode::callc: has_subroutines_ = true; [[fallthrough]];
        case Opcode::retc: returns_only_at_top_ = false; break;
        case Opcode::label:
            has_labels_ = true;
            returns_only_at_top_ = false;
            break;
        default: break;
        }
    }
    scan_operands();
}

Emitter::RareState& Emitter::make_rare()
{
    RareState& rare_state = rare_.emplace();
    rare_state.patch.patch = true;
    rare_state.patch.output = prog_.model.stage == ShaderStage::hull;
    return rare_state;
}

/// One walk over the operand pools for what the set-up before emission
/// asks of every operand: the files addressed relatively (file_indexed),
/// the input registers read (in_regs_read_, patch_regs_read_, and
/// inputs_w_read_ for SV_Position's .w), and temp_kinds_: the component
/// type each r# is stored as, f32 when the program reads and writes it as
/// 32-bit floats more often than as anything else (float operations then
/// need no bitcasts), else u32; 16- and 64-bit accesses keep it u32.
void Emitter::scan_operands()
{
    struct TempUse {
        int32_t balance; ///< f32 accesses less 32-bit integer ones
        bool words_only; ///< a 16- or 64-bit access
    };
    constexpr uint32_t max_temps = 65536;
    ScratchVector<TempUse> temps(std::min(prog_.temp_count, max_temps));
    auto note = [&](const vsir::Register& reg) {
        const uint32_t index_count = std::min<uint32_t>(reg.index_count, 3);
        for (uint32_t i = 0; i < index_count; ++i)
            if (reg.idx[i].rel_addr != vsir::invalid_index) {
                relative_indices_ = true;
                if (size_t(reg.file) < 64)
                    indexed_files_ |= uint64_t(1) << size_t(reg.file);
                break;
            }
        if (reg.file != vsir::RegisterFile::temp || reg.index_count < 1 || reg.idx[0].offset >= max_temps)
            return;
        const uint32_t r = reg.idx[0].offset;
        if (temps.size() <= r)
            temps.resize(r + 1);
        switch (reg.type) {
        case vsir::DataType::f32: ++temps[r].balance; break;
        case vsir::DataType::i32:
        case vsir::DataType::u32: --temps[r].balance; break;
        case vsir::DataType::none: break;
        default: temps[r].words_only = true; break;
        }
    };
    for (const vsir::DstParam& d : prog_.dsts)
        note(d.reg);
    using vsir::RegisterFile;
    constexpr uint64_t input_files = uint64_t(1) << size_t(RegisterFile::input)
        | uint64_t(1) << size_t(RegisterFile::input_control_point)
        | uint64_t(1) << size_t(RegisterFile::patch_constant);
    for (const vsir::SrcParam& src : prog_.srcs) {
        note(src.reg);
        const RegisterFile file = src.reg.file;
        if (!((input_files >> size_t(file)) & 1) || src.reg.index_count < 1)
            continue;
        const vsir::RegisterIndex& r = src.reg.idx[std::min<uint32_t>(src.reg.index_count, 3) - 1];
        const uint64_t bit = r.rel_addr == vsir::invalid_index && r.offset < 64 ? uint64_t(1) << r.offset : 0;
        (file == RegisterFile::patch_constant ? patch_regs_read_ : in_regs_read_) |= bit ? bit : ~uint64_t(0);
        if (file == RegisterFile::input && src.reg.index_count == 1 && bit) {
            bool reads_w = false; // .w in any of its four (whatever the write mask)
            for (unsigned c = 0; c < 4; ++c)
                reads_w |= vsir::swizzle_component(src.swizzle, c) == 3;
            if (reads_w)
                inputs_w_read_ |= bit;
        }
    }
    temp_kinds_.resize(temps.size());
    for (size_t r = 0; r < temps.size(); ++r)
        temp_kinds_[r] = temps[r].balance > 0 && !temps[r].words_only ? Kind::f32 : Kind::u32;
}

bool Emitter::run(std::vector<uint32_t>& words)
{
    bool compute = prog_.model.stage == ShaderStage::compute;
    if (!compute && !is_graphics()) {
        diags_.error(Code::spirv_unsupported_stage, Location::none(),
            "shader stage '%s' is not supported by the SPIR-V emitter yet",
            stage_short_name(prog_.model.stage));
        return false;
    }
    if (prog_.control_flow != vsir::ControlFlow::structured) {
        diags_.error(Code::spirv_unstructured_control_flow, Location::none(),
            "the program has unstructured control flow; run the structurizer before emitting SPIR-V");
        return false;
    }
    begin_module();
    prepare_push_constants();
    if (!compute)
        scan_io();
    declare_temps(prog_.temp_count);
    if (!scan_ssa())
        return false;
    if (inline_entry_)
        copy_all_inputs();
    const std::span<const vsir::Instruction> instructions = prog_.instructions; // its size in a register
    for (uint32_t i = 0; i < instructions.size(); ++i) {
        ins_index_ = i;
        ins_ = &instructions[i];
        if (!emit_instruction(*ins_))
            return false;
    }
    ins_ = nullptr;
    if (!control_flow_closed() || !check_subroutines())
        return false;
    if (compute && !has_thread_group_)
        diags_.error(Code::spirv_missing_declaration, Location::none(),
            "compute shader without dcl_thread_group");
    if (failed_ || (compute && !has_thread_group_))
        return false;
    if (prog_.model.stage == ShaderStage::geometry && !check_geometry_modes())
        return false;
    if ((prog_.model.stage == ShaderStage::hull || prog_.model.stage == ShaderStage::domain)
        && !check_tessellation_modes())
        return false;
    return finish_module(words);
}

void Emitter::begin_module()
{
    b_.addCapability(spv::CapabilityShader);
    b_.setMemoryModel(spv::AddressingModelLogical, spv::MemoryModelGLSL450);
    if (prog_.model.stage != ShaderStage::compute) {
        begin_graphics_module();
        return;
    }
    main_ = entry_ = b_.makeEntryPoint("main");
    b_.assume_initial_values();
}

bool Emitter::finish_module(std::vector<uint32_t>& words)
{
    if (inline_entry_ && !b_.getBuildPoint()->isTerminated())
        emit_entry_epilogue();
    b_.leaveFunction();
    assign_implicit_counter_bindings();
    if (entry_ != main_)
        finish_graphics_entry();
    // SPIR-V 1.4+ lists every global the entry point uses; earlier versions
    // only Input and Output variables.
    bool all_globals = spirv_version(options_.target_env) >= 0x00010400;
    ScratchVector<spv::Id> interface;
    for (spv::Id var : interface_) {
        spv::StorageClass storage = b_.getStorageClass(var);
        if (all_globals || storage == spv::StorageClassInput || storage == spv::StorageClassOutput)
            interface.push_back(var);
    }
    b_.addEntryPoint(execution_model(), entry_, "main", interface);
    if (uses_storage_buffer_ && spirv_version(options_.target_env) < 0x00010300)
        b_.addExtension("SPV_KHR_storage_buffer_storage_class");
    b_.dump(words);
    return true;
}

bool Emitter::check_operand_counts(const vsir::Instruction& ins)
{
    if (size_t(ins.opcode) >= size_t(vsir::Opcode::count)) {
        error(Code::spirv_invalid_operand, "invalid opcode %u", unsigned(ins.opcode));
        return false;
    }
    const vsir::OpcodeInfo& info = vsir::opcode_info(ins.opcode);
    if ((info.dst_count >= 0 && ins.dst_count != info.dst_count)
        || (info.src_count >= 0 && ins.src_count != info.src_count)) {
        error(Code::spirv_invalid_operand, "%u destinations and %u sources, expected %d and %d",
            ins.dst_count, ins.src_count, info.dst_count, info.src_count);
        return false;
    }
    if (size_t(ins.dst_first) + ins.dst_count > dst_pool_size_
        || size_t(ins.src_first) + ins.src_count > src_pool_size_) {
        error(Code::spirv_invalid_operand, "operands outside the parameter pools");
        return false;
    }
    return true;
}

bool Emitter::emit_instruction(const vsir::Instruction& ins)
{
    if (!check_operand_counts(ins))
        return vsir::opcode_info(ins.opcode).kind != vsir::OpcodeKind::structured_cf;
    switch (vsir::opcode_info(ins.opcode).kind) {
    case vsir::OpcodeKind::declaration:
        return emit_declaration(ins);
    case vsir::OpcodeKind::structured_cf:
        return emit_control_flow(ins);
    case vsir::OpcodeKind::phase:
        return emit_phase(ins);
    case vsir::OpcodeKind::unstructured_cf:
        error(Code::spirv_unstructured_control_flow, "unstructured control flow; run the structurizer first");
        return false;
    case vsir::OpcodeKind::arithmetic:
        if (!emit_alu(ins) && !emit_conversion(ins) && !emit_wave(ins) && !emit_io_op(ins))
            refuse_opcode(ins);
        return true;
    default:
        if (!emit_memory(ins) && !emit_image(ins) && !emit_io_op(ins) && !emit_geometry_op(ins))
            refuse_opcode(ins);
        return true;
    }
}

bool Emitter::emit_declaration(const vsir::Instruction& ins)
{
    using vsir::Opcode;
    if (ins.opcode == Opcode::dcl_global_flags)
        return true;
    if (ins.decl >= prog_.decls.size()) {
        error(Code::spirv_invalid_operand, "declaration without its payload");
        return true;
    }
    const vsir::Declaration& decl = prog_.decls[ins.decl];
    switch (ins.opcode) {
    case Opcode::dcl_temps:
        declare_temps(decl.count);
        break;
    case Opcode::dcl_indexable_temp:
        declare_indexable_temp(decl);
        break;
    case Opcode::dcl_immediate_constant_buffer:
        declare_immediate_constant_buffer(decl);
        break;
    case Opcode::dcl_constant_buffer:
        declare_constant_buffer(ins, decl);
        break;
    case Opcode::dcl_resource_raw:
    case Opcode::dcl_resource_structured:
    case Opcode::dcl_uav_raw:
    case Opcode::dcl_uav_structured:
        declare_buffer(ins, decl);
        break;
    case Opcode::dcl_resource:
    case Opcode::dcl_uav_typed:
        declare_image(ins, decl);
        break;
    case Opcode::dcl_sampler:
        declare_sampler(ins, decl);
        break;
    case Opcode::dcl_tgsm_raw:
    case Opcode::dcl_tgsm_structured:
        declare_tgsm(ins, decl);
        break;
    case Opcode::dcl_thread_group:
        if (has_thread_group_ || !decl.thread_group[0] || !decl.thread_group[1] || !decl.thread_group[2]) {
            error(Code::spirv_invalid_operand, "duplicate or empty thread group size");
            break;
        }
        has_thread_group_ = true;
        std::copy(decl.thread_group, decl.thread_group + 3, thread_group_);
        b_.addExecutionMode(entry_, spv::ExecutionModeLocalSize, int(decl.thread_group[0]),
            int(decl.thread_group[1]), int(decl.thread_group[2]));
        break;
    case Opcode::dcl_input_sgv:
    case Opcode::dcl_input_siv:
    case Opcode::dcl_input_ps:
    case Opcode::dcl_input_ps_sgv:
    case Opcode::dcl_input_ps_siv:
    case Opcode::dcl_output:
    case Opcode::dcl_output_sgv:
    case Opcode::dcl_output_siv:
    case Opcode::dcl_index_range:
        if (prog_.model.stage == ShaderStage::compute)
            refuse_opcode(ins);
        break; // graphics inputs and outputs: scan_io
    case Opcode::dcl_input:
        if (prog_.model.stage != ShaderStage::compute)
            break;
        // Compute inputs are system values, created when first read.
        switch (prog_.dst(ins, 0).reg.file) {
        case vsir::RegisterFile::thread_id:
        case vsir::RegisterFile::thread_group_id:
        case vsir::RegisterFile::local_thread_id:
        case vsir::RegisterFile::local_thread_index:
            break;
        default:
            error(Code::spirv_unsupported_register, "input register '%s' is not supported yet",
                vsir::register_prefix(prog_.dst(ins, 0).reg.file));
        }
        break;
    default:
        if (!emit_geometry_declaration(ins, decl) && !emit_tessellation_declaration(ins, decl))
            refuse_opcode(ins);
    }
    return true;
}

// ---- diagnostics ----

void Emitter::error(Code code, const char* fmt, ...)
{
    char text[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(text, sizeof(text), fmt, args);
    va_end(args);
    failed_ = true;
    if (ins_)
        diags_.error(code, Location::instruction(ins_index_), "%s: %s", vsir::opcode_info(ins_->opcode).name, text);
    else
        diags_.error(code, Location::none(), "%s", text);
}

void Emitter::refuse_opcode(const vsir::Instruction& ins)
{
    error(Code::spirv_unsupported_opcode, "VSIR opcode '%s' is not supported by the SPIR-V emitter yet",
        vsir::opcode_info(ins.opcode).name);
}

// ---- types ----

Kind Emitter::refuse_type(vsir::DataType type)
{
    error(Code::spirv_unsupported_type, "data type '%s' is not supported yet", vsir::data_type_name(type));
    return Kind::u32;
}

spv::Id Emitter::make_type(Kind kind, uint32_t count)
{
    spv::Id& t = types_[size_t(kind)][count];
    if (count > 1) {
        t = b_.makeVectorType(type(kind, 1), int(count));
        return t;
    }
    uint32_t width = bit_width(kind);
    if (kind == Kind::boolean || kind == Kind::count)
        t = b_.makeBoolType();
    else if (is_float(kind))
        t = b_.makeFloatType(int(width));
    else
        t = is_signed(kind) ? b_.makeIntType(int(width)) : b_.makeUintType(int(width));
    if (kind == Kind::f64)
        b_.addCapability(spv::CapabilityFloat64);
    else if (kind == Kind::f16)
        b_.addCapability(spv::CapabilityFloat16);
    else if (kind == Kind::i16 || kind == Kind::u16)
        b_.addCapability(spv::CapabilityInt16);
    else if (kind == Kind::i64 || kind == Kind::u64)
        b_.addCapability(spv::CapabilityInt64);
    return t;
}

// ---- constants ----

spv::Id Emitter::constant(Kind kind, uint64_t bits)
{
    // A 32-bit constant made before (the usual case): one probe, no set-up.
    if (is_word_kind(kind))
        if (const spv::Id c = narrow_consts_.find(uint64_t(kind) << 32 | uint32_t(bits)))
            return c;
    return make_constant(kind, bits);
}

spv::Id Emitter::make_constant(Kind kind, uint64_t bits)
{
    if (kind == Kind::boolean)
        return b_.makeBoolConstant(bits != 0);
    // A literal narrower than 32 bits is zero-extended, sign-extended for
    // signed integers (SPIR-V 2.2.1).
    uint32_t width = bit_width(kind);
    if (width == 16)
        bits = kind == Kind::i16 ? uint32_t(int32_t(int16_t(bits))) : uint32_t(bits & 0xffffu);
    else if (width == 32)
        bits = uint32_t(bits);
    // One map for the 32-bit and narrower kinds (the kind above the bits):
    // a translation fills a few of them.
    spv::Id& c = width == 64 ? rare().wide_consts[kind == Kind::f64 ? 0 : kind == Kind::i64 ? 1 : 2][bits]
                             : narrow_consts_[uint64_t(kind) << 32 | bits];
    if (!c)
        c = b_.make_scalar_constant(type(kind), bits, width == 64);
    return c;
}

spv::Id Emitter::constant_f32(float v) { return constant(Kind::f32, std::bit_cast<uint32_t>(v)); }

/// IEEE binary16 bits of `f`, rounded to nearest even.
static uint32_t half_bits(float f)
{
    uint32_t x = std::bit_cast<uint32_t>(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exponent = (x >> 23) & 0xffu, mantissa = x & 0x7fffffu;
    if (exponent == 0xff)
        return sign | 0x7c00u | (mantissa ? 0x200u : 0);
    int e = int(exponent) - 127 + 15;
    if (e >= 31)
        return sign | 0x7c00u;
    uint32_t shift = 13;
    if (e <= 0) {
        if (e < -10)
            return sign;
        mantissa |= 0x800000u;
        shift = uint32_t(14 - e);
        e = 0;
    }
    uint32_t h = (uint32_t(e) << 10) + (mantissa >> shift);
    uint32_t rest = mantissa & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rest > half || (rest == half && (h & 1)))
        ++h; // may carry into the exponent: still the right rounding
    return sign | h;
}

spv::Id Emitter::float_constant(Kind kind, double v, uint32_t count)
{
    uint64_t bits = kind == Kind::f64 ? std::bit_cast<uint64_t>(v)
                    : kind == Kind::f16 ? half_bits(float(v))
                                        : std::bit_cast<uint32_t>(float(v));
    return splat_constant(kind, count, bits);
}

/// A vector constant (`count` > 1), made once per type and parts.
spv::Id Emitter::vector_constant(Kind kind, const spv::Id* parts, uint32_t count)
{
    CompositeKey key{type(kind, count), {}};
    std::copy_n(parts, std::min(count, 4u), key.parts.begin());
    // The few composites of most programs are searched in turn: no hash map
    // to set up. Past them, rare().composite_index finds each by its key's hash.
    constexpr uint32_t searched = 8;
    if (composite_consts_.size() < searched) {
        for (const CompositeConstant& c : composite_consts_)
            if (c.key == key)
                return c.id;
    } else {
        for (uint32_t k = rare().composite_index.find(composite_hash(key)); k; k = composite_consts_[k - 1].next)
            if (composite_consts_[k - 1].key == key)
                return composite_consts_[k - 1].id;
    }
    const spv::Id id = b_.make_composite_constant(key.type, parts, count);
    composite_consts_.push_back({key, id, 0});
    const uint32_t n = uint32_t(composite_consts_.size());
    if (n >= searched) // the searched ones too when the map starts
        for (uint32_t k = n == searched ? 0 : n - 1; k < n; ++k)
            index_composite(k);
    return id;
}

uint64_t Emitter::composite_hash(const CompositeKey& key)
{
    uint64_t hash = key.type;
    for (spv::Id part : key.parts)
        hash = (hash ^ part) * 0x100000001b3ull;
    return hash;
}

/// Adds composite_consts_[k] to the front of its hash's chain.
void Emitter::index_composite(uint32_t k)
{
    uint32_t& last = rare().composite_index[composite_hash(composite_consts_[k].key)];
    composite_consts_[k].next = last;
    last = k + 1;
}

spv::Id Emitter::splat_constant(Kind kind, uint32_t count, uint64_t bits)
{
    spv::Id c = constant(kind, bits);
    spv::Id parts[4] = {c, c, c, c};
    return composite_constant(kind, parts, count);
}

/// `x op y` for integer_op; false for another opcode, and for a shift by 32
/// or more (undefined in SPIR-V: left to the driver).
static bool fold_integer_op(spv::Op op, uint32_t x, uint32_t y, uint32_t& r)
{
    switch (op) {
    case spv::OpIAdd: r = x + y; return true;
    case spv::OpISub: r = x - y; return true;
    case spv::OpIMul: r = x * y; return true;
    case spv::OpBitwiseAnd: r = x & y; return true;
    case spv::OpBitwiseOr: r = x | y; return true;
    case spv::OpBitwiseXor: r = x ^ y; return true;
    case spv::OpShiftLeftLogical: r = x << (y & 31); return y < 32;
    case spv::OpShiftRightLogical: r = x >> (y & 31); return y < 32;
    case spv::OpShiftRightArithmetic: r = uint32_t(int32_t(x) >> (y & 31)); return y < 32;
    default: return false;
    }
}

/// Whether `x op y` is x for every x: a + 0, a - 0, a | 0, a ^ 0, a << 0,
/// a >> 0, a * 1.
static bool is_right_identity(spv::Op op, uint32_t y)
{
    switch (op) {
    case spv::OpIAdd:
    case spv::OpISub:
    case spv::OpBitwiseOr:
    case spv::OpBitwiseXor:
    case spv::OpShiftLeftLogical:
    case spv::OpShiftRightLogical:
    case spv::OpShiftRightArithmetic: return y == 0;
    case spv::OpIMul: return y == 1;
    default: return false;
    }
}

spv::Id Emitter::integer_op(spv::Op op, Kind kind, uint32_t count, spv::Id a, spv::Id b)
{
    const spv::Id t = type(kind, count);
    uint32_t x[4], y[4], r;
    if (bit_width(kind) == 32 && count <= 4 && b_.constant_lanes(b, count, y)) {
        if (b_.constant_lanes(a, count, x)) {
            spv::Id parts[4];
            uint32_t i = 0;
            for (; i < count && fold_integer_op(op, x[i], y[i], r); ++i)
                parts[i] = constant(kind, r);
            if (i == count)
                return composite_constant(kind, parts, count);
        } else if (b_.getTypeId(a) == t) {
            uint32_t i = 0;
            while (i < count && is_right_identity(op, y[i]))
                ++i;
            if (i == count)
                return a;
        }
    }
    return b_.createBinOp(op, t, a, b);
}

spv::Id Emitter::integer_op(spv::Op op, spv::Id a, uint32_t b)
{
    uint32_t x[4], r;
    if (is_right_identity(op, b) && b_.getTypeId(a) == type(Kind::u32))
        return a;
    if (b_.constant_lanes(a, 1, x) && fold_integer_op(op, x[0], b, r))
        return constant_u32(r);
    return b_.createBinOp(op, type(Kind::u32), a, constant_u32(b));
}

spv::Id Emitter::undef(Kind kind, uint32_t count)
{
    return b_.createUndefined(type(kind, count));
}

// ---- value helpers ----

spv::Id Emitter::glsl(GLSLstd450 op, spv::Id result_type, std::initializer_list<spv::Id> args)
{
    if (!glsl_import_)
        glsl_import_ = b_.import("GLSL.std.450");
    return b_.createBuiltinCall(result_type, glsl_import_, op, args);
}

/// OpBitcast, folded where the value already has the type, is a bitcast of
/// a value of that type, or is a 32-bit scalar constant.
spv::Id Emitter::make_bitcast(spv::Id value, spv::Id to_type)
{
    if (spv::Id source = b_.bitcast_source(value)) { // a bitcast of a bitcast: of the first value
        if (b_.getTypeId(source) == to_type)
            return source;
        value = source;
    }
    uint32_t bits[4] = {}, count = 1;
    if (b_.constant_word(value, bits[0]) || b_.constant_words(value, bits, count)) {
        for (Kind k : {Kind::u32, Kind::i32, Kind::f32}) {
            if (count > 4 || types_[size_t(k)][count] != to_type)
                continue;
            spv::Id parts[4];
            for (uint32_t i = 0; i < count; ++i)
                parts[i] = constant(k, bits[i]);
            return composite_constant(k, parts, count);
        }
    }
    return b_.createUnaryOp(spv::OpBitcast, to_type, value);
}

Value Emitter::bitcast_kind(Value v, Kind kind)
{
    if (bit_width(v.kind) != bit_width(kind)) {
        error(Code::spirv_invalid_operand, "operand is %u-bit where a %u-bit value is expected", bit_width(v.kind),
            bit_width(kind));
        return {undef(kind, v.count), kind, v.count};
    }
    return {bitcast(v.id, type(kind, v.count)), kind, v.count};
}

spv::Id Emitter::to_words(Value v, uint32_t& word_count)
{
    uint32_t width = bit_width(v.kind);
    word_count = width == 64 ? v.count * 2u : v.count;
    if (word_count > 4) {
        error(Code::spirv_invalid_operand, "value wider than four 32-bit words");
        word_count = 4;
        return undef(Kind::u32, 4);
    }
    if (v.kind == Kind::u32)
        return v.id;
    if (v.kind == Kind::boolean)
        return select_mask(v.id, v.count);
    if (width == 16) {
        spv::Id id = v.kind == Kind::u16 ? v.id : bitcast(v.id, type(Kind::u16, v.count));
        return b_.createUnaryOp(spv::OpUConvert, type(Kind::u32, v.count), id);
    }
    return bitcast(v.id, type(Kind::u32, word_count));
}

Value Emitter::from_words(spv::Id words, uint32_t word_count, Kind kind)
{
    if (kind == Kind::u32)
        return {words, kind, uint8_t(word_count)};
    uint32_t width = bit_width(kind);
    if (width == 64) {
        if (word_count % 2) {
            error(Code::spirv_invalid_operand, "64-bit operand with an odd number of 32-bit components");
            return {undef(kind, 1), kind, 1};
        }
        return {bitcast(words, type(kind, word_count / 2)), kind, uint8_t(word_count / 2)};
    }
    if (kind == Kind::boolean) {
        spv::Id r = b_.createBinOp(spv::OpINotEqual, type(Kind::boolean, word_count), words,
            splat_constant(Kind::u32, word_count, 0));
        return {r, kind, uint8_t(word_count)};
    }
    if (width == 16) {
        spv::Id r = b_.createUnaryOp(spv::OpUConvert, type(Kind::u16, word_count), words);
        if (kind != Kind::u16)
            r = bitcast(r, type(kind, word_count));
        return {r, kind, uint8_t(word_count)};
    }
    return {bitcast(words, type(kind, word_count)), kind, uint8_t(word_count)};
}

Value Emitter::splat(Value scalar, uint32_t count)
{
    if (count <= 1 || scalar.count != 1)
        return scalar;
    spv::Id parts[4] = {scalar.id, scalar.id, scalar.id, scalar.id};
    return {construct(scalar.kind, parts, count), scalar.kind, uint8_t(count)};
}

spv::Id Emitter::extract(Value v, uint32_t index)
{
    if (v.count <= 1)
        return v.id;
    return b_.createCompositeExtract(v.id, type(v.kind), index);
}

spv::Id Emitter::construct_vector(Kind kind, const spv::Id* parts, uint32_t count)
{
    return b_.createCompositeConstruct(type(kind, count), std::span<const spv::Id>(parts, count));
}

spv::Id Emitter::select_mask(spv::Id condition, uint32_t count)
{
    return b_.createTriOp(spv::OpSelect, type(Kind::u32, count), condition,
        splat_constant(Kind::u32, count, 0xffffffffu), splat_constant(Kind::u32, count, 0));
}

/// `v` as a bool (vector): booleans as they are (negated when `nonzero` is
/// false), other kinds by their bits compared with zero.
spv::Id Emitter::truth(Value v, bool nonzero)
{
    spv::Id tb = type(Kind::boolean, v.count);
    if (v.kind == Kind::boolean)
        return nonzero ? v.id : b_.createUnaryOp(spv::OpLogicalNot, tb, v.id);
    Kind bits = int_kind(bit_width(v.kind), false);
    v = as_kind(v, bits);
    return b_.createBinOp(nonzero ? spv::OpINotEqual : spv::OpIEqual, tb, v.id, splat_constant(bits, v.count, 0));
}

void Emitter::decorate_precise(const vsir::Instruction& ins, spv::Id result)
{
    if (ins.flags & vsir::flag_precise_mask)
        b_.addDecoration(result, spv::DecorationNoContraction);
}

} // namespace dxspv::spirv

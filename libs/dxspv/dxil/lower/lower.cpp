// DXIL lowering: the entry point, functions and blocks, and the value map
// (LLVM value → Operand). Blocks are lowered in reverse post-order, so every
// value is defined before an instruction that is dominated by it reads it;
// phi sources are filled in after the whole function is lowered.
#include "dxil/lower/context.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace dxspv::dxil {

namespace lower {

void Lowerer::error(Code code, const char* fmt, ...)
{
    char text[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(text, sizeof text, fmt, args);
    va_end(args);
    ++errors_;
    if (fn_)
        diags_.error(code, Location::instruction(inst_index_), "@%.*s: %s", int(fn_->name.size()), fn_->name.data(),
                     text);
    else
        diags_.error(code, Location::none(), "%s", text);
}

void Lowerer::unsupported(const char* what, const char* name, const char* why)
{
    // One message per distinct name: a shader using an op 500 times says so once.
    uint32_t h = 2166136261u;
    for (const char* c = name; *c; ++c)
        h = (h ^ uint8_t(*c)) * 16777619u;
    for (uint32_t& slot : reported_) {
        if (slot == h)
            return;
        if (!slot) {
            slot = h;
            break;
        }
    }
    error(Code::dxil_lower_unsupported, "%s %s is not supported%s%s", what, name, why ? ": " : "", why ? why : "");
}

TypeId Lowerer::type_of(ValueId id) const
{
    if (id < module_value_count_)
        return m_.values[id].type;
    size_t local = id - module_value_count_;
    return fn_ && local < fn_->values.size() ? fn_->values[local].type : no_id;
}

bool Lowerer::is_undef(ValueId id) const
{
    const Constant* c = constant_of(id);
    return c && c->kind == ConstantKind::undef;
}

vsir::SrcParam Lowerer::immediate(DataType type, uint32_t bits) const
{
    vsir::SrcParam s;
    s.reg = vsir::make_immediate(type, bits);
    s.swizzle = 0; // .xxxx
    return s;
}

vsir::SrcParam Lowerer::immediate64(DataType type, uint64_t bits) const
{
    vsir::SrcParam s;
    s.reg.file = RegisterFile::immediate64;
    s.reg.type = type;
    s.reg.dimension = vsir::Dimension::scalar;
    s.reg.u64[0] = s.reg.u64[1] = bits;
    s.swizzle = 0;
    return s;
}

/// The Operand of a constant: an immediate of the constant's type, or for a
/// vector constant (SM 6.9) an aggregate of one immediate per element.
Operand Lowerer::constant_operand(const Constant& c, unsigned depth)
{
    Operand op;
    TypeId t = c.type;
    if (t < m_.types.size() && type(t).kind == TypeKind::vector) {
        const Type& vt = type(t);
        uint32_t n = uint32_t(vt.count);
        if (n > max_vector_elements || depth > 4)
            return op;
        std::vector<Operand> parts(n);
        for (uint32_t k = 0; k < n; ++k) {
            if (c.kind == ConstantKind::aggregate && k < c.operands.size()) {
                const Constant* e = constant_of(c.operands[k]);
                if (e)
                    parts[k] = constant_operand(*e, depth + 1);
            } else {
                Constant e;
                e.type = vt.element;
                e.kind = c.kind == ConstantKind::undef ? ConstantKind::undef
                         : c.kind == ConstantKind::data && k < c.data.size() ? ConstantKind::integer
                                                                            : ConstantKind::null;
                e.value = c.kind == ConstantKind::data && k < c.data.size() ? c.data[k] : 0;
                parts[k] = constant_operand(e, depth + 1);
            }
        }
        op.kind = Operand::Kind::aggregate;
        op.first_part = uint32_t(aggregate_parts_.size());
        op.part_count = n;
        aggregate_parts_.insert(aggregate_parts_.end(), parts.begin(), parts.end());
        return op;
    }
    DataType dt = data_type(t);
    if (c.kind == ConstantKind::undef) {
        op.kind = Operand::Kind::undef;
        op.type = dt;
        return op;
    }
    if (dt == DataType::none)
        return op;
    uint64_t bits = 0;
    if (c.kind == ConstantKind::integer || c.kind == ConstantKind::float_)
        bits = c.value;
    else if (c.kind != ConstantKind::null)
        return op;
    bits = constant_bits(t, bits);
    op.kind = Operand::Kind::src;
    op.type = dt;
    if (dt == DataType::f64 || dt == DataType::i64 || dt == DataType::u64)
        op.src = immediate64(dt, bits);
    else
        op.src = immediate(dt, uint32_t(bits));
    return op;
}

const Operand& Lowerer::operand_built(ValueId id)
{
    static const Operand none; // read-only
    if (id < m_.values.size()) {
        if (module_value_built_.empty()) {
            module_values_.resize(m_.values.size());
            module_value_built_.assign(m_.values.size(), 0);
        }
        if (!module_value_built_[id]) {
            module_value_built_[id] = 1;
            const ModuleValue& mv = m_.values[id];
            if (mv.kind == ModuleValue::Kind::constant) {
                const Constant& c = m_.constants[mv.index];
                if (c.kind == ConstantKind::gep || c.kind == ConstantKind::cast) {
                    Operand ptr;
                    if (pointer_operand(id, ptr))
                        module_values_[id] = ptr;
                } else {
                    module_values_[id] = constant_operand(c, 0);
                }
            } else if (mv.kind == ModuleValue::Kind::global) {
                Operand ptr;
                if (pointer_operand(id, ptr))
                    module_values_[id] = ptr;
            }
        }
        return module_values_[id];
    }
    size_t local = id - m_.values.size();
    if (!fn_ || local >= values_.size())
        return none;
    Operand& op = values_[local];
    if (op.kind == Operand::Kind::none && fn_->values[local].kind == LocalValue::Kind::constant)
        op = constant_operand(fn_->constants[fn_->values[local].index], 0);
    return op;
}

const Operand& Lowerer::lane_operand(const Operand& op)
{
    if (uint32_t(vector_lane_) >= op.part_count) {
        lane_scratch_ = {};
        return lane_scratch_;
    }
    lane_scratch_ = aggregate_parts_[op.first_part + uint32_t(vector_lane_)];
    return lane_scratch_;
}

Operand& Lowerer::define(ValueId result)
{
    size_t local = result - module_value_count_;
    if (result < module_value_count_ || local >= values_.size()) {
        define_scratch_ = {};
        return define_scratch_;
    }
    Operand& op = values_[local];
    if (vector_lane_ >= 0 && op.kind == Operand::Kind::aggregate && uint32_t(vector_lane_) < op.part_count)
        return aggregate_parts_[op.first_part + uint32_t(vector_lane_)];
    return op;
}

vsir::SrcParam Lowerer::src_of_other(const Operand& op, DataType as)
{
    vsir::SrcParam s;
    switch (op.kind) {
    case Operand::Kind::undef:
        if (op.type == DataType::f64 || op.type == DataType::i64 || op.type == DataType::u64)
            s = immediate64(op.type, 0);
        else
            s = immediate(op.type == DataType::none ? DataType::u32 : op.type, 0);
        break;
    default:
        // After an error, the failed value's users would only repeat it.
        if (!errors_)
            error(Code::dxil_lower_bad_operand,
                  "a value of this kind (handle, pointer or aggregate) is read as a number");
        s = immediate(DataType::u32, 0);
        break;
    }
    if (as != DataType::none)
        s.reg.type = as;
    return s;
}

vsir::DstParam Lowerer::new_ssa(ValueId result, DataType type)
{
    uint32_t id = p_.ssa_count++;
    vsir::DstParam d;
    d.reg = vsir::make_register(RegisterFile::ssa, type, vsir::Dimension::scalar, std::span<const uint32_t>(&id, 1));
    d.write_mask = 1;
    Operand& op = define(result);
    op = {};
    op.kind = Operand::Kind::src;
    op.type = type;
    op.src.reg = d.reg;
    op.src.swizzle = 0;
    return d;
}

vsir::DstParam Lowerer::new_ssa_vec(ValueId result, DataType type, uint8_t mask)
{
    uint32_t id = p_.ssa_count++;
    vsir::DstParam d;
    d.reg = vsir::make_register(RegisterFile::ssa, type, vsir::Dimension::vec4, std::span<const uint32_t>(&id, 1));
    d.write_mask = mask;
    if (result != no_id) {
        Operand& op = define(result);
        op = {};
        op.kind = Operand::Kind::src;
        op.type = type;
        op.src.reg = d.reg;
    }
    return d;
}

vsir::DstParam Lowerer::temp_ssa(DataType type, vsir::SrcParam& read_back)
{
    uint32_t id = p_.ssa_count++;
    vsir::DstParam d;
    d.reg = vsir::make_register(RegisterFile::ssa, type, vsir::Dimension::scalar, std::span<const uint32_t>(&id, 1));
    d.write_mask = 1;
    read_back = {};
    read_back.reg = d.reg;
    read_back.swizzle = 0;
    return d;
}

void Lowerer::set_result_vec(ValueId result, uint32_t ssa_id, DataType type, uint32_t count)
{
    // An aggregate result (ResRet, CBufRet, Dimensions, ...) held in one vec4
    // SSA value: member k reads component k.
    uint32_t first = uint32_t(aggregate_parts_.size());
    for (uint32_t k = 0; k < count; ++k) {
        Operand part;
        part.kind = Operand::Kind::src;
        part.type = type;
        part.src.reg = vsir::make_register(RegisterFile::ssa, type, vsir::Dimension::vec4,
                                           std::span<const uint32_t>(&ssa_id, 1));
        part.src.swizzle = uint8_t(k * 0x55);
        aggregate_parts_.push_back(part);
    }
    Operand& op = define(result);
    op = {};
    op.kind = Operand::Kind::aggregate;
    op.first_part = first;
    op.part_count = count;
}

void Lowerer::set_aggregate(ValueId result, std::initializer_list<Operand> parts)
{
    uint32_t first = uint32_t(aggregate_parts_.size());
    for (const Operand& part : parts)
        aggregate_parts_.push_back(part);
    Operand& op = define(result);
    op = {};
    op.kind = Operand::Kind::aggregate;
    op.first_part = first;
    op.part_count = uint32_t(parts.size());
}

uint32_t Lowerer::emit(vsir::Opcode op, std::initializer_list<vsir::DstParam> dsts,
                       std::initializer_list<vsir::SrcParam> srcs)
{
    // Copied in place: adding default parameters and then assigning them
    // writes each twice.
    return p_.add_instruction(op, std::span<const vsir::DstParam>(dsts.begin(), dsts.size()),
                              std::span<const vsir::SrcParam>(srcs.begin(), srcs.size()), inst_index_);
}

vsir::SrcParam Lowerer::label_src(uint32_t block) const
{
    return label_id_src(label_of(block));
}

uint32_t Lowerer::rel_index(ValueId value)
{
    return p_.add_src(src(value, DataType::u32));
}

uint32_t Lowerer::rel_ssa(uint32_t ssa_id)
{
    vsir::SrcParam s;
    s.reg = vsir::make_register(RegisterFile::ssa, DataType::u32, vsir::Dimension::scalar,
                                std::span<const uint32_t>(&ssa_id, 1));
    s.swizzle = 0;
    return p_.add_src(s);
}

namespace {

/// Successor k of a terminator (br: dest | true, false; switch: default,
/// then each case's block), or ~0u past the last.
uint32_t successor(const Instruction& term, uint32_t k)
{
    std::span<const uint32_t> ops = term.operands;
    if (term.op == Opcode::br) {
        if (ops.size() == 1)
            return k == 0 ? ops[0] : ~0u;
        return ops.size() == 3 && k < 2 ? ops[k] : ~0u;
    }
    if (term.op == Opcode::switch_) {
        if (k == 0)
            return ops.size() >= 2 ? ops[1] : ~0u;
        return 2 * k + 1 < ops.size() ? ops[2 * k + 1] : ~0u;
    }
    return ~0u;
}

/// Blocks in reverse post-order from the entry (unreachable ones dropped).
ScratchVector<uint32_t> reverse_post_order(const Function& fn)
{
    size_t n = fn.blocks.size();
    ScratchVector<uint32_t> order;
    if (!n)
        return order;
    order.reserve(n);
    ScratchVector<uint8_t> seen(n, 0);
    struct Frame {
        uint32_t block, next;
    };
    ScratchVector<Frame> stack{{0, 0}};
    seen[0] = 1;
    while (!stack.empty()) {
        Frame& f = stack.back();
        const BasicBlock& bb = fn.blocks[f.block];
        uint32_t succ = ~0u;
        if (bb.count && uint64_t(bb.first) + bb.count <= fn.instructions.size())
            succ = successor(fn.instructions[bb.first + bb.count - 1], f.next++);
        if (succ == ~0u) {
            order.push_back(f.block);
            stack.pop_back();
        } else if (succ < n && !seen[succ]) {
            seen[succ] = 1;
            stack.push_back({succ, 0});
        }
    }
    std::reverse(order.begin(), order.end());
    return order;
}

} // namespace

bool Lowerer::lower_function(const Function& fn)
{
    fn_ = &fn;
    values_.assign(fn.values.size(), Operand{});
    label_base_ = p_.label_count;
    p_.label_count += uint32_t(fn.blocks.size());
    lower_allocas(fn);
    lower_blocks(fn);
    fn_ = nullptr;
    return true;
}

void Lowerer::lower_allocas(const Function& fn)
{
    // Allocas first: their arrays are declarations.
    for (uint32_t i = 0; i < fn.instructions.size(); ++i)
        if (fn.instructions[i].op == Opcode::alloca) {
            inst_index_ = i;
            lower_alloca(fn.instructions[i]);
        }
}

vsir::SrcParam Lowerer::label_id_src(uint32_t id) const
{
    vsir::SrcParam s;
    s.reg = vsir::make_register(RegisterFile::label, DataType::opaque, vsir::Dimension::none,
                                std::span<const uint32_t>(&id, 1));
    return s;
}

/// The blocks of `fn_` (labels from label_base_, values in values_), in
/// reverse post-order, then the sources of their phis.
void Lowerer::lower_blocks(const Function& fn)
{
    phis_.clear();
    member_use_.assign(fn.values.size(), 0);
    for (const Instruction& inst : fn.instructions)
        if (inst.op == Opcode::extractvalue && inst.operands.size() >= 2) {
            size_t local = inst.operands[0] - m_.values.size();
            if (inst.operands[0] >= m_.values.size() && local < member_use_.size() && inst.operands[1] < 8)
                member_use_[local] |= uint8_t(1u << inst.operands[1]);
        }
    ScratchVector<uint32_t> order = reverse_post_order(fn);
    reachable_.assign(fn.blocks.size(), 0);
    block_exit_.assign(fn.blocks.size(), ~0u);
    for (uint32_t b : order)
        reachable_[b] = 1;
    for (uint32_t b : order) {
        const BasicBlock& bb = fn.blocks[b];
        vsir::SrcParam label = label_src(b);
        emit(vsir::Opcode::label, {}, {label});
        current_block_ = b;
        current_label_ = label_of(b);
        if (init_globals_pending_) {
            init_globals_pending_ = false;
            initialize_globals();
        }
        for (uint32_t i = bb.first; i < bb.first + bb.count && i < fn.instructions.size(); ++i) {
            inst_index_ = i;
            if (fn.instructions[i].op != Opcode::alloca)
                lower_instruction(fn.instructions[i], i);
        }
    }
    // Phi sources, now that every value is defined.
    for (const PendingPhi& phi : phis_) {
        const Instruction& inst = fn.instructions[phi.llvm_index];
        inst_index_ = phi.llvm_index;
        vsir::Instruction& ins = p_.instructions[phi.vsir_index];
        DataType t = p_.dsts[ins.dst_first].reg.type;
        vector_lane_ = phi.lane; // a vector phi: one VSIR phi per element
        uint32_t slot = 0;
        for (uint32_t k = 0; 2 * k + 1 < inst.operands.size(); ++k) {
            uint32_t pred = inst.operands[2 * k + 1];
            if (pred >= reachable_.size() || !reachable_[pred])
                continue;
            vsir::SrcParam v = src(inst.operands[2 * k], t);
            uint32_t first = p_.instructions[phi.vsir_index].src_first;
            p_.srcs[first + slot++] = v;
            // The predecessor's last VSIR block: its own, or the continuation of a call inlined in it.
            p_.srcs[first + slot++] = block_exit_[pred] != ~0u ? label_id_src(block_exit_[pred]) : label_src(pred);
        }
        vector_lane_ = -1;
    }
}

bool Lowerer::run()
{
    if (md_.entry_points.empty()) {
        error(Code::dxil_lower_no_entry, "the module has no entry point (dx.entryPoints)");
        return false;
    }
    for (const EntryPoint& e : md_.entry_points)
        if (options_.entry.empty() || e.name == options_.entry) {
            entry_ = &e;
            break;
        }
    if (!entry_) {
        error(Code::dxil_lower_no_entry, "no entry point named '%.*s'", int(options_.entry.size()),
              options_.entry.data());
        return false;
    }
    if (!declare_stage())
        return false;
    // Room for about what the module's instructions lower to (on the corpus
    // one VSIR instruction, 1.75 sources and one destination each, at most
    // five instructions each), so that the program's arrays grow rarely.
    size_t count = 0;
    for (const Function& f : m_.functions)
        count += f.instructions.size();
    p_.instructions.reserve(p_.instructions.size() + count + count / 4 + 32);
    p_.srcs.reserve(p_.srcs.size() + 2 * count + 32);
    p_.dsts.reserve(p_.dsts.size() + count + count / 4 + 32);
    const Function* main = entry_->function != no_id ? function_of(entry_->function) : nullptr;
    if (!main || main->is_declaration) {
        error(Code::dxil_lower_no_entry, "the entry point '%s' has no function body", entry_->name.c_str());
        return false;
    }
    declare_resources();
    collect_dx_op_calls();
    declare_heap_ranges();
    declare_signatures();
    if (stage_ != ShaderStage::hull)
        declare_global_memory();
    declare_system_values();
    if (stage_ == ShaderStage::hull) {
        const Function* patch = entry_->patch_constant_function != no_id
                                    ? function_of(entry_->patch_constant_function)
                                    : nullptr;
        // Each phase is its own function: private arrays are declared (and
        // static ones initialised) in each.
        emit(vsir::Opcode::hs_control_point_phase, {}, {});
        declare_global_memory();
        init_globals_pending_ = true;
        lower_function(*main);
        if (patch && !patch->is_declaration) {
            emit(vsir::Opcode::hs_fork_phase, {}, {});
            emit_patch_declarations();
            indexable_count_ = 0;
            declare_global_memory();
            init_globals_pending_ = true;
            lower_function(*patch);
        }
    } else {
        init_globals_pending_ = true;
        lower_function(*main);
    }
    return errors_ == 0;
}

} // namespace lower

bool lower_module(const Module& module, const DxilMetadata& metadata, const LowerOptions& options,
                  vsir::Program& program, Diagnostics& diags)
{
    lower::Lowerer l(module, metadata, options, program, diags);
    return l.run();
}

} // namespace dxspv::dxil

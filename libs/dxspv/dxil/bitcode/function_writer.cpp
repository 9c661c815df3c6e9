// Module writer: FUNCTION blocks. Operands are relative value ids as LLVM
// 3.7 writes them: (next value id - operand id) mod 2^32, the operand's
// type following when it refers forward; phis use signed relative ids;
// switch case values, alloca sizes and block ids are absolute.
#include "dxil/bitcode/module_writer.h"

namespace dxspv::dxil::bitcode {

namespace {

enum : uint32_t {
    inst_declareblocks = 1, inst_binop = 2, inst_cast = 3, inst_extractelt = 6, inst_insertelt = 7,
    inst_shufflevec = 8, inst_ret = 10, inst_br = 11, inst_switch = 12, inst_unreachable = 15, inst_phi = 16,
    inst_alloca = 19, inst_load = 20, inst_extractval = 26, inst_insertval = 27, inst_cmp2 = 28, inst_vselect = 29,
    inst_call = 34, inst_fence = 36, inst_atomicrmw = 38, inst_gep = 43, inst_store = 44, inst_cmpxchg = 46
};

bool is_terminator(Opcode op)
{
    return op == Opcode::br || op == Opcode::switch_ || op == Opcode::ret || op == Opcode::unreachable;
}

} // namespace

bool ModuleWriter::check_blocks(const Function& f)
{
    uint32_t next = 0;
    for (size_t b = 0; b < f.blocks.size(); ++b) {
        const BasicBlock& bb = f.blocks[b];
        if (bb.count == 0 || bb.first != next || uint64_t(bb.first) + bb.count > f.instructions.size())
            return fail(Code::dxil_write_inconsistent,
                        "basic block %zu is empty or its instructions do not follow the previous block's", b);
        for (uint32_t i = bb.first; i < bb.first + bb.count; ++i) {
            if (is_terminator(f.instructions[i].op) != (i + 1 == bb.first + bb.count)) {
                inst_index_ = i;
                return fail(Code::dxil_write_inconsistent, "basic block %zu does not end with its only terminator", b);
            }
        }
        next += bb.count;
    }
    if (next != f.instructions.size())
        return fail(Code::dxil_write_inconsistent, "%zu instructions lie outside every basic block",
                    f.instructions.size() - next);
    return true;
}

bool ModuleWriter::number_locals(const Function& f)
{
    const uint32_t base = uint32_t(m_.values.size());
    const uint32_t nargs = uint32_t(m_.types[f.function_type].members.size());
    local_map_.assign(f.values.size(), no_id);
    for (size_t i = 0; i < f.values.size(); ++i) {
        const LocalValue& v = f.values[i];
        if (v.kind == LocalValue::Kind::argument && v.index < nargs)
            local_map_[i] = base + v.index;
        else if (v.kind == LocalValue::Kind::constant && v.index < f.constants.size())
            local_map_[i] = base + nargs + v.index;
    }
    uint32_t next = base + nargs + uint32_t(f.constants.size());
    for (uint32_t k = 0; k < f.instructions.size(); ++k) {
        const Instruction& inst = f.instructions[k];
        inst_index_ = k;
        if (inst.type != no_id && !type_ok(inst.type, "instruction result"))
            return false;
        bool has_value = inst.type != no_id && m_.types[inst.type].kind != TypeKind::void_;
        if (inst.result != no_id) {
            uint32_t local = inst.result - base;
            if (!has_value || inst.result < base || local >= f.values.size() ||
                f.values[local].kind != LocalValue::Kind::instruction || f.values[local].index != k)
                return fail(Code::dxil_write_inconsistent, "the result value %u does not match its instruction",
                            inst.result);
            local_map_[local] = next;
        }
        next += has_value ? 1 : 0;
    }
    for (size_t i = 0; i < local_map_.size(); ++i)
        if (local_map_[i] == no_id)
            return fail(Code::dxil_write_inconsistent, "local value %zu is no argument, constant or instruction result",
                        i);
    return true;
}

bool ModuleWriter::push_value(ValueId id)
{
    uint32_t v = 0;
    if (id & metadata_operand) {
        if (!metadata_id(id & ~metadata_operand, v))
            return fail(Code::dxil_write_inconsistent, "an operand refers to !%u, which is out of range",
                        id & ~metadata_operand);
    } else if (!value_id(id, v)) {
        return fail(Code::dxil_write_inconsistent, "an operand refers to value %u, which is out of range", id);
    }
    ops_.push_back(uint32_t(next_value_ - v));
    return true;
}

bool ModuleWriter::push_value_and_type(ValueId id, bool& forward)
{
    uint32_t v = 0;
    if ((id & metadata_operand) || !value_id(id, v))
        return fail(Code::dxil_write_inconsistent, "an operand refers to value %u, which is out of range", id);
    ops_.push_back(uint32_t(next_value_ - v));
    forward = v >= next_value_;
    if (forward)
        ops_.push_back(type(type_of(id)));
    return true;
}

bool ModuleWriter::write_call(const Instruction& inst)
{
    if (inst.operands.empty() || !type_ok(inst.aux_type, "call") ||
        m_.types[inst.aux_type].kind != TypeKind::function)
        return fail(Code::dxil_write_inconsistent, "a call without callee or function type");
    const Type& ft = m_.types[inst.aux_type];
    size_t nargs = inst.operands.size() - 1;
    if (nargs < ft.members.size() || (!ft.vararg && nargs != ft.members.size()))
        return fail(Code::dxil_write_inconsistent, "a call has %zu arguments, its function type %zu", nargs,
                    ft.members.size());
    if (inst.extra > m_.attribute_lists.size())
        return fail(Code::dxil_write_inconsistent, "a call uses attribute list %u, which is not defined", inst.extra);
    ops_ = {inst.extra, uint64_t(inst.sub) << 1 | (inst.flags & 1) | 1u << 15, type(inst.aux_type)};
    bool forward = false;
    if (!push_value_and_type(inst.operands[0], forward))
        return false;
    for (size_t i = 1; i < inst.operands.size(); ++i) {
        bool ok = i <= ft.members.size() ? push_value(inst.operands[i]) : push_value_and_type(inst.operands[i], forward);
        if (!ok)
            return false;
    }
    return true;
}

bool ModuleWriter::write_instruction(const Instruction& inst, uint32_t& abbrev, uint32_t& code)
{
    std::span<const uint32_t> o = inst.operands;
    auto need = [&](size_t n) {
        if (o.size() >= n)
            return true;
        return fail(Code::dxil_write_inconsistent, "an instruction has %zu operands, needs %zu", o.size(), n);
    };
    bool fwd = false;
    ops_.clear();
    abbrev = 0;
    uint64_t align = 0;
    if ((inst.op == Opcode::alloca || inst.op == Opcode::load || inst.op == Opcode::store) &&
        !encode_alignment(inst.extra, align))
        return fail(Code::dxil_write_unsupported, "alignment %u is not a power of two", inst.extra);
    switch (inst.op) {
    case Opcode::binop:
        code = inst_binop;
        abbrev = inst.flags ? abbrev_inst_binop_flags : abbrev_inst_binop;
        if (!need(2) || !push_value_and_type(o[0], fwd) || !push_value(o[1]))
            return false;
        ops_.push_back(inst.sub);
        if (inst.flags)
            ops_.push_back(inst.flags);
        return true;
    case Opcode::cast:
        code = inst_cast;
        abbrev = abbrev_inst_cast;
        if (!need(1) || !push_value_and_type(o[0], fwd))
            return false;
        ops_.insert(ops_.end(), {type(inst.type), inst.sub});
        return true;
    case Opcode::cmp:
        code = inst_cmp2;
        if (!need(2) || !push_value_and_type(o[0], fwd) || !push_value(o[1]))
            return false;
        ops_.push_back(inst.sub);
        if (inst.flags)
            ops_.push_back(inst.flags);
        return true;
    case Opcode::select:
        code = inst_vselect;
        return need(3) && push_value_and_type(o[1], fwd) && push_value(o[2]) && push_value_and_type(o[0], fwd);
    case Opcode::phi:
        code = inst_phi;
        if (o.size() & 1)
            return fail(Code::dxil_write_inconsistent, "a phi incoming value has no block");
        ops_.push_back(type(inst.type));
        for (size_t i = 0; i + 1 < o.size(); i += 2) {
            uint32_t v = 0;
            if (!value_id(o[i], v) || (o[i] & metadata_operand))
                return fail(Code::dxil_write_inconsistent, "a phi refers to value %u, which is out of range", o[i]);
            if (o[i + 1] >= fn_->blocks.size())
                return fail(Code::dxil_write_inconsistent, "a phi refers to block %u of %zu", o[i + 1],
                            fn_->blocks.size());
            ops_.push_back(encode_signed(int64_t(next_value_) - int64_t(v)));
            ops_.push_back(o[i + 1]);
        }
        return true;
    case Opcode::br:
        code = inst_br;
        if (!need(1))
            return false;
        for (size_t i = 0; i < o.size() && i < 2; ++i) {
            if (o[i] >= fn_->blocks.size())
                return fail(Code::dxil_write_inconsistent, "a branch to block %u of %zu", o[i], fn_->blocks.size());
            ops_.push_back(o[i]);
        }
        return o.size() != 3 || push_value(o[2]);
    case Opcode::switch_: {
        code = inst_switch;
        TypeId t = need(2) ? type_of(o[0]) : no_id;
        if (t == no_id || (o.size() & 1) || o[1] >= fn_->blocks.size())
            return fail(Code::dxil_write_inconsistent, "a malformed switch");
        ops_.push_back(type(t));
        if (!push_value(o[0]))
            return false;
        ops_.push_back(o[1]);
        for (size_t i = 2; i + 1 < o.size(); i += 2) {
            uint32_t v = 0;
            if (!value_id(o[i], v) || o[i + 1] >= fn_->blocks.size())
                return fail(Code::dxil_write_inconsistent, "a switch case refers to value %u or block %u", o[i],
                            o[i + 1]);
            ops_.push_back(v);
            ops_.push_back(o[i + 1]);
        }
        return true;
    }
    case Opcode::ret:
        code = inst_ret;
        abbrev = o.empty() ? abbrev_inst_ret_void : abbrev_inst_ret_val;
        return o.empty() || push_value_and_type(o[0], fwd);
    case Opcode::unreachable:
        code = inst_unreachable;
        abbrev = abbrev_inst_unreachable;
        return true;
    case Opcode::alloca: {
        code = inst_alloca;
        uint32_t size = 0;
        if (!need(1) || !value_id(o[0], size) || !type_ok(inst.aux_type, "alloca"))
            return fail(Code::dxil_write_inconsistent, "an alloca without a size or allocated type");
        ops_ = {type(inst.aux_type), type(type_of(o[0])), size, align | 1u << 6};
        return true;
    }
    case Opcode::load:
        code = inst_load;
        abbrev = abbrev_inst_load;
        if (!need(1) || !push_value_and_type(o[0], fwd))
            return false;
        ops_.insert(ops_.end(), {type(inst.type), align, uint64_t(inst.flags & 1)});
        return true;
    case Opcode::store:
        code = inst_store;
        if (!need(2) || !push_value_and_type(o[0], fwd) || !push_value_and_type(o[1], fwd))
            return false;
        ops_.insert(ops_.end(), {align, uint64_t(inst.flags & 1)});
        return true;
    case Opcode::gep:
        code = inst_gep;
        abbrev = abbrev_inst_gep;
        if (!need(1) || !type_ok(inst.aux_type, "GEP"))
            return false;
        ops_ = {uint64_t(inst.flags & 1), type(inst.aux_type)};
        for (uint32_t id : o)
            if (!push_value_and_type(id, fwd))
                return false;
        return true;
    case Opcode::extractvalue:
    case Opcode::insertvalue: {
        bool insert = inst.op == Opcode::insertvalue;
        code = insert ? inst_insertval : inst_extractval;
        size_t first = insert ? 2 : 1;
        if (!need(first + 1) || !push_value_and_type(o[0], fwd) || (insert && !push_value_and_type(o[1], fwd)))
            return false;
        ops_.insert(ops_.end(), o.begin() + first, o.end());
        return true;
    }
    case Opcode::extractelement:
        code = inst_extractelt;
        return need(2) && push_value_and_type(o[0], fwd) && push_value_and_type(o[1], fwd);
    case Opcode::insertelement:
        code = inst_insertelt;
        return need(3) && push_value_and_type(o[0], fwd) && push_value(o[1]) && push_value_and_type(o[2], fwd);
    case Opcode::shufflevector:
        code = inst_shufflevec;
        return need(3) && push_value_and_type(o[0], fwd) && push_value(o[1]) && push_value(o[2]);
    case Opcode::atomicrmw:
        code = inst_atomicrmw;
        if (!need(2) || !push_value_and_type(o[0], fwd) || !push_value(o[1]))
            return false;
        ops_.insert(ops_.end(), {inst.sub, uint64_t(inst.flags & 1), inst.extra & 0xFFu, (inst.extra >> 8) & 0xFFu});
        return true;
    case Opcode::cmpxchg:
        code = inst_cmpxchg;
        if (!need(3) || !push_value_and_type(o[0], fwd) || !push_value_and_type(o[1], fwd) || !push_value(o[2]))
            return false;
        ops_.insert(ops_.end(), {uint64_t(inst.flags & 1), inst.extra & 0xFFu, (inst.extra >> 16) & 0xFFu,
                                 (inst.extra >> 8) & 0xFFu, uint64_t((inst.flags >> 1) & 1)});
        return true;
    case Opcode::fence:
        code = inst_fence;
        ops_ = {inst.extra & 0xFFu, (inst.extra >> 8) & 0xFFu};
        return true;
    case Opcode::call: code = inst_call; return write_call(inst);
    }
    return fail(Code::dxil_write_unsupported, "an instruction the writer cannot encode");
}

void ModuleWriter::write_function_vst(const Function& f)
{
    bool any = false;
    auto open = [&] {
        if (!any)
            w_.enter_block(block_value_symtab, 4);
        any = true;
    };
    for (size_t i = 0; i < f.values.size(); ++i) {
        if (f.values[i].name.empty() || f.values[i].kind == LocalValue::Kind::constant)
            continue;
        open();
        write_vst_entry(1, local_map_[i], f.values[i].name); // VST_CODE_ENTRY
    }
    for (size_t b = 0; b < f.blocks.size(); ++b) {
        if (f.blocks[b].name.empty())
            continue;
        open();
        write_vst_entry(2, b, f.blocks[b].name); // VST_CODE_BBENTRY
    }
    if (any)
        w_.exit_block();
}

bool ModuleWriter::write_function(uint32_t index)
{
    const Function& f = m_.functions[index];
    fn_ = &f;
    fn_index_ = index;
    inst_index_ = 0;
    if (!check_blocks(f) || !number_locals(f))
        return false;
    w_.enter_block(block_function, 4);
    ops_ = {f.blocks.size()};
    w_.record(inst_declareblocks, ops_);
    if (!f.constants.empty() && !write_constants(f.constants, false))
        return false;
    if (!write_local_metadata(index))
        return false;
    next_value_ = uint32_t(m_.values.size() + m_.types[f.function_type].members.size() + f.constants.size());
    for (uint32_t k = 0; k < f.instructions.size(); ++k) {
        const Instruction& inst = f.instructions[k];
        inst_index_ = k;
        uint32_t code = 0, abbrev = 0;
        if (!write_instruction(inst, abbrev, code) || !check_types_used())
            return false;
        w_.record(code, ops_, abbrev);
        if (inst.type != no_id && m_.types[inst.type].kind != TypeKind::void_)
            ++next_value_;
    }
    write_function_vst(f);
    if (!write_attachments(f))
        return false;
    w_.exit_block();
    fn_ = nullptr;
    return true;
}

} // namespace dxspv::dxil::bitcode

// Module reader: FUNCTION blocks (instructions, relative value ids,
// forward references, local constants, metadata and symbol tables).
#include "dxil/module/reader.h"

namespace dxspv::dxil {

bool is_value_operand(const Instruction& inst, size_t i)
{
    switch (inst.op) {
    case Opcode::phi: return (i & 1) == 0;
    case Opcode::br: return inst.operands.size() == 3 && i == 2;
    case Opcode::switch_: return i == 0 || (i >= 2 && (i & 1) == 0);
    case Opcode::extractvalue: return i < 1;
    case Opcode::insertvalue: return i < 2;
    default: return true;
    }
}

} // namespace dxspv::dxil

namespace dxspv::dxil::detail {

namespace {

enum : uint32_t {
    inst_declareblocks = 1, inst_binop = 2, inst_cast = 3, inst_gep_old = 4, inst_select = 5,
    inst_extractelt = 6, inst_insertelt = 7, inst_shufflevec = 8, inst_cmp = 9, inst_ret = 10, inst_br = 11,
    inst_switch = 12, inst_unreachable = 15, inst_phi = 16, inst_alloca = 19, inst_load = 20,
    inst_store_old = 24, inst_extractval = 26, inst_insertval = 27, inst_cmp2 = 28, inst_vselect = 29,
    inst_inbounds_gep_old = 30, inst_debug_loc_again = 33, inst_call = 34, inst_debug_loc = 35, inst_fence = 36,
    inst_cmpxchg_old = 37, inst_atomicrmw = 38, inst_loadatomic = 41, inst_gep = 43, inst_store = 44,
    inst_storeatomic = 45, inst_cmpxchg = 46
};

constexpr uint32_t max_blocks = 1u << 20;

} // namespace

bool ModuleReader::constant_int(ValueId id, uint64_t& out) const
{
    const Constant* c = nullptr;
    if (id < m_.values.size()) {
        if (m_.values[id].kind == ModuleValue::Kind::constant)
            c = &m_.constants[m_.values[id].index];
    } else if (fn_ && id - m_.values.size() < fn_->values.size()) {
        const LocalValue& v = fn_->values[id - m_.values.size()];
        if (v.kind == LocalValue::Kind::constant)
            c = &fn_->constants[v.index];
    }
    if (!c || (c->kind != ConstantKind::integer && c->kind != ConstantKind::null))
        return false;
    out = c->kind == ConstantKind::integer ? c->value : 0;
    return true;
}

bool ModuleReader::indexed_type(TypeId aggregate, std::span<const uint32_t> indices, TypeId& out)
{
    TypeId t = aggregate;
    for (uint32_t index : indices) {
        const Type& ty = m_.types[t];
        if (ty.kind == TypeKind::struct_) {
            if (index >= ty.members.size())
                return fail(Code::dxil_bad_instruction, "struct index %u is out of range", index);
            t = ty.members[index];
        } else if (ty.kind == TypeKind::array || ty.kind == TypeKind::vector) {
            if (index >= ty.count)
                return fail(Code::dxil_bad_instruction, "array index %u is out of range", index);
            t = ty.element;
        } else {
            return fail(Code::dxil_type_mismatch, "an aggregate index into a non-aggregate type");
        }
    }
    out = t;
    return true;
}

bool ModuleReader::gep_result(TypeId source, std::span<const uint32_t> indices, uint32_t address_space, TypeId& out)
{
    TypeId t = source;
    for (size_t i = 1; i < indices.size(); ++i) {
        const Type& ty = m_.types[t];
        if (ty.kind == TypeKind::struct_) {
            uint64_t index = 0;
            if (!constant_int(indices[i], index) || index >= ty.members.size())
                return fail(Code::dxil_bad_instruction, "a GEP struct index is not a constant in range");
            t = ty.members[size_t(index)];
        } else if (ty.kind == TypeKind::array || ty.kind == TypeKind::vector) {
            t = ty.element;
        } else {
            return fail(Code::dxil_type_mismatch, "a GEP indexes into a non-aggregate type");
        }
    }
    out = pointer_to(t, address_space);
    return true;
}

bool ModuleReader::value_type_pair_slow(size_t& slot, ValueId& id, TypeId& type)
{
    if (slot >= ops_.size())
        return fail(Code::dxil_record_too_short, "an instruction record is missing an operand");
    uint64_t raw = ops_[slot++];
    id = relative_ids_ ? uint32_t(next_value_ - uint32_t(raw)) : uint32_t(raw);
    if (id < next_value_) {
        type = type_of(id);
        return true;
    }
    // Forward reference: the type follows.
    if (slot >= ops_.size())
        return fail(Code::dxil_record_too_short, "a forward reference has no type");
    if (!type_ok(ops_[slot], "forward reference"))
        return false;
    type = TypeId(ops_[slot++]);
    if (id >= max_count)
        return fail(Code::dxil_bad_value_id, "value id %u is out of range", id);
    pending_types_.push_back({id, type});
    return true;
}

bool ModuleReader::value_of_type_slow(size_t& slot, TypeId type, ValueId& id)
{
    if (slot >= ops_.size())
        return fail(Code::dxil_record_too_short, "an instruction record is missing an operand");
    uint64_t raw = ops_[slot++];
    id = relative_ids_ ? uint32_t(next_value_ - uint32_t(raw)) : uint32_t(raw);
    if (type != no_id && m_.types[type].kind == TypeKind::metadata) {
        MetadataId md = 0;
        if (!resolve_metadata(id, md))
            return false;
        id = metadata_operand | md;
        return true;
    }
    if (id < next_value_) {
        if (type != no_id && type_of(id) != type)
            return fail(Code::dxil_type_mismatch, "operand %u has the wrong type", id);
        return true;
    }
    if (id >= max_count)
        return fail(Code::dxil_bad_value_id, "value id %u is out of range", id);
    pending_types_.push_back({id, type});
    return true;
}

bool ModuleReader::block_id(uint64_t raw, uint32_t& out)
{
    if (raw >= fn_->blocks.size())
        return fail(Code::dxil_bad_block_id, "basic block %llu of %zu", (unsigned long long)raw, fn_->blocks.size());
    out = uint32_t(raw);
    return true;
}

bool ModuleReader::read_function_block()
{
    if (next_body_ >= bodies_.size())
        return fail(Code::dxil_bad_function_body, "a function body has no matching function declaration");
    fn_index_ = bodies_[next_body_++];
    fn_ = &m_.functions[fn_index_];
    fn_->is_declaration = false;
    metadata_map_.clear();
    pending_types_.clear();
    const Type& ft = m_.types[fn_->function_type];
    for (uint32_t i = 0; i < ft.members.size(); ++i)
        fn_->values.push_back({LocalValue::Kind::argument, ft.members[i], i, {}});
    next_value_ = uint32_t(m_.values.size() + fn_->values.size());
    // Room for the body's instructions and their values at once (dxc's
    // take four bytes or more, the nested blocks too), not a regrowth every
    // few of them.
    const size_t room = std::min<size_t>(cursor_.block_contents().size() / 4, max_count);
    fn_->instructions.reserve(room);
    fn_->values.reserve(fn_->values.size() + room);
    value_types_.clear();
    value_types_.reserve(next_value_ + room);
    for (const ModuleValue& v : m_.values)
        value_types_.push_back(v.type);
    for (const LocalValue& v : fn_->values)
        value_types_.push_back(v.type);
    uint32_t current = 0;
    size_t metadata_first = m_.metadata.size();
    bool ok = true;
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            break;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            switch (e.id) {
            case block_constants: ok = cursor_.enter_block(e.id) && read_constants_block(true); break;
            case block_metadata: ok = cursor_.enter_block(e.id) && read_metadata_block(true); break;
            case block_metadata_attachment:
                ok = whole_ ? cursor_.enter_block(e.id) && read_attachment_block() : cursor_.skip_block();
                break;
            case block_value_symtab: ok = cursor_.enter_block(e.id) && read_value_symtab(true); break;
            default: ok = cursor_.skip_block(); break;
            }
            if (!ok)
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record(e.id, code, ops_))
            return false;
        if (code == inst_declareblocks) {
            if (!need(1, "DECLAREBLOCKS"))
                return false;
            if (ops_[0] == 0 || ops_[0] > max_blocks || !fn_->blocks.empty())
                return fail(Code::dxil_bad_instruction, "DECLAREBLOCKS with %llu blocks", (unsigned long long)ops_[0]);
            fn_->blocks.resize(size_t(ops_[0]));
            continue;
        }
        if (code == inst_debug_loc || code == inst_debug_loc_again)
            continue;
        if (current >= fn_->blocks.size())
            return fail(Code::dxil_bad_instruction, "an instruction outside of any declared basic block");
        Instruction inst;
        bool terminator = false;
        if (!read_instruction(code, inst, terminator))
            return false;
        if (inst.type != no_id && m_.types[inst.type].kind != TypeKind::void_) {
            inst.result = next_value_++;
            fn_->values.push_back(
                {LocalValue::Kind::instruction, inst.type, uint32_t(fn_->instructions.size()), {}});
            value_types_.push_back(inst.type);
        }
        if (fn_->instructions.size() >= max_count)
            return fail(Code::dxil_too_large, "too many instructions");
        if (fn_->blocks[current].count == 0)
            fn_->blocks[current].first = uint32_t(fn_->instructions.size());
        fn_->blocks[current].count++;
        fn_->instructions.push_back(inst);
        if (terminator)
            ++current;
    }
    if (current != fn_->blocks.size() || fn_->blocks.empty())
        return fail(Code::dxil_unterminated_block, "function body ends inside basic block %u of %zu", current,
                    fn_->blocks.size());
    ok = check_metadata(metadata_first, m_.metadata.size()) && check_function();
    fn_ = nullptr;
    metadata_map_.clear();
    return ok;
}

bool ModuleReader::check_function()
{
    uint32_t limit = next_value_;
    for (const PendingType& p : pending_types_) {
        if (p.id >= limit)
            return fail(Code::dxil_bad_value_id, "forward reference to value %u of %u", p.id, limit);
        if (p.type != no_id && type_of(p.id) != p.type)
            return fail(Code::dxil_type_mismatch, "forward reference to value %u has the wrong type", p.id);
    }
    if (!check_constants(fn_->constants, true))
        return false;
    for (const Instruction& inst : fn_->instructions) {
        // Only these mix value ids with block ids or literal indices: the
        // others need no test per operand.
        bool mixed = inst.op == Opcode::phi || inst.op == Opcode::br || inst.op == Opcode::switch_ ||
                     inst.op == Opcode::extractvalue || inst.op == Opcode::insertvalue;
        for (size_t i = 0; i < inst.operands.size(); ++i) {
            uint32_t id = inst.operands[i];
            if (!(id & metadata_operand) && id >= limit && (!mixed || is_value_operand(inst, i)))
                return fail(Code::dxil_bad_value_id, "an instruction refers to value %u of %u", id, limit);
        }
    }
    return true;
}

bool ModuleReader::read_instruction(uint32_t code, Instruction& inst, bool& terminator)
{
    inst.type = no_id;
    switch (code) {
    case inst_binop:
    case inst_cast:
    case inst_cmp:
    case inst_cmp2:
    case inst_select:
    case inst_vselect: return read_binop_cast_cmp(code, inst);
    case inst_ret:
    case inst_br:
    case inst_switch:
    case inst_unreachable: terminator = true; return read_branch(code, inst);
    case inst_phi: return read_phi(inst);
    case inst_alloca:
    case inst_load:
    case inst_store:
    case inst_store_old:
    case inst_gep:
    case inst_gep_old:
    case inst_inbounds_gep_old: return read_memory_op(code, inst);
    case inst_extractval:
    case inst_insertval:
    case inst_extractelt:
    case inst_insertelt:
    case inst_shufflevec: return read_aggregate_op(code, inst);
    case inst_call: return read_call(inst);
    case inst_atomicrmw:
    case inst_cmpxchg:
    case inst_cmpxchg_old:
    case inst_fence: return read_atomic(code, inst);
    default: return fail(Code::dxil_unknown_record, "instruction record %u is not supported in DXIL", code);
    }
}

} // namespace dxspv::dxil::detail

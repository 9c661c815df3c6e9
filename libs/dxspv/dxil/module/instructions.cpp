// Module reader: one function per instruction family. Each decodes the
// record in ops_ into an Instruction and computes its result type.
#include "dxil/module/reader.h"

namespace dxspv::dxil::detail {

namespace {

enum : uint32_t {
    inst_binop = 2, inst_cast = 3, inst_gep_old = 4, inst_select = 5, inst_extractelt = 6, inst_insertelt = 7,
    inst_shufflevec = 8, inst_cmp = 9, inst_ret = 10, inst_br = 11, inst_switch = 12, inst_unreachable = 15,
    inst_alloca = 19, inst_load = 20, inst_store_old = 24, inst_extractval = 26, inst_insertval = 27,
    inst_cmp2 = 28, inst_vselect = 29, inst_inbounds_gep_old = 30, inst_fence = 36, inst_cmpxchg_old = 37,
    inst_atomicrmw = 38, inst_gep = 43, inst_store = 44, inst_cmpxchg = 46
};

bool is_float_kind(TypeKind k) { return k == TypeKind::half || k == TypeKind::float_ || k == TypeKind::double_; }

} // namespace

bool ModuleReader::read_binop_cast_cmp(uint32_t code, Instruction& inst)
{
    size_t s = 0;
    ValueId a = 0, b = 0, c = 0;
    TypeId t = no_id, tc = no_id;
    if (!value_type_pair(s, a, t))
        return false;
    switch (code) {
    case inst_binop: {
        if (!value_of_type(s, t, b) || !need(s + 1, "BINOP"))
            return false;
        if (ops_[s] > 12)
            return fail(Code::dxil_bad_instruction, "unknown binary opcode %llu", (unsigned long long)ops_[s]);
        TypeKind k = m_.types[t].kind == TypeKind::vector ? m_.types[m_.types[t].element].kind : m_.types[t].kind;
        bool fp = is_float_kind(k);
        if (!fp && k != TypeKind::integer)
            return fail(Code::dxil_type_mismatch, "a binary operation on a non-arithmetic type");
        if (fp && (ops_[s] >= 7 || ops_[s] == 3 || ops_[s] == 5))
            return fail(Code::dxil_type_mismatch, "an integer-only binary operation on floats");
        inst.op = Opcode::binop;
        inst.sub = uint8_t(ops_[s]);
        inst.flags = s + 1 < ops_.size() ? uint8_t(ops_[s + 1]) : 0;
        inst.type = t;
        ids_ = {a, b};
        break;
    }
    case inst_cast:
        if (!need(s + 2, "CAST") || !type_ok(ops_[s], "cast"))
            return false;
        if (ops_[s + 1] > 12)
            return fail(Code::dxil_bad_instruction, "unknown cast opcode %llu", (unsigned long long)ops_[s + 1]);
        inst.op = Opcode::cast;
        inst.type = TypeId(ops_[s]);
        inst.sub = uint8_t(ops_[s + 1]);
        ids_ = {a};
        break;
    case inst_cmp:
    case inst_cmp2:
        if (!value_of_type(s, t, b) || !need(s + 1, "CMP"))
            return false;
        if (!(ops_[s] <= 15 || (ops_[s] >= 32 && ops_[s] <= 41)))
            return fail(Code::dxil_bad_instruction, "unknown compare predicate %llu", (unsigned long long)ops_[s]);
        inst.op = Opcode::cmp;
        inst.sub = uint8_t(ops_[s]);
        inst.flags = s + 1 < ops_.size() ? uint8_t(ops_[s + 1]) : 0;
        inst.aux_type = t;
        inst.type = bool_type(t);
        ids_ = {a, b};
        break;
    case inst_select:
        if (!value_of_type(s, t, b) || !value_of_type(s, bool_type(no_id), c))
            return false;
        inst.op = Opcode::select;
        inst.type = t;
        ids_ = {c, a, b};
        break;
    default: // vselect: [true, false, cond with type]
        if (!value_of_type(s, t, b) || !value_type_pair(s, c, tc))
            return false;
        if (m_.types[tc].kind != TypeKind::integer && m_.types[tc].kind != TypeKind::vector)
            return fail(Code::dxil_type_mismatch, "a select condition is not i1");
        inst.op = Opcode::select;
        inst.type = t;
        ids_ = {c, a, b};
        break;
    }
    inst.operands = copy_ids(ids_);
    return true;
}

bool ModuleReader::read_branch(uint32_t code, Instruction& inst)
{
    size_t s = 0;
    ids_.clear();
    switch (code) {
    case inst_ret: {
        inst.op = Opcode::ret;
        if (!ops_.empty()) {
            ValueId v = 0;
            TypeId t = no_id;
            if (!value_type_pair(s, v, t))
                return false;
            if (t != m_.types[fn_->function_type].element)
                return fail(Code::dxil_type_mismatch, "ret value's type is not the function's return type");
            ids_.push_back(v);
        }
        break;
    }
    case inst_br: {
        inst.op = Opcode::br;
        if (!need(1, "BR"))
            return false;
        uint32_t t = 0, f = 0;
        if (!block_id(ops_[0], t))
            return false;
        ids_.push_back(t);
        if (ops_.size() >= 3) {
            ValueId c = 0;
            s = 2;
            if (!block_id(ops_[1], f) || !value_of_type(s, bool_type(no_id), c))
                return false;
            ids_.push_back(f);
            ids_.push_back(c);
        }
        break;
    }
    case inst_switch: {
        inst.op = Opcode::switch_;
        if (!need(3, "SWITCH") || !type_ok(ops_[0], "switch"))
            return false;
        if ((ops_[0] >> 16) == 0x4B5)
            return fail(Code::dxil_bad_instruction, "the case-range switch format is not supported");
        TypeId t = TypeId(ops_[0]);
        if (m_.types[t].kind != TypeKind::integer)
            return fail(Code::dxil_type_mismatch, "a switch condition is not an integer");
        ValueId c = 0;
        uint32_t bb = 0;
        s = 1;
        if (!value_of_type(s, t, c) || !block_id(ops_[2], bb))
            return false;
        ids_ = {c, bb};
        if ((ops_.size() - 3) & 1)
            return fail(Code::dxil_bad_instruction, "a switch case has no destination");
        for (size_t i = 3; i + 1 < ops_.size(); i += 2) {
            if (ops_[i] >= m_.values.size() + fn_->values.size() || type_of(uint32_t(ops_[i])) != t)
                return fail(Code::dxil_bad_value_id, "a switch case value is not a constant of the condition's type");
            if (!block_id(ops_[i + 1], bb))
                return false;
            ids_.push_back(uint32_t(ops_[i]));
            ids_.push_back(bb);
        }
        break;
    }
    default: inst.op = Opcode::unreachable; break;
    }
    inst.type = no_id;
    inst.operands = copy_ids(ids_);
    return true;
}

bool ModuleReader::read_phi(Instruction& inst)
{
    if (!need(1, "PHI") || !type_ok(ops_[0], "phi"))
        return false;
    if ((ops_.size() - 1) & 1)
        return fail(Code::dxil_bad_instruction, "a phi incoming value has no block");
    inst.op = Opcode::phi;
    inst.type = TypeId(ops_[0]);
    ids_.clear();
    for (size_t i = 1; i + 1 < ops_.size(); i += 2) {
        uint64_t raw = ops_[i];
        int64_t delta = (raw & 1) ? -int64_t(raw >> 1) : int64_t(raw >> 1);
        ValueId id = relative_ids_ ? uint32_t(int64_t(next_value_) - delta) : uint32_t(raw);
        if (id >= max_count)
            return fail(Code::dxil_bad_value_id, "phi operand %u is out of range", id);
        if (id < next_value_) {
            if (type_of(id) != inst.type)
                return fail(Code::dxil_type_mismatch, "phi operand %u has the wrong type", id);
        } else {
            pending_types_.push_back({id, inst.type});
        }
        uint32_t bb = 0;
        if (!block_id(ops_[i + 1], bb))
            return false;
        ids_.push_back(id);
        ids_.push_back(bb);
    }
    inst.operands = copy_ids(ids_);
    return true;
}

bool ModuleReader::read_memory_op(uint32_t code, Instruction& inst)
{
    size_t s = 0;
    ValueId p = 0, v = 0;
    TypeId pt = no_id, vt = no_id;
    ids_.clear();
    if (code == inst_alloca) {
        if (!need(4, "ALLOCA") || !type_ok(ops_[0], "alloca") || !type_ok(ops_[1], "alloca size"))
            return false;
        inst.op = Opcode::alloca;
        uint64_t align = ops_[3];
        bool explicit_type = (align & (1u << 6)) != 0;
        TypeId t = TypeId(ops_[0]);
        if (explicit_type) {
            inst.aux_type = t;
            inst.type = pointer_to(t, 0);
        } else {
            if (m_.types[t].kind != TypeKind::pointer)
                return fail(Code::dxil_type_mismatch, "an alloca's type is not a pointer");
            inst.type = t;
            inst.aux_type = m_.types[t].element;
        }
        if ((align & 31) > 30)
            return fail(Code::dxil_bad_instruction, "an alloca's alignment is too large");
        inst.extra = (align & 31) ? 1u << ((align & 31) - 1) : 0;
        if (ops_[2] >= max_count)
            return fail(Code::dxil_bad_value_id, "alloca size %llu is out of range", (unsigned long long)ops_[2]);
        ids_.push_back(uint32_t(ops_[2]));
        pending_types_.push_back({uint32_t(ops_[2]), TypeId(ops_[1])});
        inst.operands = copy_ids(ids_);
        return true;
    }
    if (code == inst_gep || code == inst_gep_old || code == inst_inbounds_gep_old) {
        inst.op = Opcode::gep;
        if (code == inst_gep) {
            if (!need(2, "GEP") || !type_ok(ops_[1], "GEP"))
                return false;
            inst.flags = ops_[0] ? 1 : 0;
            inst.aux_type = TypeId(ops_[1]);
            s = 2;
        } else {
            inst.flags = code == inst_inbounds_gep_old ? 1 : 0;
        }
        while (s < ops_.size()) {
            if (!value_type_pair(s, v, vt))
                return false;
            ids_.push_back(v);
            if (ids_.size() == 1)
                pt = vt;
        }
        if (ids_.empty() || m_.types[pt].kind != TypeKind::pointer)
            return fail(Code::dxil_type_mismatch, "a GEP's base is not a pointer");
        if (inst.aux_type == no_id)
            inst.aux_type = m_.types[pt].element;
        inst.operands = copy_ids(ids_);
        return gep_result(inst.aux_type, inst.operands.subspan(1), m_.types[pt].address_space, inst.type);
    }
    if (!value_type_pair(s, p, pt))
        return false;
    if (m_.types[pt].kind != TypeKind::pointer)
        return fail(Code::dxil_type_mismatch, "a load or store address is not a pointer");
    if (code == inst_load) {
        inst.op = Opcode::load;
        if (!need(s + 2, "LOAD"))
            return false;
        inst.type = m_.types[pt].element;
        if (s + 3 == ops_.size()) {
            if (!type_ok(ops_[s], "load"))
                return false;
            inst.type = TypeId(ops_[s++]);
        }
        ids_.push_back(p);
    } else {
        inst.op = Opcode::store;
        if (code == inst_store) {
            if (!value_type_pair(s, v, vt))
                return false;
        } else if (!value_of_type(s, m_.types[pt].element, v)) {
            return false;
        }
        if (!need(s + 2, "STORE"))
            return false;
        ids_ = {p, v};
        inst.type = no_id;
    }
    uint64_t align = ops_[s];
    if (align > 30)
        return fail(Code::dxil_bad_instruction, "a memory access's alignment is too large");
    inst.extra = align ? 1u << (align - 1) : 0;
    inst.flags = ops_[s + 1] ? 1 : 0;
    inst.operands = copy_ids(ids_);
    return true;
}

bool ModuleReader::read_aggregate_op(uint32_t code, Instruction& inst)
{
    size_t s = 0;
    ValueId a = 0, b = 0, c = 0;
    TypeId ta = no_id, tb = no_id, tc = no_id;
    if (!value_type_pair(s, a, ta))
        return false;
    const Type& t = m_.types[ta];
    switch (code) {
    case inst_extractval:
    case inst_insertval: {
        inst.op = code == inst_extractval ? Opcode::extractvalue : Opcode::insertvalue;
        ids_ = {a};
        if (code == inst_insertval) {
            if (!value_type_pair(s, b, tb))
                return false;
            ids_.push_back(b);
        }
        if (s >= ops_.size())
            return fail(Code::dxil_record_too_short, "extractvalue/insertvalue without indices");
        for (; s < ops_.size(); ++s) {
            if (ops_[s] > 0xFFFFFFFFu)
                return fail(Code::dxil_bad_instruction, "aggregate index too large");
            ids_.push_back(uint32_t(ops_[s]));
        }
        TypeId r = no_id;
        size_t first = code == inst_extractval ? 1 : 2;
        if (!indexed_type(ta, std::span<const uint32_t>(ids_).subspan(first), r))
            return false;
        if (code == inst_insertval && r != tb)
            return fail(Code::dxil_type_mismatch, "insertvalue's value has the wrong type");
        inst.type = code == inst_extractval ? r : ta;
        break;
    }
    case inst_extractelt:
        if (t.kind != TypeKind::vector || !value_type_pair(s, b, tb))
            return fail(Code::dxil_type_mismatch, "extractelement on a non-vector");
        inst.op = Opcode::extractelement;
        inst.type = t.element;
        ids_ = {a, b};
        break;
    case inst_insertelt:
        if (t.kind != TypeKind::vector || !value_of_type(s, t.element, b) || !value_type_pair(s, c, tc))
            return fail(Code::dxil_type_mismatch, "insertelement on a non-vector");
        inst.op = Opcode::insertelement;
        inst.type = ta;
        ids_ = {a, b, c};
        break;
    default: {
        if (t.kind != TypeKind::vector || !value_of_type(s, ta, b) || !value_type_pair(s, c, tc) ||
            m_.types[tc].kind != TypeKind::vector)
            return fail(Code::dxil_type_mismatch, "shufflevector operands are not vectors");
        inst.op = Opcode::shufflevector;
        Type r;
        r.kind = TypeKind::vector;
        r.element = t.element;
        r.count = m_.types[tc].count;
        inst.type = find_or_add(r);
        ids_ = {a, b, c};
        break;
    }
    }
    inst.operands = copy_ids(ids_);
    return true;
}

bool ModuleReader::read_call(Instruction& inst)
{
    if (!need(3, "CALL"))
        return false;
    size_t s = 2;
    const uint64_t attrs = whole_ ? ops_[0] : 0, cc = ops_[1];
    if (attrs > m_.attribute_lists.size())
        return fail(Code::dxil_bad_attribute, "call attribute list %llu is not defined", (unsigned long long)attrs);
    if (cc & (1u << 17))
        ++s; // fast-math flags (later LLVM versions)
    TypeId fnty = no_id;
    if (cc & (1u << 15)) {
        if (!need(s + 1, "CALL") || !type_ok(ops_[s], "call"))
            return false;
        fnty = TypeId(ops_[s++]);
    }
    ValueId callee = 0;
    TypeId ct = no_id;
    if (!value_type_pair(s, callee, ct))
        return false;
    if (m_.types[ct].kind != TypeKind::pointer || m_.types[m_.types[ct].element].kind != TypeKind::function)
        return fail(Code::dxil_type_mismatch, "a call's callee is not a function pointer");
    if (fnty == no_id)
        fnty = m_.types[ct].element;
    if (fnty != m_.types[ct].element)
        return fail(Code::dxil_type_mismatch, "a call's function type does not match its callee");
    const Type& ft = m_.types[fnty];
    std::span<const uint32_t> operands;
    if (!ft.vararg) {
        // The count is known: the arguments go straight into the arena.
        size_t n = ft.members.size() + 1;
        uint32_t* p = m_.arena.alloc_array<uint32_t>(n);
        p[0] = callee;
        for (size_t k = 1; k < n; ++k)
            if (!value_of_type(s, ft.members[k - 1], p[k]))
                return false;
        operands = {p, n};
    } else {
        ids_.clear();
        ids_.push_back(callee);
        for (TypeId param : ft.members) {
            ValueId v = 0;
            if (!value_of_type(s, param, v))
                return false;
            ids_.push_back(v);
        }
        while (s < ops_.size()) {
            ValueId v = 0;
            TypeId vt = no_id;
            if (!value_type_pair(s, v, vt))
                return false;
            ids_.push_back(v);
        }
        operands = copy_ids(ids_);
    }
    if (s != ops_.size())
        return fail(Code::dxil_bad_instruction, "a call has %zu operands, its function type fewer", ops_.size());
    inst.op = Opcode::call;
    inst.aux_type = fnty;
    inst.type = ft.element;
    inst.extra = uint32_t(attrs);
    inst.flags = (cc & 1) ? 1 : 0;
    inst.sub = uint8_t((cc >> 1) & 0xFF);
    inst.operands = operands;
    return true;
}

bool ModuleReader::read_atomic(uint32_t code, Instruction& inst)
{
    size_t s = 0;
    ids_.clear();
    if (code == inst_fence) {
        if (!need(2, "FENCE"))
            return false;
        inst.op = Opcode::fence;
        inst.extra = uint32_t(ops_[0] & 0xFF) | uint32_t(ops_[1] & 0xFF) << 8;
        inst.operands = {};
        return true;
    }
    ValueId p = 0, a = 0, b = 0;
    TypeId pt = no_id, at = no_id;
    if (!value_type_pair(s, p, pt))
        return false;
    if (m_.types[pt].kind != TypeKind::pointer)
        return fail(Code::dxil_type_mismatch, "an atomic's address is not a pointer");
    TypeId elem = m_.types[pt].element;
    if (code == inst_atomicrmw) {
        if (!value_of_type(s, elem, a) || !need(s + 4, "ATOMICRMW"))
            return false;
        if (ops_[s] > 10)
            return fail(Code::dxil_bad_instruction, "unknown atomicrmw operation %llu", (unsigned long long)ops_[s]);
        inst.op = Opcode::atomicrmw;
        inst.sub = uint8_t(ops_[s]);
        inst.flags = ops_[s + 1] ? 1 : 0;
        inst.extra = uint32_t(ops_[s + 2] & 0xFF) | uint32_t(ops_[s + 3] & 0xFF) << 8;
        inst.type = elem;
        ids_ = {p, a};
    } else {
        if (code == inst_cmpxchg) {
            if (!value_type_pair(s, a, at))
                return false;
        } else if (!value_of_type(s, elem, a)) {
            return false;
        }
        if (!value_of_type(s, elem, b) || !need(s + 3, "CMPXCHG"))
            return false;
        inst.op = Opcode::cmpxchg;
        uint64_t success = ops_[s + 1], scope = ops_[s + 2];
        uint64_t failure = s + 3 < ops_.size() ? ops_[s + 3] : success;
        bool weak = s + 4 < ops_.size() && ops_[s + 4];
        inst.flags = uint8_t((ops_[s] ? 1 : 0) | (weak ? 2 : 0));
        inst.extra = uint32_t(success & 0xFF) | uint32_t(failure & 0xFF) << 8 | uint32_t(scope & 0xFF) << 16;
        Type pair;
        pair.kind = TypeKind::struct_;
        TypeId* members = m_.arena.alloc_array<TypeId>(2);
        members[0] = elem;
        members[1] = bool_type(no_id);
        pair.members = {members, 2};
        inst.type = find_or_add(pair);
        ids_ = {p, a, b};
    }
    inst.operands = copy_ids(ids_);
    return true;
}

} // namespace dxspv::dxil::detail

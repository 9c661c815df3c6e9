// Module reader: CONSTANTS blocks (module level and inside functions).
#include "dxil/module/reader.h"

#include <cstring>

namespace dxspv::dxil::detail {

namespace {

enum : uint32_t {
    cst_settype = 1, cst_null = 2, cst_undef = 3, cst_integer = 4, cst_wide_integer = 5, cst_float = 6,
    cst_aggregate = 7, cst_string = 8, cst_cstring = 9, cst_ce_binop = 10, cst_ce_cast = 11, cst_ce_gep = 12,
    cst_ce_select = 13, cst_ce_extractelt = 14, cst_ce_insertelt = 15, cst_ce_shufflevec = 16, cst_ce_cmp = 17,
    cst_ce_inbounds_gep = 20, cst_data = 22
};

uint64_t decode_signed(uint64_t v) { return (v & 1) ? (v == 1 ? uint64_t(1) << 63 : uint64_t(-int64_t(v >> 1))) : v >> 1; }

} // namespace

bool ModuleReader::read_constant_gep(uint32_t code, TypeId type, Constant& c)
{
    (void)type;
    size_t i = 0;
    c.kind = ConstantKind::gep;
    c.flags = code == cst_ce_inbounds_gep ? 1 : 0;
    if (ops_.size() & 1) {
        if (!type_ok(ops_[0], "GEP source"))
            return false;
        c.source_type = TypeId(ops_[0]);
        i = 1;
    }
    ids_.clear();
    TypeId base_type = no_id;
    for (; i + 1 < ops_.size(); i += 2) {
        if (!type_ok(ops_[i], "GEP operand"))
            return false;
        if (ops_[i + 1] >= max_count)
            return fail(Code::dxil_bad_value_id, "constant GEP operand %llu", (unsigned long long)ops_[i + 1]);
        ids_.push_back(uint32_t(ops_[i + 1]));
        if (base_type == no_id)
            base_type = TypeId(ops_[i]);
    }
    if (ids_.empty())
        return fail(Code::dxil_bad_constant, "a constant GEP has no base pointer");
    if (c.source_type == no_id) {
        const Type& base = m_.types[base_type];
        if (base.kind != TypeKind::pointer)
            return fail(Code::dxil_bad_constant, "a constant GEP's base is not a pointer");
        c.source_type = base.element;
    }
    c.operands = copy_ids(ids_);
    return true;
}

bool ModuleReader::read_constant(uint32_t code, TypeId type, Constant& c)
{
    const Type& t = m_.types[type];
    auto value_id = [&](size_t i, uint32_t& out) {
        if (ops_[i] >= max_count)
            return fail(Code::dxil_bad_value_id, "constant operand %llu is out of range", (unsigned long long)ops_[i]);
        out = uint32_t(ops_[i]);
        return true;
    };
    c.type = type;
    switch (code) {
    case cst_null: c.kind = ConstantKind::null; return true;
    case cst_undef: c.kind = ConstantKind::undef; return true;
    case cst_integer:
        if (!need(1, "CST_INTEGER"))
            return false;
        if (t.kind != TypeKind::integer)
            return fail(Code::dxil_type_mismatch, "an integer constant of a non-integer type");
        c.kind = ConstantKind::integer;
        c.value = decode_signed(ops_[0]);
        return true;
    case cst_float:
        if (!need(1, "CST_FLOAT"))
            return false;
        if (t.kind != TypeKind::half && t.kind != TypeKind::float_ && t.kind != TypeKind::double_)
            return fail(Code::dxil_type_mismatch, "a float constant of a non-float type");
        c.kind = ConstantKind::float_;
        c.value = ops_[0];
        return true;
    case cst_aggregate:
    case cst_string:
    case cst_cstring:
    case cst_data: {
        if (t.kind != TypeKind::array && t.kind != TypeKind::vector && t.kind != TypeKind::struct_)
            return fail(Code::dxil_type_mismatch, "an aggregate constant of a non-aggregate type");
        uint64_t expected = t.kind == TypeKind::struct_ ? t.members.size() : t.count;
        uint64_t got = ops_.size() + (code == cst_cstring ? 1 : 0);
        if (got != expected)
            return fail(Code::dxil_bad_constant, "an aggregate constant has %llu elements, its type %llu",
                        (unsigned long long)got, (unsigned long long)expected);
        if (code == cst_aggregate) {
            c.kind = ConstantKind::aggregate;
            size_t bad = 0;
            uint32_t unused = 0;
            if (!ops_ids(0, max_count, c.operands, bad))
                return value_id(bad, unused); // the diagnostic for the first operand out of range
            return true;
        }
        if (t.kind == TypeKind::struct_)
            return fail(Code::dxil_type_mismatch, "a data or string constant of a struct type");
        c.kind = code == cst_data ? ConstantKind::data : ConstantKind::string;
        uint64_t* p = m_.arena.alloc_array<uint64_t>(size_t(got));
        if (!ops_.empty())
            std::memcpy(p, ops_.data(), ops_.size() * sizeof(uint64_t));
        if (code == cst_cstring)
            p[ops_.size()] = 0;
        c.data = {p, size_t(got)};
        return true;
    }
    case cst_ce_binop:
        if (!need(3, "CE_BINOP"))
            return false;
        c.kind = ConstantKind::binop;
        c.opcode = uint8_t(ops_[0]);
        c.flags = ops_.size() > 3 ? uint8_t(ops_[3]) : 0;
        ids_.assign(2, 0);
        if (!value_id(1, ids_[0]) || !value_id(2, ids_[1]))
            return false;
        c.operands = copy_ids(ids_);
        return true;
    case cst_ce_cast:
        if (!need(3, "CE_CAST") || !type_ok(ops_[1], "cast operand"))
            return false;
        c.kind = ConstantKind::cast;
        c.opcode = uint8_t(ops_[0]);
        c.source_type = TypeId(ops_[1]);
        ids_.assign(1, 0);
        if (!value_id(2, ids_[0]))
            return false;
        c.operands = copy_ids(ids_);
        return true;
    case cst_ce_gep:
    case cst_ce_inbounds_gep: return read_constant_gep(code, type, c);
    case cst_ce_select:
    case cst_ce_shufflevec:
        if (!need(3, "CE_SELECT"))
            return false;
        c.kind = code == cst_ce_select ? ConstantKind::select : ConstantKind::shufflevector;
        ids_.assign(3, 0);
        if (!value_id(0, ids_[0]) || !value_id(1, ids_[1]) || !value_id(2, ids_[2]))
            return false;
        c.operands = copy_ids(ids_);
        return true;
    case cst_ce_cmp:
        if (!need(4, "CE_CMP") || !type_ok(ops_[0], "cmp operand"))
            return false;
        c.kind = ConstantKind::cmp;
        c.source_type = TypeId(ops_[0]);
        c.opcode = uint8_t(ops_[3]);
        ids_.assign(2, 0);
        if (!value_id(1, ids_[0]) || !value_id(2, ids_[1]))
            return false;
        c.operands = copy_ids(ids_);
        return true;
    case cst_ce_extractelt:
    case cst_ce_insertelt: {
        // extractelt: [opty, opval, idxty, idxval]; insertelt: [opval, opval, idxty, idxval]
        if (!need(4, "CE_EXTRACTELT"))
            return false;
        c.kind = code == cst_ce_extractelt ? ConstantKind::extractelement : ConstantKind::insertelement;
        ids_.clear();
        uint32_t a = 0, b = 0, idx = 0;
        if (code == cst_ce_extractelt) {
            if (!value_id(1, a) || !value_id(3, idx))
                return false;
            ids_ = {a, idx};
        } else {
            if (!value_id(0, a) || !value_id(1, b) || !value_id(3, idx))
                return false;
            ids_ = {a, b, idx};
        }
        c.operands = copy_ids(ids_);
        return true;
    }
    case cst_wide_integer: return fail(Code::dxil_bad_constant, "integer constants wider than 64 bits are not supported");
    default: return fail(Code::dxil_unknown_record, "unknown constant record %u", code);
    }
}

bool ModuleReader::read_constants_block(bool local)
{
    // Room for the block's constants at once (dxc's take two bytes or so,
    // a type change one), not a regrowth every few of them.
    const size_t room = std::min<size_t>(cursor_.block_contents().size() / 2, max_count);
    if (local) {
        fn_->values.reserve(fn_->values.size() + room);
        value_types_.reserve(value_types_.size() + room);
        fn_->constants.reserve(fn_->constants.size() + room);
    } else {
        m_.values.reserve(m_.values.size() + room);
        m_.value_names.reserve(m_.value_names.size() + room);
        m_.constants.reserve(m_.constants.size() + room);
    }
    TypeId type = no_id;
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            return true;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            if (!cursor_.skip_block())
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record(e.id, code, ops_))
            return false;
        if (code == cst_settype) {
            if (!need(1, "SETTYPE") || !type_ok(ops_[0], "SETTYPE"))
                return false;
            type = TypeId(ops_[0]);
            const Type& t = m_.types[type];
            if (t.kind == TypeKind::void_ || t.kind == TypeKind::function || t.kind == TypeKind::label)
                return fail(Code::dxil_bad_type_id, "constants of a void, label or function type");
            continue;
        }
        if (type == no_id)
            return fail(Code::dxil_bad_constant, "a constant before SETTYPE");
        Constant c;
        if (!read_constant(code, type, c))
            return false;
        if (!local) {
            if (m_.values.size() >= max_count)
                return fail(Code::dxil_too_large, "too many values");
            m_.values.push_back({ModuleValue::Kind::constant, type, uint32_t(m_.constants.size())});
            m_.value_names.emplace_back();
            m_.constants.push_back(c);
        } else {
            if (fn_->values.size() >= max_count)
                return fail(Code::dxil_too_large, "too many values");
            fn_->values.push_back({LocalValue::Kind::constant, type, uint32_t(fn_->constants.size()), {}});
            value_types_.push_back(type);
            fn_->constants.push_back(c);
            ++next_value_;
        }
    }
}

bool ModuleReader::check_constants(std::span<const Constant> constants, bool local)
{
    size_t limit = m_.values.size() + (local ? fn_->values.size() : 0);
    for (const Constant& c : constants) {
        for (uint32_t id : c.operands)
            if (id >= limit)
                return fail(Code::dxil_bad_value_id, "a constant refers to value %u of %zu", id, limit);
        if (c.kind == ConstantKind::gep && c.operands.size() > 1) {
            TypeId result = no_id;
            TypeId base = type_of(c.operands[0]);
            if (base == no_id || m_.types[base].kind != TypeKind::pointer)
                return fail(Code::dxil_type_mismatch, "a constant GEP's base is not a pointer");
            if (!gep_result(c.source_type, c.operands.subspan(1), m_.types[base].address_space, result))
                return false;
        }
    }
    return check_constant_depth(local);
}

bool ModuleReader::check_constant_depth(bool local)
{
    // Constants may refer forward; reject cycles and bound the nesting the
    // printer and later passes recurse through. Iterative DFS.
    const ScratchVector<Constant>& list = local ? fn_->constants : m_.constants;
    auto constant_index = [&](ValueId id) -> uint32_t {
        if (!local) {
            return id < m_.values.size() && m_.values[id].kind == ModuleValue::Kind::constant ? m_.values[id].index
                                                                                            : no_id;
        }
        if (id < m_.values.size())
            return no_id; // module constants were checked already
        const LocalValue& v = fn_->values[id - m_.values.size()];
        return v.kind == LocalValue::Kind::constant ? v.index : no_id;
    };
    ScratchVector<uint8_t> depth(list.size(), 0); // 0 = not visited, 255 = on the stack
    ScratchVector<std::pair<uint32_t, uint32_t>> stack;
    for (uint32_t root = 0; root < list.size(); ++root) {
        if (depth[root])
            continue;
        if (list[root].operands.empty()) { // most are: no walk
            depth[root] = 1;
            continue;
        }
        stack.push_back({root, 0});
        depth[root] = 255;
        while (!stack.empty()) {
            auto& [c, next] = stack.back();
            if (next < list[c].operands.size()) {
                uint32_t k = constant_index(list[c].operands[next++]);
                if (k == no_id)
                    continue;
                if (depth[k] == 255)
                    return fail(Code::dxil_bad_constant, "constant %u refers to itself", k);
                if (depth[k] == 0) {
                    if (stack.size() >= max_constant_depth)
                        return fail(Code::dxil_too_deep, "constants are nested more than %u levels deep",
                                    max_constant_depth);
                    depth[k] = 255;
                    stack.push_back({k, 0});
                }
                continue;
            }
            uint8_t d = 1;
            for (ValueId op : list[c].operands) {
                uint32_t k = constant_index(op);
                if (k != no_id && depth[k] + 1 > d)
                    d = uint8_t(depth[k] + 1);
            }
            if (d > max_constant_depth)
                return fail(Code::dxil_too_deep, "constants are nested more than %u levels deep", max_constant_depth);
            depth[c] = d;
            stack.pop_back();
        }
    }
    return true;
}

} // namespace dxspv::dxil::detail

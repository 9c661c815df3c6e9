// .ll reader: constant expressions (casts, getelementptr, binary operators,
// compares, select, vector element operations) and the type rules they share
// with instructions (cast validity, GEP and aggregate index result types).
#include "dxil/dxil.h"
#include "dxil/ll/names.h"
#include "dxil/ll/parser.h"

namespace dxspv::dxil::ll {

namespace {

bool is_float_kind(TypeKind k) { return k == TypeKind::half || k == TypeKind::float_ || k == TypeKind::double_; }

uint32_t scalar_bits(const Module& m, TypeId t)
{
    const Type& ty = m.types[t];
    switch (ty.kind) {
    case TypeKind::integer: return ty.width;
    case TypeKind::half: return 16;
    case TypeKind::float_: return 32;
    case TypeKind::double_: return 64;
    default: return 0;
    }
}

} // namespace

bool cast_is_valid(const Module& m, int op, TypeId from, TypeId to)
{
    const Type& f = m.types[from];
    const Type& t = m.types[to];
    bool fv = f.kind == TypeKind::vector, tv = t.kind == TypeKind::vector;
    if (op == 11) { // bitcast: same size, pointers to pointers in one address space
        if (f.kind == TypeKind::pointer || t.kind == TypeKind::pointer)
            return f.kind == TypeKind::pointer && t.kind == TypeKind::pointer && f.address_space == t.address_space;
        uint64_t fb = fv ? f.count * scalar_bits(m, f.element) : scalar_bits(m, from);
        uint64_t tb = tv ? t.count * scalar_bits(m, t.element) : scalar_bits(m, to);
        bool fs = fv ? m.types[f.element].kind != TypeKind::pointer : scalar_bits(m, from) != 0;
        bool ts = tv ? m.types[t.element].kind != TypeKind::pointer : scalar_bits(m, to) != 0;
        return fs && ts && fb == tb && fb != 0;
    }
    if (fv != tv || (fv && f.count != t.count))
        return false;
    TypeId fe = fv ? f.element : from, te = tv ? t.element : to;
    TypeKind fk = m.types[fe].kind, tk = m.types[te].kind;
    uint32_t fb = scalar_bits(m, fe), tb = scalar_bits(m, te);
    switch (op) {
    case 0: return fk == TypeKind::integer && tk == TypeKind::integer && fb > tb;  // trunc
    case 1:
    case 2: return fk == TypeKind::integer && tk == TypeKind::integer && fb < tb;  // zext, sext
    case 3:
    case 4: return is_float_kind(fk) && tk == TypeKind::integer;                   // fptoui, fptosi
    case 5:
    case 6: return fk == TypeKind::integer && is_float_kind(tk);                   // uitofp, sitofp
    case 7: return is_float_kind(fk) && is_float_kind(tk) && fb > tb;              // fptrunc
    case 8: return is_float_kind(fk) && is_float_kind(tk) && fb < tb;              // fpext
    case 9: return fk == TypeKind::pointer && tk == TypeKind::integer;             // ptrtoint
    case 10: return fk == TypeKind::integer && tk == TypeKind::pointer;            // inttoptr
    case 12:                                                                       // addrspacecast
        return fk == TypeKind::pointer && tk == TypeKind::pointer &&
               m.types[fe].address_space != m.types[te].address_space;
    default: return false;
    }
}

bool Parser::indexed_type(TypeId aggregate, std::span<const uint32_t> indices, uint32_t token, TypeId& out)
{
    TypeId t = aggregate;
    for (uint32_t index : indices) {
        const Type& ty = m_.types[t];
        if (ty.kind == TypeKind::struct_) {
            if (index >= ty.members.size())
                return fail_at(token, Code::ll_bad_instruction, "struct index %u is out of range", index);
            t = ty.members[index];
        } else if (ty.kind == TypeKind::array) {
            if (index >= ty.count)
                return fail_at(token, Code::ll_bad_instruction, "array index %u is out of range", index);
            t = ty.element;
        } else {
            return fail_at(token, Code::ll_type_mismatch, "an aggregate index into the non-aggregate type %s",
                        print_type(m_, t).c_str());
        }
    }
    out = t;
    return true;
}

bool Parser::gep_result(TypeId source, std::span<const uint32_t> indices, TypeId base, TypeId& out)
{
    const Type& b = m_.types[base];
    if (b.kind != TypeKind::pointer)
        return fail(Code::ll_type_mismatch, "a getelementptr base of the non-pointer type %s",
                    print_type(m_, base).c_str());
    if (b.element != source)
        return fail(Code::ll_type_mismatch, "getelementptr's type %s is not the base's pointee type",
                    print_type(m_, source).c_str());
    if (indices.empty())
        return fail(Code::ll_bad_instruction, "getelementptr without indices");
    TypeId t = source;
    for (size_t i = 0; i < indices.size(); ++i) {
        TypeId it = type_of(indices[i]);
        if (it == no_id || m_.types[it].kind != TypeKind::integer)
            return fail(Code::ll_type_mismatch, "a getelementptr index is not an integer");
        if (i == 0)
            continue;
        const Type& ty = m_.types[t];
        if (ty.kind == TypeKind::struct_) {
            const Constant* c = constant_at(indices[i]);
            uint64_t index = c && c->kind == ConstantKind::integer ? c->value : 0;
            if (!c || (c->kind != ConstantKind::integer && c->kind != ConstantKind::null) ||
                m_.types[it].width != 32 || index >= ty.members.size())
                return fail(Code::ll_bad_instruction, "a getelementptr struct index is not an i32 constant in range");
            t = ty.members[size_t(index)];
        } else if (ty.kind == TypeKind::array || ty.kind == TypeKind::vector) {
            t = ty.element;
        } else {
            return fail(Code::ll_type_mismatch, "getelementptr indexes into the non-aggregate type %s",
                        print_type(m_, t).c_str());
        }
    }
    out = pointer_to(t, b.address_space);
    return out != no_id;
}

bool Parser::parse_constant_gep(TypeId type, bool inbounds, ValueId& out)
{
    // getelementptr [inbounds] (T, T* base, indices...), or the LLVM 3.6 form without T.
    uint32_t start = uint32_t(pos_);
    Constant c;
    c.kind = ConstantKind::gep;
    c.flags = inbounds ? 1 : 0;
    if (!expect(Tok::lparen, "after getelementptr"))
        return false;
    TypeId first = no_id, base_type = no_id;
    if (!parse_type(first, false))
        return false;
    std::vector<uint32_t> ops;
    ValueId base = no_id;
    if (accept(Tok::comma)) {
        c.source_type = first;
        if (!parse_typed_value(base, base_type))
            return false;
    } else {
        base_type = first;
        if (!parse_value(first, base))
            return false;
        c.source_type = m_.types[first].kind == TypeKind::pointer ? m_.types[first].element : first;
    }
    ops.push_back(base);
    while (accept(Tok::comma)) {
        ValueId v = no_id;
        TypeId t = no_id;
        if (!parse_typed_value(v, t))
            return false;
        ops.push_back(v);
    }
    if (!expect(Tok::rparen, "to end the getelementptr"))
        return false;
    TypeId result = no_id;
    if (!gep_result(c.source_type, std::span<const uint32_t>(ops).subspan(1), base_type, result))
        return false;
    if (result != type)
        return fail_at(start, Code::ll_type_mismatch, "getelementptr gives %s, not %s", print_type(m_, result).c_str(),
                       print_type(m_, type).c_str());
    c.type = type;
    c.operands = ops;
    out = intern_constant(c);
    return out != no_id;
}

bool Parser::parse_constant_expression(TypeId type, ValueId& out)
{
    std::string_view w = tok().text;
    uint32_t start = uint32_t(pos_);
    next();
    Constant c;
    c.type = type;
    std::vector<uint32_t> ops;
    auto operand = [&](TypeId want) {
        ValueId v = no_id;
        TypeId t = no_id;
        uint32_t at_token = uint32_t(pos_);
        if (!parse_typed_value(v, t))
            return false;
        if (want != no_id && t != want)
            return fail_at(at_token, Code::ll_type_mismatch, "operand of type %s, expected %s",
                           print_type(m_, t).c_str(), print_type(m_, want).c_str());
        ops.push_back(v);
        return true;
    };
    auto finish = [&]() {
        if (!expect(Tok::rparen, "to end the constant expression"))
            return false;
        c.operands = ops;
        out = intern_constant(c);
        return out != no_id;
    };
    if (w == "getelementptr")
        return parse_constant_gep(type, accept_word("inbounds"), out);
    if (int cast = find_name(cast_names, w); cast >= 0) {
        c.kind = ConstantKind::cast;
        c.opcode = uint8_t(cast);
        if (!expect(Tok::lparen, "after the cast") || !operand(no_id) || !expect_word("to", "in a cast"))
            return false;
        TypeId to = no_id;
        uint32_t to_token = uint32_t(pos_);
        if (!parse_type(to, false))
            return false;
        c.source_type = type_of(ops[0]);
        if (to != type)
            return fail_at(to_token, Code::ll_type_mismatch, "the cast gives %s, not %s", print_type(m_, to).c_str(),
                           print_type(m_, type).c_str());
        if (!cast_is_valid(m_, cast, c.source_type, to))
            return fail_at(start, Code::ll_bad_constant, "invalid %.*s from %s to %s", int(w.size()), w.data(),
                           print_type(m_, c.source_type).c_str(), print_type(m_, to).c_str());
        return finish();
    }
    int binop = find_name(binop_names, w);
    int fbinop = find_name(fbinop_names, w);
    if (binop >= 0 || fbinop >= 0) {
        c.kind = ConstantKind::binop;
        c.opcode = uint8_t(binop >= 0 ? binop : fbinop == 3 ? 4 : fbinop == 5 ? 6 : fbinop);
        for (;;) {
            if (accept_word("nuw"))
                c.flags |= 1;
            else if (accept_word("nsw"))
                c.flags |= 2;
            else if (accept_word("exact"))
                c.flags |= 1;
            else
                break;
        }
        const Type& t = m_.types[type];
        TypeKind k = t.kind == TypeKind::vector ? m_.types[t.element].kind : t.kind;
        if (binop >= 0 ? k != TypeKind::integer : !is_float_kind(k))
            return fail_at(start, Code::ll_type_mismatch, "%.*s of type %s", int(w.size()), w.data(),
                           print_type(m_, type).c_str());
        return expect(Tok::lparen, "after the operator") && operand(type) && expect(Tok::comma, "between operands") &&
               operand(type) && finish();
    }
    if (w == "icmp" || w == "fcmp") {
        c.kind = ConstantKind::cmp;
        int pred = at(Tok::word) ? (w == "icmp" ? find_name(icmp_names, tok().text) : find_name(fcmp_names, tok().text))
                                 : -1;
        if (pred < 0)
            return unexpected("a comparison predicate");
        next();
        c.opcode = uint8_t(w == "icmp" ? pred + 32 : pred);
        if (!expect(Tok::lparen, "after the predicate") || !operand(no_id))
            return false;
        c.source_type = type_of(ops[0]);
        if (!expect(Tok::comma, "between operands") || !operand(c.source_type))
            return false;
        const Type& st = m_.types[c.source_type];
        TypeKind k = st.kind == TypeKind::vector ? m_.types[st.element].kind : st.kind;
        if (w == "icmp" ? k != TypeKind::integer && k != TypeKind::pointer : !is_float_kind(k))
            return fail_at(start, Code::ll_type_mismatch, "%.*s on %s", int(w.size()), w.data(),
                           print_type(m_, c.source_type).c_str());
        if (bool_type(c.source_type) != type)
            return fail_at(start, Code::ll_type_mismatch, "a comparison of type %s", print_type(m_, type).c_str());
        return finish();
    }
    if (w == "select") {
        c.kind = ConstantKind::select;
        if (!expect(Tok::lparen, "after select") || !operand(no_id) || !expect(Tok::comma, "between operands") ||
            !operand(type) || !expect(Tok::comma, "between operands") || !operand(type))
            return false;
        if (bool_type(type) != type_of(ops[0]) && type_of(ops[0]) != bool_type(no_id))
            return fail_at(start, Code::ll_type_mismatch, "a select condition is not i1");
        return finish();
    }
    if (w == "extractelement" || w == "insertelement" || w == "shufflevector") {
        c.kind = w == "extractelement"  ? ConstantKind::extractelement
                 : w == "insertelement" ? ConstantKind::insertelement
                                        : ConstantKind::shufflevector;
        if (!expect(Tok::lparen, "after the operator") || !operand(no_id))
            return false;
        const Type& v = m_.types[type_of(ops[0])];
        if (v.kind != TypeKind::vector)
            return fail_at(start, Code::ll_type_mismatch, "%.*s on a non-vector", int(w.size()), w.data());
        TypeId vt = type_of(ops[0]);
        if (c.kind == ConstantKind::insertelement && !(expect(Tok::comma, "between operands") && operand(v.element)))
            return false;
        if (c.kind == ConstantKind::shufflevector && !(expect(Tok::comma, "between operands") && operand(vt)))
            return false;
        if (!expect(Tok::comma, "between operands") || !operand(no_id))
            return false;
        TypeId last = type_of(ops.back());
        TypeId result = c.kind == ConstantKind::extractelement ? m_.types[vt].element : vt;
        if (c.kind == ConstantKind::shufflevector) {
            const Type& mask = m_.types[last];
            if (mask.kind != TypeKind::vector || m_.types[mask.element].kind != TypeKind::integer)
                return fail_at(start, Code::ll_type_mismatch, "a shufflevector mask is not an integer vector");
            Type r;
            r.kind = TypeKind::vector;
            r.count = mask.count;
            r.element = m_.types[vt].element;
            result = intern_type(r);
        } else if (m_.types[last].kind != TypeKind::integer) {
            return fail_at(start, Code::ll_type_mismatch, "a vector index is not an integer");
        }
        if (result != type)
            return fail_at(start, Code::ll_type_mismatch, "%.*s gives %s, not %s", int(w.size()), w.data(),
                           print_type(m_, result).c_str(), print_type(m_, type).c_str());
        return finish();
    }
    if (w == "extractvalue" || w == "insertvalue" || w == "blockaddress")
        return fail_at(start, Code::ll_unsupported, "constant %.*s is not supported in DXIL", int(w.size()), w.data());
    return fail_at(start, Code::ll_syntax, "expected a value, found '%.*s'", int(w.size()), w.data());
}

} // namespace dxspv::dxil::ll

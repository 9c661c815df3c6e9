// .ll reader: types (uniqued structurally, named structs by name), type
// definitions, attribute groups and the attributes of functions and calls
// (grouped and listed as LLVM 3.7's bitcode writer enumerates them).
#include <algorithm>
#include <charconv>

#include "dxil/ll/names.h"
#include "dxil/ll/parser.h"

namespace dxspv::dxil::ll {

namespace {

size_t mix(size_t h, uint64_t v) { return (h ^ size_t(v)) * 0x100000001B3ull + (h >> 29); }

} // namespace

size_t KeyHash::operator()(const TypeKey& k) const
{
    const Type& t = k.type;
    size_t h = mix(mix(mix(size_t(t.kind), t.width), t.count), t.element);
    h = mix(mix(h, t.address_space), uint64_t(t.packed) | uint64_t(t.vararg) << 1);
    for (TypeId m : t.members)
        h = mix(h, m);
    return h;
}

bool KeyEq::operator()(const TypeKey& a, const TypeKey& b) const
{
    const Type& x = a.type;
    const Type& y = b.type;
    if (x.kind != y.kind || x.width != y.width || x.count != y.count || x.element != y.element ||
        x.address_space != y.address_space || x.packed != y.packed || x.vararg != y.vararg ||
        x.members.size() != y.members.size())
        return false;
    for (size_t i = 0; i < x.members.size(); ++i)
        if (x.members[i] != y.members[i])
            return false;
    return true;
}

TypeId Parser::intern_type(const Type& t)
{
    auto it = type_map_.find(TypeKey{t});
    if (it != type_map_.end())
        return it->second;
    if (m_.types.size() >= max_count) {
        fail(Code::ll_too_large, "too many types");
        return no_id;
    }
    // Nesting as the printer recurses: named structs are printed by name.
    unsigned depth = 1;
    auto child = [&](TypeId c) {
        if (c < m_.types.size() && !m_.types[c].identified && type_depth_[c] + 1u > depth)
            depth = type_depth_[c] + 1u;
    };
    if (t.element != no_id)
        child(t.element);
    for (TypeId m : t.members)
        child(m);
    if (depth > max_depth) {
        fail(Code::ll_too_deep, "a type is nested more than %u levels deep", max_depth);
        return no_id;
    }
    Type copy = t;
    if (!t.members.empty()) {
        TypeId* p = m_.arena.alloc_array<TypeId>(t.members.size());
        std::copy(t.members.begin(), t.members.end(), p);
        copy.members = {p, t.members.size()};
    }
    TypeId id = TypeId(m_.types.size());
    m_.types.push_back(copy);
    type_depth_.push_back(uint8_t(depth));
    type_map_.emplace(TypeKey{copy}, id);
    return id;
}

TypeId Parser::simple_type(TypeKind kind, uint32_t width)
{
    if (kind == TypeKind::integer) {
        if (!ints_[width]) {
            Type t;
            t.kind = kind;
            t.width = width;
            TypeId id = intern_type(t);
            if (id == no_id)
                return no_id;
            ints_[width] = id + 1;
        }
        return ints_[width] - 1;
    }
    TypeId& slot = simple_[size_t(kind)];
    if (slot == no_id) {
        Type t;
        t.kind = kind;
        slot = intern_type(t);
    }
    return slot;
}

TypeId Parser::pointer_to(TypeId element, uint32_t address_space)
{
    Type t;
    t.kind = TypeKind::pointer;
    t.element = element;
    t.address_space = address_space;
    return intern_type(t);
}

TypeId Parser::bool_type(TypeId like)
{
    TypeId b = simple_type(TypeKind::integer, 1);
    if (b == no_id || like == no_id || m_.types[like].kind != TypeKind::vector)
        return b;
    Type v;
    v.kind = TypeKind::vector;
    v.count = m_.types[like].count;
    v.element = b;
    return intern_type(v);
}

bool Parser::is_first_class(TypeId t) const
{
    TypeKind k = m_.types[t].kind;
    return k != TypeKind::void_ && k != TypeKind::function; // opaque structs are named types in the making
}

bool Parser::named_type(const Token& t, TypeId& out)
{
    if (t.numbered) {
        uint64_t n = 0;
        auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
        if (r.ec != std::errc() || n >= numbered_types_.size())
            return fail_at(uint32_t(&t - toks_.data()), Code::ll_undefined_type, "type %%%.*s is not defined", int(t.text.size()), t.text.data());
        out = numbered_types_[n];
        return true;
    }
    std::string_view name;
    if (!name_of(t, name))
        return false;
    auto it = named_types_.find(name);
    if (it == named_types_.end())
        return fail_at(uint32_t(&t - toks_.data()), Code::ll_undefined_type, "type %%%.*s is not defined",
                       int(name.size()), name.data());
    out = it->second;
    return true;
}

bool Parser::parse_struct_body(std::vector<TypeId>& members, bool packed)
{
    // After '{' (or '<{'): members up to '}' (and '>').
    if (!accept(Tok::rbrace)) {
        do {
            TypeId m = no_id;
            uint32_t at_token = uint32_t(pos_);
            if (!parse_type(m, false))
                return false;
            if (!is_first_class(m) || m_.types[m].kind == TypeKind::label || m_.types[m].kind == TypeKind::metadata)
                return fail_at(at_token, Code::ll_bad_type, "invalid struct member type");
            if (members.size() >= 0xFFFF)
                return fail(Code::ll_too_large, "too many struct members");
            members.push_back(m);
        } while (accept(Tok::comma));
        if (!expect(Tok::rbrace, "to end the struct type"))
            return false;
    }
    return !packed || expect(Tok::greater, "after '}' of a packed struct");
}

bool Parser::parse_base_type(TypeId& out)
{
    const Token& t = tok();
    uint32_t at_token = uint32_t(pos_);
    if (t.kind == Tok::local) {
        next();
        return named_type(t, out);
    }
    if (t.kind == Tok::lbrace || (t.kind == Tok::less && peek(1).kind == Tok::lbrace)) {
        bool packed = t.kind == Tok::less;
        next();
        if (packed)
            next();
        std::vector<TypeId> members;
        if (!parse_struct_body(members, packed))
            return false;
        Type s;
        s.kind = TypeKind::struct_;
        s.packed = packed;
        s.members = members;
        out = intern_type(s);
        return out != no_id;
    }
    if (t.kind == Tok::lbracket || t.kind == Tok::less) {
        bool vector = t.kind == Tok::less;
        next();
        uint64_t count = 0;
        if (!parse_uint(count, UINT64_MAX, "an element count") || !expect_word("x", "after the element count"))
            return false;
        TypeId elem = no_id;
        uint32_t elem_token = uint32_t(pos_);
        if (!parse_type(elem, false))
            return false;
        TypeKind k = m_.types[elem].kind;
        if (vector ? !(k == TypeKind::integer || k == TypeKind::half || k == TypeKind::float_ ||
                       k == TypeKind::double_ || k == TypeKind::pointer)
                   : (!is_first_class(elem) || k == TypeKind::label || k == TypeKind::metadata))
            return fail_at(elem_token, Code::ll_bad_type, "invalid %s element type", vector ? "vector" : "array");
        if (vector && (count == 0 || count > 0xFFFFFFFFu))
            return fail_at(at_token, Code::ll_bad_type, "invalid vector length %llu", (unsigned long long)count);
        if (!expect(vector ? Tok::greater : Tok::rbracket, vector ? "to end the vector type" : "to end the array type"))
            return false;
        Type a;
        a.kind = vector ? TypeKind::vector : TypeKind::array;
        a.count = count;
        a.element = elem;
        out = intern_type(a);
        return out != no_id;
    }
    if (t.kind != Tok::word)
        return unexpected("a type");
    std::string_view w = t.text;
    TypeKind kind;
    uint32_t width = 0;
    if (w == "void")
        kind = TypeKind::void_;
    else if (w == "half")
        kind = TypeKind::half;
    else if (w == "float")
        kind = TypeKind::float_;
    else if (w == "double")
        kind = TypeKind::double_;
    else if (w == "label")
        kind = TypeKind::label;
    else if (w == "metadata")
        kind = TypeKind::metadata;
    else if (w.size() > 1 && w[0] == 'i' && w.find_first_not_of("0123456789", 1) == std::string_view::npos) {
        uint64_t bits = 0;
        auto r = std::from_chars(w.data() + 1, w.data() + w.size(), bits);
        if (r.ec != std::errc() || bits == 0 || bits > 64)
            return fail(Code::ll_bad_type, "integer type %.*s is not supported (1 to 64 bits)", int(w.size()),
                        w.data());
        kind = TypeKind::integer;
        width = uint32_t(bits);
    } else if (w == "x86_fp80" || w == "fp128" || w == "ppc_fp128" || w == "x86_mmx") {
        return fail(Code::ll_bad_type, "type %.*s is not supported in DXIL", int(w.size()), w.data());
    } else {
        return unexpected("a type");
    }
    next();
    out = simple_type(kind, width);
    return out != no_id;
}

bool Parser::parse_type(TypeId& out, bool allow_void)
{
    if (!depth_enter())
        return false;
    uint32_t start = uint32_t(pos_);
    bool ok = parse_base_type(out);
    // Suffixes: pointers (with address space) and function types.
    while (ok) {
        if (at(Tok::star) || at_word("addrspace")) {
            uint64_t as = 0;
            if (accept_word("addrspace")) {
                ok = expect(Tok::lparen, "after addrspace") && parse_uint(as, 0xFFFFFF, "an address space") &&
                     expect(Tok::rparen, "after the address space");
                if (!ok)
                    break;
            }
            if (!expect(Tok::star, "after the address space")) {
                ok = false;
                break;
            }
            TypeKind k = m_.types[out].kind;
            if (k == TypeKind::void_ || k == TypeKind::label || k == TypeKind::metadata) {
                ok = fail_at(start, Code::ll_bad_type, "pointer to void, label or metadata");
                break;
            }
            out = pointer_to(out, uint32_t(as));
            ok = out != no_id;
        } else if (at(Tok::lparen)) {
            next();
            TypeKind rk = m_.types[out].kind;
            if (rk == TypeKind::label || rk == TypeKind::metadata || rk == TypeKind::function) {
                ok = fail_at(start, Code::ll_bad_type, "invalid function return type");
                break;
            }
            Type ft;
            ft.kind = TypeKind::function;
            ft.element = out;
            std::vector<TypeId> params;
            while (ok && !accept(Tok::rparen)) {
                if ((!params.empty() || ft.vararg) && !expect(Tok::comma, "between parameter types")) {
                    ok = false;
                    break;
                }
                if (accept(Tok::ellipsis)) {
                    ft.vararg = true;
                    ok = expect(Tok::rparen, "after '...'");
                    break;
                }
                TypeId p = no_id;
                ok = parse_type(p, false);
                if (ok && (!is_first_class(p) || m_.types[p].kind == TypeKind::label))
                    ok = fail(Code::ll_bad_type, "invalid parameter type");
                if (ok && params.size() >= 0xFFFF)
                    ok = fail(Code::ll_too_large, "too many parameters");
                params.push_back(p);
            }
            if (!ok)
                break;
            ft.members = params;
            out = intern_type(ft);
            ok = out != no_id;
        } else {
            break;
        }
    }
    depth_leave();
    if (ok && !allow_void && m_.types[out].kind == TypeKind::void_)
        return fail_at(start, Code::ll_bad_type, "void is not valid here");
    return ok;
}

bool Parser::parse_type_definition(const Stmt& s)
{
    // %name = type { ... } | <{ ... }> | opaque | <any other type>
    next();
    next();
    next();
    Type& t = m_.types[s.index];
    if (accept_word("opaque"))
        return pos_ == s.end || unexpected("the end of the type definition");
    bool packed = at(Tok::less) && peek(1).kind == Tok::lbrace;
    if (at(Tok::lbrace) || packed) {
        next();
        if (packed)
            next();
        std::vector<TypeId> members;
        if (!depth_enter())
            return false;
        bool ok = parse_struct_body(members, packed);
        depth_leave();
        if (!ok)
            return false;
        Type& def = m_.types[s.index];
        def.kind = TypeKind::struct_;
        def.packed = packed;
        if (!members.empty()) {
            TypeId* p = m_.arena.alloc_array<TypeId>(members.size());
            std::copy(members.begin(), members.end(), p);
            def.members = {p, members.size()};
        }
        return pos_ == s.end || unexpected("the end of the type definition");
    }
    (void)t;
    // `%T = type i32`: LLVM makes %T a plain alias of a non-struct type,
    // which the module form (types by id, structs by name) cannot keep.
    return fail(Code::ll_unsupported, "a named type that is not a struct or opaque");
}

// ---------------------------------------------------------------------------
// Attributes

bool Parser::parse_attribute(std::vector<Attribute>& out, bool in_group, bool& matched)
{
    matched = false;
    Attribute a;
    if (at(Tok::string)) {
        a.kind = Attribute::Kind::string;
        if (!unescape(tok().text, scratch_))
            return fail(Code::ll_bad_string, "invalid escape in an attribute");
        a.key = m_.arena.intern(scratch_);
        next();
        if (accept(Tok::equal)) {
            if (!at(Tok::string))
                return unexpected("a string attribute value");
            if (!unescape(tok().text, scratch_))
                return fail(Code::ll_bad_string, "invalid escape in an attribute");
            a.string_value = m_.arena.intern(scratch_);
            next();
        }
        out.push_back(a);
        matched = true;
        return true;
    }
    if (!at(Tok::word))
        return true;
    int id = find_name(attribute_names, tok().text);
    if (id <= 0)
        return true;
    matched = true;
    next();
    a.id = uint32_t(id);
    bool with_value = id == 1 || id == 25 || id == 41 || id == 42; // align, alignstack, dereferenceable(_or_null)
    if (with_value) {
        a.kind = Attribute::Kind::integer;
        uint64_t v = 0;
        // align=N / alignstack=N in groups, align N for parameters, (N) otherwise.
        if (accept(Tok::lparen)) {
            if (!parse_uint(v, UINT64_MAX, "an attribute value") || !expect(Tok::rparen, "after the attribute value"))
                return false;
        } else if (accept(Tok::equal) || (!in_group && id == 1)) {
            if (!parse_uint(v, UINT64_MAX, "an attribute value"))
                return false;
        } else {
            return unexpected("an attribute value");
        }
        if ((id == 1 || id == 25) && (v == 0 || (v & (v - 1)) || v > (1u << 29)))
            return fail_at(uint32_t(pos_ - 1), Code::ll_bad_attribute, "alignment %llu is not a power of two", (unsigned long long)v);
        a.value = v;
    }
    out.push_back(a);
    return true;
}

bool Parser::parse_param_attributes(std::vector<Attribute>& out)
{
    for (;;) {
        bool matched = false;
        if (!parse_attribute(out, false, matched))
            return false;
        if (!matched)
            return true;
    }
}

bool Parser::parse_fn_attributes(std::vector<Attribute>& out, uint32_t* alignment)
{
    for (;;) {
        if (at(Tok::attr_ref)) {
            uint64_t n = 0;
            auto r = std::from_chars(tok().text.data(), tok().text.data() + tok().text.size(), n);
            auto it = r.ec == std::errc() && n <= 0xFFFFFFFFu ? attr_sets_.find(uint32_t(n)) : attr_sets_.end();
            if (it == attr_sets_.end())
                return fail(Code::ll_undefined_attribute_group, "attribute group #%.*s is not defined",
                            int(tok().text.size()), tok().text.data());
            for (const Attribute& a : it->second.attrs)
                out.push_back(a);
            next();
            continue;
        }
        if (alignment && at_word("align")) {
            // `align N` after a function's parameters is the function's alignment.
            next();
            if (!parse_alignment(*alignment))
                return false;
            continue;
        }
        bool matched = false;
        if (!parse_attribute(out, false, matched))
            return false;
        if (!matched)
            return true;
    }
}

bool Parser::parse_attribute_group(const Stmt& s)
{
    // attributes #N = { ... }
    next();
    next();
    AttrSet& set = attr_sets_[s.index];
    if (!expect(Tok::equal, "after the attribute group number") || !expect(Tok::lbrace, "to start the attributes"))
        return false;
    while (!accept(Tok::rbrace)) {
        bool matched = false;
        if (!parse_attribute(set.attrs, true, matched))
            return false;
        if (!matched)
            return unexpected("an attribute");
    }
    return pos_ == s.end || unexpected("the end of the attribute group");
}

uint32_t Parser::attribute_group_id(uint32_t index, const std::vector<Attribute>& attrs)
{
    std::string key(reinterpret_cast<const char*>(&index), 4);
    for (const Attribute& a : attrs) {
        key.push_back(char(a.kind));
        key.append(reinterpret_cast<const char*>(&a.id), 4);
        key.append(reinterpret_cast<const char*>(&a.value), 8);
        uint32_t n = uint32_t(a.key.size());
        key.append(reinterpret_cast<const char*>(&n), 4);
        key += a.key;
        n = uint32_t(a.string_value.size());
        key.append(reinterpret_cast<const char*>(&n), 4);
        key += a.string_value;
    }
    auto [it, added] = group_ids_.emplace(std::move(key), uint32_t(m_.attribute_groups.size() + 1));
    if (added) {
        AttributeGroup g;
        g.id = it->second;
        g.index = index;
        Attribute* p = m_.arena.alloc_array<Attribute>(attrs.size());
        std::copy(attrs.begin(), attrs.end(), p);
        g.attributes = {p, attrs.size()};
        m_.attribute_groups.push_back(g);
    }
    return it->second;
}

uint32_t Parser::attribute_list(AttrSlots& slots)
{
    // LLVM orders an attribute set's slots by index: return value, parameters, function.
    std::stable_sort(slots.begin(), slots.end(), [](const auto& a, const auto& b) {
        uint64_t x = a.first == 0xFFFFFFFFu ? ~0ull : a.first, y = b.first == 0xFFFFFFFFu ? ~0ull : b.first;
        return x < y;
    });
    std::vector<uint32_t> groups;
    for (const auto& [index, attrs] : slots)
        if (!attrs.empty())
            groups.push_back(attribute_group_id(index, attrs));
    if (groups.empty())
        return 0;
    std::string key(reinterpret_cast<const char*>(groups.data()), groups.size() * 4);
    auto [it, added] = list_ids_.emplace(std::move(key), uint32_t(m_.attribute_lists.size() + 1));
    if (added) {
        uint32_t* p = m_.arena.alloc_array<uint32_t>(groups.size());
        std::copy(groups.begin(), groups.end(), p);
        m_.attribute_lists.push_back({{p, groups.size()}});
    }
    return it->second;
}

} // namespace dxspv::dxil::ll

// .ll reader: value references and constants. Constants are uniqued per
// scope and canonicalised as LLVM's constant factories do, so that the
// module matches what the bitcode holds: a zero value is a null constant,
// all-undef and all-zero aggregates are undef / null, arrays and vectors of
// plain numbers are data arrays (i8 arrays are strings). Constant
// expressions are kept as written (LLVM prints them already folded).
#include <charconv>
#include <cmath>
#include <cstring>

#include "dxil/dxil.h"
#include "dxil/ll/names.h"
#include "dxil/ll/parser.h"

namespace dxspv::dxil::ll {

namespace {

bool is_float_kind(TypeKind k) { return k == TypeKind::half || k == TypeKind::float_ || k == TypeKind::double_; }

uint64_t sign_extend(uint64_t v, uint32_t width)
{
    return width >= 64 ? v : uint64_t(int64_t(v << (64 - width)) >> (64 - width));
}

/// IEEE half from a double, rounding to nearest even.
uint16_t half_from_double(double d)
{
    uint64_t b = 0;
    std::memcpy(&b, &d, 8);
    uint16_t sign = uint16_t((b >> 48) & 0x8000);
    int exp = int((b >> 52) & 0x7FF);
    uint64_t mant = b & ((uint64_t(1) << 52) - 1);
    if (exp == 0x7FF)
        return uint16_t(sign | 0x7C00 | (mant ? 0x200 | (mant >> 42) : 0));
    if (exp == 0) // zero, or a double subnormal: far below the half range
        return sign;
    int e = exp - 1023;
    if (e > 15)
        return uint16_t(sign | 0x7C00);
    uint64_t full = mant | uint64_t(1) << 52;
    int shift = e >= -14 ? 42 : 28 - e; // normal: 10 mantissa bits; subnormal: units of 2^-24
    if (shift > 63)
        return sign;
    uint64_t h = full >> shift;
    uint64_t rest = full & ((uint64_t(1) << shift) - 1), halfway = uint64_t(1) << (shift - 1);
    if (rest > halfway || (rest == halfway && (h & 1)))
        ++h;
    if (e < -14)
        return uint16_t(sign | h); // may round up to the smallest normal: the same encoding
    uint64_t r = (uint64_t(e + 15) << 10) + (h - 1024); // a mantissa carry moves into the exponent
    return uint16_t(sign | (r >= 0x7C00 ? 0x7C00 : r));
}

} // namespace

size_t KeyHash::operator()(const ConstKey& k) const
{
    const Constant& c = k.constant;
    size_t h = (size_t(c.kind) << 16 | size_t(c.opcode) << 8 | c.flags) * 0x9E3779B97F4A7C15ull;
    h = (h ^ c.type) * 0x100000001B3ull;
    h = (h ^ c.source_type) * 0x100000001B3ull;
    h = (h ^ c.value) * 0x100000001B3ull;
    for (uint32_t op : c.operands)
        h = (h ^ op) * 0x100000001B3ull;
    for (uint64_t d : c.data)
        h = (h ^ d) * 0x100000001B3ull;
    return h;
}

bool KeyEq::operator()(const ConstKey& a, const ConstKey& b) const
{
    const Constant& x = a.constant;
    const Constant& y = b.constant;
    return x.kind == y.kind && x.opcode == y.opcode && x.flags == y.flags && x.type == y.type &&
           x.source_type == y.source_type && x.value == y.value &&
           std::equal(x.operands.begin(), x.operands.end(), y.operands.begin(), y.operands.end()) &&
           std::equal(x.data.begin(), x.data.end(), y.data.begin(), y.data.end());
}

TypeId Parser::type_of(ValueId id) const
{
    if (id & metadata_operand)
        return simple_[size_t(TypeKind::metadata)];
    if (id & tag_const)
        return fn_->constants[id & ~tag_const].type;
    if (id & tag_sym)
        return syms_[id & ~tag_sym].type;
    return id < m_.values.size() ? m_.values[id].type : no_id;
}

const Constant* Parser::constant_at(ValueId id) const
{
    if (id & metadata_operand)
        return nullptr;
    if (id & tag_const)
        return &fn_->constants[id & ~tag_const];
    if (id & tag_mask)
        return nullptr;
    if (id < m_.values.size() && m_.values[id].kind == ModuleValue::Kind::constant)
        return &m_.constants[m_.values[id].index];
    return nullptr;
}

ValueId Parser::intern_constant(Constant c)
{
    bool module_operands = true;
    for (uint32_t op : c.operands)
        module_operands = module_operands && !(op & tag_mask);
    if (module_scope_ || module_operands) {
        auto it = module_consts_.find(ConstKey{c});
        if (it != module_consts_.end())
            return it->second;
    }
    if (!module_scope_) {
        auto it = fn_consts_.find(ConstKey{c});
        if (it != fn_consts_.end())
            return it->second;
    }
    if (!c.operands.empty()) {
        uint32_t* p = m_.arena.alloc_array<uint32_t>(c.operands.size());
        std::copy(c.operands.begin(), c.operands.end(), p);
        c.operands = {p, c.operands.size()};
    }
    if (!c.data.empty()) {
        uint64_t* p = m_.arena.alloc_array<uint64_t>(c.data.size());
        std::copy(c.data.begin(), c.data.end(), p);
        c.data = {p, c.data.size()};
    }
    if (module_scope_) {
        if (m_.values.size() >= max_count) {
            fail(Code::ll_too_large, "too many module values");
            return no_id;
        }
        ValueId id = ValueId(m_.values.size());
        m_.values.push_back({ModuleValue::Kind::constant, c.type, uint32_t(m_.constants.size())});
        m_.value_names.emplace_back();
        m_.constants.push_back(c);
        module_consts_.emplace(ConstKey{c}, id);
        return id;
    }
    if (fn_->constants.size() >= max_count) {
        fail(Code::ll_too_large, "too many constants in a function");
        return no_id;
    }
    ValueId id = tag_const | uint32_t(fn_->constants.size());
    fn_->constants.push_back(c);
    fn_consts_.emplace(ConstKey{c}, id);
    return id;
}

bool Parser::global_value(const Token& t, TypeId type, ValueId& out)
{
    ValueId id = no_id;
    if (t.numbered) {
        uint64_t n = 0;
        auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
        if (r.ec == std::errc() && n < numbered_globals_.size())
            id = numbered_globals_[n];
    } else {
        std::string_view name;
        if (!name_of(t, name))
            return false;
        auto it = globals_by_name_.find(name);
        if (it != globals_by_name_.end())
            id = it->second;
    }
    uint32_t token = uint32_t(&t - toks_.data());
    if (id == no_id)
        return fail_at(token, Code::ll_undefined_value, "@%.*s is not defined", int(t.text.size()), t.text.data());
    if (m_.values[id].type != type)
        return fail_at(token, Code::ll_type_mismatch, "@%.*s has type %s, not %s", int(t.text.size()), t.text.data(),
                       print_type(m_, m_.values[id].type).c_str(), print_type(m_, type).c_str());
    out = id;
    return true;
}

bool Parser::parse_value(TypeId type, ValueId& out)
{
    const Token& t = tok();
    if (t.kind == Tok::local) {
        next();
        return local_value(t, type, out);
    }
    if (t.kind == Tok::global) {
        next();
        return global_value(t, type, out);
    }
    return parse_constant(type, out);
}

bool Parser::parse_typed_value(ValueId& out, TypeId& type)
{
    return parse_type(type, false) && parse_value(type, out);
}

bool Parser::parse_constant(TypeId type, ValueId& out)
{
    if (!depth_enter())
        return false;
    bool ok = parse_constant_inner(type, out);
    depth_leave();
    return ok;
}

bool Parser::parse_int_literal(TypeId type, uint64_t& bits)
{
    const Type& t = m_.types[type];
    if (t.kind != TypeKind::integer)
        return fail(Code::ll_type_mismatch, "an integer constant of type %s", print_type(m_, type).c_str());
    std::string_view s = tok().text;
    bool negative = s[0] == '-';
    if (s[0] == '-' || s[0] == '+')
        s.remove_prefix(1);
    uint64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size())
        return fail(Code::ll_bad_number, "integer constant %.*s is out of range", int(tok().text.size()),
                    tok().text.data());
    if (negative)
        v = 0 - v;
    // LLVM truncates the literal to the type's width; the module keeps it sign-extended.
    bits = sign_extend(v, t.width);
    next();
    return true;
}

bool Parser::parse_float_literal(TypeId type, uint64_t& bits)
{
    TypeKind kind = m_.types[type].kind;
    if (!is_float_kind(kind))
        return fail(Code::ll_type_mismatch, "a floating-point constant of type %s", print_type(m_, type).c_str());
    std::string_view s = tok().text;
    bool negative = s[0] == '-';
    std::string_view body = s[0] == '-' || s[0] == '+' ? s.substr(1) : s;
    double d = 0;
    uint64_t raw = 0;
    if (body.starts_with("0x")) {
        std::string_view hex = body.substr(2);
        if (hex[0] == 'K' || hex[0] == 'L' || hex[0] == 'M')
            return fail(Code::ll_bad_type, "x86/PowerPC long double constants are not supported in DXIL");
        bool half = hex[0] == 'H';
        if (half)
            hex.remove_prefix(1);
        if (hex.size() > (half ? 4u : 16u))
            return fail(Code::ll_bad_number, "hexadecimal constant %.*s is too long", int(s.size()), s.data());
        std::from_chars(hex.data(), hex.data() + hex.size(), raw, 16);
        if (half) {
            if (kind != TypeKind::half)
                return fail(Code::ll_type_mismatch, "a half constant (0xH) of type %s", print_type(m_, type).c_str());
            bits = raw ^ (negative ? 0x8000 : 0);
            next();
            return true;
        }
        if (negative)
            raw ^= uint64_t(1) << 63;
        std::memcpy(&d, &raw, 8);
    } else {
        auto r = std::from_chars(body.data(), body.data() + body.size(), d);
        if (r.ec != std::errc() && r.ec != std::errc::result_out_of_range)
            return fail(Code::ll_bad_number, "invalid floating-point constant %.*s", int(s.size()), s.data());
        if (negative)
            d = -d;
        std::memcpy(&raw, &d, 8);
    }
    next();
    if (kind == TypeKind::double_) {
        bits = raw;
    } else if (kind == TypeKind::float_) {
        if (std::isnan(d)) {
            // Keep the payload: the inverse of the writer's widening.
            bits = uint32_t(raw >> 63) << 31 | 0x7F800000u | uint32_t((raw >> 29) & 0x7FFFFF);
            if ((bits & 0x7FFFFF) == 0)
                bits |= 0x400000;
        } else {
            float f = float(d);
            uint32_t fb = 0;
            std::memcpy(&fb, &f, 4);
            bits = fb;
        }
    } else {
        bits = half_from_double(d);
    }
    return true;
}

bool Parser::parse_aggregate(TypeId type, ValueId& out)
{
    const Type& t = m_.types[type];
    uint32_t start = uint32_t(pos_);
    std::vector<uint32_t> elems; ///< no_id: the literal in `pending`
    std::vector<Constant> pending;
    std::vector<uint64_t> data;
    bool packed_open = at(Tok::less) && peek(1).kind == Tok::lbrace;
    if (at(Tok::cstring)) {
        if (t.kind != TypeKind::array || m_.types[t.element].kind != TypeKind::integer ||
            m_.types[t.element].width != 8)
            return fail(Code::ll_type_mismatch, "a c\"...\" string constant of type %s", print_type(m_, type).c_str());
        if (!unescape(tok().text, scratch_))
            return fail(Code::ll_bad_string, "invalid escape in a string constant");
        if (scratch_.size() != t.count)
            return fail(Code::ll_type_mismatch, "a string of %zu characters for type %s", scratch_.size(),
                        print_type(m_, type).c_str());
        next();
        data.assign(scratch_.begin(), scratch_.end());
        for (uint64_t& b : data)
            b &= 0xFF;
    } else {
        Tok close;
        if (at(Tok::lbracket) && t.kind == TypeKind::array)
            close = Tok::rbracket;
        else if (at(Tok::less) && !packed_open && t.kind == TypeKind::vector)
            close = Tok::greater;
        else if ((at(Tok::lbrace) || packed_open) && t.kind == TypeKind::struct_ && t.packed == packed_open)
            close = Tok::rbrace;
        else
            return fail(Code::ll_type_mismatch, "this constant does not match type %s", print_type(m_, type).c_str());
        next();
        if (packed_open)
            next();
        size_t expected = t.kind == TypeKind::struct_ ? t.members.size() : size_t(t.count);
        if (!at(close)) {
            do {
                if (elems.size() >= expected)
                    return fail(Code::ll_type_mismatch, "more elements than type %s holds",
                                print_type(m_, type).c_str());
                TypeId want = t.kind == TypeKind::struct_ ? t.members[elems.size()] : t.element;
                TypeId et = no_id;
                uint32_t at_token = uint32_t(pos_);
                if (!parse_type(et, false))
                    return false;
                if (et != want)
                    return fail_at(at_token, Code::ll_type_mismatch, "element %zu of type %s has type %s",
                                   elems.size(), print_type(m_, type).c_str(), print_type(m_, et).c_str());
                if (at(Tok::local))
                    return fail(Code::ll_bad_constant, "a constant cannot use the local value %%%.*s",
                                int(tok().text.size()), tok().text.data());
                // Literal elements are interned only if the constant stays an
                // aggregate: a data array or zeroinitializer has no element values.
                Constant literal;
                bool is_literal = false;
                ValueId v = no_id;
                if (!parse_literal(et, literal, is_literal) || (!is_literal && !parse_value(et, v)))
                    return false;
                elems.push_back(v);
                pending.push_back(literal);
            } while (accept(Tok::comma));
        }
        if (!expect(close, "to end the constant") || (packed_open && !expect(Tok::greater, "after '}'")))
            return false;
        if (elems.size() != expected)
            return fail_at(start, Code::ll_type_mismatch, "%zu elements for type %s", elems.size(),
                           print_type(m_, type).c_str());
    }
    Constant c;
    c.type = type;
    if (data.empty()) {
        // LLVM's factories: all undef → undef, all zero (or empty) → zeroinitializer,
        // plain numbers of a data-compatible element type → a data array.
        bool all_undef = !elems.empty(), all_null = true, plain = t.kind != TypeKind::struct_;
        if (plain) {
            const Type& e = m_.types[t.element];
            plain = is_float_kind(e.kind) || (e.kind == TypeKind::integer &&
                                              (e.width == 8 || e.width == 16 || e.width == 32 || e.width == 64));
        }
        auto element = [&](size_t i) { return elems[i] == no_id ? &pending[i] : constant_at(elems[i]); };
        for (size_t i = 0; i < elems.size(); ++i) {
            const Constant* k = element(i);
            all_undef = all_undef && k && k->kind == ConstantKind::undef;
            all_null = all_null && k && k->kind == ConstantKind::null;
            plain = plain && k && (k->kind == ConstantKind::null || k->kind == ConstantKind::integer ||
                                   k->kind == ConstantKind::float_);
        }
        if (all_undef || all_null) {
            c.kind = all_undef ? ConstantKind::undef : ConstantKind::null;
        } else if (plain) {
            uint32_t width = m_.types[t.element].kind == TypeKind::integer ? m_.types[t.element].width : 64;
            for (size_t i = 0; i < elems.size(); ++i) {
                uint64_t bits = element(i)->kind == ConstantKind::null ? 0 : element(i)->value;
                data.push_back(width < 64 ? bits & ((uint64_t(1) << width) - 1) : bits);
            }
        } else {
            for (size_t i = 0; i < elems.size(); ++i)
                if (elems[i] == no_id && (elems[i] = intern_constant(pending[i])) == no_id)
                    return false;
            c.kind = ConstantKind::aggregate;
            c.operands = elems;
        }
    }
    if (!data.empty()) {
        bool zero = true;
        for (uint64_t d : data)
            zero = zero && d == 0;
        const Type& e = m_.types[t.element];
        c.kind = zero ? ConstantKind::null
                      : e.kind == TypeKind::integer && e.width == 8 && t.kind == TypeKind::array ? ConstantKind::string
                                                                                                 : ConstantKind::data;
        if (!zero)
            c.data = data;
    }
    out = intern_constant(c);
    return out != no_id;
}

bool Parser::parse_literal(TypeId type, Constant& c, bool& matched)
{
    // A number, true/false, null, undef or zeroinitializer: built, not interned yet.
    const Type& t = m_.types[type];
    c = Constant{};
    c.type = type;
    matched = true;
    switch (tok().kind) {
    case Tok::integer:
        if (!parse_int_literal(type, c.value))
            return false;
        c.kind = c.value ? ConstantKind::integer : ConstantKind::null;
        return true;
    case Tok::floating:
        if (!parse_float_literal(type, c.value))
            return false;
        c.kind = c.value ? ConstantKind::float_ : ConstantKind::null;
        return true;
    case Tok::word: break;
    default: matched = false; return true;
    }
    std::string_view w = tok().text;
    if (w == "true" || w == "false") {
        if (t.kind != TypeKind::integer || t.width != 1)
            return fail(Code::ll_type_mismatch, "'%.*s' of type %s", int(w.size()), w.data(),
                        print_type(m_, type).c_str());
        c.kind = w == "true" ? ConstantKind::integer : ConstantKind::null;
        c.value = w == "true" ? ~uint64_t(0) : 0;
    } else if (w == "null") {
        if (t.kind != TypeKind::pointer)
            return fail(Code::ll_type_mismatch, "null of the non-pointer type %s", print_type(m_, type).c_str());
        c.kind = ConstantKind::null;
    } else if (w == "undef" || w == "zeroinitializer") {
        if (t.kind == TypeKind::void_ || t.kind == TypeKind::label || t.kind == TypeKind::metadata ||
            t.kind == TypeKind::function || t.kind == TypeKind::opaque)
            return fail(Code::ll_type_mismatch, "%.*s of type %s", int(w.size()), w.data(),
                        print_type(m_, type).c_str());
        c.kind = w == "undef" ? ConstantKind::undef : ConstantKind::null;
    } else {
        matched = false;
        return true;
    }
    next();
    return true;
}

bool Parser::parse_constant_inner(TypeId type, ValueId& out)
{
    Constant c;
    bool literal = false;
    if (!parse_literal(type, c, literal))
        return false;
    if (literal) {
        out = intern_constant(c);
        return out != no_id;
    }
    switch (tok().kind) {
    case Tok::global: {
        const Token& g = tok();
        next();
        return global_value(g, type, out);
    }
    case Tok::local:
        if (module_scope_ || !fn_)
            return fail(Code::ll_bad_constant, "a constant cannot use the local value %%%.*s", int(tok().text.size()),
                        tok().text.data());
        return parse_value(type, out);
    case Tok::lbracket:
    case Tok::less:
    case Tok::lbrace:
    case Tok::cstring: return parse_aggregate(type, out);
    case Tok::word: return parse_constant_expression(type, out);
    default: return unexpected("a value");
    }
}

} // namespace dxspv::dxil::ll

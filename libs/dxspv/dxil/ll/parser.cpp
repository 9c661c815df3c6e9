// .ll reader, module level: the cursor helpers, finding the top-level
// statements, the phases that parse them, global and function headers, and
// the final numbering of function values.
#include "dxil/ll/parser.h"

#include <charconv>
#include <cstdio>

#include "dxil/dxil.h"
#include "dxil/ll/names.h"

namespace dxspv::dxil::ll {

bool Parser::vfail(uint32_t token, Code code, const char* fmt, va_list args)
{
    char buf[512];
    std::vsnprintf(buf, sizeof buf, fmt, args);
    uint32_t offset = token < toks_.size() ? toks_[token].offset : uint32_t(text_.size());
    diags_.error(code, text_location(lexed_, offset), "%s", buf);
    return false;
}

bool Parser::fail(Code code, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfail(uint32_t(pos_), code, fmt, args);
    va_end(args);
    return false;
}

bool Parser::fail_at(uint32_t token, Code code, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vfail(token, code, fmt, args);
    va_end(args);
    return false;
}

bool Parser::unexpected(const char* wanted)
{
    const Token& t = tok();
    if (t.kind == Tok::eof)
        return fail(Code::ll_syntax, "expected %s, found the end of the text", wanted);
    return fail(Code::ll_syntax, "expected %s, found '%.*s'", wanted, int(t.text.size() > 40 ? 40 : t.text.size()),
                t.text.data());
}

bool Parser::accept(Tok k)
{
    if (!at(k))
        return false;
    next();
    return true;
}

bool Parser::accept_word(std::string_view w)
{
    if (!at_word(w))
        return false;
    next();
    return true;
}

bool Parser::expect(Tok k, const char* context)
{
    if (accept(k))
        return true;
    char buf[96];
    std::snprintf(buf, sizeof buf, "%s %s", token_name(k), context);
    return unexpected(buf);
}

bool Parser::expect_word(std::string_view w, const char* context)
{
    if (accept_word(w))
        return true;
    char buf[96];
    std::snprintf(buf, sizeof buf, "'%.*s' %s", int(w.size()), w.data(), context);
    return unexpected(buf);
}

bool Parser::parse_uint(uint64_t& out, uint64_t max, const char* what)
{
    if (!at(Tok::integer) || tok().text[0] == '-' || tok().text[0] == '+')
        return unexpected(what);
    uint64_t v = 0;
    for (char c : tok().text) {
        if (v > (max - uint64_t(c - '0')) / 10)
            return fail(Code::ll_bad_number, "%s %.*s is out of range", what, int(tok().text.size()), tok().text.data());
        v = v * 10 + uint64_t(c - '0');
    }
    out = v;
    next();
    return true;
}

bool Parser::parse_int(int64_t& out, const char* what)
{
    if (!at(Tok::integer))
        return unexpected(what);
    std::string_view s = tok().text;
    bool negative = s[0] == '-';
    if (s[0] == '-' || s[0] == '+')
        s.remove_prefix(1);
    uint64_t v = 0;
    for (char c : s) {
        if (v > (UINT64_MAX - uint64_t(c - '0')) / 10)
            return fail(Code::ll_bad_number, "%s is out of range", what);
        v = v * 10 + uint64_t(c - '0');
    }
    if (negative && v > uint64_t(INT64_MAX) + 1)
        return fail(Code::ll_bad_number, "%s is out of range", what);
    out = negative ? int64_t(0 - v) : int64_t(v);
    next();
    return true;
}

bool Parser::name_of(const Token& t, std::string_view& out)
{
    if (!t.quoted) {
        out = t.text;
        return true;
    }
    if (!unescape(t.text, name_scratch_))
        return fail_at(uint32_t(&t - toks_.data()), Code::ll_bad_string, "invalid escape in a quoted name");
    out = name_scratch_;
    return true;
}

bool Parser::depth_enter()
{
    if (++depth_ <= max_depth)
        return true;
    --depth_;
    return fail(Code::ll_too_deep, "types, constants or metadata are nested more than %u levels deep", max_depth);
}

// ---------------------------------------------------------------------------
// Statements

bool Parser::statement_start() const
{
    const Token& t = tok();
    switch (t.kind) {
    case Tok::word:
        return t.text == "define" || t.text == "declare" || t.text == "attributes" || t.text == "target" ||
               t.text == "source_filename";
    case Tok::local: return peek(1).kind == Tok::equal && peek(2).kind == Tok::word && peek(2).text == "type";
    case Tok::global:
    case Tok::metadata: return peek(1).kind == Tok::equal;
    default: return false;
    }
}

void Parser::skip_statement()
{
    int depth = 0;
    while (!at(Tok::eof)) {
        if (depth == 0 && statement_start())
            return;
        switch (tok().kind) {
        case Tok::lparen:
        case Tok::lbracket:
        case Tok::lbrace: ++depth; break;
        case Tok::rparen:
        case Tok::rbracket:
        case Tok::rbrace: depth -= depth > 0; break;
        default: break;
        }
        next();
    }
}

bool Parser::scan_statement(std::vector<Stmt>& globals_and_functions)
{
    Stmt s{Stmt::Kind::ignored, uint32_t(pos_), 0, 0};
    const Token& t = tok();
    if (t.kind == Tok::word && t.text == "target") {
        s.kind = Stmt::Kind::target;
    } else if (t.kind == Tok::word && t.text == "source_filename") {
        s.kind = Stmt::Kind::ignored;
    } else if (t.kind == Tok::local && statement_start()) {
        s.kind = Stmt::Kind::type;
        Type placeholder;
        placeholder.kind = TypeKind::opaque;
        placeholder.identified = true;
        if (t.numbered) {
            uint64_t n = 0;
            std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
            if (n != numbered_types_.size())
                return fail(Code::ll_bad_numbering, "type %%%.*s should be numbered %%%zu", int(t.text.size()),
                            t.text.data(), numbered_types_.size());
            numbered_types_.push_back(TypeId(m_.types.size()));
        } else {
            std::string_view name;
            if (!name_of(t, name))
                return false;
            name = m_.arena.intern(name);
            placeholder.name = name;
            if (!named_types_.emplace(name, TypeId(m_.types.size())).second)
                return fail(Code::ll_redefinition, "type %%%.*s is defined twice", int(name.size()), name.data());
        }
        if (m_.types.size() >= max_count)
            return fail(Code::ll_too_large, "too many types");
        s.index = TypeId(m_.types.size());
        m_.types.push_back(placeholder);
        type_depth_.push_back(1);
    } else if (t.kind == Tok::global && statement_start()) {
        s.kind = Stmt::Kind::global;
    } else if (t.kind == Tok::word && (t.text == "define" || t.text == "declare")) {
        s.kind = Stmt::Kind::function;
    } else if (t.kind == Tok::word && t.text == "attributes") {
        s.kind = Stmt::Kind::attributes;
        const Token& n = peek(1);
        if (n.kind != Tok::attr_ref) {
            next();
            return unexpected("an attribute group number (#N)");
        }
        uint64_t number = 0;
        std::from_chars(n.text.data(), n.text.data() + n.text.size(), number);
        if (number > 0xFFFFFFFFu)
            return fail_at(uint32_t(pos_ + 1), Code::ll_bad_number, "attribute group number out of range");
        s.index = uint32_t(number);
        AttrSet& set = attr_sets_[s.index];
        if (set.defined)
            return fail_at(uint32_t(pos_ + 1), Code::ll_redefinition, "attribute group #%u is defined twice", s.index);
        set.defined = true;
        set.token = uint32_t(pos_ + 1);
    } else if (t.kind == Tok::metadata && statement_start()) {
        if (t.numbered) {
            s.kind = Stmt::Kind::md;
            uint64_t n = 0;
            std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
            if (n > 0xFFFFFFFFu)
                return fail(Code::ll_bad_number, "metadata number out of range");
            if (m_.metadata.size() >= max_count)
                return fail(Code::ll_too_large, "too much metadata");
            if (!numbered_md_.emplace(uint32_t(n), MetadataId(m_.metadata.size())).second)
                return fail(Code::ll_redefinition, "metadata !%llu is defined twice", (unsigned long long)n);
            s.index = MetadataId(m_.metadata.size());
            m_.metadata.push_back({});
        } else {
            s.kind = Stmt::Kind::named_md;
        }
    } else {
        return unexpected("a top-level definition (define, declare, a global, a type, attributes or metadata)");
    }
    next();
    skip_statement();
    s.end = uint32_t(pos_);
    if (s.kind == Stmt::Kind::global || s.kind == Stmt::Kind::function)
        globals_and_functions.push_back(s);
    else
        stmts_.push_back(s);
    return true;
}

bool Parser::scan()
{
    std::vector<Stmt> values;
    while (!at(Tok::eof))
        if (!scan_statement(values))
            return false;
    // Module values: every global, then every function, in text order.
    for (int pass = 0; pass < 2; ++pass) {
        for (Stmt s : values) {
            bool global = s.kind == Stmt::Kind::global;
            if (global != (pass == 0))
                continue;
            pos_ = s.begin;
            if (!global)
                while (pos_ < s.end && !at(Tok::global))
                    next();
            if (!at(Tok::global))
                return fail(Code::ll_syntax, "a function without a name");
            const Token& t = tok();
            ValueId id = ValueId(m_.values.size());
            if (id >= max_count)
                return fail(Code::ll_too_large, "too many globals and functions");
            std::string_view name;
            if (t.numbered) {
                uint64_t n = 0;
                std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
                if (n != numbered_globals_.size())
                    return fail(Code::ll_bad_numbering, "@%.*s should be numbered @%zu", int(t.text.size()),
                                t.text.data(), numbered_globals_.size());
                numbered_globals_.push_back(id);
            } else {
                if (!name_of(t, name))
                    return false;
                name = m_.arena.intern(name);
                if (!globals_by_name_.emplace(name, id).second)
                    return fail(Code::ll_redefinition, "@%.*s is defined twice", int(name.size()), name.data());
            }
            s.index = global ? uint32_t(m_.globals.size()) : uint32_t(m_.functions.size());
            if (global) {
                m_.globals.emplace_back().name = name;
                m_.values.push_back({ModuleValue::Kind::global, no_id, s.index});
            } else {
                m_.functions.emplace_back().name = name;
                m_.values.push_back({ModuleValue::Kind::function, no_id, s.index});
            }
            m_.value_names.push_back(name);
            stmts_.push_back(s);
        }
    }
    global_init_.assign(m_.globals.size(), 0);
    global_has_init_.assign(m_.globals.size(), 0);
    fns_.resize(m_.functions.size());
    return true;
}

bool Parser::phase(Stmt::Kind kind, bool (Parser::*parse)(const Stmt&))
{
    for (const Stmt& s : stmts_) {
        if (s.kind != kind)
            continue;
        pos_ = s.begin;
        depth_ = 0;
        if (!(this->*parse)(s))
            return false;
    }
    return true;
}

bool Parser::parse_target(const Stmt& s)
{
    next();
    bool triple = at_word("triple");
    if (!triple && !at_word("datalayout"))
        return unexpected("'triple' or 'datalayout'");
    next();
    if (!expect(Tok::equal, "after target") || !at(Tok::string))
        return at(Tok::string) || unexpected("a string");
    if (!unescape(tok().text, scratch_))
        return fail(Code::ll_bad_string, "invalid escape in a string");
    (triple ? m_.triple : m_.datalayout) = m_.arena.intern(scratch_);
    next();
    return pos_ == s.end || unexpected("the end of the target statement");
}

bool Parser::parse_linkage(Linkage& out)
{
    static constexpr std::pair<std::string_view, Linkage> names[] = {
        {"private", Linkage::private_}, {"internal", Linkage::internal},
        {"available_externally", Linkage::available_externally}, {"linkonce", Linkage::linkonce_any},
        {"weak", Linkage::weak_any}, {"common", Linkage::common}, {"appending", Linkage::appending},
        {"extern_weak", Linkage::extern_weak}, {"linkonce_odr", Linkage::linkonce_odr},
        {"weak_odr", Linkage::weak_odr}, {"external", Linkage::external}};
    out = Linkage::external;
    if (!at(Tok::word))
        return false;
    for (auto [name, linkage] : names) {
        if (tok().text == name) {
            out = linkage;
            next();
            return true;
        }
    }
    return false;
}

uint32_t Parser::section_index(std::string_view name)
{
    for (size_t i = 0; i < m_.sections.size(); ++i)
        if (m_.sections[i] == name)
            return uint32_t(i + 1);
    m_.sections.push_back(m_.arena.intern(name));
    return uint32_t(m_.sections.size());
}

bool Parser::parse_global_header(const Stmt& s)
{
    GlobalVariable& g = m_.globals[s.index];
    next(); // the name
    if (!expect(Tok::equal, "after a global's name"))
        return false;
    bool explicit_linkage = parse_linkage(g.linkage);
    bool external = explicit_linkage && toks_[pos_ - 1].text == "external";
    for (;;) {
        if (accept_word("default") || accept_word("hidden") || accept_word("protected") || accept_word("dllimport") ||
            accept_word("dllexport"))
            continue;
        if (accept_word("thread_local")) {
            g.thread_local_mode = 1;
            if (accept(Tok::lparen)) {
                static constexpr std::string_view modes[] = {"localdynamic", "initialexec", "localexec"};
                bool found = false;
                for (size_t i = 0; i < 3 && !found; ++i)
                    if (accept_word(modes[i]))
                        g.thread_local_mode = uint8_t(i + 2), found = true;
                if (!found)
                    return unexpected("a thread-local mode");
                if (!expect(Tok::rparen, "after the thread-local mode"))
                    return false;
            }
            continue;
        }
        if (accept_word("unnamed_addr")) {
            g.unnamed_addr = true;
            continue;
        }
        if (accept_word("addrspace")) {
            uint64_t as = 0;
            if (!expect(Tok::lparen, "after addrspace") || !parse_uint(as, 0xFFFFFF, "an address space") ||
                !expect(Tok::rparen, "after the address space"))
                return false;
            g.address_space = uint32_t(as);
            continue;
        }
        if (accept_word("externally_initialized")) {
            g.externally_initialized = true;
            continue;
        }
        break;
    }
    if (at_word("alias"))
        return fail(Code::ll_unsupported, "aliases are not supported in DXIL");
    if (accept_word("constant"))
        g.is_constant = true;
    else if (!expect_word("global", "or 'constant' in a global variable"))
        return false;
    uint32_t type_token = uint32_t(pos_);
    if (!parse_type(g.value_type, false))
        return false;
    if (!is_first_class(g.value_type) || m_.types[g.value_type].kind == TypeKind::label ||
        m_.types[g.value_type].kind == TypeKind::metadata)
        return fail_at(type_token, Code::ll_bad_type, "a global variable of this type is not valid");
    g.pointer_type = pointer_to(g.value_type, g.address_space);
    if (g.pointer_type == no_id)
        return false;
    m_.values[s.index].type = g.pointer_type; // globals are the first module values
    // The initializer is parsed in a later phase, once every global's type is known.
    global_init_[s.index] = uint32_t(pos_);
    global_has_init_[s.index] = !external && g.linkage != Linkage::extern_weak;
    return true;
}

bool Parser::parse_global_initializer(const Stmt& s)
{
    GlobalVariable& g = m_.globals[s.index];
    pos_ = global_init_[s.index];
    module_scope_ = true;
    if (global_has_init_[s.index] && !parse_value(g.value_type, g.initializer))
        return false;
    while (accept(Tok::comma)) {
        if (accept_word("section")) {
            if (!at(Tok::string))
                return unexpected("a section name");
            if (!unescape(tok().text, scratch_))
                return fail(Code::ll_bad_string, "invalid escape in a section name");
            g.section = section_index(scratch_);
            next();
        } else if (accept_word("align")) {
            if (!parse_alignment(g.alignment))
                return false;
        } else {
            return unexpected("'section' or 'align'");
        }
    }
    return pos_ == s.end || unexpected("the end of the global variable");
}

bool Parser::parse_function_header(const Stmt& s)
{
    Function& f = m_.functions[s.index];
    FnInfo& info = fns_[s.index];
    f.is_declaration = at_word("declare");
    next();
    parse_linkage(f.linkage);
    while (accept_word("default") || accept_word("hidden") || accept_word("protected") || accept_word("dllimport") ||
           accept_word("dllexport")) {
    }
    if (accept_word("ccc") || accept_word("fastcc") || accept_word("coldcc") || accept_word("cc")) {
        std::string_view cc = toks_[pos_ - 1].text;
        if (cc == "cc") {
            uint64_t n = 0;
            if (!parse_uint(n, 1023, "a calling convention number"))
                return false;
            f.calling_conv = uint32_t(n);
        } else {
            f.calling_conv = cc == "fastcc" ? 8 : cc == "coldcc" ? 9 : 0;
        }
    } else if (at(Tok::word) && tok().text.size() > 2 && tok().text.starts_with("cc") &&
               tok().text.find_first_not_of("0123456789", 2) == std::string_view::npos) {
        f.calling_conv = uint32_t(std::stoul(std::string(tok().text.substr(2, 4))));
        next();
    }
    AttrSlots slots;
    std::vector<Attribute> attrs;
    if (!parse_param_attributes(attrs))
        return false;
    if (!attrs.empty())
        slots.push_back({0, attrs});
    TypeId ret = no_id;
    if (!parse_type(ret))
        return false;
    if (m_.types[ret].kind == TypeKind::label || m_.types[ret].kind == TypeKind::metadata ||
        m_.types[ret].kind == TypeKind::function || m_.types[ret].kind == TypeKind::opaque)
        return fail(Code::ll_bad_type, "invalid function return type");
    next(); // the name (found by the scan)
    if (!expect(Tok::lparen, "after the function name"))
        return false;
    std::vector<TypeId> params;
    Type ft;
    ft.kind = TypeKind::function;
    ft.element = ret;
    while (!accept(Tok::rparen)) {
        if (!params.empty() || ft.vararg)
            if (!expect(Tok::comma, "between parameters"))
                return false;
        if (accept(Tok::ellipsis)) {
            ft.vararg = true;
            if (!expect(Tok::rparen, "after '...'"))
                return false;
            break;
        }
        TypeId p = no_id;
        uint32_t type_token = uint32_t(pos_);
        if (!parse_type(p, false))
            return false;
        if (!is_first_class(p) || m_.types[p].kind == TypeKind::label)
            return fail_at(type_token, Code::ll_bad_type, "invalid parameter type");
        attrs.clear();
        if (!parse_param_attributes(attrs))
            return false;
        if (!attrs.empty())
            slots.push_back({uint32_t(params.size() + 1), attrs});
        uint32_t name_token = 0;
        if (at(Tok::local)) {
            name_token = uint32_t(pos_);
            next();
        }
        if (params.size() >= 0xFFFF)
            return fail(Code::ll_too_large, "too many parameters");
        params.push_back(p);
        info.arg_tokens.push_back(name_token);
    }
    ft.members = params;
    f.function_type = intern_type(ft);
    f.pointer_type = pointer_to(f.function_type, 0);
    if (f.function_type == no_id || f.pointer_type == no_id)
        return false;
    m_.values[m_.globals.size() + s.index].type = f.pointer_type; // functions follow the globals
    if (accept_word("unnamed_addr"))
        f.unnamed_addr = true;
    attrs.clear();
    if (!parse_fn_attributes(attrs, &f.alignment))
        return false;
    if (!attrs.empty())
        slots.push_back({0xFFFFFFFFu, attrs});
    if (accept_word("section")) {
        if (!at(Tok::string))
            return unexpected("a section name");
        if (!unescape(tok().text, scratch_))
            return fail(Code::ll_bad_string, "invalid escape in a section name");
        f.section = section_index(scratch_);
        next();
    }
    if (accept_word("align") && !parse_alignment(f.alignment))
        return false;
    if (at_word("gc") || at_word("prefix") || at_word("prologue") || at_word("personality"))
        return fail(Code::ll_unsupported, "'%.*s' on a function is not supported in DXIL", int(tok().text.size()),
                    tok().text.data());
    f.attributes = attribute_list(slots);
    if (f.is_declaration)
        return pos_ == s.end || unexpected("the end of the declaration");
    if (!at(Tok::lbrace))
        return unexpected("'{' to start the function body");
    info.body = uint32_t(pos_);
    return true;
}

bool Parser::finish()
{
    // Function values: tag_local | i becomes module value count + i.
    uint32_t base = uint32_t(m_.values.size());
    if (uint64_t(base) + max_count >= tag_sym)
        return fail_at(uint32_t(toks_.size() - 1), Code::ll_too_large, "too many module values");
    auto fix = [&](uint32_t& id) {
        if (!(id & metadata_operand) && (id & tag_local))
            id = base + (id & ~tag_local);
    };
    for (Function& f : m_.functions) {
        for (Constant& c : f.constants) {
            uint32_t* ops = const_cast<uint32_t*>(c.operands.data()); // arena memory the parser owns
            for (size_t i = 0; i < c.operands.size(); ++i)
                fix(ops[i]);
        }
        for (Instruction& inst : f.instructions) {
            if (inst.result != no_id)
                fix(inst.result);
            uint32_t* ops = const_cast<uint32_t*>(inst.operands.data());
            for (size_t i = 0; i < inst.operands.size(); ++i)
                if (is_value_operand(inst, i))
                    fix(ops[i]);
        }
    }
    for (Metadata& md : m_.metadata)
        if (md.kind == MetadataKind::value && md.function != no_id)
            fix(md.value);
    return true;
}

bool Parser::run()
{
    if (!lex(text_, lexed_, diags_))
        return false;
    for (const char* kind : fixed_metadata_kinds) {
        md_kinds_.emplace(kind, uint32_t(m_.metadata_kinds.size()));
        m_.metadata_kinds.push_back(kind);
    }
    if (!scan())
        return false;
    if (!phase(Stmt::Kind::target, &Parser::parse_target) || !phase(Stmt::Kind::type, &Parser::parse_type_definition) ||
        !phase(Stmt::Kind::attributes, &Parser::parse_attribute_group) ||
        !phase(Stmt::Kind::global, &Parser::parse_global_header) ||
        !phase(Stmt::Kind::function, &Parser::parse_function_header) ||
        !phase(Stmt::Kind::global, &Parser::parse_global_initializer))
        return false;
    // LLVM's writer enumerates the metadata type here, whether used or not.
    if (simple_type(TypeKind::metadata) == no_id)
        return false;
    // Metadata, named and numbered, in text order.
    for (const Stmt& s : stmts_) {
        if (s.kind != Stmt::Kind::md && s.kind != Stmt::Kind::named_md)
            continue;
        pos_ = s.begin;
        depth_ = 0;
        module_scope_ = true;
        if (!(s.kind == Stmt::Kind::md ? parse_metadata_definition(s) : parse_named_metadata(s)))
            return false;
    }
    if (!phase(Stmt::Kind::function, &Parser::parse_function_body))
        return false;
    return finish();
}

} // namespace dxspv::dxil::ll

namespace dxspv::dxil {

bool parse_module_text(std::string_view text, Module& module, Diagnostics& diags)
{
    size_t errors = diags.error_count();
    ll::Parser parser(text, module, diags);
    bool ok = parser.run();
    return ok && diags.error_count() == errors;
}

} // namespace dxspv::dxil

// .ll reader: metadata. Numbered nodes (`!N = [distinct] !{...}`), named
// metadata, strings and constant values (uniqued, as in LLVM), inline nodes,
// the DI* debug nodes (kept as opaque records, as the bitcode reader keeps
// them), metadata call arguments and instruction attachments. `!dbg`
// attachments are dropped: the bitcode holds debug locations outside the
// metadata attachment records, and the bitcode reader skips them too.
#include <charconv>

#include "dxil/dxil.h"
#include "dxil/ll/names.h"
#include "dxil/ll/parser.h"

namespace dxspv::dxil::ll {

namespace {

int specialized_code(std::string_view name)
{
    for (auto [code, n] : specialized_metadata_names)
        if (name == n)
            return code;
    return -1;
}

} // namespace

MetadataId Parser::string_metadata(std::string_view s)
{
    auto it = md_strings_.find(s);
    if (it != md_strings_.end())
        return it->second;
    Metadata md;
    md.kind = MetadataKind::string;
    md.string = m_.arena.intern(s);
    MetadataId id = MetadataId(m_.metadata.size());
    m_.metadata.push_back(md);
    md_strings_.emplace(md.string, id);
    return id;
}

MetadataId Parser::value_metadata(TypeId type, ValueId value)
{
    uint64_t key = uint64_t(type) << 32 | value;
    auto it = md_values_.find(key);
    if (it != md_values_.end())
        return it->second;
    Metadata md;
    md.kind = MetadataKind::value;
    md.type = type;
    md.value = value;
    MetadataId id = MetadataId(m_.metadata.size());
    m_.metadata.push_back(md);
    md_values_.emplace(key, id);
    return id;
}

uint32_t Parser::metadata_kind(std::string_view name)
{
    auto it = md_kinds_.find(name);
    if (it != md_kinds_.end())
        return it->second;
    std::string_view kept = m_.arena.intern(name);
    uint32_t id = uint32_t(m_.metadata_kinds.size());
    m_.metadata_kinds.push_back(kept);
    md_kinds_.emplace(kept, id);
    return id;
}

bool Parser::metadata_name(const Token& t, std::string_view& out)
{
    out = t.text;
    if (out.find('\\') == std::string_view::npos)
        return true;
    std::string quoted(1, '"');
    quoted.append(out).push_back('"');
    if (!unescape(quoted, name_scratch_))
        return fail_at(uint32_t(&t - toks_.data()), Code::ll_bad_string, "invalid escape in a metadata name");
    out = name_scratch_;
    return true;
}

bool Parser::numbered_metadata(const Token& t, MetadataId& out)
{
    uint64_t n = 0;
    auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
    auto it = r.ec == std::errc() && n <= 0xFFFFFFFFu ? numbered_md_.find(uint32_t(n)) : numbered_md_.end();
    if (it == numbered_md_.end())
        return fail_at(uint32_t(&t - toks_.data()), Code::ll_undefined_metadata, "!%.*s is not defined",
                       int(t.text.size()), t.text.data());
    out = it->second;
    return true;
}

bool Parser::parse_specialized_metadata(MetadataId& out, MetadataId into)
{
    // !DIxxx(field: value, ...): checked for syntax and references, kept opaque.
    const Token& name = tok();
    int code = specialized_code(name.text);
    if (code < 0)
        return fail(Code::ll_bad_metadata, "unknown metadata node !%.*s", int(name.text.size()), name.text.data());
    next();
    if (!expect(Tok::lparen, "after the metadata node name"))
        return false;
    if (!depth_enter())
        return false;
    bool first = true;
    while (!accept(Tok::rparen)) {
        if (!first && !expect(Tok::comma, "between fields")) {
            depth_leave();
            return false;
        }
        first = false;
        accept(Tok::label); // field name
        bool ok = true;
        do {
            Tok after = peek(1).kind;
            bool plain = after == Tok::comma || after == Tok::rparen || after == Tok::bar;
            if ((at(Tok::word) || at(Tok::local) || at(Tok::lbrace) || at(Tok::lbracket) || at(Tok::less)) &&
                !plain) {
                // A value (`function: void ()* @main`): checked, not kept.
                TypeId t = no_id;
                ValueId v = no_id;
                bool saved = module_scope_;
                module_scope_ = true;
                ok = parse_type(t, false) && parse_value(t, v);
                module_scope_ = saved;
            } else if (at(Tok::integer) || at(Tok::string) || at(Tok::word) || at(Tok::floating)) {
                next();
            } else if (at(Tok::metadata) || at(Tok::exclaim)) {
                MetadataId ref = 0;
                ok = parse_metadata_ref(ref);
            } else {
                ok = unexpected("a metadata field value");
            }
        } while (ok && accept(Tok::bar));
        if (!ok) {
            depth_leave();
            return false;
        }
    }
    depth_leave();
    Metadata md;
    md.kind = MetadataKind::other;
    md.value = uint32_t(code);
    if (into == no_id) {
        out = MetadataId(m_.metadata.size());
        m_.metadata.push_back(md);
    } else {
        m_.metadata[into] = md;
        out = into;
    }
    return true;
}

bool Parser::parse_metadata_ref(MetadataId& out)
{
    if (at(Tok::metadata)) {
        const Token& t = tok();
        if (!t.numbered)
            return parse_specialized_metadata(out, no_id);
        next();
        return numbered_metadata(t, out);
    }
    if (!expect(Tok::exclaim, "(metadata)"))
        return false;
    if (at(Tok::string)) {
        if (!unescape(tok().text, scratch_))
            return fail(Code::ll_bad_string, "invalid escape in a metadata string");
        next();
        out = string_metadata(scratch_);
        return true;
    }
    if (!at(Tok::lbrace))
        return unexpected("'{' or a string after '!'");
    if (m_.metadata.size() >= max_count)
        return fail(Code::ll_too_large, "too much metadata");
    out = MetadataId(m_.metadata.size());
    m_.metadata.push_back({});
    --pos_; // parse_metadata_node expects the '!'
    return parse_metadata_node(false, out);
}

bool Parser::parse_metadata_operand(uint32_t& out)
{
    if (accept_word("null")) {
        out = 0;
        return true;
    }
    MetadataId id = 0;
    if (at(Tok::metadata) || at(Tok::exclaim)) {
        if (!parse_metadata_ref(id))
            return false;
        out = id + 1;
        return true;
    }
    TypeId t = no_id;
    ValueId v = no_id;
    bool saved = module_scope_;
    module_scope_ = true;
    bool ok = parse_type(t, false) && (at(Tok::local) ? fail(Code::ll_bad_metadata,
                                                             "a metadata node cannot use the local value %%%.*s",
                                                             int(tok().text.size()), tok().text.data())
                                                      : parse_value(t, v));
    module_scope_ = saved;
    if (!ok)
        return false;
    if (m_.types[t].kind == TypeKind::metadata || m_.types[t].kind == TypeKind::label)
        return fail(Code::ll_bad_metadata, "a metadata operand of type %s", print_type(m_, t).c_str());
    out = value_metadata(t, v) + 1;
    return true;
}

bool Parser::parse_metadata_node(bool distinct, MetadataId into)
{
    if (!expect(Tok::exclaim, "to start a metadata node") || !expect(Tok::lbrace, "to start a metadata node"))
        return false;
    if (!depth_enter())
        return false;
    std::vector<uint32_t> ops;
    bool ok = true;
    if (!accept(Tok::rbrace)) {
        do {
            uint32_t op = 0;
            ok = parse_metadata_operand(op);
            if (ok && ops.size() >= max_count)
                ok = fail(Code::ll_too_large, "a metadata node with too many operands");
            ops.push_back(op);
        } while (ok && accept(Tok::comma));
        ok = ok && expect(Tok::rbrace, "to end the metadata node");
    }
    depth_leave();
    if (!ok)
        return false;
    Metadata md;
    md.kind = distinct ? MetadataKind::distinct_node : MetadataKind::node;
    if (!ops.empty()) {
        uint32_t* p = m_.arena.alloc_array<uint32_t>(ops.size());
        std::copy(ops.begin(), ops.end(), p);
        md.operands = {p, ops.size()};
    }
    m_.metadata[into] = md;
    return true;
}

bool Parser::parse_metadata_definition(const Stmt& s)
{
    next();
    if (!expect(Tok::equal, "after the metadata number"))
        return false;
    bool distinct = accept_word("distinct");
    bool ok = true;
    if (at(Tok::metadata) && !tok().numbered) {
        MetadataId out = 0;
        ok = parse_specialized_metadata(out, s.index);
    } else {
        ok = parse_metadata_node(distinct, s.index);
    }
    return ok && (pos_ == s.end || unexpected("the end of the metadata definition"));
}

bool Parser::parse_named_metadata(const Stmt& s)
{
    std::string_view name;
    if (!metadata_name(tok(), name))
        return false;
    name = m_.arena.intern(name);
    if (!named_md_.emplace(name, uint32_t(m_.named_metadata.size())).second)
        return fail(Code::ll_redefinition, "!%.*s is defined twice", int(name.size()), name.data());
    next();
    if (!expect(Tok::equal, "after the metadata name") || !expect(Tok::exclaim, "to start named metadata") ||
        !expect(Tok::lbrace, "to start named metadata"))
        return false;
    std::vector<MetadataId> ops;
    if (!accept(Tok::rbrace)) {
        do {
            MetadataId id = 0;
            uint32_t at_token = uint32_t(pos_);
            if (!parse_metadata_ref(id))
                return false;
            MetadataKind k = m_.metadata[id].kind;
            if (k == MetadataKind::string || k == MetadataKind::value)
                return fail_at(at_token, Code::ll_bad_metadata, "named metadata operands must be nodes");
            ops.push_back(id);
        } while (accept(Tok::comma));
        if (!expect(Tok::rbrace, "to end named metadata"))
            return false;
    }
    MetadataId* p = m_.arena.alloc_array<MetadataId>(ops.size());
    std::copy(ops.begin(), ops.end(), p);
    m_.named_metadata.push_back({name, {p, ops.size()}});
    return pos_ == s.end || unexpected("the end of the named metadata");
}

bool Parser::parse_metadata_argument(ValueId& out)
{
    // A call argument of type metadata: !N, !"s", !{...}, or a value.
    MetadataId id = 0;
    if (at(Tok::metadata) || at(Tok::exclaim)) {
        if (!parse_metadata_ref(id))
            return false;
        out = metadata_operand | id;
        return true;
    }
    TypeId t = no_id;
    if (!parse_type(t, false))
        return false;
    if (m_.types[t].kind == TypeKind::metadata || m_.types[t].kind == TypeKind::label)
        return fail(Code::ll_bad_metadata, "a metadata argument of type %s", print_type(m_, t).c_str());
    if (at(Tok::local)) {
        // Function-local metadata (LocalAsMetadata): its value id is fixed with the function's.
        ValueId v = 0;
        if (!parse_value(t, v))
            return false;
        if (m_.metadata.size() >= max_count)
            return fail(Code::ll_too_large, "too much metadata");
        Metadata md;
        md.kind = MetadataKind::value;
        md.type = t;
        md.value = v;
        md.function = fn_index_;
        id = MetadataId(m_.metadata.size());
        m_.metadata.push_back(md);
        local_md_.push_back(id);
    } else {
        ValueId v = 0;
        bool saved = module_scope_;
        module_scope_ = true;
        bool ok = parse_value(t, v);
        module_scope_ = saved;
        if (!ok)
            return false;
        id = value_metadata(t, v);
    }
    out = metadata_operand | id;
    return true;
}

bool Parser::parse_attachment(uint32_t instruction)
{
    if (!at(Tok::metadata) || tok().numbered)
        return unexpected("a metadata attachment (!name !N)");
    std::string_view name;
    if (!metadata_name(tok(), name))
        return false;
    uint32_t kind = metadata_kind(name);
    next();
    MetadataId node = 0;
    uint32_t at_token = uint32_t(pos_);
    if (!parse_metadata_ref(node))
        return false;
    MetadataKind k = m_.metadata[node].kind;
    if (k == MetadataKind::string || k == MetadataKind::value)
        return fail_at(at_token, Code::ll_bad_metadata, "an attachment must be a metadata node");
    if (kind != 0) // !dbg: not an attachment record in the bitcode
        fn_->attachments.push_back({instruction, kind, node});
    return true;
}

} // namespace dxspv::dxil::ll

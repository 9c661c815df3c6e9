// .ll reader: function bodies. Basic blocks, local names and numbers
// (`%x`, `%5`, block labels, LLVM's implicit numbering of unnamed values and
// blocks), forward references, and the final value ids of the function:
// arguments, function constants, instruction results.
#include <charconv>

#include "dxil/dxil.h"
#include "dxil/ll/parser.h"

namespace dxspv::dxil::ll {

uint32_t Parser::local_symbol(const Token& t)
{
    uint32_t token = uint32_t(&t - toks_.data());
    uint32_t* slot = nullptr;
    if (t.numbered) {
        uint64_t n = 0;
        auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
        if (r.ec != std::errc() || n >= max_count) {
            fail_at(token, Code::ll_undefined_value, "%%%.*s is not defined", int(t.text.size()), t.text.data());
            return no_id;
        }
        auto [it, added] = numbered_syms_.emplace(uint32_t(n), uint32_t(syms_.size()));
        if (!added)
            return it->second;
        slot = &it->second;
    } else {
        std::string_view name;
        if (!name_of(t, name))
            return no_id;
        auto found = named_syms_.find(name);
        if (found != named_syms_.end())
            return found->second;
        slot = &named_syms_.emplace(m_.arena.intern(name), uint32_t(syms_.size())).first->second;
    }
    if (syms_.size() >= max_count) {
        fail_at(token, Code::ll_too_large, "too many local names");
        return no_id;
    }
    Sym s;
    s.token = token;
    syms_.push_back(s);
    return *slot;
}

bool Parser::local_value(const Token& t, TypeId type, ValueId& out)
{
    uint32_t token = uint32_t(&t - toks_.data());
    if (module_scope_ || !fn_)
        return fail_at(token, Code::ll_undefined_value, "the local value %%%.*s is used outside a function",
                       int(t.text.size()), t.text.data());
    uint32_t s = local_symbol(t);
    if (s == no_id)
        return false;
    Sym& sym = syms_[s];
    if (sym.kind == Sym::Kind::block || sym.type == block_marker)
        return fail_at(token, Code::ll_type_mismatch, "%%%.*s is a basic block, not a value", int(t.text.size()),
                       t.text.data());
    if (sym.type == no_id)
        sym.type = type;
    else if (sym.type != type)
        return fail_at(token, Code::ll_type_mismatch, "%%%.*s has type %s, not %s", int(t.text.size()), t.text.data(),
                       print_type(m_, sym.type).c_str(), print_type(m_, type).c_str());
    out = tag_sym | s;
    return true;
}

bool Parser::parse_label(uint32_t& out)
{
    // label %name: a block, maybe defined later.
    if (!expect_word("label", "before a basic block") || !at(Tok::local))
        return at(Tok::local) || unexpected("a basic block name");
    const Token& t = tok();
    uint32_t s = local_symbol(t);
    if (s == no_id)
        return false;
    // A block operand of br or switch: LLVM's writer enumerates the label type for it.
    if (simple_type(TypeKind::label) == no_id)
        return false;
    TypeId label = block_marker;
    Sym& sym = syms_[s];
    if (sym.kind == Sym::Kind::unknown && sym.type == no_id)
        sym.type = label;
    if (sym.type != label)
        return fail(Code::ll_type_mismatch, "%%%.*s is a value, not a basic block", int(t.text.size()), t.text.data());
    next();
    out = tag_sym | s;
    return true;
}

bool Parser::define_local(uint32_t token, TypeId type, Sym::Kind kind, uint32_t index, uint32_t* sym_out)
{
    uint32_t s = no_id;
    if (token == 0 || toks_[token].numbered) {
        if (token) {
            uint64_t n = 0;
            const Token& t = toks_[token];
            auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), n);
            if (r.ec != std::errc() || n != next_number_)
                return fail_at(token, Code::ll_bad_numbering, "%%%.*s should be numbered %%%u", int(t.text.size()),
                               t.text.data(), next_number_);
        }
        if (next_number_ >= max_count)
            return fail_at(token, Code::ll_too_large, "too many unnamed values");
        auto [it, added] = numbered_syms_.emplace(next_number_++, uint32_t(syms_.size()));
        if (added) {
            Sym fresh;
            fresh.token = token;
            syms_.push_back(fresh);
        }
        s = it->second;
    } else {
        std::string_view name;
        if (!name_of(toks_[token], name))
            return false;
        auto it = named_syms_.find(name);
        if (it == named_syms_.end()) {
            it = named_syms_.emplace(m_.arena.intern(name), uint32_t(syms_.size())).first;
            syms_.push_back({});
        }
        s = it->second;
        syms_[s].name = it->first;
    }
    Sym& sym = syms_[s];
    std::string_view shown = token ? toks_[token].text : std::string_view("<unnamed>");
    if (sym.kind != Sym::Kind::unknown)
        return fail_at(token, Code::ll_redefinition, "%%%.*s is defined twice", int(shown.size()), shown.data());
    if (sym.type != no_id && sym.type != type)
        return fail_at(sym.token, Code::ll_type_mismatch, "%%%.*s is used as %s but defined as %s", int(shown.size()),
                       shown.data(), type_name(sym.type).c_str(), type_name(type).c_str());
    sym.kind = kind;
    sym.type = type;
    sym.index = index;
    if (token)
        sym.token = token;
    if (sym_out)
        *sym_out = s;
    return true;
}

bool Parser::parse_block_start()
{
    if (fn_->blocks.size() >= (1u << 20))
        return fail(Code::ll_too_large, "too many basic blocks");
    uint32_t index = uint32_t(fn_->blocks.size());
    BasicBlock b;
    b.first = uint32_t(fn_->instructions.size());
    TypeId label = block_marker;
    if (at(Tok::label)) {
        uint32_t token = uint32_t(pos_);
        next();
        uint32_t s = 0;
        if (!define_local(token, label, Sym::Kind::block, index, &s))
            return false;
        b.name = syms_[s].name;
    } else if (!define_local(0, label, Sym::Kind::block, index)) {
        return false;
    }
    fn_->blocks.push_back(b);
    return true;
}

bool Parser::parse_function_body(const Stmt& s)
{
    FnInfo& info = fns_[s.index];
    if (!info.body)
        return true;
    fn_index_ = s.index;
    fn_ = &m_.functions[s.index];
    fn_->is_declaration = false;
    module_scope_ = false;
    syms_.clear();
    named_syms_.clear();
    numbered_syms_.clear();
    fn_consts_.clear();
    local_md_.clear();
    next_number_ = 0;
    results_ = 0;
    result_tokens_.clear();
    const Type& ft = m_.types[fn_->function_type];
    for (uint32_t i = 0; i < ft.members.size(); ++i)
        if (!define_local(info.arg_tokens[i], ft.members[i], Sym::Kind::argument, i))
            return false;
    pos_ = info.body;
    next();
    bool in_block = false;
    while (!at(Tok::rbrace)) {
        if (at(Tok::eof) || statement_start())
            return fail(Code::ll_unterminated_block, "the body of @%.*s has no closing '}'", int(fn_->name.size()),
                        fn_->name.data());
        if (!in_block) {
            if (!parse_block_start())
                return false;
            in_block = true;
            continue;
        }
        if (at(Tok::label))
            return fail(Code::ll_unterminated_block, "a basic block ends without a terminator");
        bool terminator = false;
        if (!parse_instruction(terminator))
            return false;
        fn_->blocks.back().count++;
        in_block = !terminator;
    }
    if (in_block)
        return fail(Code::ll_unterminated_block, "the last basic block of @%.*s has no terminator",
                    int(fn_->name.size()), fn_->name.data());
    if (fn_->blocks.empty())
        return fail(Code::ll_unterminated_block, "the body of @%.*s has no basic blocks", int(fn_->name.size()),
                    fn_->name.data());
    next();
    if (pos_ != s.end)
        return unexpected("the end of the function");
    bool ok = finish_function();
    fn_ = nullptr;
    module_scope_ = true;
    return ok;
}

bool Parser::resolve_local(uint32_t& id, bool block, uint32_t fallback_token)
{
    // Symbols and function constants become local indices (tag_local) or block indices.
    uint32_t args = uint32_t(m_.types[fn_->function_type].members.size());
    uint32_t consts = uint32_t(fn_->constants.size());
    if (id & metadata_operand)
        return true;
    if (id & tag_const) {
        id = tag_local | (args + (id & ~tag_const));
        return true;
    }
    if (!(id & tag_sym))
        return true;
    const Sym& sym = syms_[id & ~tag_sym];
    uint32_t token = sym.token ? sym.token : fallback_token;
    const Token& t = toks_[token];
    if (sym.kind == Sym::Kind::unknown)
        return fail_at(token, block ? Code::ll_undefined_label : Code::ll_undefined_value, "%%%.*s is not defined",
                       int(t.text.size()), t.text.data());
    if (block != (sym.kind == Sym::Kind::block))
        return fail_at(token, Code::ll_type_mismatch, "%%%.*s is not a %s", int(t.text.size()), t.text.data(),
                       block ? "basic block" : "value");
    if (block)
        id = sym.index;
    else if (sym.kind == Sym::Kind::argument)
        id = tag_local | sym.index;
    else
        id = tag_local | (args + consts + sym.index);
    return true;
}

bool Parser::finish_function()
{
    uint32_t fallback = fns_[fn_index_].body;
    for (Constant& c : fn_->constants) {
        uint32_t* ops = const_cast<uint32_t*>(c.operands.data()); // arena memory the parser owns
        for (size_t i = 0; i < c.operands.size(); ++i)
            if (!resolve_local(ops[i], false, fallback))
                return false;
    }
    std::vector<uint32_t> result_index;
    for (uint32_t i = 0; i < fn_->instructions.size(); ++i) {
        Instruction& inst = fn_->instructions[i];
        uint32_t token = result_tokens_[i];
        uint32_t* ops = const_cast<uint32_t*>(inst.operands.data());
        bool blocks = inst.op == Opcode::phi || inst.op == Opcode::br || inst.op == Opcode::switch_;
        for (size_t k = 0; k < inst.operands.size(); ++k) {
            bool value = is_value_operand(inst, k);
            if (!value && !blocks)
                continue; // literal indices
            if (!resolve_local(ops[k], !value, token))
                return false;
        }
        if (inst.result != no_id && !resolve_local(inst.result, false, token))
            return false;
    }
    for (MetadataId md : local_md_)
        if (!resolve_local(m_.metadata[md].value, false, fallback))
            return false;
    // The function's values: arguments, constants, instruction results.
    const Type& ft = m_.types[fn_->function_type];
    fn_->values.clear();
    for (uint32_t i = 0; i < ft.members.size(); ++i)
        fn_->values.push_back({LocalValue::Kind::argument, ft.members[i], i, {}});
    for (uint32_t k = 0; k < fn_->constants.size(); ++k)
        fn_->values.push_back({LocalValue::Kind::constant, fn_->constants[k].type, k, {}});
    for (uint32_t i = 0; i < fn_->instructions.size(); ++i)
        if (fn_->instructions[i].result != no_id)
            fn_->values.push_back({LocalValue::Kind::instruction, fn_->instructions[i].type, i, {}});
    for (const Sym& sym : syms_) {
        if (sym.name.empty() || sym.kind == Sym::Kind::block || sym.kind == Sym::Kind::unknown)
            continue;
        uint32_t local = sym.kind == Sym::Kind::argument ? sym.index
                                                         : uint32_t(ft.members.size() + fn_->constants.size()) + sym.index;
        fn_->values[local].name = sym.name;
    }
    return true;
}

} // namespace dxspv::dxil::ll

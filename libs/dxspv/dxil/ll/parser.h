// The .ll reader's state, shared by its files: parser.cpp (statements, the
// module-level phases, finishing value ids), parse_types.cpp (types and
// attributes), parse_values.cpp (values, constants), parse_instructions.cpp
// (function bodies), parse_metadata.cpp. Private to dxil/ll/.
//
// The text is lexed once, then its top-level statements are found (scan) and
// parsed in phases so that everything may be used before it is defined, as
// LLVM allows: named types, attribute groups, global and function headers,
// global initializers, metadata, function bodies.
//
// The module is the one the bitcode reader builds for the same IR. Where the
// text does not say what the bitcode would, the choices are:
// - module values: globals, then functions (text order), then module
//   constants: those of global initializers and those used as metadata (as
//   in LLVM's ValueEnumerator), in first-use order, operands before users
//   (LLVM sorts its constant pool by type and use count; nothing reads that).
// - function values: arguments, function constants (used by instructions
//   and not already module constants; first-use order, operands first),
//   instruction results. Constants are uniqued per scope and canonicalised as
//   LLVM's constant factories do (parse_values.cpp).
// - types: named and numbered structs first, in definition order (so the
//   printer lists them as the text does), then the others in first-use order,
//   uniqued structurally.
// - metadata: each `!N` is its own node (never merged with an equal one), in
//   definition order; strings and constant values are uniqued and appended
//   as met, inline nodes too. Kinds: LLVM 3.7's fixed kinds, then the others
//   in first-use order. `!dbg` attachments are dropped (see parse_metadata.cpp).
// - attribute groups and lists: numbered as LLVM's bitcode writer enumerates
//   them (every function's list in order, then the calls' lists).
#pragma once

#include <cstdarg>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/diagnostics.h"
#include "dxil/ll/lexer.h"
#include "dxil/ll/writer.h"
#include "dxil/module/module.h"

namespace dxspv::dxil::ll {

/// Structural identity of a type or constant, for uniquing.
struct TypeKey {
    Type type;
};
struct ConstKey {
    Constant constant;
};
struct KeyHash {
    size_t operator()(const TypeKey& k) const;
    size_t operator()(const ConstKey& k) const;
};
struct KeyEq {
    bool operator()(const TypeKey& a, const TypeKey& b) const;
    bool operator()(const ConstKey& a, const ConstKey& b) const;
};

/// Whether cast `op` (CastOp numbering) from `from` to `to` is valid.
bool cast_is_valid(const Module& m, int op, TypeId from, TypeId to);

class Parser {
public:
    static constexpr unsigned max_depth = 64;
    static constexpr uint32_t max_count = 1u << 24;
    // Operand tags while a function is parsed (module value ids have none).
    static constexpr uint32_t tag_local = 1u << 30; ///< final local index, module value count added at the end
    static constexpr uint32_t tag_const = 1u << 29; ///< function constant index
    static constexpr uint32_t tag_sym = 1u << 28;   ///< local symbol index (resolved at the function's end)
    static constexpr uint32_t tag_mask = tag_local | tag_const | tag_sym;
    /// The type of block symbols (LLVM's bitcode has no label type for blocks).
    static constexpr TypeId block_marker = no_id - 1;

    Parser(std::string_view text, Module& module, Diagnostics& diags) : text_(text), m_(module), diags_(diags) {}
    bool run();

private:
    struct Stmt {
        enum class Kind : uint8_t { target, type, global, function, attributes, named_md, md, ignored };
        Kind kind;
        uint32_t begin, end; ///< token range
        uint32_t index;      ///< type id, global, function, attribute group number or metadata id
    };
    struct Sym {
        enum class Kind : uint8_t { unknown, argument, instruction, block };
        Kind kind = Kind::unknown;
        TypeId type = no_id; ///< value type; the label type for blocks
        uint32_t index = 0;  ///< argument number, instruction index or block index
        uint32_t token = 0;  ///< first use or the definition
        std::string_view name;
    };
    struct AttrSet {
        std::vector<Attribute> attrs;
        uint32_t token = 0;
        bool defined = false;
    };
    /// Attributes of one function or call by index (0 return, n parameter n, ~0 function).
    using AttrSlots = std::vector<std::pair<uint32_t, std::vector<Attribute>>>;
    struct FnInfo {
        uint32_t body = 0; ///< token of the body's '{', 0 for declarations
        std::vector<uint32_t> arg_tokens; ///< name token of each parameter, 0 = unnamed
    };

    // parser.cpp: cursor and diagnostics.
    const Token& tok() const { return toks_[pos_]; }
    const Token& peek(size_t n) const { return toks_[pos_ + n < toks_.size() ? pos_ + n : toks_.size() - 1]; }
    bool at(Tok k) const { return toks_[pos_].kind == k; }
    bool at_word(std::string_view w) const { return at(Tok::word) && tok().text == w; }
    void next()
    {
        if (pos_ + 1 < toks_.size())
            ++pos_;
    }
    bool accept(Tok k);
    bool accept_word(std::string_view w);
    bool expect(Tok k, const char* context);
    bool expect_word(std::string_view w, const char* context);
    bool fail(Code code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
    bool fail_at(uint32_t token, Code code, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
    bool vfail(uint32_t token, Code code, const char* fmt, va_list args);
    bool unexpected(const char* wanted);
    bool parse_uint(uint64_t& out, uint64_t max, const char* what);
    bool parse_int(int64_t& out, const char* what);
    /// The token's name without sigil and quotes, escapes decoded. The view
    /// lasts until the next call (intern it to keep it).
    bool name_of(const Token& t, std::string_view& out);
    bool depth_enter();
    std::string type_name(TypeId t) const { return t == block_marker ? "label" : print_type(m_, t); }
    void depth_leave() { --depth_; }

    // parser.cpp: module level.
    bool scan();
    bool scan_statement(std::vector<Stmt>& out);
    void skip_statement();
    bool statement_start() const;
    bool phase(Stmt::Kind kind, bool (Parser::*parse)(const Stmt&));
    bool parse_target(const Stmt& s);
    bool parse_global_header(const Stmt& s);
    bool parse_global_initializer(const Stmt& s);
    bool parse_function_header(const Stmt& s);
    bool parse_linkage(Linkage& out);
    uint32_t section_index(std::string_view name);
    bool finish();

    // parse_types.cpp
    TypeId intern_type(const Type& t);
    TypeId simple_type(TypeKind kind, uint32_t width = 0);
    TypeId pointer_to(TypeId element, uint32_t address_space);
    TypeId bool_type(TypeId like);
    bool parse_type(TypeId& out, bool allow_void = true);
    bool parse_base_type(TypeId& out);
    bool parse_struct_body(std::vector<TypeId>& members, bool packed);
    bool named_type(const Token& t, TypeId& out);
    bool parse_type_definition(const Stmt& s);
    bool is_first_class(TypeId t) const;
    bool parse_attribute_group(const Stmt& s);
    bool parse_attribute(std::vector<Attribute>& out, bool in_group, bool& matched);
    bool parse_param_attributes(std::vector<Attribute>& out);
    bool parse_fn_attributes(std::vector<Attribute>& out, uint32_t* alignment);
    uint32_t attribute_list(AttrSlots& slots);
    uint32_t attribute_group_id(uint32_t index, const std::vector<Attribute>& attrs);

    // parse_values.cpp
    TypeId type_of(ValueId id) const;
    const Constant* constant_at(ValueId id) const;
    bool parse_value(TypeId type, ValueId& out);
    bool parse_typed_value(ValueId& out, TypeId& type);
    bool parse_constant(TypeId type, ValueId& out);
    bool parse_constant_inner(TypeId type, ValueId& out);
    bool parse_literal(TypeId type, Constant& c, bool& matched);
    bool parse_aggregate(TypeId type, ValueId& out);
    bool parse_constant_expression(TypeId type, ValueId& out);
    bool parse_constant_gep(TypeId type, bool inbounds, ValueId& out);
    bool parse_int_literal(TypeId type, uint64_t& bits);
    bool parse_float_literal(TypeId type, uint64_t& bits);
    bool global_value(const Token& t, TypeId type, ValueId& out);
    bool local_value(const Token& t, TypeId type, ValueId& out);
    ValueId intern_constant(Constant c);
    bool check_constant_type(const Constant& c, uint32_t token);

    // parse_instructions.cpp
    bool parse_function_body(const Stmt& s);
    bool parse_block_start();
    bool parse_instruction(bool& terminator);
    bool parse_instruction_body(std::string_view op, uint32_t op_token, Instruction& inst, bool& terminator);
    bool parse_binop(std::string_view op, Instruction& inst);
    bool parse_cast(int code, Instruction& inst);
    bool parse_cmp(bool fp, Instruction& inst);
    bool parse_phi(Instruction& inst);
    bool parse_branch(std::string_view op, Instruction& inst);
    bool parse_memory(std::string_view op, Instruction& inst);
    bool parse_gep(Instruction& inst);
    bool parse_aggregate_op(std::string_view op, Instruction& inst);
    bool parse_atomic(std::string_view op, Instruction& inst);
    bool parse_call(Instruction& inst);
    bool parse_call_argument(TypeId param, ValueId& out, std::vector<Attribute>& attrs);
    bool parse_ordering(uint32_t& out, bool& singlethread);
    bool parse_alignment(uint32_t& out);
    bool parse_label(uint32_t& out);
    /// Defines a local value or block named by `token` (0: the next number); `sym` receives its symbol.
    bool define_local(uint32_t token, TypeId type, Sym::Kind kind, uint32_t index, uint32_t* sym = nullptr);
    uint32_t local_symbol(const Token& t);
    bool gep_result(TypeId source, std::span<const uint32_t> indices, TypeId base, TypeId& out);
    bool indexed_type(TypeId aggregate, std::span<const uint32_t> indices, uint32_t token, TypeId& out);
    bool finish_function();
    bool resolve_local(uint32_t& id, bool block, uint32_t fallback_token);

    // parse_metadata.cpp
    bool parse_named_metadata(const Stmt& s);
    bool parse_metadata_definition(const Stmt& s);
    bool parse_metadata_node(bool distinct, MetadataId into);
    bool parse_metadata_operand(uint32_t& out); ///< metadata id + 1, 0 = null
    bool parse_metadata_ref(MetadataId& out);   ///< !N, !"s", !{...}
    bool parse_specialized_metadata(MetadataId& out, MetadataId into);
    bool parse_metadata_argument(ValueId& out);  ///< call argument of type metadata
    bool parse_attachment(uint32_t instruction);
    MetadataId string_metadata(std::string_view s);
    MetadataId value_metadata(TypeId type, ValueId value);
    uint32_t metadata_kind(std::string_view name);
    bool numbered_metadata(const Token& t, MetadataId& out);

    std::string_view text_;
    Module& m_;
    Diagnostics& diags_;
    LexResult lexed_;
    std::vector<Token>& toks_ = lexed_.tokens;
    size_t pos_ = 0;
    unsigned depth_ = 0;
    std::string scratch_, name_scratch_;

    std::vector<Stmt> stmts_;
    // Types.
    std::unordered_map<TypeKey, TypeId, KeyHash, KeyEq> type_map_;
    std::vector<uint8_t> type_depth_;
    std::unordered_map<std::string_view, TypeId> named_types_;
    std::vector<TypeId> numbered_types_;
    std::vector<uint32_t> type_defined_; ///< by type id: statement token + 1 of its definition, 0 = none
    TypeId simple_[8] = {no_id, no_id, no_id, no_id, no_id, no_id, no_id, no_id};
    TypeId ints_[65] = {};
    // Module values.
    std::unordered_map<std::string_view, ValueId> globals_by_name_;
    std::vector<ValueId> numbered_globals_;
    std::unordered_map<ConstKey, ValueId, KeyHash, KeyEq> module_consts_;
    std::unordered_map<ConstKey, ValueId, KeyHash, KeyEq> fn_consts_;
    // Attributes.
    std::unordered_map<uint32_t, AttrSet> attr_sets_; ///< `attributes #N` by N
    std::unordered_map<std::string, uint32_t> group_ids_; ///< (index, attributes) → group id
    std::unordered_map<std::string, uint32_t> list_ids_;  ///< group ids → list index + 1
    std::vector<FnInfo> fns_;
    std::vector<uint32_t> global_init_;     ///< by global: the token after its type
    std::vector<uint8_t> global_has_init_;  ///< by global: an initializer follows
    // Metadata.
    std::unordered_map<uint32_t, MetadataId> numbered_md_;
    std::unordered_map<std::string_view, MetadataId> md_strings_;
    std::unordered_map<uint64_t, MetadataId> md_values_;
    std::unordered_map<std::string_view, uint32_t> md_kinds_;
    std::unordered_map<std::string_view, uint32_t> named_md_;
    // The function being parsed.
    Function* fn_ = nullptr;
    uint32_t fn_index_ = 0;
    std::vector<Sym> syms_;
    std::unordered_map<std::string_view, uint32_t> named_syms_;
    std::unordered_map<uint32_t, uint32_t> numbered_syms_;
    uint32_t next_number_ = 0;
    uint32_t results_ = 0; ///< instructions with a result so far
    bool module_scope_ = true; ///< constants go to the module pool (initializers, metadata)
    std::vector<MetadataId> local_md_; ///< function-local metadata of the current function
    std::vector<uint32_t> result_tokens_; ///< by instruction: its token, for diagnostics
    std::vector<uint32_t> ids_;
};

} // namespace dxspv::dxil::ll

// The keyword tables of LLVM 3.7 IR text, shared by the .ll writer and
// reader: each array is indexed by the bitcode encoding of the operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace dxspv::dxil::ll {

inline constexpr const char* binop_names[] = {"add", "sub", "mul", "udiv", "sdiv", "urem", "srem",
                                              "shl", "lshr", "ashr", "and", "or", "xor"};
/// Floating-point binops share the integer encodings: fdiv = sdiv (4), frem = srem (6).
inline constexpr const char* fbinop_names[] = {"fadd", "fsub", "fmul", "fdiv", "fdiv", "frem", "frem"};
inline constexpr const char* cast_names[] = {"trunc", "zext", "sext", "fptoui", "fptosi", "uitofp", "sitofp",
                                             "fptrunc", "fpext", "ptrtoint", "inttoptr", "bitcast", "addrspacecast"};
/// fcmp predicates 0-15; icmp predicates are 32 + index.
inline constexpr const char* fcmp_names[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                             "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true"};
inline constexpr const char* icmp_names[] = {"eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"};
inline constexpr const char* rmw_names[] = {"xchg", "add", "sub", "and", "nand", "or",
                                            "xor", "max", "min", "umax", "umin"};
/// Atomic orderings; 0 (not atomic) has no name.
inline constexpr const char* ordering_names[] = {"", "unordered", "monotonic", "acquire", "release", "acq_rel", "seq_cst"};
/// LLVM 3.7 attribute kinds by their bitcode number.
inline constexpr const char* attribute_names[] = {
    "", "align", "alwaysinline", "byval", "inlinehint", "inreg", "minsize", "naked", "nest", "noalias",
    "nobuiltin", "nocapture", "noduplicate", "noimplicitfloat", "noinline", "nonlazybind", "noredzone",
    "noreturn", "nounwind", "optsize", "readnone", "readonly", "returned", "returns_twice", "signext",
    "alignstack", "ssp", "sspreq", "sspstrong", "sret", "sanitize_address", "sanitize_thread",
    "sanitize_memory", "uwtable", "zeroext", "builtin", "cold", "optnone", "inalloca", "nonnull",
    "jumptable", "dereferenceable", "dereferenceable_or_null", "convergent", "safestack", "argmemonly"};
/// The metadata kinds every LLVM 3.7 context registers first, by kind id.
inline constexpr const char* fixed_metadata_kinds[] = {
    "dbg", "tbaa", "prof", "fpmath", "range", "tbaa.struct", "invariant.load", "alias.scope", "noalias",
    "nontemporal", "llvm.mem.parallel_loop_access", "nonnull", "dereferenceable", "dereferenceable_or_null"};

/// LLVM 3.7's specialised metadata nodes (debug info) by METADATA_* record code.
inline constexpr std::pair<int, const char*> specialized_metadata_names[] = {
    {7, "DILocation"}, {12, "GenericDINode"}, {13, "DISubrange"}, {14, "DIEnumerator"},
    {15, "DIBasicType"}, {16, "DIFile"}, {17, "DIDerivedType"}, {18, "DICompositeType"},
    {19, "DISubroutineType"}, {20, "DICompileUnit"}, {21, "DISubprogram"}, {22, "DILexicalBlock"},
    {23, "DILexicalBlockFile"}, {24, "DINamespace"}, {25, "DITemplateTypeParameter"},
    {26, "DITemplateValueParameter"}, {27, "DIGlobalVariable"}, {28, "DILocalVariable"},
    {29, "DIExpression"}, {30, "DIObjCProperty"}, {31, "DIImportedEntity"}, {32, "DIModule"}};

/// The name of a specialised metadata record, or nullptr.
inline const char* specialized_metadata_name(uint64_t code)
{
    for (auto [c, name] : specialized_metadata_names)
        if (uint64_t(c) == code)
            return name;
    return nullptr;
}

template <size_t N> constexpr int find_name(const char* const (&names)[N], std::string_view name)
{
    for (size_t i = 0; i < N; ++i)
        if (name == names[i])
            return int(i);
    return -1;
}

/// The attribute's name, or nullptr for an unknown kind number.
inline const char* attribute_name(uint32_t id)
{
    return id < sizeof(attribute_names) / sizeof(attribute_names[0]) ? attribute_names[id] : nullptr;
}

} // namespace dxspv::dxil::ll

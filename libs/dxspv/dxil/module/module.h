// The in-memory form of an LLVM 3.7 module as DXIL uses it. Everything is
// addressed by 32-bit ids; variable-length parts live in the module's arena.
//
// Value ids follow the bitcode numbering: ids below Module::values.size()
// are module values (globals, functions, module constants); inside a
// function, id - Module::values.size() indexes Function::values (arguments,
// function constants, instruction results). An operand that refers to
// metadata (a call argument of type `metadata`) is `metadata_operand | id`.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/arena.h"
#include "common/scratch.h"

namespace dxspv::dxil {

using TypeId = uint32_t;
using ValueId = uint32_t;
using MetadataId = uint32_t;
constexpr uint32_t no_id = 0xFFFFFFFFu;
constexpr uint32_t metadata_operand = 0x80000000u;

enum class TypeKind : uint8_t {
    void_, half, float_, double_, label, metadata, integer, pointer, function, struct_, array, vector, opaque, other
};

struct Type {
    TypeKind kind = TypeKind::void_;
    bool packed = false;   ///< struct
    bool vararg = false;   ///< function
    bool identified = false; ///< named or opaque struct (printed by name)
    uint32_t width = 0;    ///< integer bits
    uint32_t address_space = 0; ///< pointer
    uint64_t count = 0;    ///< array or vector elements
    TypeId element = no_id; ///< pointee, array/vector element, function return
    std::span<const TypeId> members; ///< struct members, function parameters
    std::string_view name; ///< struct name (empty when unnamed)
};

enum class ConstantKind : uint8_t {
    null, undef, integer, float_, aggregate, data, string, cast, binop, gep, select, cmp,
    extractelement, insertelement, shufflevector, other
};

struct Constant {
    ConstantKind kind = ConstantKind::undef;
    uint8_t opcode = 0;  ///< cast, binop or cmp predicate
    uint8_t flags = 0;   ///< binop flags; gep: 1 = inbounds
    TypeId type = no_id;
    TypeId source_type = no_id; ///< gep: source element type
    uint64_t value = 0;  ///< integer (sign-extended to 64 bits) or float bits
    std::span<const uint32_t> operands; ///< value ids
    std::span<const uint64_t> data;     ///< data arrays and strings: element bits
};

enum class Linkage : uint8_t {
    external, appending, internal, private_, extern_weak, common, weak_any, weak_odr, linkonce_any,
    linkonce_odr, available_externally, other
};

struct GlobalVariable {
    std::string_view name;
    TypeId value_type = no_id;
    TypeId pointer_type = no_id;
    uint32_t address_space = 0;
    ValueId initializer = no_id;
    Linkage linkage = Linkage::external;
    bool is_constant = false;
    bool unnamed_addr = false;
    bool externally_initialized = false;
    uint8_t thread_local_mode = 0;
    uint32_t alignment = 0; ///< bytes, 0 if unspecified
    uint32_t section = 0;   ///< 1-based section index, 0 = none
};

enum class Opcode : uint8_t {
    binop, cast, cmp, select, phi, br, switch_, ret, unreachable, alloca, load, store, gep,
    extractvalue, insertvalue, extractelement, insertelement, shufflevector, atomicrmw, cmpxchg,
    call, fence
};

enum class BinOp : uint8_t { add, sub, mul, udiv, sdiv, urem, srem, shl, lshr, ashr, and_, or_, xor_ };
enum class CastOp : uint8_t {
    trunc, zext, sext, fptoui, fptosi, uitofp, sitofp, fptrunc, fpext, ptrtoint, inttoptr, bitcast, addrspacecast
};

/// One instruction. Operands are value ids unless noted:
/// - binop: lhs, rhs (sub = BinOp, flags = nuw/nsw/exact or fast-math)
/// - cast: value (sub = CastOp); cmp: lhs, rhs (sub = predicate)
/// - select: cond, true, false
/// - phi: value0, block0, value1, block1, ...
/// - br: dest | true dest, false dest, cond
/// - switch: cond, default block, case value id, block, ...
/// - ret: [value]; unreachable: none
/// - alloca: size (extra = alignment bytes, aux_type = allocated type)
/// - load: ptr (extra = alignment, flags bit 0 = volatile)
/// - store: ptr, value (extra = alignment, flags bit 0 = volatile)
/// - gep: base, indices... (flags bit 0 = inbounds, aux_type = source element type)
/// - extractvalue: aggregate, literal indices...; insertvalue: aggregate, value, literal indices...
/// - extractelement: vector, index; insertelement: vector, element, index
/// - shufflevector: v1, v2, mask
/// - atomicrmw: ptr, value (sub = operation, extra = ordering | scope << 8, flags bit 0 = volatile)
/// - cmpxchg: ptr, cmp, new (extra = success | failure << 8 | scope << 16, flags: 1 volatile, 2 weak)
/// - call: callee, args... (aux_type = function type, extra = attribute list + 1 or 0, flags bit 0 = tail)
/// - fence: (extra = ordering | scope << 8)
struct Instruction {
    Opcode op = Opcode::unreachable;
    uint8_t sub = 0;
    uint8_t flags = 0;
    TypeId type = no_id;     ///< result type (void if none)
    TypeId aux_type = no_id;
    uint32_t extra = 0;
    ValueId result = no_id;  ///< value id of the result, no_id if void
    std::span<const uint32_t> operands;
};

struct MetadataAttachment {
    uint32_t instruction = no_id; ///< no_id: attached to the function
    uint32_t kind = 0;
    MetadataId node = 0;
};

struct BasicBlock {
    std::string_view name;
    uint32_t first = 0; ///< index of the first instruction
    uint32_t count = 0;
};

struct LocalValue {
    enum class Kind : uint8_t { argument, constant, instruction };
    Kind kind = Kind::argument;
    TypeId type = no_id;
    uint32_t index = 0; ///< argument number, constant index or instruction index
    std::string_view name;
};

struct Function {
    std::string_view name;
    TypeId function_type = no_id;
    TypeId pointer_type = no_id;
    Linkage linkage = Linkage::external;
    bool is_declaration = true;
    bool unnamed_addr = false;
    uint32_t calling_conv = 0;
    uint32_t attributes = 0; ///< attribute list + 1, 0 = none
    uint32_t alignment = 0;
    uint32_t section = 0;
    // Body (when defined).
    ScratchVector<LocalValue> values;
    ScratchVector<Constant> constants;
    ScratchVector<Instruction> instructions;
    ScratchVector<BasicBlock> blocks;
    ScratchVector<MetadataAttachment> attachments;
};

/// A module value: what a module-level value id names.
struct ModuleValue {
    enum class Kind : uint8_t { global, function, constant };
    Kind kind = Kind::constant;
    TypeId type = no_id;
    uint32_t index = 0; ///< into globals, functions or constants
};

enum class MetadataKind : uint8_t { string, node, distinct_node, value, other };

struct Metadata {
    MetadataKind kind = MetadataKind::node;
    TypeId type = no_id;   ///< value
    ValueId value = no_id; ///< value
    std::string_view string;
    std::span<const uint32_t> operands; ///< node: metadata id + 1, 0 = null
    uint32_t function = no_id; ///< function-local metadata: the function index
};

struct NamedMetadata {
    std::string_view name;
    std::span<const MetadataId> operands;
};

struct Attribute {
    enum class Kind : uint8_t { enum_, integer, string };
    Kind kind = Kind::enum_;
    uint32_t id = 0;    ///< LLVM attribute kind number
    uint64_t value = 0; ///< integer attributes
    std::string_view key, string_value;
};

struct AttributeGroup {
    uint32_t id = 0;
    uint32_t index = 0; ///< 0xFFFFFFFF function, 0 return, n parameter n-1
    std::span<const Attribute> attributes;
};

/// A list of attribute groups (a PARAMATTR_CODE_ENTRY): group ids.
struct AttributeList {
    std::span<const uint32_t> groups;
};

struct Module {
    /// From the scratch scope open where the module is made, as its
    /// containers' memory (common/scratch.h).
    Arena arena{ScratchArena::current()};
    uint32_t version = 0;
    std::string_view triple, datalayout;
    ScratchVector<std::string_view> sections;
    ScratchVector<Type> types;
    ScratchVector<GlobalVariable> globals;
    ScratchVector<Function> functions;
    ScratchVector<Constant> constants;
    ScratchVector<ModuleValue> values;
    ScratchVector<std::string_view> value_names; ///< parallel to values
    ScratchVector<Metadata> metadata;
    ScratchVector<NamedMetadata> named_metadata;
    ScratchVector<std::string_view> metadata_kinds; ///< by kind id (empty if unused)
    ScratchVector<AttributeGroup> attribute_groups;
    ScratchVector<AttributeList> attribute_lists;
    ScratchVector<MetadataAttachment> global_attachments; ///< instruction = global index

    const AttributeGroup* find_attribute_group(uint32_t id) const
    {
        for (const auto& g : attribute_groups)
            if (g.id == id)
                return &g;
        return nullptr;
    }
    const NamedMetadata* find_named_metadata(std::string_view name) const
    {
        for (const auto& n : named_metadata)
            if (n.name == name)
                return &n;
        return nullptr;
    }
};

} // namespace dxspv::dxil

namespace dxspv::dxil {
/// False for the operands of `inst` that are basic block indices or literal
/// aggregate indices rather than value ids.
bool is_value_operand(const Instruction& inst, size_t index);
} // namespace dxspv::dxil

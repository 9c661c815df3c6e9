// Internal: the state shared by the module reader's files (module level,
// constants, metadata, function bodies). Not a public header.
#pragma once

#include <cstdarg>
#include <vector>

#include "common/diagnostics.h"
#include "common/u64_map.h"
#include "dxil/bitstream/bitstream.h"
#include "dxil/module/module.h"

namespace dxspv::dxil::detail {

/// LLVM 3.7 block ids.
enum : uint32_t {
    block_module = 8, block_paramattr = 9, block_paramattr_group = 10, block_constants = 11,
    block_function = 12, block_identification = 13, block_value_symtab = 14, block_metadata = 15,
    block_metadata_attachment = 16, block_type = 17, block_uselist = 18, block_metadata_kind = 22
};

class ModuleReader {
public:
    static constexpr unsigned max_type_depth = 64;
    static constexpr uint32_t max_count = 1u << 24;

    /// Not `whole`: what lowering needs only (ReadDepth::lowering).
    ModuleReader(std::span<const uint8_t> bitcode, uint32_t base_offset, Module& module, Diagnostics& diags,
                 bool whole)
        : cursor_(bitcode, base_offset, diags), m_(module), diags_(diags), whole_(whole)
    {
    }

    bool run();

private:
    // reader.cpp: module level.
    [[gnu::cold]] bool fail(Code code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
    /// At least `count` operands in ops_ (else an error naming the record `what`).
    bool need(size_t count, const char* what) { return ops_.size() >= count || too_short(count, what); }
    [[gnu::cold]] bool too_short(size_t count, const char* what);
    bool skip_or_fail(uint32_t block_id);
    bool read_module_block();
    bool read_type_block();
    bool check_types();
    bool read_paramattr_group_block();
    bool read_paramattr_block();
    bool read_global_var();
    bool read_function_record();
    bool read_value_symtab(bool local);
    bool check_module();
    bool type_ok(uint64_t id, const char* what) { return id < m_.types.size() || bad_type(id, what); }
    [[gnu::cold]] bool bad_type(uint64_t id, const char* what);
    TypeId pointer_to(TypeId element, uint32_t address_space);
    TypeId add_type(const Type& type);
    TypeId find_or_add(const Type& want);
    TypeId bool_type(TypeId like);
    std::span<const uint32_t> copy_ids(std::span<const uint32_t> ids);
    /// ops_[first..] narrowed into the arena; false (`bad` = the first
    /// operand's index) when one is >= `limit`. `high`, when given, is
    /// raised to the highest operand.
    bool ops_ids(size_t first, uint64_t limit, std::span<const uint32_t>& out, size_t& bad,
                 uint64_t* high = nullptr);
    /// ops_[first..] as characters, a string (nul-terminated) in the arena:
    /// names and the module's strings.
    std::string_view ops_name(size_t first);
    /// A string ending with a zero operand, from ops_[at] on: `out` in the
    /// arena as ops_name() does, and `at` past the zero. False without one.
    bool ops_string(size_t& at, std::string_view& out);
    /// ops_[first, first + n) as characters, in the arena.
    std::string_view ops_chars(size_t first, size_t n);

    // constants.cpp
    bool read_constants_block(bool local);
    bool read_constant(uint32_t code, TypeId type, Constant& c);
    bool read_constant_gep(uint32_t code, TypeId type, Constant& c);
    bool check_constants(std::span<const Constant> constants, bool local);
    bool check_constant_depth(bool local);
    static constexpr unsigned max_constant_depth = 64;

    // metadata_reader.cpp
    /// A METADATA or METADATA_KIND block of the module, from its
    /// ENTER_SUBBLOCK on; a block of kinds only, of the same bytes as the
    /// last one on this thread, is not decoded again (KindBlockCache).
    bool read_module_metadata(uint32_t block_id);
    /// A block entered; `kinds_only`, when given, is cleared unless every
    /// entry is an unabbreviated METADATA_KIND record.
    bool read_metadata_block(bool local, bool* kinds_only = nullptr);
    bool read_metadata_kind(uint32_t code);
    bool read_metadata_strings();
    bool read_attachment_block();
    bool check_metadata(size_t first, size_t last);
    bool check_named_metadata();
    bool resolve_metadata(uint64_t local_id, MetadataId& out);

    // function.cpp
    bool read_function_block();
    bool read_instruction(uint32_t code, Instruction& inst, bool& terminator);
    bool read_binop_cast_cmp(uint32_t code, Instruction& inst);
    bool read_memory_op(uint32_t code, Instruction& inst);
    bool read_aggregate_op(uint32_t code, Instruction& inst);
    bool read_call(Instruction& inst);
    bool read_atomic(uint32_t code, Instruction& inst);
    bool read_branch(uint32_t code, Instruction& inst);
    bool read_phi(Instruction& inst);
    /// The operand at ops_[slot] and its type (from the record after a
    /// forward reference). Inline for an operand already defined: most are.
    bool value_type_pair(size_t& slot, ValueId& id, TypeId& type)
    {
        if (slot < ops_.size()) {
            ValueId v = operand_id(ops_[slot]);
            if (v < next_value_) {
                ++slot;
                id = v;
                type = type_of(v);
                return true;
            }
        }
        return value_type_pair_slow(slot, id, type);
    }
    bool value_type_pair_slow(size_t& slot, ValueId& id, TypeId& type);
    /// The operand at ops_[slot], which must be of type `type` (no_id: any).
    /// Inline for an operand already defined with that type, which is not
    /// metadata: a call's arguments are most of a function's operands.
    bool value_of_type(size_t& slot, TypeId type, ValueId& id)
    {
        if (slot < ops_.size()) {
            ValueId v = operand_id(ops_[slot]);
            if (v < next_value_ && type != no_id && type_of(v) == type && m_.types[type].kind != TypeKind::metadata) {
                ++slot;
                id = v;
                return true;
            }
        }
        return value_of_type_slow(slot, type, id);
    }
    bool value_of_type_slow(size_t& slot, TypeId type, ValueId& id);
    ValueId operand_id(uint64_t raw) const { return relative_ids_ ? uint32_t(next_value_ - uint32_t(raw)) : uint32_t(raw); }
    bool block_id(uint64_t raw, uint32_t& out);
    TypeId type_of(ValueId id) const
    {
        if (fn_)
            return id < value_types_.size() ? value_types_[id] : no_id;
        return id < m_.values.size() ? m_.values[id].type : no_id;
    }
    bool check_function();
    bool gep_result(TypeId source, std::span<const uint32_t> indices, uint32_t address_space, TypeId& out);
    bool indexed_type(TypeId aggregate, std::span<const uint32_t> indices, TypeId& out);
    bool constant_int(ValueId id, uint64_t& out) const;

    BitstreamCursor cursor_;
    Module& m_;
    Diagnostics& diags_;
    const bool whole_; ///< ReadDepth::whole: every block is read
    RecordOps ops_;
    ScratchVector<uint32_t> ids_;
    std::span<const uint8_t> blob_;
    bool relative_ids_ = false;
    bool seen_module_ = false;
    ScratchVector<uint32_t> bodies_;
    size_t next_body_ = 0;
    U64Map pointer_cache_; ///< (address space, element) -> pointer type + 1
    U64Map unnamed_types_; ///< find_or_add: a hash of an unnamed type -> the first such type + 1
    TypeId indexed_types_ = 0; ///< the types before it are in unnamed_types_
    ScratchVector<uint32_t> metadata_map_; ///< function-local metadata ids → module metadata index
    uint32_t module_metadata_count_ = 0;
    /// Module-level metadata as it was read: the highest node operand (an
    /// id + 1), and whether every value was in range and of its recorded
    /// type then. check_module() walks the module's metadata (and reports
    /// the first error) only when these do not already show it valid.
    uint64_t module_node_high_ = 0;
    bool module_values_ok_ = true;
    // Function state.
    Function* fn_ = nullptr;
    uint32_t fn_index_ = 0;
    uint32_t next_value_ = 0;
    /// In a function body: the type of each value id below next_value_
    /// (module values, then the function's), one load for type_of().
    ScratchVector<TypeId> value_types_;
    struct PendingType {
        ValueId id;
        TypeId type;
    };
    ScratchVector<PendingType> pending_types_;
};

} // namespace dxspv::dxil::detail

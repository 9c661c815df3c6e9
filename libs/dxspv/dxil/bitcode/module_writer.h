// Internal: the state shared by the module writer's files (module level,
// constants, metadata, function bodies). Not a public header.
//
// The writer numbers everything itself, in the order LLVM 3.7 readers
// expect, and maps the module's ids through tables:
// - types: a post-order (only named structs are referenced before their
//   definition), the module's own order when it already is one;
// - module values: globals, then functions, then module constants;
// - function values: arguments, function constants, instruction results;
// - metadata: the module-level entries in order, then per function its
//   function-local entries.
#pragma once

#include <bit>
#include <cstdarg>
#include <vector>

#include "common/diagnostics.h"
#include "dxil/bitcode/bitstream_writer.h"
#include "dxil/module/module.h"

namespace dxspv::dxil::bitcode {

/// LLVM 3.7 block ids.
enum : uint32_t {
    block_module = 8, block_paramattr = 9, block_paramattr_group = 10, block_constants = 11, block_function = 12,
    block_value_symtab = 14, block_metadata = 15, block_metadata_attachment = 16, block_type = 17
};

/// Abbreviation ids: the BLOCKINFO ones (in every block of that id) and
/// the ones defined inside a block.
enum : uint32_t {
    abbrev_vst_entry8 = 4, abbrev_vst_entry7 = 5, abbrev_vst_entry6 = 6, abbrev_vst_bbentry6 = 7,
    abbrev_cst_settype = 4, abbrev_cst_integer = 5, abbrev_cst_cast = 6, abbrev_cst_null = 7,
    abbrev_cst_aggregate = 8, abbrev_cst_string = 9, abbrev_cst_cstring7 = 10, abbrev_cst_cstring6 = 11,
    abbrev_inst_load = 4, abbrev_inst_binop = 5, abbrev_inst_binop_flags = 6, abbrev_inst_cast = 7,
    abbrev_inst_ret_void = 8, abbrev_inst_ret_val = 9, abbrev_inst_unreachable = 10, abbrev_inst_gep = 11,
    abbrev_md_string = 4, abbrev_md_name = 5,
    abbrev_type_pointer = 4, abbrev_type_function = 5, abbrev_type_struct_anon = 6, abbrev_type_struct_name = 7,
    abbrev_type_struct_named = 8, abbrev_type_array = 9
};

/// LLVM's sign-rotated encoding: v << 1 for v >= 0, (-v << 1) | 1 otherwise.
inline uint64_t encode_signed(int64_t v)
{
    return v >= 0 ? uint64_t(v) << 1 : (uint64_t(0) - uint64_t(v)) << 1 | 1;
}

/// Log2(alignment) + 1, 0 for none; false if not a power of two.
inline bool encode_alignment(uint32_t align, uint64_t& out)
{
    out = align ? uint64_t(std::countr_zero(align)) + 1 : 0;
    return align == 0 || std::has_single_bit(align);
}

class ModuleWriter {
public:
    ModuleWriter(const Module& module, std::vector<uint8_t>& out, Diagnostics& diags)
        : m_(module), w_(out), diags_(diags)
    {
    }

    bool run();

private:
    // module_writer.cpp: numbering, module level records, symbol tables.
    bool fail(Code code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
    bool number_types();
    bool number_values();
    bool number_metadata();
    void write_blockinfo();
    void write_attributes();
    bool write_types();
    bool write_globals_and_functions();
    void write_module_vst();
    void write_vst_entry(uint32_t code, uint64_t id, std::string_view name);
    void string_ops(std::string_view s, size_t keep = 0);
    /// The written id of a type; an id out of range sets bad_type_ (the
    /// record is then refused by check_types_used()).
    uint64_t type(TypeId id)
    {
        if (id < type_map_.size())
            return type_map_[id];
        bad_type_ = true;
        return 0;
    }
    bool check_types_used();
    bool type_ok(TypeId id, const char* what);
    bool encode_linkage(Linkage l, uint64_t& out);

    // constants_writer.cpp
    bool write_constants(std::span<const Constant> constants, bool module_level);
    bool constant_record(const Constant& c, uint32_t& code, uint32_t& abbrev);

    // metadata_writer.cpp
    bool write_module_metadata();
    void write_metadata_kinds();
    bool write_local_metadata(uint32_t function);
    bool write_metadata_record(MetadataId id);
    bool write_attachments(const Function& f);
    bool metadata_id(MetadataId id, uint32_t& out) const;

    // function_writer.cpp
    bool write_function(uint32_t index);
    bool number_locals(const Function& f);
    bool check_blocks(const Function& f);
    bool write_instruction(const Instruction& inst, uint32_t& abbrev, uint32_t& code);
    bool write_call(const Instruction& inst);
    void write_function_vst(const Function& f);
    /// Operand encodings: the id relative to the next value id, with the
    /// type after forward references (push_value_and_type returns true
    /// then); signed relative ids for phis.
    bool value_id(ValueId id, uint32_t& out) const;
    bool push_value(ValueId id);
    bool push_value_and_type(ValueId id, bool& forward);
    TypeId type_of(ValueId id) const;

    const Module& m_;
    BitstreamWriter w_;
    Diagnostics& diags_;
    std::vector<uint64_t> ops_;
    unsigned type_bits_ = 1;
    bool bad_type_ = false;
    std::vector<uint32_t> type_map_;   ///< module type id → written id
    std::vector<TypeId> type_order_;  ///< written id → module type id
    uint32_t value_base_[3] = {0, 0, 0}; ///< first written id of globals, functions, constants
    std::vector<uint32_t> md_map_;    ///< metadata id → written id (per function for local entries)
    std::vector<uint32_t> md_local_;  ///< function-local metadata ids, grouped by function
    std::vector<uint32_t> md_local_first_; ///< per function: first index into md_local_ (size functions + 1)
    uint32_t module_md_count_ = 0;
    // Function state.
    const Function* fn_ = nullptr;
    uint32_t fn_index_ = 0;
    std::vector<uint32_t> local_map_; ///< local value index → written id
    uint32_t next_value_ = 0;         ///< written id of the next instruction result
    uint32_t inst_index_ = 0;         ///< instruction being written (for diagnostics)
};

} // namespace dxspv::dxil::bitcode

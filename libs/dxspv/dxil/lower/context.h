// Internal: the state shared by the DXIL lowering's files (one file per
// area: values and types, declarations, LLVM instructions, memory, DXIL op
// families). Not a public header; the entry point is dxil/lower/lower.h.
//
// Every LLVM value of the function being lowered maps to an Operand: a
// ready-made VSIR source (an SSA register component, an immediate, an input
// or system register read in place), a resource handle, a pointer into
// private or group-shared memory, or an aggregate whose members are
// Operands of their own. Operands are built once, when the value is
// defined, and copied into each instruction that reads the value.
#pragma once

#include <cstdarg>
#include <deque>
#include <vector>

#include "common/scratch.h"
#include "dxil/lower/lower.h"
#include "dxil/ops/ops.h"

namespace dxspv::dxil::lower {

using vsir::DataType;
using vsir::RegisterFile;

/// Where a pointer points.
enum class MemorySpace : uint8_t { none, private_array, groupshared };

/// What an LLVM value is, for the VSIR instructions that read it.
struct Operand {
    enum class Kind : uint8_t { none, src, handle, pointer, aggregate, undef };
    Kind kind = Kind::none;
    DataType type = DataType::none; ///< src/undef: the value's VSIR type
    vsir::SrcParam src;             ///< src: the operand (scalar: swizzle .xxxx of its component)
    // handle
    RegisterFile file = RegisterFile::null; ///< t, u, cb, s
    uint32_t range_id = 0;
    uint32_t index_offset = 0;    ///< absolute register index (immediate part)
    uint32_t index_src = ~0u;     ///< dynamic part: a u32 source in Program::srcs (~0u: none)
    bool non_uniform = false;
    // pointer
    MemorySpace space = MemorySpace::none;
    uint32_t object = 0;          ///< x# or g# register
    uint32_t element_offset = 0;  ///< in scalar elements (private) or 32-bit words (groupshared)
    uint32_t dynamic_src = ~0u;   ///< dynamic part (same unit): a u32 source in Program::srcs, ~0u: none
    TypeId pointee = no_id;       ///< pointer: pointee type
    // aggregate: members in Lowerer::aggregate_parts_
    uint32_t first_part = 0;
    uint32_t part_count = 0;
};

/// A private array (alloca or static global) as an indexable temp, or a
/// group-shared global as raw TGSM: one slot per scalar leaf.
struct MemoryObject {
    MemorySpace space = MemorySpace::none;
    uint32_t reg = 0;        ///< x# or g#
    uint32_t leaves = 0;     ///< scalar leaves (private) or words (groupshared)
};

/// The register file of a DXIL resource class (t, u, cb, s).
RegisterFile file_of_class(ResourceClass c);
/// The VSIR dimension of a DXIL ResourceKind (unknown for non-typed kinds
/// other than raw and structured buffers).
vsir::ResourceDimension dimension_of_kind(uint32_t kind);

/// The signed type of the same width (u32 → i32, ...); others unchanged.
inline DataType signed_of(DataType t)
{
    switch (t) {
    case DataType::u16: return DataType::i16;
    case DataType::u32: return DataType::i32;
    case DataType::u64: return DataType::i64;
    default: return t;
    }
}
inline bool is_64(DataType t) { return t == DataType::f64 || t == DataType::i64 || t == DataType::u64; }
inline bool is_16(DataType t) { return t == DataType::f16 || t == DataType::u16 || t == DataType::i16; }

class Lowerer {
public:
    Lowerer(const Module& module, const DxilMetadata& md, const LowerOptions& options, vsir::Program& program,
            Diagnostics& diags)
        : m_(module), md_(md), options_(options), p_(program), diags_(diags),
          module_value_count_(module.values.size())
    {
    }
    bool run();
    bool lower_function(const Function& fn);
    void lower_allocas(const Function& fn);
    void lower_blocks(const Function& fn);
    vsir::SrcParam label_id_src(uint32_t id) const;
    // ---- inline.cpp: calls of functions defined in the module ----
    void inline_call(const Function& callee, const Instruction& inst);
    struct Return {
        vsir::SrcParam value;
        uint32_t label; ///< VSIR label of the block that returns
    };
    ScratchVector<uint32_t> block_exit_;  ///< by block: label of its last VSIR block when a call split it, else ~0u
    uint32_t current_block_ = 0;        ///< block being lowered
    uint32_t current_label_ = 0;        ///< label of the VSIR block being emitted
    uint32_t return_label_ = ~0u;       ///< inlining: where `ret` branches to (~0u: not inlining)
    ScratchVector<Return> returns_;       ///< inlining: the callee's returns so far
    ScratchVector<const Function*> inline_stack_; ///< callers of the function being inlined
    uint64_t inlined_instructions_ = 0;
    bool inline_limit_reported_ = false;

    // ---- lower.cpp: functions, blocks, values ----
    [[gnu::cold]] void error(Code code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
    /// E8101 "<what> <name> is not supported[: <why>]", once per name.
    void unsupported(const char* what, const char* name, const char* why = nullptr);
    // The value lookups below are inline: lowering an instruction makes
    // several, and most find a local value already defined.
    const Function* function_of(ValueId id) const
    {
        if (id >= module_value_count_ || m_.values[id].kind != ModuleValue::Kind::function)
            return nullptr;
        return &m_.functions[m_.values[id].index];
    }
    const Constant* constant_of(ValueId id) const
    {
        if (id < module_value_count_)
            return m_.values[id].kind == ModuleValue::Kind::constant ? &m_.constants[m_.values[id].index] : nullptr;
        size_t local = id - module_value_count_;
        if (!fn_ || local >= fn_->values.size() || fn_->values[local].kind != LocalValue::Kind::constant)
            return nullptr;
        return &fn_->constants[fn_->values[local].index];
    }
    TypeId type_of(ValueId id) const;
    /// The type `id`; a void type for an id out of range (no_id or malformed input).
    const Type& type(TypeId id) const
    {
        static const Type invalid;
        return id < m_.types.size() ? m_.types[id] : invalid;
    }
    bool constant_u32(ValueId id, uint32_t& out) const
    {
        const Constant* c = constant_of(id);
        if (!c || (c->kind != ConstantKind::integer && c->kind != ConstantKind::null))
            return false;
        out = c->kind == ConstantKind::integer ? uint32_t(c->value) : 0;
        return true;
    }
    bool is_undef(ValueId id) const;
    const Operand& operand(ValueId id)
    {
        const Operand& op = operand_whole(id);
        if (vector_lane_ < 0 || op.kind != Operand::Kind::aggregate)
            return op;
        return lane_operand(op);
    }
    /// Element vector_lane_ of the aggregate `op` (lowering one element of a vector instruction).
    const Operand& lane_operand(const Operand& op);
    const Operand& operand_whole(ValueId id)
    {
        size_t local = id - module_value_count_;
        if (id >= module_value_count_ && fn_ && local < values_.size() && values_[local].kind != Operand::Kind::none)
            return values_[local];
        return operand_built(id);
    }
    /// operand_whole() of a module value or of a value not built yet.
    const Operand& operand_built(ValueId id);
    Operand constant_operand(const Constant& c, unsigned depth);
    Operand& define(ValueId result);
    vsir::SrcParam src(ValueId id, DataType as) { return src_of(operand(id), as); }
    vsir::SrcParam src_of(const Operand& op, DataType as)
    {
        if (op.kind != Operand::Kind::src)
            return src_of_other(op, as);
        vsir::SrcParam s = op.src;
        if (as != DataType::none)
            s.reg.type = as;
        return s;
    }
    /// src_of() of an undefined value, or of one that is not a number (an error).
    vsir::SrcParam src_of_other(const Operand& op, DataType as);
    vsir::DstParam new_ssa(ValueId result, DataType type);
    vsir::DstParam new_ssa_vec(ValueId result, DataType type, uint8_t mask);
    vsir::DstParam temp_ssa(DataType type, vsir::SrcParam& read_back);
    uint32_t emit(vsir::Opcode op, std::initializer_list<vsir::DstParam> dsts,
                  std::initializer_list<vsir::SrcParam> srcs);
    uint32_t label_of(uint32_t block) const { return label_base_ + block; }
    vsir::SrcParam label_src(uint32_t block) const;
    vsir::SrcParam immediate(DataType type, uint32_t bits) const;
    vsir::SrcParam immediate64(DataType type, uint64_t bits) const;
    uint32_t rel_index(ValueId value);
    uint32_t rel_ssa(uint32_t ssa_id);

    // ---- types.cpp ----
    DataType data_type(TypeId t) const;
    uint32_t leaf_count(TypeId t) const;
    uint32_t word_count(TypeId t) const;
    uint32_t leaf_count_uncached(TypeId t) const;
    uint32_t word_count_uncached(TypeId t) const;
    mutable ScratchVector<uint32_t> leaf_cache_, word_cache_;
    bool native_16bit() const { return native_16bit_; }
    /// Constant bits of type `t` as the VSIR type data_type(t) holds them
    /// (min-precision half constants widened to float, i16 sign-extended).
    uint64_t constant_bits(TypeId t, uint64_t bits) const;

    // ---- declarations.cpp ----
    bool declare_stage();
    void declare_resources();
    void declare_resource(const ResourceBinding& r);
    // heap.cpp: SM 6.6 descriptor heaps
    struct HeapRange {
        uint32_t p0, p1, range_id;
        RegisterFile file;
    };
    bool heap_properties(ValueId props, uint32_t& p0, uint32_t& p1) const;
    void declare_heap_ranges();
    const HeapRange* find_heap_range(uint32_t p0, uint32_t p1) const;
    uint32_t heap_range(uint32_t p0, uint32_t p1);
    ScratchVector<HeapRange> heap_ranges_;
    ScratchDeque<ResourceBinding> heap_bindings_; ///< stable: resources_ points into it
    void declare_signatures();
    enum class IoKind : uint8_t { input, output, patch };
    /// Where a signature element lives: register file, first register, first column.
    struct IoMap {
        RegisterFile file = RegisterFile::null;
        uint32_t reg = 0;
        uint32_t rows = 0;
        uint8_t col = 0;
        SystemValue sv = SystemValue::none;
    };
    void declare_io(const SignatureList& elements, IoKind kind,
                    std::vector<dxspv::SignatureElement>& out, ScratchVector<IoMap>& map);
    void emit_patch_declarations();
    const IoMap* io_map(IoKind kind, uint32_t id) const;
    ScratchVector<IoMap> input_map_, output_map_, patch_map_;
    ScratchVector<vsir::Instruction> patch_instructions_;
    uint32_t range_id_for_binding(ResourceClass cls, uint32_t space, uint32_t lower) const;

    // ---- instructions.cpp: LLVM instructions ----
    void lower_instruction(const Instruction& inst, uint32_t index);
    void lower_binop(const Instruction& inst);
    void lower_cast(const Instruction& inst);
    void lower_cmp(const Instruction& inst);
    void lower_select(const Instruction& inst);
    void lower_phi(const Instruction& inst);
    void lower_terminator(const Instruction& inst);
    void lower_extractvalue(const Instruction& inst);
    void lower_insertvalue(const Instruction& inst);

    // ---- memory.cpp: allocas, globals, GEPs, loads, stores, atomics ----
    void declare_global_memory();
    bool reserve_memory(uint32_t units, const char* what);
    uint32_t memory_units_ = 0;       ///< private leaves and group-shared words declared so far
    void lower_alloca(const Instruction& inst);
    bool pointer_operand(ValueId ptr, Operand& out);
    void lower_gep(const Instruction& inst);
    void lower_load(const Instruction& inst);
    void load_scalar(const Instruction& inst, const Operand& ptr, DataType type);
    void lower_store(const Instruction& inst);
    void store_scalar(const Operand& ptr, ValueId value, DataType type);
    void lower_atomicrmw(const Instruction& inst);
    void lower_cmpxchg(const Instruction& inst);
    bool apply_gep(Operand& ptr, std::span<const uint32_t> indices);
    vsir::Register private_register(const Operand& ptr, DataType type);
    vsir::SrcParam byte_address(const Operand& ptr, uint32_t extra_words);
    vsir::SrcParam tgsm_operand(const Operand& ptr) const;
    vsir::DstParam atomic_target(const vsir::Register& reg) const;
    void initialize_globals();
    void store_zeros(const Operand& base, uint32_t first, uint32_t count);
    void store_initializer(const Operand& base, TypeId t, ValueId value, uint32_t& leaf, unsigned depth);
    unsigned pointer_depth_ = 0;
    bool init_globals_pending_ = false;

    // ---- ops_*.cpp: dx.op calls ----
    void lower_call(const Instruction& inst);
    /// The opcode of a dx.op call (its first argument, a constant), or
    /// false. Inline: the declarations test every instruction before lowering.
    bool dx_op_code(const Instruction& inst, uint32_t& code) const
    {
        if (inst.op != dxil::Opcode::call || inst.operands.size() < 2)
            return false;
        const Function* callee = function_of(inst.operands[0]);
        return callee && callee->name.substr(0, 6) == "dx.op." && constant_u32(inst.operands[1], code);
    }
    bool is_dx_op(const Instruction& inst, ops::OpId op) const;
    /// A dx.op call of a defined function with its opcode. The declarations
    /// that look for particular ops walk these instead of every instruction
    /// (finding a call's opcode takes several lookups).
    struct DxOpCall {
        const Function* fn;
        const Instruction* inst;
        uint32_t code;
    };
    ScratchVector<DxOpCall> dx_op_calls_;
    void collect_dx_op_calls();
    bool lower_io_op(ops::OpId op, const Instruction& inst);
    bool lower_math_op(ops::OpId op, const Instruction& inst);
    void lower_packed_op(ops::OpId op, const Instruction& inst);
    bool lower_wave_op(ops::OpId op, const Instruction& inst);
    vsir::SrcParam wave_mask(const Instruction& inst, uint32_t first);
    bool lower_resource_op(ops::OpId op, const Instruction& inst);
    bool lower_handle_op(ops::OpId op, const Instruction& inst);
    ValueId arg(const Instruction& inst, uint32_t i) const { return i + 1 < inst.operands.size() ? inst.operands[i + 1] : no_id; }
    uint32_t arg_count(const Instruction& inst) const { return uint32_t(inst.operands.size()) - 1; }
    vsir::Register resource_register(const Operand& handle);
    vsir::SrcParam handle_index(const Operand& handle);
    void make_handle(ValueId result, RegisterFile file, uint32_t range, ValueId index, ValueId non_uniform);
    const ResourceBinding* binding_of(const Operand& handle) const;
    vsir::ResourceDimension dimension_for(const ResourceBinding& b) const;
    vsir::SrcParam build_vec(std::initializer_list<ValueId> values, DataType type, uint32_t slot);
    vsir::SrcParam build_vec_from(const vsir::SrcParam* comps, uint32_t n, DataType type, uint32_t slot);
    // ops_wide_buffers.cpp
    vsir::SrcParam add_bytes(const vsir::SrcParam& base, uint32_t bytes);
    uint32_t load_words(bool structured, const vsir::SrcParam& res, const vsir::SrcParam& index,
                        const vsir::SrcParam& offset, uint32_t words);
    vsir::SrcParam absolute_address(const vsir::SrcParam& index, uint32_t stride, const vsir::SrcParam& offset);
    void load_wide(const Instruction& inst, bool structured, uint32_t stride, const vsir::SrcParam& res, ValueId index,
                   ValueId offset, DataType type, uint32_t count);
    void load_elements(bool structured, uint32_t stride, const vsir::SrcParam& res, vsir::SrcParam index,
                       vsir::SrcParam offset, DataType type, uint32_t count, Operand* parts);
    void store_elements(bool structured, uint32_t stride, const vsir::Register& res, vsir::SrcParam index,
                        vsir::SrcParam offset, DataType type, const vsir::SrcParam* values, uint32_t count);
    bool lower_vector_buffer_op(ops::OpId op, const Instruction& inst);
    void store_halves(bool structured, uint32_t stride, const vsir::Register& res, vsir::SrcParam index,
                      vsir::SrcParam offset, const vsir::SrcParam* values, uint32_t count, DataType type);
    bool texel_offsets(const Instruction& inst, uint32_t first_arg, uint32_t count, uint32_t vsir_inst);
    void resret_result(const Instruction& inst, DataType type, uint8_t mask, vsir::DstParam& value,
                       vsir::DstParam& status, bool& want_status);
    void finish_resret(const Instruction& inst, DataType type, const vsir::DstParam& value,
                       const vsir::DstParam& status, bool want_status);
    vsir::Opcode sparse_form(vsir::Opcode op) const;
    void emit_resret(vsir::Opcode op, const Instruction& inst, DataType type, uint8_t mask,
                     std::initializer_list<vsir::SrcParam> srcs, uint32_t offsets_arg, uint32_t offset_count);
    void retype_parts(ValueId result, DataType type);
    void lower_cbuffer_load_legacy(const Instruction& inst, DataType et);
    void lower_buffer_load(ops::OpId op, const Instruction& inst, DataType et);
    void lower_buffer_store(const Instruction& inst);
    void lower_texture_load(const Instruction& inst, DataType et);
    void lower_texture_store(const Instruction& inst);
    void lower_get_dimensions(const Instruction& inst);
    void lower_calculate_lod(const Instruction& inst);
    void lower_sample(ops::OpId op, const Instruction& inst, DataType et);
    void lower_gather(ops::OpId op, const Instruction& inst, DataType et);
    void lower_gather_raw(const Instruction& inst, DataType et);
    void lower_cbuffer_load(const Instruction& inst, DataType et);
    void cbuffer_halves(const Instruction& inst, vsir::Register reg, DataType et);
    void lower_resource_atomic(ops::OpId op, const Instruction& inst);
    bool io_register(IoKind kind, ValueId id, ValueId row, ValueId col, ValueId vertex, DataType type,
                     vsir::Register& out, uint8_t& component);
    void declare_system_input(RegisterFile file, bool scalar, uint8_t mask);
    void declare_system_values();
    ScratchVector<uint32_t> scratch_;    ///< scratch temps for building vectors
    ScratchVector<uint8_t> member_use_;  ///< by local value: bit k = member k is extracted
    uint64_t declared_system_ = 0;     ///< system register files already declared
    const Operand* handle_operand(ValueId id);
    void set_aggregate(ValueId result, std::initializer_list<Operand> parts);
    void set_result_vec(ValueId result, uint32_t ssa_id, DataType type, uint32_t count);

    const Module& m_;
    const DxilMetadata& md_;
    const LowerOptions& options_;
    vsir::Program& p_;
    Diagnostics& diags_;
    const size_t module_value_count_; ///< m_.values.size()

    const EntryPoint* entry_ = nullptr;
    ShaderStage stage_ = ShaderStage::invalid;
    bool native_16bit_ = false;
    const Function* fn_ = nullptr;     ///< function being lowered
    uint32_t inst_index_ = 0;          ///< instruction being lowered (for locations)
    uint32_t label_base_ = 0;          ///< label id of the function's block 0
    uint32_t errors_ = 0;
    ScratchVector<Operand> values_;      ///< by function-local value index
    ScratchVector<Operand> module_values_; ///< lazily built operands of module constants
    ScratchVector<uint8_t> module_value_built_;
    ScratchVector<Operand> aggregate_parts_;
    ScratchVector<MemoryObject> globals_; ///< by module global index
    uint32_t indexable_count_ = 0, tgsm_count_ = 0;
    ScratchVector<uint32_t> range_ids_[4]; ///< per ResourceClass: metadata record id → VSIR range id (identity)
    ScratchVector<const ResourceBinding*> resources_[4];
    uint32_t reported_[8] = {};
    // vectors.cpp: SM 6.9 native vectors, lowered one element at a time
    static constexpr uint32_t max_vector_elements = 1024;
    int32_t vector_lane_ = -1;         ///< element being lowered of a vector instruction, -1: none
    Operand lane_scratch_, define_scratch_;
    bool lower_vector_instruction(const Instruction& inst);
    bool is_vector(TypeId t) const { return t < m_.types.size() && m_.types[t].kind == TypeKind::vector; }
    uint32_t vector_count(TypeId t) const { return is_vector(t) ? uint32_t(m_.types[t].count) : 1; }
    Operand new_aggregate(uint32_t count, DataType type);
    void lower_extractelement(const Instruction& inst);
    void lower_insertelement(const Instruction& inst);
    void lower_shufflevector(const Instruction& inst);
    bool lower_vector_op(ops::OpId op, const Instruction& inst);
    Operand part(const Operand& agg, uint32_t k) const;
    struct PendingPhi {
        uint32_t llvm_index, vsir_index;
        int32_t lane;
    };
    ScratchVector<PendingPhi> phis_;     ///< phis whose sources are filled after the function
    ScratchVector<uint8_t> reachable_;   ///< by block of the function being lowered        ///< unsupported-op names already reported (hash slots)
};

} // namespace dxspv::dxil::lower

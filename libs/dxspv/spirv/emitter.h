// The SPIR-V emitter's state, shared by the files of libs/dxspv/spirv/ (one
// file per area: registers, SSA values, resources, images, arithmetic,
// conversions, wave operations, control flow, memory).
// Private to the emitter; the public entry point is spirv/emit.h.
//
// Representation choices:
// - Every register that VSIR reads per component (temps, indexable temps,
//   constant buffer elements, the immediate constant buffer) is stored as
//   uint words (uvec4); an operand is loaded as words, shuffled by its
//   swizzle and bitcast to the kind its Register::type asks for. Results are
//   bitcast back to words and stored through the write mask.
// - 64-bit values (f64, i64, u64) take two 32-bit words each, low word
//   first; swizzles and write masks stay in 32-bit words (see src_lanes in
//   registers.cpp). 16-bit values live in the low half of a word (the upper
//   half zero when the emitter writes it); booleans are 0 / 0xffffffff
//   words, read back as != 0.
// - SSA values (`sr#`, ssa.cpp) are not words: each is a SPIR-V value of
//   its exact type (a scalar, or a vector of the components its definition's
//   write mask names), used directly where the definition dominates the use
//   and otherwise kept in a Function variable of that type. ssa.cpp's
//   pre-scan decides which (one linear walk, see the comment there).
// - Everything is found by index: types and constants in small arrays and
//   hash maps keyed by numbers, registers in vectors indexed by register
//   number. One linear walk over the instructions emits the module.
#pragma once


#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "common/diagnostics.h"
#include "common/u64_map.h"
#include "spirv/builder.h"
#include "spirv/emit.h"
#include "vsir/ir.h"

namespace dxspv::spirv {

/// Scalar kinds the emitter computes in (word registers store u32 words;
/// SSA values keep their kind).
enum class Kind : uint8_t { u32, i32, f32, f64, boolean, f16, i16, u16, i64, u64, count };

inline bool is_float(Kind k) { return k == Kind::f32 || k == Kind::f64 || k == Kind::f16; }
inline bool is_int(Kind k)
{
    return k == Kind::u32 || k == Kind::i32 || k == Kind::i16 || k == Kind::u16 || k == Kind::i64 || k == Kind::u64;
}
/// The 32-bit kinds a register word holds as is (booleans are words only as masks).
inline bool is_word_kind(Kind k) { return k == Kind::u32 || k == Kind::i32 || k == Kind::f32; }
inline bool is_signed(Kind k) { return k == Kind::i32 || k == Kind::i16 || k == Kind::i64; }
/// Bits of one component (booleans: 1).
inline uint32_t bit_width(Kind k)
{
    switch (k) {
    case Kind::f16:
    case Kind::i16:
    case Kind::u16: return 16;
    case Kind::f64:
    case Kind::i64:
    case Kind::u64: return 64;
    case Kind::boolean: return 1;
    default: return 32;
    }
}
/// The integer kind of `width` bits (16, 32 or 64) and the given signedness.
inline Kind int_kind(uint32_t width, bool signed_)
{
    if (width == 16)
        return signed_ ? Kind::i16 : Kind::u16;
    if (width == 64)
        return signed_ ? Kind::i64 : Kind::u64;
    return signed_ ? Kind::i32 : Kind::u32;
}
/// The float kind of `width` bits.
inline Kind float_kind(uint32_t width) { return width == 16 ? Kind::f16 : width == 64 ? Kind::f64 : Kind::f32; }

/// An operand or result: `count` components of `kind` (1: a scalar).
struct Value {
    spv::Id id = NoResult;
    Kind kind = Kind::u32;
    uint8_t count = 0;
};

/// The 32-bit words of a register an operand reads, in order.
struct Lanes {
    uint8_t count = 0;
    uint8_t word[4] = {};
};

/// How a descriptor or group-shared register is represented.
enum class DescriptorForm : uint8_t { none, cbv, buffer, tgsm, sampler, image };

struct Descriptor {
    spv::Id var = NoResult;
    DescriptorForm form = DescriptorForm::none;
    bool is_array = false;    ///< an SM5.1 range of several registers: a descriptor array
    bool read_only = false;   ///< SRV buffers
    uint32_t range_first = 0; ///< register number of the first element of the range
    uint32_t range_count = 1; ///< descriptors in the range (0: unbounded)
    uint32_t stride = 0;      ///< structured buffers and TGSM: structure stride in bytes (0: raw)
    uint32_t size = 0;        ///< cbv: vec4 count; tgsm: uint count
    spv::Id type = NoResult; ///< images: the OpTypeImage; samplers: the OpTypeSampler
    Kind sampled_kind = Kind::f32; ///< images: component kind of a texel; tgsm: u32, or u64 for ulong[] (64-bit atomics); cbv: of its vec4s
    uint32_t push_member = ~0u;    ///< cbv in the push-constant block: its member index
    spv::Id counter_var = NoResult; ///< UAV counter buffer
    spv::Id var64 = NoResult;       ///< UAV buffers with 64-bit atomics: a view as ulong[] (same binding)
    uint32_t set = 0, binding = 0;       ///< descriptor set and binding of `var`
    bool binding_from_map = false;       ///< the binding map placed `var` (else the default mapping)
    uint32_t counter_set = 0, counter_binding = 0; ///< of `counter_var`; binding ~0u: implicit, given at the end
    vsir::ResourceDimension dimension = vsir::ResourceDimension::unknown; ///< images
};

/// A 4-component register held lane by lane instead of in a variable (the
/// temps, outputs and scalar system registers, lane 0, of a program that is
/// one block; a mov names its source's lanes, see Emitter::mov_lanes):
/// component c is
/// component index[c] of the vector id[c] (of width[c] components), or the
/// scalar id[c] where width[c] is 1; an id of 0 is the register's initial
/// value (`initial`: zero for outputs, undefined for temps). A write replaces
/// the lanes it writes and makes no instruction; a 32-bit value keeps its
/// own kind (lane_kind), so that a read in that kind needs no bitcast. A read
/// makes at most one instruction when its lanes share a kind (see
/// Emitter::read_held).
struct HeldRegister {
    spv::Id id[4];
    uint8_t index[4];
    uint8_t width[4];
    Kind lane_kind[4]; ///< of id[c]'s components
    Kind kind;         ///< of the initial value, and of a read of lanes of several kinds
    spv::Op initial;   ///< OpConstantNull or OpUndef
};

/// A pointer to a register's storage and the number of uint words it holds
/// (4: uvec4, 3: uvec3 builtins, 1: scalar).
struct RegisterPointer {
    spv::Id ptr = NoResult;
    uint8_t size = 0;
    spv::Id value = NoResult; ///< input registers held as a value instead of `ptr`
    Kind storage = Kind::u32; ///< component type of the uvec4 / vec4 behind `ptr`
    HeldRegister* held = nullptr; ///< temps, outputs and scalar system registers held lane by lane instead of `ptr`
};

/// One open structured construct.
struct CfFrame {
    enum class Type : uint8_t { if_, loop, switch_ };
    Type type = Type::if_;
    Block* header = nullptr;          ///< if/switch: gets its merge and branch when the construct closes
    Block* merge = nullptr;
    Block* continue_target = nullptr; ///< loop
    Block* then_block = nullptr;      ///< if
    Block* else_block = nullptr;      ///< if, once `else` was seen
    Block* default_block = nullptr;   ///< switch
    Block* label_block = nullptr;     ///< switch: block opened by the latest case/default
    spv::Id condition = NoResult;     ///< if: bool; switch: the selector
    uint32_t first_case = 0;               ///< switch: first entry in Emitter::cases_
};

/// `prefix`, the decimal `n`, then `suffix` (truncated to 63 characters):
/// the names of registers and resources, without snprintf.
class NumberedName {
public:
    NumberedName(std::string_view prefix, uint64_t n, std::string_view suffix = {});
    const char* c_str() const { return text_; }

private:
    char text_[64];
};

class Emitter {
public:
    Emitter(const vsir::Program& program, const EmitOptions& options, Diagnostics& diags);
    bool run(std::vector<uint32_t>& words);
    /// The program's structured control-flow instructions (from the constructor's scan).
    size_t control_flow_count() const { return control_flow_count_; }

    // ---- emitter.cpp: diagnostics, types, constants, value helpers ----
    [[gnu::cold]] void error(Code code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
    [[gnu::cold]] void refuse_opcode(const vsir::Instruction& ins);
    /// The kind values of `type` are computed in (u32 for untyped and
    /// opaque values); an error and u32 for the types without one. Inline:
    /// every operand asks.
    Kind kind_or_u32(vsir::DataType type)
    {
        using vsir::DataType;
        constexpr Kind none = Kind::count; // u8 and continued values: refused
        static constexpr Kind kinds[] = {Kind::u32, Kind::f16, Kind::f32, Kind::f64, Kind::i16, Kind::u16, Kind::i32,
            Kind::u32, Kind::i64, Kind::u64, none, Kind::boolean, Kind::f32, Kind::f32, Kind::u32, none, Kind::u32};
        static_assert(size_t(DataType::u8) == 10 && size_t(DataType::boolean) == 11 && size_t(DataType::mixed) == 14
            && size_t(DataType::opaque) == std::size(kinds) - 1);
        const Kind kind = size_t(type) < std::size(kinds) ? kinds[size_t(type)] : none;
        return kind != none ? kind : refuse_type(type);
    }
    [[gnu::cold]] Kind refuse_type(vsir::DataType type);
    /// The scalar or vector type of `count` (1-4; anything else: 1)
    /// components of `kind`. Inline: every operand asks for a made one.
    spv::Id type(Kind kind, uint32_t count = 1)
    {
        const uint32_t c = count - 1 < 4 ? count : 1;
        const spv::Id t = types_[size_t(kind)][c];
        return t ? t : make_type(kind, c);
    }
    spv::Id make_type(Kind kind, uint32_t count);
    spv::Id pointer_type(spv::StorageClass storage, spv::Id pointee) { return b_.makePointer(storage, pointee); }
    spv::Id constant(Kind kind, uint64_t bits);
    spv::Id make_constant(Kind kind, uint64_t bits);
    spv::Id constant_u32(uint32_t v) { return constant(Kind::u32, v); }
    spv::Id constant_f32(float v);
    /// `v` as a float constant of `kind` (f16, f32 or f64), splat to `count`.
    spv::Id float_constant(Kind kind, double v, uint32_t count = 1);
    spv::Id splat_constant(Kind kind, uint32_t count, uint64_t bits);
    /// The constant of `count` components `parts` (parts[0] when `count` is 1).
    spv::Id composite_constant(Kind kind, const spv::Id* parts, uint32_t count)
    {
        return count == 1 ? parts[0] : vector_constant(kind, parts, count);
    }
    spv::Id vector_constant(Kind kind, const spv::Id* parts, uint32_t count);
    spv::Id undef(Kind kind, uint32_t count);
    /// `a op b` for a 32-bit integer operation that leaves its operands'
    /// signedness free (OpIAdd, OpISub, OpIMul, bitwise, shifts), of `count`
    /// components of `kind`: computed here when both are constants.
    spv::Id integer_op(spv::Op op, Kind kind, uint32_t count, spv::Id a, spv::Id b);
    /// `a op b` for a uint `a` and a literal `b`, the same way: b's constant
    /// is made only for the instruction (not for a result computed here).
    spv::Id integer_op(spv::Op op, spv::Id a, uint32_t b);
    spv::Id glsl(GLSLstd450 op, spv::Id result_type, std::initializer_list<spv::Id> args);
    /// `value` as `to_type` (bit for bit); itself when it has that type.
    spv::Id bitcast(spv::Id value, spv::Id to_type)
    {
        return b_.getTypeId(value) == to_type ? value : make_bitcast(value, to_type);
    }
    spv::Id make_bitcast(spv::Id value, spv::Id to_type);
    /// `v` as `kind` (of the same width, bit for bit); itself when it has that kind.
    Value as_kind(Value v, Kind kind) { return v.kind == kind ? v : bitcast_kind(v, kind); }
    Value bitcast_kind(Value v, Kind kind);
    spv::Id to_words(Value v, uint32_t& word_count);
    Value from_words(spv::Id words, uint32_t word_count, Kind kind);
    Value splat(Value scalar, uint32_t count);
    spv::Id extract(Value v, uint32_t index);
    /// The value of `count` components `parts` (parts[0] when `count` is 1).
    spv::Id construct(Kind kind, const spv::Id* parts, uint32_t count)
    {
        return count == 1 ? parts[0] : construct_vector(kind, parts, count);
    }
    spv::Id construct_vector(Kind kind, const spv::Id* parts, uint32_t count);
    spv::Id select_mask(spv::Id condition, uint32_t count);
    spv::Id truth(Value v, bool nonzero);
    void add_interface(spv::Id var) { interface_.push_back(var); }
    void decorate_precise(const vsir::Instruction& ins, spv::Id result);

    // ---- registers.cpp: temps, builtins, operand loads and stores ----
    spv::StorageClass temp_storage() const;
    void declare_temps(uint32_t count);
    /// The component type r`index` is stored as (scan_operands).
    Kind temp_storage_kind(uint32_t index) const
    {
        return index < temp_kinds_.size() ? temp_kinds_[index] : Kind::u32;
    }
    void declare_indexable_temp(const vsir::Declaration& decl);
    void declare_immediate_constant_buffer(const vsir::Declaration& decl);
    /// `src` for the components `dst_mask` writes, in the source's own kind;
    /// with `any_sign`, an integer source may come in the other signedness
    /// of its width instead (the kind it is held in: no bitcast).
    Value load_src(const vsir::SrcParam& src, uint8_t dst_mask, vsir::DataType dst_type, bool any_sign = false);
    /// load_src for the components `dst` writes.
    Value load_for_dst(const vsir::SrcParam& src, const vsir::DstParam& dst, bool any_sign = false);
    Value load_scalar(const vsir::SrcParam& src, Kind kind);
    Value load_component(const vsir::SrcParam& src, uint32_t component, Kind kind);
    void store_dst(const vsir::DstParam& dst, Value value);
    /// store_dst for a register of a file other than null and ssa.
    void store_register(const vsir::DstParam& dst, Value value);
    /// A float value clamped to [0, 1] (the saturate modifier).
    spv::Id saturate(Value value);
    spv::Id merge_words(spv::Id old, spv::Id words, uint32_t words_count, uint32_t mask, Kind kind);
    static HeldRegister held_register(Kind kind, spv::Op initial);
    /// The `count` components `lanes` picks from a held register. Inline:
    /// most reads take a value back as it was written, that value itself.
    Value read_held(const HeldRegister& held, const uint8_t* lanes, uint32_t count)
    {
        const spv::Id whole = held.id[lanes[0]];
        if (whole && held.width[lanes[0]] == count) {
            uint32_t i = 0;
            while (i < count && held.id[lanes[i]] == whole && held.index[lanes[i]] == i)
                ++i;
            if (i == count)
                return {whole, held.lane_kind[lanes[0]], uint8_t(count)};
        }
        return read_held_lanes(held, lanes, count);
    }
    Value read_held_lanes(const HeldRegister& held, const uint8_t* lanes, uint32_t count);
    void write_held(HeldRegister& held, Value value, uint32_t mask);
    void store_system_scalar(spv::Id priv, HeldRegister* held, spv::Id word);
    /// A mov of 32-bit words into a held output, or into one lane of a held
    /// temp: its lanes name the source's values; false when it is not such
    /// a mov.
    bool mov_lanes(const vsir::DstParam& dst, const vsir::SrcParam& src);
    spv::Id index_id(const vsir::RegisterIndex& index);
    spv::Id builtin_variable(vsir::RegisterFile file);
    RegisterPointer register_pointer(const vsir::Register& reg);
    /// The pointer of a register held lane by lane.
    static RegisterPointer held_pointer(HeldRegister& held) { return {NoResult, 4, NoResult, held.kind, &held}; }
    /// The lanes of a temp held as values (temp_values_, or temp_blocks_:
    /// then loaded from its variable at its first use in a block), else
    /// null.
    HeldRegister* held_temp_of(const vsir::Register& reg)
    {
        if (reg.file != vsir::RegisterFile::temp || !(temp_values_ || temp_blocks_) || reg.index_count < 1
            || reg.idx[0].rel_addr != vsir::invalid_index || reg.idx[0].offset >= temp_held_.size())
            return nullptr;
        HeldRegister& held = temp_held_[reg.idx[0].offset];
        if (temp_blocks_ && !held.id[0])
            hold_temp(reg.idx[0].offset);
        return &held;
    }
    /// temp_blocks_: r`index` held from a load of its variable.
    void hold_temp(uint32_t index);
    /// temp_blocks_, at the end of a block: the temps written in it stored
    /// to their variables (unless `store` is false: the function returns),
    /// and none held any more.
    void release_temps(bool store);
    Value load_lanes(const vsir::Register& reg, const Lanes& lanes);
    spv::Id immediate_constant(const vsir::Register& reg, const Lanes& lanes, Kind kind);
    spv::Id apply_modifier(spv::Id id, Kind kind, uint32_t count, vsir::SrcModifier modifier);

    // ---- ssa.cpp: SSA values ----
    struct SsaValue {
        spv::Id id = NoResult;    ///< the value (direct use)
        spv::Id var = NoResult;   ///< Function variable (needs_var)
        Function* function = nullptr; ///< function holding `var`
        Kind kind = Kind::u32;
        uint8_t mask = 0;              ///< components the definition writes
        bool needs_var = false;
    };
    bool scan_ssa();
    Value load_ssa(const vsir::SrcParam& src, const Lanes& lanes, Kind kind, bool any_sign = false);
    void store_ssa(const vsir::DstParam& dst, Value value);
    spv::Id ssa_variable(SsaValue& v, uint32_t id);

    // ---- resources.cpp: declarations and descriptor access ----
    void declare_constant_buffer(const vsir::Instruction& ins, const vsir::Declaration& decl);
    Kind constant_buffer_kind(uint32_t range_id);
    void declare_buffer(const vsir::Instruction& ins, const vsir::Declaration& decl);
    void declare_sampler(const vsir::Instruction& ins, const vsir::Declaration& decl);
    void declare_uav_counter(Descriptor& desc, const vsir::Instruction& ins, const vsir::Declaration& decl);
    void assign_implicit_counter_bindings();
    void declare_tgsm(const vsir::Instruction& ins, const vsir::Declaration& decl);
    ScopeVector<Descriptor>* descriptor_table(vsir::RegisterFile file);
    Descriptor* new_descriptor(const vsir::Instruction& ins, const vsir::Declaration& decl);
    ResolvedBinding resolve_binding(DescriptorType dtype, const vsir::Declaration& decl);
    void create_descriptor_variable(Descriptor& desc, const vsir::Instruction& ins, const vsir::Declaration& decl,
        spv::Id element_type, spv::StorageClass storage, DescriptorType dtype);
    void prepare_push_constants();
    bool declare_push_constant_buffer(Descriptor& desc, const vsir::Instruction& ins, const vsir::Declaration& decl);
    spv::Id buffer_block_type(bool read_only);
    Descriptor* find_descriptor(const vsir::Register& reg);
    spv::Id descriptor_index(const Descriptor& desc, const vsir::Register& reg);
    void add_array_indexing_capability(const Descriptor& desc, bool non_uniform);
    RegisterPointer constant_buffer_pointer(const vsir::Register& reg);
    spv::Id mark_non_uniform(const vsir::Register& reg, spv::Id id);
    spv::Id buffer_word_pointer(const Descriptor& desc, const vsir::Register& reg, spv::Id word_index);
    spv::Id buffer_qword_pointer(Descriptor& desc, const vsir::Register& reg, spv::Id word_index);
    spv::Id descriptor_var_type(const Descriptor& desc, spv::Id element_type);

    // ---- images.cpp: typed resources ----
    void declare_image(const vsir::Instruction& ins, const vsir::Declaration& decl);
    static constexpr uint8_t uav_use_atomic = 1, uav_use_counter = 2;
    uint8_t uav_usage(uint32_t id);
    bool emit_image(const vsir::Instruction& ins);
    Descriptor* find_image(const vsir::Register& reg, DescriptorForm form);
    spv::Id load_descriptor(const Descriptor& desc, const vsir::Register& reg, spv::Id element_type);
    spv::Id image_coords(const vsir::SrcParam& coords, const Descriptor& desc, Kind kind);
    spv::Id texel_offset(const vsir::Instruction& ins, const Descriptor& desc);
    void store_texel(const vsir::DstParam& dst, const vsir::SrcParam& resource, Value texel);
    void emit_image_fetch(const vsir::Instruction& ins);
    void emit_image_store(const vsir::Instruction& ins);
    void emit_image_sample(const vsir::Instruction& ins);
    void emit_bufinfo(const vsir::Instruction& ins);
    spv::Id sampled_image(const vsir::Instruction& ins, uint32_t res_index, Descriptor*& desc);
    void store_image_result(const vsir::Instruction& ins, const vsir::SrcParam& res, spv::Id result, Kind kind,
        uint32_t count, bool sparse);
    void store_residency_status(const vsir::DstParam& dst, spv::Id resident);
    spv::Id sparse_result_type(Kind kind, uint32_t count);
    void emit_lod(const vsir::Instruction& ins);
    void emit_resinfo(const vsir::Instruction& ins);
    spv::Id sample_count(const vsir::SrcParam& src);
    void emit_sampleinfo(const vsir::Instruction& ins);
    void emit_samplepos(const vsir::Instruction& ins);
    void emit_check_access(const vsir::Instruction& ins);

    // ---- io.cpp: graphics-stage inputs, outputs and system values ----
    struct BuiltinInfo {
        spv::BuiltIn builtin = spv::BuiltInMax; ///< BuiltInMax: a Location variable
        Kind kind = Kind::f32;
        uint8_t count = 1;
        bool is_array = false; ///< clip / cull distances
    };
    /// What the shader declared for one v#/o# register.
    struct IoReg {
        uint8_t mask = 0;
        vsir::InterpolationMode interpolation[4] = {}; ///< per component
        SystemValue sv = SystemValue::none;
        bool per_vertex_khr = false; ///< pixel input read by attribute_at_vertex: PerVertexKHR array of 3
    };
    /// One Input/Output variable and the register components it holds.
    struct IoVar {
        spv::Id var = NoResult;
        spv::Id base_var = NoResult; ///< BaseVertex / BaseInstance to subtract
        spv::BuiltIn builtin = spv::BuiltInMax;
        Kind kind = Kind::f32;
        uint8_t first = 0;      ///< first register component
        uint8_t count = 1;      ///< components (arrays: elements)
        uint8_t array_base = 0; ///< clip / cull: array element of `first`
        uint8_t stream = 0;     ///< geometry shader output stream
        bool is_array = false;
        bool per_vertex_khr = false; ///< a PerVertexKHR array of 3 (the register copy reads vertex 0)
        uint32_t reg = 0;
    };
    /// One direction of the interface: inputs, outputs or patch constants.
    struct IoSet {
        ScopeVector<IoReg> regs;
        ScopeVector<IoVar> vars;
        ScopeVector<SignatureElement> fallback; ///< elements from declarations (no signature)
        spv::Id array = NoResult; ///< Private uvec4[regs], [vertices][regs] for per-vertex inputs
        /// Instead of `array`, where registers are never indexed: one Private
        /// uvec4 per register (no access chains to reach them).
        ScopeVector<spv::Id> reg_vars;
        /// Instead of both, for the inputs of a program in the entry point
        /// (inline_entry_): each register as a value, made by the input
        /// copies before the program.
        ScopeVector<spv::Id> reg_values;
        /// With reg_values: bit r, whether a source reads register r.
        uint64_t read = 0;
        /// Instead of `array` and `reg_vars`, for the outputs of a program
        /// that is one block (straight_line_): each register held lane by
        /// lane, a vec4 where all its outputs are 32-bit floats (no words in
        /// between), else a uvec4.
        ScopeVector<HeldRegister> reg_held;
        /// The type of each of reg_values (a uvec4 unless said here): an
        /// input register one input variable fills from its first component
        /// is that variable's value.
        struct ValueShape {
            Kind kind = Kind::u32;
            uint8_t size = 4;
        };
        ScopeVector<ValueShape> reg_value_shapes;
        uint32_t vertices = 0;         ///< vertex / control point count
        bool per_vertex = false;       ///< variables are arrays of `vertices`
        uint32_t stream_location_base[4] = {}; ///< geometry outputs: first location of each stream
        bool output = false;
        bool patch = false;
    };
    enum class HullPhase : uint8_t { none, decls, control_point, fork, join };
    bool is_graphics() const;
    BuiltinInfo builtin_for(SystemValue sv, bool output);
    void add_builtin_capabilities(spv::BuiltIn builtin, bool output);
    spv::Id make_builtin_var(spv::BuiltIn builtin, spv::Id var_type, bool output, const char* name);
    void scan_io();
    void declare_tess_coord();
    void declare_system_scalar(vsir::RegisterFile file);
    SystemValue element_sv(const SignatureElement& e, uint8_t mask, const IoReg& reg);
    uint32_t patch_location_base() const;
    std::span<const SignatureElement> signature_of(const IoSet& set) const;
    void create_io_vars(IoSet& set);
    void init_output_values(IoSet& set);
    void create_location_var(const IoSet& set, IoVar& v, const SignatureElement& e, const IoReg& reg);
    void create_builtin_io_var(const IoSet& set, IoVar& v, BuiltinInfo bi, SystemValue sv, const IoReg& reg);
    RegisterPointer io_register_pointer(const vsir::Register& reg);
    spv::Id register_word_pointer(spv::Id array, spv::Id vertex, uint32_t reg, uint32_t component);
    spv::Id set_word_pointer(const IoSet& set, spv::Id vertex, uint32_t reg, uint32_t component);
    /// The uvec4 of register `reg` of `set`'s Private registers (at `vertex`).
    spv::Id set_register_pointer(const IoSet& set, spv::Id vertex, uint32_t reg);
    /// Whether any instruction addresses a register of `file` relatively.
    bool file_indexed(vsir::RegisterFile file) const { return (indexed_files_ >> size_t(file)) & 1; }
    void create_register_storage(IoSet& set);
    Value input(const IoVar& v, spv::Id vertex);
    spv::Id input_words(const IoVar& v, spv::Id vertex, uint32_t& words_count);
    void copy_input_registers(IoSet& set, uint64_t regs);
    bool input_value(IoSet& set, uint32_t r);
    void copy_output_registers(const IoSet& set, uint32_t stream);
    spv::Id io_var_pointer(const IoVar& v, bool output, spv::Id vertex, uint32_t index);
    void copy_input(const IoSet& set, const IoVar& v, spv::Id vertex);
    void copy_all_inputs();
    /// The input copies of `set` into its Private registers: of the
    /// registers r < 64 only those with bit r of `regs` (all from 64 on).
    void copy_inputs(IoSet& set, uint64_t regs = ~uint64_t(0));
    void copy_output(const IoSet& set, const IoVar& v, spv::Id vertex, spv::Id source, spv::Id source_vertex);
    void copy_outputs(const IoSet& set, spv::Id vertex, uint32_t stream = 0);
    void copy_system_values(bool output);
    bool can_inline_entry() const;
    void emit_entry_epilogue();
    void begin_graphics_module();
    void finish_graphics_entry();
    spv::ExecutionModel execution_model() const;

    // ---- pixel_ops.cpp: operations tied to the interface ----
    void emit_discard(const vsir::Instruction& ins);
    void emit_is_helper_lane(const vsir::Instruction& ins);
    void emit_view_id(const vsir::Instruction& ins);
    bool implicit_derivatives(const vsir::Instruction& ins);
    void emit_derivative(const vsir::Instruction& ins);
    spv::Id eval_register(GLSLstd450 op, spv::Id extra, uint32_t r, uint8_t swizzle, uint8_t dst_mask, bool report,
        uint32_t& n);
    void emit_eval(const vsir::Instruction& ins);
    void emit_attribute_at_vertex(const vsir::Instruction& ins);
    bool emit_io_op(const vsir::Instruction& ins);

    // ---- geometry.cpp ----
    bool emit_geometry_declaration(const vsir::Instruction& ins, const vsir::Declaration& decl);
    bool emit_geometry_op(const vsir::Instruction& ins);
    bool check_geometry_modes();

    // ---- tessellation.cpp ----
    bool emit_tessellation_declaration(const vsir::Instruction& ins, const vsir::Declaration& decl);
    bool emit_phase(const vsir::Instruction& ins);
    spv::Id hull_invocation_id();
    spv::Id hull_vocp_array();
    void finish_hull_entry();
    bool check_tessellation_modes();

    // ---- arithmetic.cpp ----
    bool emit_alu(const vsir::Instruction& ins);

    // ---- conversions.cpp: width and type conversions, 64-bit packing ----
    bool emit_conversion(const vsir::Instruction& ins);

    // ---- wave.cpp: wave and quad operations ----
    bool emit_wave(const vsir::Instruction& ins);
    spv::Id subgroup_builtin(spv::BuiltIn builtin);

    // ---- control_flow.cpp ----
    bool emit_control_flow(const vsir::Instruction& ins);
    bool control_flow_closed();
    spv::Id test_condition(const vsir::Instruction& ins);
    Block* new_block();
    void start_dead_block();
    void branch_if_open(Block* target);
    void conditional_jump(spv::Id condition, Block* target);
    CfFrame* innermost(bool loops_only);
    CfFrame* top_frame(CfFrame::Type type);
    bool emit_case_label(const vsir::Instruction& ins);
    bool close_switch(CfFrame& frame);
    Function* subroutine(uint32_t id);
    bool emit_call(const vsir::Instruction& ins);
    bool begin_subroutine(const vsir::Instruction& ins);
    bool subroutine_defined(uint32_t id) const;
    bool check_subroutines();

    // ---- memory.cpp: raw/structured buffers, atomics, barriers ----
    bool emit_memory(const vsir::Instruction& ins);
    Descriptor* find_buffer(const vsir::Register& reg, bool write);
    spv::Id buffer_word_index(const Descriptor& desc, spv::Id index, spv::Id byte_offset);
    spv::Id add_words(spv::Id word_index, uint32_t words);
    void emit_buffer_load(const vsir::Instruction& ins);
    void emit_buffer_store(const vsir::Instruction& ins);
    void emit_atomic(const vsir::Instruction& ins);
    bool tgsm_has_64bit_atomics(uint32_t id);
    spv::Id tgsm_qword_pointer(const Descriptor& desc, spv::Id word_index);
    spv::Id load_tgsm_word(const Descriptor& desc, spv::Id word_index);
    void store_tgsm_word(const Descriptor& desc, spv::Id word_index, spv::Id value);
    void emit_image_atomic(const vsir::Instruction& ins, Descriptor& desc, const vsir::Register& res);
    void emit_counter(const vsir::Instruction& ins);
    void emit_sync(const vsir::Instruction& ins);

    const vsir::Program& prog_;
    const EmitOptions& options_;
    Diagnostics& diags_;
    Builder b_;
    Function* main_ = nullptr;  ///< the function the program is emitted into
    Function* entry_ = nullptr; ///< the entry point (main_ for compute)
    /// A graphics program emitted into the entry point (can_inline_entry),
    /// after the input copies.
    bool inline_entry_ = false;
    const vsir::Instruction* ins_ = nullptr; ///< instruction being emitted
    uint32_t ins_index_ = 0;
    bool failed_ = false;
    uint32_t rel_depth_ = 0; ///< nesting of relative addresses being loaded

    spv::Id glsl_import_ = NoResult;
    ScopeVector<spv::Id> interface_;
    bool uses_storage_buffer_ = false;
    bool has_thread_group_ = false;
    uint32_t thread_group_[3] = {};
    bool derivative_mode_ = false; ///< compute: the derivative group execution mode is set

    std::array<std::array<spv::Id, 5>, size_t(Kind::count)> types_{};
    U64Map narrow_consts_;                  ///< kind << 32 | bits (kinds up to 32 bits)
    struct CompositeKey {
        spv::Id type;
        std::array<spv::Id, 4> parts;
        bool operator==(const CompositeKey&) const = default;
    };
    struct CompositeConstant {
        CompositeKey key;
        spv::Id id;
        uint32_t next; ///< 1 + the index of another one whose key has the same hash, or 0
    };
    ScopeVector<CompositeConstant> composite_consts_;
    static uint64_t composite_hash(const CompositeKey& key);
    void index_composite(uint32_t k);

    ScopeVector<spv::Id> temps_;          ///< r#: Function uvec4 or vec4 (temp_kinds_), unless temp_values_
    ScopeVector<HeldRegister> temp_held_; ///< r# held lane by lane (temp_values_, temp_blocks_)
    bool temp_values_ = false; ///< r# held as values: the program is one block of the entry point
    /// r# in variables, but held lane by lane within a block: loaded at the
    /// first use in the block, stored at its end if written (release_temps).
    /// Programs with control flow in one function.
    bool temp_blocks_ = false;
    ScopeVector<uint32_t> temps_held_;   ///< temp_blocks_: the temps held in this block
    ScopeVector<spv::Id> temp_loaded_;   ///< temp_blocks_: r#'s load in this block (its lanes as they were)
    ScopeVector<Kind> temp_kinds_;        ///< r#: u32 or f32 (scan_operands)
    struct IndexableTemp {
        spv::Id var = NoResult;       ///< array of uvec4
        uint32_t count = 0;
        spv::StorageClass storage = spv::StorageClassFunction;
    };
    ScopeVector<IndexableTemp> indexable_temps_; ///< x#
    spv::Id icb_ = NoResult;          ///< Private array of uvec4
    // builtins_, system_scalars_ and system_builtins_ hold an id only
    // where builtin_files_ or system_files_ has the file's bit: they are
    // not zeroed, so the Emitter's construction does not write them.
    std::array<spv::Id, size_t(vsir::RegisterFile::count)> builtins_; ///< compute and wave builtin inputs
    uint64_t builtin_files_ = 0; ///< bit f: builtins_[f] is set

    ScopeVector<Descriptor> cbvs_, srvs_, uavs_, samplers_, tgsm_; ///< indexed by range id (g: register)
    spv::Id runtime_uint_array_ = NoResult;
    spv::Id buffer_blocks_[2] = {}; ///< [read_only]: block { uint data[]; }
    spv::Id buffer_block64_ = NoResult; ///< block { ulong data[]; } (64-bit atomics)

    IoSet in_, out_;
    spv::Id helper_invocation_ = NoResult, view_index_ = NoResult;
    spv::Id tess_coord_ = NoResult, tess_coord_builtin_ = NoResult;
    std::array<spv::Id, size_t(vsir::RegisterFile::count)> system_scalars_; ///< Private uint per scalar register
    std::array<spv::Id, size_t(vsir::RegisterFile::count)> system_builtins_;
    uint64_t system_files_ = 0; ///< bit f: system_builtins_[f] and system_scalars_[f] are set
    /// The Private uint of scalar register file `file`, if it was declared.
    spv::Id system_scalar(vsir::RegisterFile file) const
    {
        return (system_files_ >> size_t(file)) & 1 ? system_scalars_[size_t(file)] : NoResult;
    }
    uint64_t indexed_files_ = 0; ///< bit f: an operand of file f has a relative index (file_indexed)
    /// Bit r: a source reads input or control point register r (its last
    /// index), patch constant register r; every bit where one such index is
    /// relative or past 63. The registers the entry copies in.
    uint64_t in_regs_read_ = 0, patch_regs_read_ = 0;
    uint64_t inputs_w_read_ = 0; ///< bit r: a source of v`r` (one index, r < 64) names .w
    bool relative_indices_ = false; ///< an operand of any file has a relative index
    static_assert(size_t(vsir::RegisterFile::count) <= 64);

    struct GeometryState {
        uint32_t input_primitive = 0, output_topology = 0, max_vertices = 0, instances = 0;
        bool stream_used = false;
    } gs_;
    struct HullPhaseFunction {
        Function* function = nullptr;
        HullPhase phase = HullPhase::none;
        uint32_t instances = 1;
    };
    HullPhase hull_phase_ = HullPhase::none;
    spv::Id hull_invocation_ = NoResult; ///< InvocationId input
    spv::Id hull_vocp_ = NoResult;       ///< Private copy of all control-point outputs
    uint32_t tess_domain_ = 0, tess_partitioning_ = 0, tess_output_primitive_ = 0;

    spv::Id counter_block_ = NoResult; ///< block { uint counter; }
    ScopeVector<int32_t> cb_float_reads_; ///< per cb range id: float reads less other reads (scan_cb_reads)

    spv::Id push_block_var_ = NoResult;
    spv::Id sample_positions_ = NoResult; ///< samplepos table
    spv::Id rasterizer_sample_count_ = NoResult; ///< OpSpecConstant (spec_id_rasterizer_sample_count)
    struct PushMember {
        uint32_t range_id = 0, member = 0, vec4s = 0;
    };

    /// The state of what most programs do not use (patch constants, hull
    /// phases, subroutines, 64-bit constants, UAV and TGSM usage scans,
    /// sparse feedback, push constants), made on first use (rare()): the
    /// Emitter of a common program constructs and destroys none of it.
    struct RareState {
        // User-provided: clang does not see an implicit default constructor
        // of a nested class with member initializers before the enclosing
        // class is complete, and std::optional asks within it.
        RareState() {}
        IoSet patch; ///< patch constants (hull and domain shaders)
        ScopeVector<IndexableTemp> hull_decl_indexable_temps; ///< declared in hs_decls: Private, seen by every phase
        ScopeVector<HullPhaseFunction> hull_phases;
        ScopeVector<Function*> subroutines; ///< by label id
        ScopeVector<bool> defined_subroutines;
        U64Map wide_consts[3]; ///< the bits of 64-bit constants: f64, i64, u64
        U64Map composite_index; ///< a hash of a key -> 1 + the index of the last composite with it (once there are many)
        ScopeVector<uint8_t> uav_usage; ///< per UAV range id: uav_use_* bits (made by the first atomic)
        ScopeVector<uint8_t> tgsm_wide; ///< per g# register: 1 when 64-bit atomics use it
        bool tgsm_wide_scanned = false;
        spv::Id sparse_types[size_t(Kind::count)][2] = {}; ///< {residency, texel} structs
        ScopeVector<PushMember> push_members; ///< constant buffers in the push-constant block
    };
    std::optional<RareState> rare_;
    RareState& rare() { return rare_ ? *rare_ : make_rare(); }
    [[gnu::noinline]] RareState& make_rare();

    // What the constructor's one walk over the program found, so that the
    // steps before emission need not walk it again.
    size_t control_flow_count_ = 0;
    bool has_subroutines_ = false; ///< a call or callc
    bool has_labels_ = false;      ///< a label (a subroutine's body)
    bool returns_only_at_top_ = true; ///< no nested ret, no retc, call, callc or label (can_inline_entry)
    bool straight_line_ = true; ///< no structured control flow but the final ret: one block (temps and outputs as values)
    bool has_attribute_at_vertex_ = false;
    bool uav_usage_scanned_ = false; ///< uav_usage walked the program (a program without atomics makes no RareState)
    ScopeVector<uint32_t> declared_; ///< the instructions with a declaration, and the phase markers

    ScopeVector<SsaValue> ssa_; ///< by sr# id
    spv::Id subgroup_local_id_ = NoResult, subgroup_size_ = NoResult;

    ScopeVector<CfFrame> cf_;
    ScratchVector<std::pair<uint32_t, Block*>> cases_; ///< case literals of the open switches

    uint64_t system_held_files_ = 0; ///< bit f: system_held_[f] is set
    /// The scalar registers of a straight-line entry, held (lane 0) instead
    /// of in a Private uint (system_scalars_[f] is then NoResult); not
    /// zeroed, like system_scalars_.
    std::array<HeldRegister, size_t(vsir::RegisterFile::count)> system_held_;

private:
    // prog_.dsts.size() and prog_.srcs.size(), which check_operand_counts
    // compares every instruction's operands with (no division each time).
    size_t dst_pool_size_ = 0, src_pool_size_ = 0;

    void scan_operands();
    void begin_module();
    bool finish_module(std::vector<uint32_t>& words);
    bool emit_instruction(const vsir::Instruction& ins);
    bool emit_declaration(const vsir::Instruction& ins);
    bool check_operand_counts(const vsir::Instruction& ins);
};

} // namespace dxspv::spirv

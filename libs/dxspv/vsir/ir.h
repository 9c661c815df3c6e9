// VSIR: the one internal IR both front ends produce and the SPIR-V emitter
// consumes. Specified in libs/dxspv/vsir/VSIR.md.
//
// A Program is a flat array of instructions. Parameters live in two pools
// (dsts, srcs) addressed by 32-bit indices: an instruction owns the
// contiguous ranges [dst_first, dst_first + dst_count) and
// [src_first, src_first + src_count); relative-address sources are extra
// entries of the src pool referenced from a register index. Declarations are
// instructions (dcl_*) whose extra data is a Declaration in `decls`.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/arena.h"
#include "common/shader_types.h"

namespace dxspv::vsir {

inline constexpr uint32_t invalid_index = ~0u;

enum class Opcode : uint16_t {
#define VSIR_OP(name, text, ndst, nsrc, kind) name,
#include "vsir/opcodes.def"
#undef VSIR_OP
    count
};

enum class OpcodeKind : uint8_t { declaration, arithmetic, resource, structured_cf, unstructured_cf, phase, other };

struct OpcodeInfo {
    const char* name; ///< text name (d3d-asm spelling where one exists)
    int8_t dst_count; ///< -1: variable
    int8_t src_count; ///< -1: variable
    OpcodeKind kind;
};

/// One entry per opcode, then one for values past the last (ir.cpp).
extern const OpcodeInfo opcode_table[size_t(Opcode::count) + 1];

/// Static information about an opcode ("<invalid>" for values past the last).
inline const OpcodeInfo& opcode_info(Opcode op)
{
    return opcode_table[size_t(op) < size_t(Opcode::count) ? size_t(op) : size_t(Opcode::count)];
}

enum class RegisterFile : uint8_t {
#define VSIR_REG(name, prefix) name,
#include "vsir/registers.def"
#undef VSIR_REG
    count
};

/// Text prefix of a register file ("r", "v", "cb", "vThreadID", ...).
const char* register_prefix(RegisterFile file);

enum class DataType : uint8_t {
    none,
    f16, f32, f64,
    i16, u16, i32, u32, i64, u64,
    u8,
    boolean,
    unorm, snorm,
    mixed,     ///< typed resource of mixed return types
    continued, ///< second half of a 64-bit value
    opaque,    ///< resources, samplers, labels
};
const char* data_type_name(DataType type);

/// Shape of a register: no components (labels, resources in declarations),
/// one scalar, or a 4-component vector.
enum class Dimension : uint8_t { none, scalar, vec4 };

/// Resource dimension, numbered as the DXBC resource dimension token.
enum class ResourceDimension : uint8_t {
    unknown = 0,
    buffer = 1,
    texture_1d = 2,
    texture_2d = 3,
    texture_2dms = 4,
    texture_3d = 5,
    texture_cube = 6,
    texture_1d_array = 7,
    texture_2d_array = 8,
    texture_2dms_array = 9,
    texture_cube_array = 10,
    raw_buffer = 11,
    structured_buffer = 12,
};
const char* resource_dimension_name(ResourceDimension dim);

/// Interpolation mode of a pixel shader input, numbered as in DXBC.
enum class InterpolationMode : uint8_t {
    undefined = 0,
    constant = 1,
    linear = 2,
    linear_centroid = 3,
    linear_noperspective = 4,
    linear_noperspective_centroid = 5,
    linear_sample = 6,
    linear_noperspective_sample = 7,
};

/// One index of a register: an immediate offset plus an optional relative
/// address (`rel_addr`, an index into Program::srcs, or invalid_index).
struct RegisterIndex {
    uint32_t offset = 0;
    uint32_t rel_addr = invalid_index;
};

enum RegisterFlags : uint8_t {
    register_non_uniform = 1u << 0, ///< index is not dynamically uniform
};

struct Register {
    RegisterFile file = RegisterFile::null;
    DataType type = DataType::none;
    Dimension dimension = Dimension::none;
    uint8_t index_count = 0; ///< 0..3 entries of idx in use
    uint8_t flags = 0;       ///< RegisterFlags
    MinPrecision precision = MinPrecision::none;
    uint16_t reserved = 0;
    union {
        RegisterIndex idx[3];
        uint32_t u32[4]; ///< immediate values (file immediate)
        uint64_t u64[2]; ///< immediate values (file immediate64)
    };

    Register() : idx{} {}
};

enum DstModifier : uint8_t {
    dst_saturate = 1u << 0,
    dst_partial_precision = 1u << 1,
    dst_centroid = 1u << 2,
};

/// How a TPF operand token encoded a parameter's components (VSIR.md,
/// "Token encoding"). `unspecified`: the TPF writer picks its default.
enum class OperandForm : uint8_t {
    unspecified,
    none,    ///< 0-component operand
    one,     ///< 1-component operand
    mask,    ///< 4 components, mask selection
    swizzle, ///< 4 components, swizzle selection
    select,  ///< 4 components, select-1 (the first swizzle component)
};

/// Token details a front end may record for bit-exact re-encoding
/// (OperandToken bits); none changes the meaning of the parameter.
enum OperandTokenFlags : uint8_t {
    token_empty_modifier = 1u << 0, ///< an extended operand token with no modifier/precision is present
    token_index0_imm_relative = 1u << 1, ///< index i (bits 1-3) written as immediate + relative although its offset is 0
    token_index0_imm64 = 1u << 4,        ///< index i (bits 4-6) written as a 64-bit immediate
};

struct DstParam {
    Register reg;
    uint8_t write_mask = 0; ///< bit i set: component i written
    uint8_t modifiers = 0;  ///< DstModifier
    OperandForm form = OperandForm::unspecified; ///< TPF component encoding
    uint8_t token_flags = 0; ///< OperandTokenFlags
};

enum class SrcModifier : uint8_t { none, neg, abs, abs_neg, bitwise_not };

/// Swizzle packing: 2 bits per output component, x in bits 0-1.
constexpr uint8_t make_swizzle(unsigned x, unsigned y, unsigned z, unsigned w)
{
    return uint8_t(x | (y << 2) | (z << 4) | (w << 6));
}
inline constexpr uint8_t swizzle_identity = make_swizzle(0, 1, 2, 3);
constexpr unsigned swizzle_component(uint8_t swizzle, unsigned i) { return (swizzle >> (2 * i)) & 3; }
/// The components a 4-bit write mask selects (std::popcount is a library
/// call on x86-64 without POPCNT).
constexpr unsigned mask_component_count(unsigned mask) { return (0x4332322132212110ull >> ((mask & 0xfu) * 4)) & 0xfu; }

struct SrcParam {
    Register reg;
    uint8_t swizzle = swizzle_identity;
    SrcModifier modifier = SrcModifier::none;
    OperandForm form = OperandForm::unspecified; ///< TPF component encoding
    uint8_t form_mask = 0;   ///< the mask of a source encoded in mask form (form == mask)
    uint8_t token_flags = 0; ///< OperandTokenFlags
};

/// Instruction flags; which ones apply depends on the opcode (VSIR.md).
enum InstructionFlags : uint32_t {
    flag_test_nonzero = 1u << 0,        ///< if/breakc/continuec/retc/discard/callc: test != 0 (else == 0)
    flag_sync_thread_group = 1u << 1,   ///< sync: execution barrier in the group
    flag_sync_tgsm = 1u << 2,           ///< sync: groupshared memory barrier
    flag_sync_uav_group = 1u << 3,      ///< sync: UAV memory barrier, group scope
    flag_sync_uav_global = 1u << 4,     ///< sync: UAV memory barrier, device scope
    flag_resinfo_rcp_float = 1u << 5,   ///< resinfo_rcpFloat
    flag_resinfo_uint = 1u << 6,        ///< resinfo_uint / sampleinfo_uint
    flag_precise_x = 1u << 8,           ///< precise, per component (bits 8-11)
    flag_precise_mask = 0xfu << 8,
};

/// Operands per instruction: at most max_src_count sources (a phi's
/// incoming values and a switch_monolithic's cases are the many).
inline constexpr uint32_t max_src_count = 0xffff;

struct Instruction {
    Opcode opcode = Opcode::nop;
    uint16_t src_count = 0;       ///< at most max_src_count
    uint32_t flags = 0;           ///< InstructionFlags
    uint32_t dst_first = 0;       ///< into Program::dsts
    uint32_t src_first = 0;       ///< into Program::srcs
    uint32_t decl = invalid_index;///< into Program::decls (dcl_* instructions)
    uint32_t location = 0;        ///< byte offset (binary input) or line (text input)
    int8_t texel_offset[3] = {0, 0, 0};
    ResourceDimension resource_dimension = ResourceDimension::unknown; ///< from extended opcode tokens
    DataType resource_type[4] = {DataType::none, DataType::none, DataType::none, DataType::none};
    uint32_t resource_stride = 0; ///< from extended opcode tokens (structured buffers)
    /// TPF tokens after the last operand within the instruction's length
    /// (kept for bit-exact re-encoding): Program::u32_pool[tail_first, +tail_count).
    uint32_t tail_first = 0;
    uint8_t tail_count = 0;
    uint8_t dst_count = 0;
};

/// Extra data of a declaration instruction. Which fields are meaningful
/// depends on the opcode; VSIR.md lists them.
struct Declaration {
    ResourceDimension dimension = ResourceDimension::unknown;
    DataType return_type[4] = {DataType::none, DataType::none, DataType::none, DataType::none};
    uint32_t sample_count = 0;
    uint32_t structure_stride = 0; ///< structured resources, TGSM
    uint32_t byte_count = 0;       ///< raw TGSM
    uint32_t count = 0;            ///< temps, TGSM structure count, max vertices, instances, control points, icb size, cb size
    uint32_t index = 0;            ///< indexable temp register, stream index, cb/resource register id (SM5.1)
    uint32_t component_count = 0;  ///< indexable temp components
    uint32_t thread_group[3] = {0, 0, 0};
    /// SM5.1 register range: first..last (last == ~0u: unbounded) in `space`;
    /// for earlier models first == last == the register index, space 0.
    uint32_t range_first = 0;
    uint32_t range_last = 0;
    uint32_t space = 0;
    uint32_t value = 0;            ///< global flags, enum values (tessellator domain, partitioning, primitive, topology), uav flags
    float float_value = 0.0f;      ///< hs max tessfactor
    SystemValue system_value = SystemValue::none;
    InterpolationMode interpolation = InterpolationMode::undefined;
    uint32_t data_first = 0;       ///< immediate constant buffer: into Program::u32_pool
    uint32_t data_count = 0;
};

enum UavFlags : uint32_t {
    uav_globally_coherent = 1u << 0,
    uav_rasterizer_ordered = 1u << 1,
    uav_has_counter = 1u << 2,
};

enum class ControlFlow : uint8_t { structured, unstructured };

struct Program {
    /// The arrays start with the capacity of the last Program this thread
    /// destroyed (program_storage.cpp).
    Program();
    ~Program();
    Program(Program&&) = default;
    Program& operator=(Program&&) = default;

    ShaderModel model;
    ControlFlow control_flow = ControlFlow::structured;
    std::vector<Instruction> instructions;
    std::vector<DstParam> dsts;
    std::vector<SrcParam> srcs;
    std::vector<Declaration> decls;
    std::vector<uint32_t> u32_pool;
    std::vector<SignatureElement> inputs;
    std::vector<SignatureElement> outputs;
    std::vector<SignatureElement> patch_constants;
    uint32_t temp_count = 0;  ///< r# registers in use (max over phases)
    uint32_t ssa_count = 0;   ///< sr# values
    uint32_t label_count = 0; ///< label ids in use
    /// Signature chunks of the container the program came from, as fourcc
    /// codes (ISGN/ISG1, OSGN/OSG5/OSG1, PCSG/PSG1): inputs, outputs, patch
    /// constants; 0 when none was read (a container writer chooses).
    uint32_t signature_chunks[3] = {0, 0, 0};
    uint8_t signature_unpadded = 0; ///< bit i: chunk i's name table is not padded to 4 bytes
    Arena arena;              ///< strings (names) owned by the program

    /// Appends an instruction with `dst_count` + `src_count` default
    /// parameters reserved contiguously; returns its index.
    uint32_t add_instruction(Opcode op, uint32_t dst_count, uint32_t src_count, uint32_t location = 0);
    /// Appends an instruction whose parameters are copies of `dst` and
    /// `src` (none default-constructed first); returns its index.
    uint32_t add_instruction(Opcode op, std::span<const DstParam> dst, std::span<const SrcParam> src,
                             uint32_t location = 0);
    /// Appends a declaration payload and links it to instruction `inst`.
    Declaration& add_declaration(uint32_t inst);
    /// Appends a copy of `decl` as the payload of instruction `inst`.
    void add_declaration(uint32_t inst, const Declaration& decl);
    /// Appends a stand-alone source (relative addressing); returns its index.
    uint32_t add_src(const SrcParam& src);

    DstParam& dst(const Instruction& ins, uint32_t i) { return dsts[ins.dst_first + i]; }
    SrcParam& src(const Instruction& ins, uint32_t i) { return srcs[ins.src_first + i]; }
    const DstParam& dst(const Instruction& ins, uint32_t i) const { return dsts[ins.dst_first + i]; }
    const SrcParam& src(const Instruction& ins, uint32_t i) const { return srcs[ins.src_first + i]; }
    std::span<DstParam> dsts_of(const Instruction& ins) { return {dsts.data() + ins.dst_first, ins.dst_count}; }
    std::span<SrcParam> srcs_of(const Instruction& ins) { return {srcs.data() + ins.src_first, ins.src_count}; }
    std::span<const DstParam> dsts_of(const Instruction& ins) const { return {dsts.data() + ins.dst_first, ins.dst_count}; }
    std::span<const SrcParam> srcs_of(const Instruction& ins) const { return {srcs.data() + ins.src_first, ins.src_count}; }
};

/// Register constructors for front ends and tests.
Register make_register(RegisterFile file, DataType type, Dimension dim, std::span<const uint32_t> indices = {});
Register make_immediate(DataType type, uint32_t value);
Register make_immediate_vec4(DataType type, uint32_t x, uint32_t y, uint32_t z, uint32_t w);

} // namespace dxspv::vsir

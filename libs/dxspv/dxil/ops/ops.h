// The DXIL op table: what every dx.op.* opcode means and where it may be
// used. The data lives in dxil_ops.txt; gen_dxil_ops.py generates the
// tables and the OpId / OpClass enums (dxil_ops_table.h) at build time.
// Nothing else in dxspv hard-codes an op number: use OpId.
//
// A 32-bit DXIL opcode is a 16-bit feature id (top half) and a 16-bit op
// index (proposal 0052): feature 0x0000 is the stable table, 0x8000 the
// experimental one; each table is contiguous and checked on its own.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "common/diagnostics.h"
#include "common/shader_types.h"
#include "dxil/ops/dxil_ops_table.h"

namespace dxspv::dxil::ops {

/// Overload element types; the bit (1 << value) is used in OverloadDim masks.
enum class ScalarType : uint8_t { void_, f16, f32, f64, i1, i8, i16, i32, i64, udt, object };

/// One overload of one dimension of an op's function name: a scalar type or
/// a native vector (SM 6.9) of it.
struct Overload {
    ScalarType type = ScalarType::void_;
    bool vector = false;

    friend bool operator==(const Overload&, const Overload&) = default;
};

/// Allowed types of one overload dimension: bit (1 << ScalarType) set for
/// each allowed scalar, and in `vectors` for each allowed vector element.
struct OverloadDim {
    uint16_t scalars;
    uint16_t vectors;
};

inline constexpr int max_overload_dims = 4;

/// The complete set of overloads allowed from shader model 6.sm_minor on.
struct OverloadStep {
    uint8_t sm_major;
    uint8_t sm_minor;
    uint8_t dim_count;
    OverloadDim dims[max_overload_dims];
};

enum class Attribute : uint8_t {
    readnone = 1 << 0,
    readonly = 1 << 1,
    argmemonly = 1 << 2,
    noduplicate = 1 << 3,
    noreturn = 1 << 4,
};

enum class Flag : uint16_t {
    wave = 1 << 0,
    barrier = 1 << 1,
    derivative = 1 << 2,
    gradient = 1 << 3,
    feedback = 1 << 4,
    convergent = 1 << 5,
    uniform_inputs = 1 << 6, ///< requires wave-uniform inputs
    reserved = 1 << 7,       ///< an unused slot of its table
    experimental = 1 << 8,   ///< from an experimental table
};

struct OpInfo {
    const char* name;
    OpClass op_class;
    uint32_t opcode; ///< feature id << 16 | op index
    const OverloadStep* overload_steps; ///< in increasing shader model order
    uint8_t overload_step_count;
    uint8_t attributes; ///< Attribute bits
    uint16_t flags;     ///< Flag bits
    uint32_t stages;    ///< bit (1 << ShaderStage) per allowed stage
    uint8_t min_sm_major;
    uint8_t min_sm_minor;
    int32_t version_of; ///< op index of the op this is another version of, or -1
    const char* category;

    uint16_t feature() const { return uint16_t(opcode >> 16); }
    uint16_t index() const { return uint16_t(opcode & 0xffff); }
    OpId id() const { return OpId(opcode); }
    bool has(Flag f) const { return (flags & uint16_t(f)) != 0; }
    bool has(Attribute a) const { return (attributes & uint8_t(a)) != 0; }
    bool allows_stage(ShaderStage s) const { return unsigned(s) < 32 && (stages >> unsigned(s) & 1) != 0; }
    std::span<const OverloadStep> overloads() const { return {overload_steps, overload_step_count}; }
};

struct ClassInfo {
    const char* name;     ///< "Unary"
    const char* function; ///< "unary", as in dx.op.unary.f32
};

struct TableInfo {
    const char* name;
    const char* description;
    uint16_t feature;
    bool experimental;
    std::span<const OpInfo> ops;
};

/// Looks up a 32-bit DXIL opcode. Returns nullptr and reports an error for
/// an unknown feature id, an index past the end of its table, a reserved
/// slot, or an experimental op when experimental ops are not enabled.
const OpInfo* lookup(uint32_t opcode, bool experimental_enabled, Diagnostics& diags, Location loc);

/// The entry of an op id (never null: OpId values come from the table).
const OpInfo& info(OpId id);

/// An op by name ("Sin", "ExperimentalNop"); nullptr when unknown.
const OpInfo* find_by_name(std::string_view name);

const ClassInfo& class_info(OpClass c);
std::span<const TableInfo> tables();
/// The table of a feature id; nullptr when there is none.
const TableInfo* find_table(uint16_t feature);

/// Checks a call of `op` through the function `function_name`
/// (dx.op.<function>[.<overload>...]) with the given overload types (one per
/// overload dimension; none for an op that is not overloaded) in a shader of
/// model `sm` running in `stage`: the function's class matches the op's,
/// the shader model is recent enough for the op and the overloads, the name's
/// overload suffixes agree with `overloads`, and the stage is allowed.
/// Reports every problem; returns true when there is none.
bool check_call(const OpInfo& op, std::string_view function_name, std::span<const Overload> overloads,
                ShaderModel sm, ShaderStage stage, Diagnostics& diags, Location loc);
bool check_call(const OpInfo& op, std::string_view function_name, Overload overload, ShaderModel sm,
                ShaderStage stage, Diagnostics& diags, Location loc);

/// Parses an overload suffix as it appears in function names: "f16", "f32",
/// "f64", "i1" ... "i64", "v4f32" (vector); "struct.*" is udt. Returns false
/// for anything else.
bool parse_overload_suffix(std::string_view suffix, Overload& out);
/// "f32", "v f32" style names for messages: "f32" or "<n x f32>".
std::string overload_name(Overload o);

namespace detail {
extern const ClassInfo classes[op_class_count];
extern const TableInfo tables[table_count];
} // namespace detail

} // namespace dxspv::dxil::ops

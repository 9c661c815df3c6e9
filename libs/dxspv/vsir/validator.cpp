// The VSIR validator. One walk over the instructions, constant work per
// operand (relative addresses are visited once each), plus per-id tables
// for SSA values and labels. Every check is listed in VSIR.md with its code.
#include "vsir/validator.h"

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "vsir/printer.h"

namespace dxspv::vsir {

namespace {

/// Ids tables larger than this are refused rather than allocated.
constexpr uint32_t max_tracked_ids = 1u << 24;
/// Nesting limit for relative addresses inside relative addresses.
constexpr unsigned max_rel_depth = 4;

enum class DimRule : uint8_t { vec4, scalar, none, value, any };

/// What VSIR.md's conventions allow for the operands of one register file.
struct FileRule {
    uint8_t min_index;
    uint8_t max_index;
    DimRule dim;
    bool descriptor; ///< one index (the range id) in declarations
    bool writable;   ///< may be a destination outside declarations
};

FileRule file_rule(RegisterFile file)
{
    using F = RegisterFile;
    switch (file) {
    case F::temp: return {1, 1, DimRule::vec4, false, true};
    case F::input: return {1, 2, DimRule::vec4, false, true};
    case F::output: return {1, 2, DimRule::vec4, false, true};
    case F::indexable_temp: return {2, 2, DimRule::vec4, false, true};
    case F::immediate:
    case F::immediate64: return {0, 0, DimRule::any, false, false};
    case F::constant_buffer: return {3, 3, DimRule::vec4, true, false};
    case F::immediate_constant_buffer: return {1, 1, DimRule::vec4, false, false};
    case F::sampler: return {2, 2, DimRule::none, true, false};
    case F::resource: return {2, 2, DimRule::none, true, false};
    case F::uav: return {2, 2, DimRule::none, true, true};
    case F::groupshared: return {1, 1, DimRule::none, false, true};
    case F::label: return {1, 1, DimRule::none, false, false};
    case F::null: return {0, 0, DimRule::any, false, true};
    case F::ssa: return {1, 1, DimRule::value, false, true};
    case F::input_control_point:
    case F::output_control_point: return {2, 2, DimRule::vec4, false, true};
    case F::patch_constant: return {1, 1, DimRule::vec4, false, true};
    case F::tess_coord:
    case F::thread_id:
    case F::thread_group_id:
    case F::local_thread_id: return {0, 0, DimRule::vec4, false, true};
    case F::depth_out:
    case F::depth_out_ge:
    case F::depth_out_le:
    case F::coverage_in:
    case F::coverage_out:
    case F::stencil_ref:
    case F::inner_coverage:
    case F::primitive_id:
    case F::gs_instance_id:
    case F::local_thread_index:
    case F::output_control_point_id:
    case F::fork_instance_id:
    case F::join_instance_id:
    case F::wave_index:
    case F::wave_count: return {0, 0, DimRule::scalar, false, true};
    case F::stream:
    case F::function_body: return {1, 1, DimRule::none, false, true};
    case F::cycle_counter: return {0, 0, DimRule::any, false, true};
    case F::rasterizer: return {0, 0, DimRule::none, false, true};
    case F::function_pointer:
    case F::this_pointer:
    case F::count: break;
    }
    return {0, 3, DimRule::any, false, true};
}

const char* dimension_name(Dimension dim)
{
    switch (dim) {
    case Dimension::none: return "none";
    case Dimension::scalar: return "scalar";
    case Dimension::vec4: return "vec4";
    }
    return "invalid";
}

bool dimension_allowed(DimRule rule, Dimension dim)
{
    switch (rule) {
    case DimRule::vec4: return dim == Dimension::vec4;
    case DimRule::scalar: return dim == Dimension::scalar;
    case DimRule::none: return dim == Dimension::none;
    case DimRule::value: return dim == Dimension::scalar || dim == Dimension::vec4;
    case DimRule::any: return true;
    }
    return false;
}

/// Data types an SSA value may have (VSIR.md "DXIL conventions").
bool is_value_type(DataType t)
{
    switch (t) {
    case DataType::f16:
    case DataType::f32:
    case DataType::f64:
    case DataType::i16:
    case DataType::u16:
    case DataType::i32:
    case DataType::u32:
    case DataType::i64:
    case DataType::u64:
    case DataType::boolean: return true;
    default: return false;
    }
}

unsigned bit_width(DataType t)
{
    switch (t) {
    case DataType::f16:
    case DataType::i16:
    case DataType::u16: return 16;
    case DataType::f64:
    case DataType::i64:
    case DataType::u64: return 64;
    case DataType::boolean: return 1;
    default: return 32;
    }
}

/// Whether `t` belongs to operand class `c` of the DXIL opcode table:
/// f float, i integer, k integer or boolean, b boolean, c boolean or u32
/// (a condition or a 0/~0 mask), u u32, w 64-bit, n integer or float, v any
/// value type.
bool in_type_class(char c, DataType t)
{
    const bool fp = t == DataType::f16 || t == DataType::f32 || t == DataType::f64;
    const bool integer = is_value_type(t) && !fp && t != DataType::boolean;
    switch (c) {
    case 'f': return fp;
    case 'i': return integer;
    case 'k': return integer || t == DataType::boolean;
    case 'b': return t == DataType::boolean;
    case 'c': return t == DataType::boolean || t == DataType::u32;
    case 'u': return t == DataType::u32;
    case 'w': return t == DataType::f64 || t == DataType::i64 || t == DataType::u64;
    case 'n': return fp || integer;
    case 'v': return is_value_type(t);
    default: return true;
    }
}

/// Operand type classes of the DXIL opcodes (frem onwards, in opcodes.def
/// order): one class letter per destination and source; `same`: dst 0 and
/// src 0 have the same type.
struct OperandTypes {
    const char* dsts;
    const char* srcs;
    bool same;
};

constexpr OperandTypes dxil_operand_types[] = {
    {"f", "ff", true},  // frem
    {"ii", "ii", false}, // idiv
    {"k", "k", false},  // itoi
    {"k", "k", false},  // utou
    {"f", "f", false},  // ftof
    {"f", "f", true}, {"f", "f", true}, {"f", "f", true}, {"f", "f", true}, // tan acos asin atan
    {"f", "f", true}, {"f", "f", true}, {"f", "f", true}, // hcos hsin htan
    {"c", "f", false}, {"c", "f", false}, {"c", "f", false}, {"c", "f", false}, // isnan isinf isfinite isnormal
    {"c", "ff", false}, {"c", "ff", false}, {"c", "ff", false}, {"c", "ff", false}, // eq_u ne_o lt_u ge_u
    {"c", "ff", false}, {"c", "ff", false}, // ord unord
    {"w", "uu", false}, // pack64
    {"uu", "w", false}, // unpack64
    {"c", "", false},   // is_helper_lane
    {"u", "", false},   // view_id
    {"u", "", false}, {"u", "", false}, // wave_lane_index wave_lane_count
    {"b", "", false},   // wave_is_first_lane
    {"b", "b", false}, {"b", "b", false}, // wave_any_true wave_all_true
    {"b", "v", false},  // wave_all_equal
    {"u", "b", false},  // wave_ballot
    {"v", "vu", true},  // wave_read_lane_at
    {"v", "v", true},   // wave_read_lane_first
    {"n", "n", true}, {"n", "n", true}, {"n", "n", true}, {"n", "n", true}, // wave_active_sum product min max
    {"k", "k", true}, {"k", "k", true}, {"k", "k", true}, // wave_active_and or xor
    {"u", "b", false},  // wave_active_count_bits
    {"n", "n", true}, {"n", "n", true}, // wave_prefix_sum product
    {"u", "b", false},  // wave_prefix_count_bits
    {"v", "vu", true},  // quad_read_lane_at
    {"v", "v", true}, {"v", "v", true}, {"v", "v", true}, // quad_read_across_x y diagonal
    {"u", "v", false},  // wave_match
    {"n", "nu", true}, {"n", "nu", true}, // wave_multi_prefix_sum product
    {"i", "iu", true}, {"i", "iu", true}, {"i", "iu", true}, // wave_multi_prefix_and or xor
    {"u", "bu", false}, // wave_multi_prefix_count_bits
    {"v", "vu", true},  // attribute_at_vertex
};
static_assert(std::size(dxil_operand_types) == size_t(Opcode::count) - size_t(Opcode::frem));

/// Sources that must name a label (branch targets, phi predecessors, call
/// targets); label registers are refused anywhere else.
bool is_label_slot(const Instruction& ins, uint32_t i)
{
    switch (ins.opcode) {
    case Opcode::label:
    case Opcode::call: return i == 0;
    case Opcode::callc: return i == 1;
    case Opcode::branch: return ins.src_count == 1 ? i == 0 : i >= 1;
    case Opcode::switch_monolithic: return i == 1 || (i >= 3 && i % 2 == 1);
    case Opcode::phi: return i % 2 == 1;
    default: return false;
    }
}

/// Sources that must be immediates (case values).
bool is_immediate_slot(const Instruction& ins, uint32_t i)
{
    return (ins.opcode == Opcode::case_ && i == 0) ||
           (ins.opcode == Opcode::switch_monolithic && i >= 2 && i % 2 == 0);
}

bool is_terminator(Opcode op)
{
    return op == Opcode::branch || op == Opcode::switch_monolithic || op == Opcode::ret;
}

/// if_ to endswitch: the opcodes that open, continue or close a construct,
/// or jump out of one.
bool opens_or_jumps(Opcode op)
{
    static_assert(int(Opcode::endswitch) - int(Opcode::if_) == 12);
    return unsigned(int(op) - int(Opcode::if_)) <= unsigned(int(Opcode::endswitch) - int(Opcode::if_));
}

/// An open structured construct.
struct Block {
    Opcode opcode; ///< if_, else_, loop, switch_
    uint32_t start;
    bool has_default = false;
};

enum class Role : uint8_t { declaration, dst, src };

class Validator {
public:
    Validator(const Program& program, Diagnostics& diags, const char* after_pass)
        : p_(program), diags_(diags), after_pass_(after_pass)
    {
    }

    bool run();
    /// Only the nesting of a structured program's constructs.
    bool run_nesting();

private:
    void fail(Code code, uint32_t inst, const std::string& text);
    void setup_tables();
    void instruction(uint32_t i);
    bool operand_counts(uint32_t i, const Instruction& ins);
    void declaration(uint32_t i, const Instruction& ins);
    void operands(uint32_t i, const Instruction& ins);
    bool register_common(uint32_t i, const Register& reg, Role role);
    void register_indices(uint32_t i, const Register& reg, Role role, unsigned depth);
    void relative_address(uint32_t i, uint32_t rel, unsigned depth);
    void dst(uint32_t i, const DstParam& param, Role role);
    void src(uint32_t i, const SrcParam& param, unsigned depth);
    void operand_files(uint32_t i, const Instruction& ins);
    void operand_types(uint32_t i, const Instruction& ins);
    void control_flow_form(uint32_t i, const Instruction& ins);
    void structured(uint32_t i, const Instruction& ins);
    void close_blocks(const char* where);
    void unstructured(uint32_t i, const Instruction& ins);
    void phase(uint32_t i, const Instruction& ins);
    void finish();

    const Program& p_;
    Diagnostics& diags_;
    const char* after_pass_; ///< messages start "after pass <name>: " unless null or empty
    bool ok_ = true;

    std::vector<uint8_t> src_owned_;  ///< srcs entry belongs to an instruction
    std::vector<uint8_t> rel_state_;  ///< 0 unvisited, 1 being checked, 2 checked
    std::vector<uint32_t> ssa_def_;   ///< defining instruction per SSA id
    std::vector<uint32_t> ssa_use_;   ///< first using instruction per SSA id
    std::vector<uint32_t> label_def_; ///< defining instruction per label id
    std::vector<uint32_t> label_use_; ///< first using instruction per label id
    bool track_ssa_ = false;
    bool track_labels_ = false;

    std::vector<Block> blocks_;     ///< structured nesting
    unsigned loop_depth_ = 0;
    unsigned switch_depth_ = 0;
    bool expect_case_ = false;      ///< right after `switch`
    bool in_block_ = false;         ///< unstructured: inside a labelled block
    bool phi_allowed_ = false;      ///< unstructured: only phis since the label
    int phase_rank_ = -1;           ///< last hull shader phase marker seen
};

void Validator::fail(Code code, uint32_t inst, const std::string& text)
{
    ok_ = false;
    std::string message = after_pass_ && *after_pass_ ? strformat("after pass %s: ", after_pass_) + text : text;
    Location loc = Location::none();
    if (inst < p_.instructions.size()) {
        loc = Location::instruction(inst);
        message += ": `" + print_instruction(p_, inst) + "`";
    }
    diags_.error(code, loc, "%s", message.c_str());
}

void Validator::setup_tables()
{
    src_owned_.assign(p_.srcs.size(), 0);
    rel_state_.assign(p_.srcs.size(), 0);
    for (const Instruction& ins : p_.instructions)
        if (uint64_t(ins.src_first) + ins.src_count <= p_.srcs.size())
            for (uint32_t k = 0; k < ins.src_count; ++k)
                src_owned_[ins.src_first + k] = 1;

    track_ssa_ = p_.ssa_count <= max_tracked_ids;
    if (!track_ssa_)
        fail(Code::vsir_ssa_index, invalid_index, strformat("ssa_count %u is larger than %u", p_.ssa_count, max_tracked_ids));
    else {
        ssa_def_.assign(p_.ssa_count, invalid_index);
        ssa_use_.assign(p_.ssa_count, invalid_index);
    }
    track_labels_ = p_.label_count <= max_tracked_ids;
    if (!track_labels_)
        fail(Code::vsir_label_index, invalid_index,
             strformat("label_count %u is larger than %u", p_.label_count, max_tracked_ids));
    else {
        label_def_.assign(p_.label_count, invalid_index);
        label_use_.assign(p_.label_count, invalid_index);
    }
}

bool Validator::run_nesting()
{
    for (uint32_t i = 0; i < p_.instructions.size(); ++i)
        structured(i, p_.instructions[i]);
    close_blocks("at the end of the program");
    return ok_;
}

bool Validator::run()
{
    setup_tables();
    for (uint32_t i = 0; i < p_.instructions.size(); ++i)
        instruction(i);
    finish();
    return ok_;
}

void Validator::instruction(uint32_t i)
{
    const Instruction& ins = p_.instructions[i];
    if (size_t(ins.opcode) >= size_t(Opcode::count)) {
        fail(Code::vsir_invalid_opcode, i, strformat("opcode %u out of range", unsigned(ins.opcode)));
        return;
    }
    declaration(i, ins);
    if (operand_counts(i, ins))
        operands(i, ins);
    control_flow_form(i, ins);
    phase(i, ins);
    if (p_.control_flow == ControlFlow::structured)
        structured(i, ins);
    else
        unstructured(i, ins);
}

bool Validator::operand_counts(uint32_t i, const Instruction& ins)
{
    const OpcodeInfo& info = opcode_info(ins.opcode);
    if (info.dst_count >= 0 && ins.dst_count != info.dst_count)
        fail(Code::vsir_operand_count, i,
             strformat("%s takes %d destinations, not %u", info.name, info.dst_count, unsigned(ins.dst_count)));
    if (info.src_count >= 0 && ins.src_count != info.src_count)
        fail(Code::vsir_operand_count, i,
             strformat("%s takes %d sources, not %u", info.name, info.src_count, unsigned(ins.src_count)));
    const unsigned n = ins.src_count;
    const bool variable_ok = ins.opcode == Opcode::branch              ? n == 1 || n == 3
                             : ins.opcode == Opcode::switch_monolithic ? n >= 2 && n % 2 == 0
                             : ins.opcode == Opcode::phi               ? n >= 2 && n % 2 == 0
                                                                       : true;
    if (!variable_ok)
        fail(Code::vsir_operand_count, i, strformat("%s cannot take %u sources", info.name, n));

    if (uint64_t(ins.dst_first) + ins.dst_count > p_.dsts.size() ||
        uint64_t(ins.src_first) + ins.src_count > p_.srcs.size()) {
        fail(Code::vsir_operand_range, i,
             strformat("parameters dst %u+%u / src %u+%u outside the pools (%zu dsts, %zu srcs)", ins.dst_first,
                       unsigned(ins.dst_count), ins.src_first, unsigned(ins.src_count), p_.dsts.size(),
                       p_.srcs.size()));
        return false;
    }
    return true;
}

void Validator::declaration(uint32_t i, const Instruction& ins)
{
    const bool is_decl = opcode_info(ins.opcode).kind == OpcodeKind::declaration;
    if (!is_decl) {
        if (ins.decl != invalid_index)
            fail(Code::vsir_declaration, i, strformat("non-declaration carries declaration payload %u", ins.decl));
        return;
    }
    if (ins.decl >= p_.decls.size()) {
        fail(Code::vsir_declaration, i,
             ins.decl == invalid_index
                 ? std::string("declaration without a payload")
                 : strformat("declaration payload %u outside decls (%zu)", ins.decl, p_.decls.size()));
        return;
    }
    const Declaration& d = p_.decls[ins.decl];
    if (d.range_last < d.range_first)
        fail(Code::vsir_declaration, i, strformat("register range %u:%u is reversed", d.range_first, d.range_last));
    if (ins.opcode == Opcode::dcl_immediate_constant_buffer &&
        uint64_t(d.data_first) + d.data_count > p_.u32_pool.size())
        fail(Code::vsir_declaration, i,
             strformat("data %u+%u outside u32_pool (%zu)", d.data_first, d.data_count, p_.u32_pool.size()));
    if (ins.opcode == Opcode::dcl_temps && d.count > p_.temp_count)
        fail(Code::vsir_declaration, i, strformat("dcl_temps %u exceeds temp_count %u", d.count, p_.temp_count));
}

void Validator::operands(uint32_t i, const Instruction& ins)
{
    const Role dst_role = opcode_info(ins.opcode).kind == OpcodeKind::declaration ? Role::declaration : Role::dst;
    for (const DstParam& d : p_.dsts_of(ins))
        dst(i, d, dst_role);
    for (const SrcParam& s : p_.srcs_of(ins))
        src(i, s, 0);
    operand_files(i, ins);
    operand_types(i, ins);
}

/// The DXIL opcodes' operand classes, and `mov` as a bit copy: an SSA
/// operand of `mov` has the bit width of the other operand.
void Validator::operand_types(uint32_t i, const Instruction& ins)
{
    const char* name = opcode_info(ins.opcode).name;
    if (ins.opcode == Opcode::mov && ins.dst_count == 1 && ins.src_count == 1) {
        const Register& d = p_.dst(ins, 0).reg;
        const Register& s = p_.src(ins, 0).reg;
        if ((d.file == RegisterFile::ssa || s.file == RegisterFile::ssa) && bit_width(d.type) != bit_width(s.type))
            fail(Code::vsir_operand_type, i,
                 strformat("mov from %s to %s changes the bit width", data_type_name(s.type), data_type_name(d.type)));
        return;
    }
    if (ins.opcode < Opcode::frem)
        return;
    const OperandTypes& rule = dxil_operand_types[size_t(ins.opcode) - size_t(Opcode::frem)];
    auto check = [&](const char* what, uint32_t k, char c, const Register& reg) {
        if (reg.file != RegisterFile::null && !in_type_class(c, reg.type))
            fail(Code::vsir_operand_type, i,
                 strformat("%s %s %u cannot have type %s", name, what, k, data_type_name(reg.type)));
    };
    for (uint32_t k = 0; k < ins.dst_count && rule.dsts[k]; ++k)
        check("destination", k, rule.dsts[k], p_.dst(ins, k).reg);
    for (uint32_t k = 0; k < ins.src_count && rule.srcs[k]; ++k)
        check("source", k, rule.srcs[k], p_.src(ins, k).reg);
    if (rule.same && ins.dst_count && ins.src_count && p_.dst(ins, 0).reg.file != RegisterFile::null &&
        p_.dst(ins, 0).reg.type != p_.src(ins, 0).reg.type)
        fail(Code::vsir_operand_type, i,
             strformat("%s destination is %s but its value source is %s", name, data_type_name(p_.dst(ins, 0).reg.type),
                       data_type_name(p_.src(ins, 0).reg.type)));
}

/// Checks shared by every register; false when the register is too broken
/// to look at further.
bool Validator::register_common(uint32_t i, const Register& reg, Role role)
{
    if (size_t(reg.file) >= size_t(RegisterFile::count) || uint8_t(reg.dimension) > uint8_t(Dimension::vec4) ||
        uint8_t(reg.type) > uint8_t(DataType::opaque)) {
        fail(Code::vsir_invalid_register, i,
             strformat("register file %u, dimension %u, type %u out of range", unsigned(reg.file),
                       unsigned(reg.dimension), unsigned(reg.type)));
        return false;
    }
    const char* name = register_prefix(reg.file);
    if (reg.type == DataType::none && role != Role::declaration && reg.file != RegisterFile::null)
        fail(Code::vsir_missing_type, i, strformat("register %s has no data type", name));
    else if (reg.file == RegisterFile::ssa && !is_value_type(reg.type))
        fail(Code::vsir_operand_type, i, strformat("SSA value cannot have type %s", data_type_name(reg.type)));

    const FileRule rule = file_rule(reg.file);
    const bool decl_descriptor = role == Role::declaration && rule.descriptor;
    const unsigned min_index = decl_descriptor ? 1 : rule.min_index;
    const unsigned max_index = decl_descriptor ? 1 : rule.max_index;
    if (reg.index_count > 3) {
        fail(Code::vsir_index_count, i, strformat("register %s has %u indices", name, unsigned(reg.index_count)));
        return false;
    }
    if (reg.index_count < min_index || reg.index_count > max_index)
        fail(Code::vsir_index_count, i,
             min_index == max_index
                 ? strformat("register %s has %u indices, expected %u", name, unsigned(reg.index_count), min_index)
                 : strformat("register %s has %u indices, expected %u to %u", name, unsigned(reg.index_count),
                             min_index, max_index));
    if (role != Role::declaration && !dimension_allowed(rule.dim, reg.dimension))
        fail(Code::vsir_dimension, i,
             strformat("register %s cannot have dimension %s", name, dimension_name(reg.dimension)));
    return true;
}

void Validator::register_indices(uint32_t i, const Register& reg, Role role, unsigned depth)
{
    if (reg.file == RegisterFile::immediate || reg.file == RegisterFile::immediate64)
        return; // the index union holds values
    for (unsigned k = 0; k < reg.index_count; ++k)
        if (reg.idx[k].rel_addr != invalid_index) {
            if (reg.file == RegisterFile::temp || reg.file == RegisterFile::ssa || reg.file == RegisterFile::label)
                fail(Code::vsir_relative_address, i,
                     strformat("register %s cannot be relatively addressed", register_prefix(reg.file)));
            relative_address(i, reg.idx[k].rel_addr, depth);
        }
    if (reg.index_count == 0 || reg.idx[0].rel_addr != invalid_index)
        return;
    const uint32_t id = reg.idx[0].offset;
    switch (reg.file) {
    case RegisterFile::temp:
        if (id >= p_.temp_count)
            fail(Code::vsir_temp_index, i, strformat("temp r%u outside temp_count %u", id, p_.temp_count));
        break;
    case RegisterFile::ssa:
        if (id >= p_.ssa_count) {
            fail(Code::vsir_ssa_index, i, strformat("SSA value sr%u outside ssa_count %u", id, p_.ssa_count));
            break;
        }
        if (!track_ssa_)
            break;
        if (role == Role::dst) {
            if (ssa_def_[id] != invalid_index)
                fail(Code::vsir_ssa_redefined, i,
                     strformat("SSA value sr%u already defined by instruction %u", id, ssa_def_[id]));
            else
                ssa_def_[id] = i;
        } else if (ssa_use_[id] == invalid_index) {
            ssa_use_[id] = i;
        }
        break;
    case RegisterFile::label:
        if (id >= p_.label_count)
            fail(Code::vsir_label_index, i, strformat("label l%u outside label_count %u", id, p_.label_count));
        else if (track_labels_ && label_use_[id] == invalid_index)
            label_use_[id] = i;
        break;
    default: break;
    }
}

void Validator::relative_address(uint32_t i, uint32_t rel, unsigned depth)
{
    if (rel >= p_.srcs.size()) {
        fail(Code::vsir_relative_address, i, strformat("relative address %u outside srcs (%zu)", rel, p_.srcs.size()));
        return;
    }
    if (src_owned_[rel]) {
        fail(Code::vsir_relative_address, i, strformat("relative address %u is an instruction's own source", rel));
        return;
    }
    if (rel_state_[rel] == 1) {
        fail(Code::vsir_relative_address, i, strformat("relative address %u refers to itself", rel));
        return;
    }
    if (rel_state_[rel] == 2)
        return; // shared and already checked
    if (depth >= max_rel_depth) {
        fail(Code::vsir_relative_address, i, strformat("relative addresses nested more than %u deep", max_rel_depth));
        return;
    }
    rel_state_[rel] = 1;
    const SrcParam& s = p_.srcs[rel];
    src(i, s, depth + 1);
    if (s.reg.type != DataType::i32 && s.reg.type != DataType::u32)
        fail(Code::vsir_relative_address, i,
             strformat("relative address has type %s, not i32 or u32", data_type_name(s.reg.type)));
    rel_state_[rel] = 2;
}

void Validator::dst(uint32_t i, const DstParam& param, Role role)
{
    const Register& reg = param.reg;
    if (!register_common(i, reg, role))
        return;
    register_indices(i, reg, role, 0);
    if (param.modifiers & ~(dst_saturate | dst_partial_precision | dst_centroid))
        fail(Code::vsir_modifier, i, strformat("unknown destination modifiers 0x%x", unsigned(param.modifiers)));
    if (role == Role::declaration || reg.file == RegisterFile::null)
        return;
    if (!file_rule(reg.file).writable)
        fail(Code::vsir_operand_file, i, strformat("register %s cannot be written", register_prefix(reg.file)));
    const unsigned mask = param.write_mask;
    const bool mask_ok = reg.dimension == Dimension::vec4     ? mask != 0 && mask <= 0xf
                         : reg.dimension == Dimension::scalar ? mask == 1
                                                              : mask <= 0xf;
    if (!mask_ok)
        fail(Code::vsir_write_mask, i,
             strformat("write mask 0x%x invalid for a %s register", mask, dimension_name(reg.dimension)));
}

void Validator::src(uint32_t i, const SrcParam& param, unsigned depth)
{
    if (!register_common(i, param.reg, Role::src))
        return;
    register_indices(i, param.reg, Role::src, depth);
    if (uint8_t(param.modifier) > uint8_t(SrcModifier::bitwise_not))
        fail(Code::vsir_modifier, i, strformat("unknown source modifier %u", unsigned(param.modifier)));
}

void Validator::operand_files(uint32_t i, const Instruction& ins)
{
    const OpcodeInfo& info = opcode_info(ins.opcode);
    auto srcs = p_.srcs_of(ins);
    for (uint32_t k = 0; k < srcs.size(); ++k) {
        const RegisterFile file = srcs[k].reg.file;
        const bool want_label = is_label_slot(ins, k);
        if (want_label != (file == RegisterFile::label))
            fail(Code::vsir_operand_file, i,
                 strformat("%s source %u %s a label", info.name, k, want_label ? "must be" : "cannot be"));
        if (is_immediate_slot(ins, k) && file != RegisterFile::immediate)
            fail(Code::vsir_operand_file, i, strformat("%s source %u must be an immediate", info.name, k));
    }
    if (ins.opcode == Opcode::phi && ins.dst_count == 1 && p_.dst(ins, 0).reg.file != RegisterFile::ssa)
        fail(Code::vsir_operand_file, i, "phi must define an SSA value");
    if (ins.opcode == Opcode::label && ins.src_count == 1 && srcs[0].reg.file == RegisterFile::label &&
        srcs[0].reg.index_count == 1 && track_labels_) {
        const uint32_t id = srcs[0].reg.idx[0].offset;
        if (id < p_.label_count) {
            if (label_def_[id] != invalid_index)
                fail(Code::vsir_label_redefined, i,
                     strformat("label l%u already defined by instruction %u", id, label_def_[id]));
            else
                label_def_[id] = i;
        }
    }
}

void Validator::control_flow_form(uint32_t i, const Instruction& ins)
{
    const OpcodeKind kind = opcode_info(ins.opcode).kind;
    if (p_.control_flow == ControlFlow::structured) {
        if (kind == OpcodeKind::unstructured_cf)
            fail(Code::vsir_control_flow_form, i,
                 strformat("%s in a structured program", opcode_info(ins.opcode).name));
    } else if (kind == OpcodeKind::structured_cf && ins.opcode != Opcode::label && ins.opcode != Opcode::ret) {
        fail(Code::vsir_control_flow_form, i,
             strformat("%s in an unstructured program", opcode_info(ins.opcode).name));
    }
}

void Validator::close_blocks(const char* where)
{
    for (size_t k = blocks_.size(); k-- > 0;)
        fail(Code::vsir_nesting, blocks_[k].start,
             strformat("%s not closed %s", opcode_info(p_.instructions[blocks_[k].start].opcode).name, where));
    blocks_.clear();
    loop_depth_ = switch_depth_ = 0;
    expect_case_ = false;
}

void Validator::structured(uint32_t i, const Instruction& ins)
{
    const Opcode op = ins.opcode;
    const char* name = opcode_info(op).name;
    const bool is_case = op == Opcode::case_ || op == Opcode::default_;
    if (expect_case_ && !is_case && op != Opcode::endswitch && op != Opcode::nop)
        fail(Code::vsir_nesting, i, "switch must be followed by case or default");
    if (op != Opcode::nop)
        expect_case_ = false;
    Block* top = blocks_.empty() ? nullptr : &blocks_.back();
    auto mismatch = [&](const char* expected) {
        fail(Code::vsir_nesting, i, strformat("%s without a matching %s", name, expected));
    };
    switch (op) {
    case Opcode::if_:
    case Opcode::loop:
    case Opcode::switch_:
        blocks_.push_back({op, i});
        loop_depth_ += op == Opcode::loop;
        switch_depth_ += op == Opcode::switch_;
        expect_case_ = op == Opcode::switch_;
        break;
    case Opcode::else_:
        if (!top || top->opcode != Opcode::if_)
            return mismatch("if");
        top->opcode = Opcode::else_;
        break;
    case Opcode::endif:
        if (!top || (top->opcode != Opcode::if_ && top->opcode != Opcode::else_))
            return mismatch("if");
        blocks_.pop_back();
        break;
    case Opcode::endloop:
        if (!top || top->opcode != Opcode::loop)
            return mismatch("loop");
        blocks_.pop_back();
        --loop_depth_;
        break;
    case Opcode::case_:
    case Opcode::default_:
        if (!top || top->opcode != Opcode::switch_)
            return mismatch("switch");
        if (op == Opcode::default_ && top->has_default)
            fail(Code::vsir_nesting, i, "second default in one switch");
        top->has_default |= op == Opcode::default_;
        break;
    case Opcode::endswitch:
        if (!top || top->opcode != Opcode::switch_)
            return mismatch("switch");
        blocks_.pop_back();
        --switch_depth_;
        break;
    case Opcode::break_:
    case Opcode::breakc:
        if (!loop_depth_ && !switch_depth_)
            fail(Code::vsir_nesting, i, strformat("%s outside a loop or switch", name));
        break;
    case Opcode::continue_:
    case Opcode::continuec:
        if (!loop_depth_)
            fail(Code::vsir_nesting, i, strformat("%s outside a loop", name));
        break;
    case Opcode::label: close_blocks("before a label"); break;
    default:
        if (opcode_info(op).kind == OpcodeKind::phase)
            close_blocks("before a phase marker");
        break;
    }
}

void Validator::unstructured(uint32_t i, const Instruction& ins)
{
    const Opcode op = ins.opcode;
    const OpcodeKind kind = opcode_info(op).kind;
    if (kind == OpcodeKind::declaration)
        return;
    if (kind == OpcodeKind::phase) {
        if (in_block_)
            fail(Code::vsir_block, i, "block not terminated before a phase marker");
        in_block_ = false;
        return;
    }
    if (op == Opcode::label) {
        if (in_block_)
            fail(Code::vsir_block, i, "label follows a block without a terminator");
        in_block_ = phi_allowed_ = true;
        return;
    }
    if (!in_block_)
        fail(Code::vsir_block, i, "instruction outside a block (no label since the last terminator)");
    if (op == Opcode::phi && !phi_allowed_)
        fail(Code::vsir_block, i, "phi after a non-phi instruction in its block");
    phi_allowed_ = phi_allowed_ && op == Opcode::phi;
    if (is_terminator(op))
        in_block_ = false;
}

void Validator::phase(uint32_t i, const Instruction& ins)
{
    if (opcode_info(ins.opcode).kind != OpcodeKind::phase)
        return;
    const char* name = opcode_info(ins.opcode).name;
    if (p_.model.stage != ShaderStage::hull) {
        fail(Code::vsir_phase, i, strformat("%s outside a hull shader", name));
        return;
    }
    static_assert(int(Opcode::hs_control_point_phase) == int(Opcode::hs_decls) + 1 &&
                  int(Opcode::hs_fork_phase) == int(Opcode::hs_decls) + 2 &&
                  int(Opcode::hs_join_phase) == int(Opcode::hs_decls) + 3);
    const int rank = int(ins.opcode) - int(Opcode::hs_decls);
    const bool repeatable = ins.opcode == Opcode::hs_fork_phase || ins.opcode == Opcode::hs_join_phase;
    if (rank < phase_rank_ || (rank == phase_rank_ && !repeatable))
        fail(Code::vsir_phase, i, strformat("%s out of order", name));
    phase_rank_ = std::max(phase_rank_, rank);
}

void Validator::finish()
{
    const uint32_t end = uint32_t(p_.instructions.size());
    if (p_.control_flow == ControlFlow::structured)
        close_blocks("at the end of the program");
    else if (in_block_)
        fail(Code::vsir_block, end ? end - 1 : invalid_index, "last block has no terminator");
    for (uint32_t id = 0; id < ssa_use_.size(); ++id)
        if (ssa_use_[id] != invalid_index && ssa_def_[id] == invalid_index)
            fail(Code::vsir_ssa_undefined, ssa_use_[id], strformat("SSA value sr%u is never defined", id));
    for (uint32_t id = 0; id < label_use_.size(); ++id)
        if (label_use_[id] != invalid_index && label_def_[id] == invalid_index)
            fail(Code::vsir_label_undefined, label_use_[id], strformat("label l%u is never defined", id));
}

} // namespace

bool validate_program(const Program& program, Diagnostics& diags, const char* after_pass)
{
    return Validator(program, diags, after_pass).run();
}

bool validate_nesting(const Program& program, Diagnostics& diags, const char* after_pass)
{
    // Most programs have no construct and no jump: nothing to check.
    if (program.control_flow != ControlFlow::structured)
        return true;
    for (const Instruction& ins : program.instructions)
        if (opens_or_jumps(ins.opcode))
            return Validator(program, diags, after_pass).run_nesting();
    return true;
}

} // namespace dxspv::vsir

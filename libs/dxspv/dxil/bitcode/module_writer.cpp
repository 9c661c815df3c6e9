// Module writer: numbering, the module block, BLOCKINFO, attributes, types,
// globals, function records and the module value symbol table, in the
// order DXC's LLVM 3.7 writes them. Constants, metadata and function bodies
// are in their own files.
#include "dxil/bitcode/module_writer.h"

#include <algorithm>
#include <bit>
#include <cstdio>

#include "dxil/dxil.h"

namespace dxspv::dxil {

namespace bitcode {

namespace {

enum : uint32_t {
    module_version = 1, module_triple = 2, module_datalayout = 3, module_section = 5, module_globalvar = 7,
    module_function = 8
};

enum : uint32_t {
    type_numentry = 1, type_void = 2, type_float = 3, type_double = 4, type_label = 5, type_opaque = 6,
    type_integer = 7, type_pointer = 8, type_half = 10, type_array = 11, type_vector = 12, type_metadata = 16,
    type_struct_anon = 18, type_struct_name = 19, type_struct_named = 20, type_function = 21
};

using Op = AbbrevOp;
constexpr Op lit(uint64_t v) { return {Op::Kind::literal, v}; }
constexpr Op fixed(uint64_t w) { return {Op::Kind::fixed, w}; }
constexpr Op vbr(uint64_t w) { return {Op::Kind::vbr, w}; }
constexpr Op array{Op::Kind::array, 0};
constexpr Op char6{Op::Kind::char6, 0};

/// ceil(log2(n)), 0 for n <= 1 (LLVM's Log2_32_Ceil).
unsigned ceil_log2(uint64_t n)
{
    unsigned bits = 0;
    while (bits < 64 && (uint64_t(1) << bits) < n)
        ++bits;
    return bits;
}

/// The width LLVM gives type ids in abbreviations: ceil(log2(n)), at least 1.
unsigned id_bits(size_t n) { return std::max(ceil_log2(n), 1u); }

} // namespace

bool ModuleWriter::fail(Code code, const char* fmt, ...)
{
    char buf[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    if (fn_) {
        std::string_view name = fn_->name;
        diags_.error(code, Location::instruction(inst_index_), "function '%.*s': %s", int(name.size()), name.data(),
                     buf);
    } else {
        diags_.error(code, Location::none(), "%s", buf);
    }
    return false;
}

bool ModuleWriter::check_types_used()
{
    if (!bad_type_)
        return true;
    bad_type_ = false;
    return fail(Code::dxil_write_inconsistent, "a record refers to a type id that is out of range (%zu types)",
                m_.types.size());
}

bool ModuleWriter::type_ok(TypeId id, const char* what)
{
    if (id < m_.types.size())
        return true;
    return fail(Code::dxil_write_inconsistent, "%s: type id %u is out of range (%zu types)", what, id,
                m_.types.size());
}

bool ModuleWriter::encode_linkage(Linkage l, uint64_t& out)
{
    static const uint8_t codes[] = {0, 2, 3, 9, 7, 8, 16, 17, 18, 19, 12};
    if (size_t(l) >= sizeof codes)
        return fail(Code::dxil_write_unsupported, "a linkage that LLVM 3.7 bitcode cannot express");
    out = codes[size_t(l)];
    return true;
}

void ModuleWriter::string_ops(std::string_view s, size_t keep)
{
    ops_.resize(keep);
    for (char c : s)
        ops_.push_back(uint8_t(c));
}

bool ModuleWriter::number_types()
{
    // Post-order over the references that may not point forward (all but
    // named structs); iterative, with an on-stack mark to catch cycles.
    size_t n = m_.types.size();
    if (n >= (1u << 24))
        return fail(Code::dxil_write_unsupported, "%zu types", n);
    type_map_.assign(n, no_id);
    type_order_.clear();
    type_order_.reserve(n);
    constexpr uint32_t on_stack = no_id - 1;
    std::vector<std::pair<TypeId, uint32_t>> stack;
    auto dep = [&](const Type& t, uint32_t k) -> TypeId {
        if (t.element != no_id) {
            if (k == 0)
                return t.element;
            --k;
        }
        return k < t.members.size() ? t.members[k] : no_id - 1;
    };
    for (TypeId root = 0; root < n; ++root) {
        if (type_map_[root] != no_id)
            continue;
        stack.push_back({root, 0});
        type_map_[root] = on_stack;
        while (!stack.empty()) {
            auto& [t, k] = stack.back();
            TypeId d = dep(m_.types[t], k++);
            if (d == no_id - 1) {
                type_map_[t] = uint32_t(type_order_.size());
                type_order_.push_back(t);
                stack.pop_back();
                continue;
            }
            if (!type_ok(d, "type operand"))
                return false;
            if (m_.types[d].identified || type_map_[d] != no_id) {
                if (type_map_[d] == on_stack && !m_.types[d].identified)
                    return fail(Code::dxil_write_inconsistent, "type %u contains itself without a named struct", d);
                continue;
            }
            if (stack.size() >= 256)
                return fail(Code::dxil_write_unsupported, "types are nested more than 256 levels deep");
            type_map_[d] = on_stack;
            stack.push_back({d, 0});
        }
    }
    type_bits_ = id_bits(n + 1);
    return true;
}

bool ModuleWriter::number_values()
{
    uint32_t counts[3] = {uint32_t(m_.globals.size()), uint32_t(m_.functions.size()), uint32_t(m_.constants.size())};
    value_base_[0] = 0;
    value_base_[1] = counts[0];
    value_base_[2] = counts[0] + counts[1];
    if (m_.values.size() != size_t(counts[0]) + counts[1] + counts[2])
        return fail(Code::dxil_write_inconsistent, "the module has %zu values for %u globals, %u functions and %u constants",
                    m_.values.size(), counts[0], counts[1], counts[2]);
    for (size_t i = 0; i < m_.values.size(); ++i) {
        const ModuleValue& v = m_.values[i];
        if (size_t(v.kind) > 2 || v.index >= counts[size_t(v.kind)] || !type_ok(v.type, "module value"))
            return fail(Code::dxil_write_inconsistent, "module value %zu names no global, function or constant", i);
    }
    return true;
}

bool ModuleWriter::value_id(ValueId id, uint32_t& out) const
{
    if (id < m_.values.size()) {
        const ModuleValue& v = m_.values[id];
        out = value_base_[size_t(v.kind)] + v.index;
        return true;
    }
    if (!fn_ || id - m_.values.size() >= local_map_.size())
        return false;
    out = local_map_[id - m_.values.size()];
    return true;
}

TypeId ModuleWriter::type_of(ValueId id) const
{
    if (id < m_.values.size())
        return m_.values[id].type;
    if (!fn_ || id - m_.values.size() >= fn_->values.size())
        return no_id;
    return fn_->values[id - m_.values.size()].type;
}

void ModuleWriter::write_blockinfo()
{
    unsigned tb = type_bits_;
    w_.enter_block(blockinfo_block_id, 2);
    const Op vst8[] = {fixed(3), vbr(8), array, fixed(8)};
    const Op vst7[] = {lit(1), vbr(8), array, fixed(7)};
    const Op vst6[] = {lit(1), vbr(8), array, char6};
    const Op bb6[] = {lit(2), vbr(8), array, char6};
    w_.define_blockinfo_abbrev(block_value_symtab, vst8);
    w_.define_blockinfo_abbrev(block_value_symtab, vst7);
    w_.define_blockinfo_abbrev(block_value_symtab, vst6);
    w_.define_blockinfo_abbrev(block_value_symtab, bb6);
    const Op settype[] = {lit(1), fixed(tb)};
    const Op integer[] = {lit(4), vbr(8)};
    const Op cast[] = {lit(11), fixed(4), fixed(tb), vbr(8)};
    const Op null[] = {lit(2)};
    w_.define_blockinfo_abbrev(block_constants, settype);
    w_.define_blockinfo_abbrev(block_constants, integer);
    w_.define_blockinfo_abbrev(block_constants, cast);
    w_.define_blockinfo_abbrev(block_constants, null);
    const Op load[] = {lit(20), vbr(6), fixed(tb), vbr(4), fixed(1)};
    const Op binop[] = {lit(2), vbr(6), vbr(6), fixed(4)};
    const Op binop_flags[] = {lit(2), vbr(6), vbr(6), fixed(4), fixed(7)};
    const Op icast[] = {lit(3), vbr(6), fixed(tb), fixed(4)};
    const Op ret_void[] = {lit(10)};
    const Op ret_val[] = {lit(10), vbr(6)};
    const Op unreachable[] = {lit(15)};
    const Op gep[] = {lit(43), fixed(1), fixed(tb), array, vbr(6)};
    for (std::span<const Op> a : {std::span<const Op>(load), std::span<const Op>(binop),
                                  std::span<const Op>(binop_flags), std::span<const Op>(icast),
                                  std::span<const Op>(ret_void), std::span<const Op>(ret_val),
                                  std::span<const Op>(unreachable), std::span<const Op>(gep)})
        w_.define_blockinfo_abbrev(block_function, a);
    w_.exit_block();
}

void ModuleWriter::write_attributes()
{
    if (!m_.attribute_groups.empty()) {
        w_.enter_block(block_paramattr_group, 3);
        for (const AttributeGroup& g : m_.attribute_groups) {
            ops_ = {g.id, g.index};
            for (const Attribute& a : g.attributes) {
                switch (a.kind) {
                case Attribute::Kind::enum_: ops_.insert(ops_.end(), {0, a.id}); break;
                case Attribute::Kind::integer: ops_.insert(ops_.end(), {1, a.id, a.value}); break;
                case Attribute::Kind::string:
                    ops_.push_back(a.string_value.empty() ? 3 : 4);
                    for (char c : a.key)
                        ops_.push_back(uint8_t(c));
                    ops_.push_back(0);
                    if (!a.string_value.empty()) {
                        for (char c : a.string_value)
                            ops_.push_back(uint8_t(c));
                        ops_.push_back(0);
                    }
                    break;
                }
            }
            w_.record(3, ops_); // PARAMATTR_GRP_CODE_ENTRY
        }
        w_.exit_block();
    }
    if (!m_.attribute_lists.empty()) {
        w_.enter_block(block_paramattr, 3);
        for (const AttributeList& l : m_.attribute_lists) {
            ops_.assign(l.groups.begin(), l.groups.end());
            w_.record(2, ops_); // PARAMATTR_CODE_ENTRY
        }
        w_.exit_block();
    }
}

bool ModuleWriter::write_types()
{
    unsigned tb = type_bits_;
    w_.enter_block(block_type, 4);
    const Op pointer[] = {lit(type_pointer), fixed(tb), lit(0)};
    const Op function[] = {lit(type_function), fixed(1), array, fixed(tb)};
    const Op anon[] = {lit(type_struct_anon), fixed(1), array, fixed(tb)};
    const Op name[] = {lit(type_struct_name), array, char6};
    const Op named[] = {lit(type_struct_named), fixed(1), array, fixed(tb)};
    const Op arr[] = {lit(type_array), vbr(8), fixed(tb)};
    for (std::span<const Op> a : {std::span<const Op>(pointer), std::span<const Op>(function),
                                  std::span<const Op>(anon), std::span<const Op>(name), std::span<const Op>(named),
                                  std::span<const Op>(arr)})
        w_.define_abbrev(a);
    ops_ = {type_order_.size()};
    w_.record(type_numentry, ops_);
    for (TypeId id : type_order_) {
        const Type& t = m_.types[id];
        uint32_t code = 0, abbrev = 0;
        ops_.clear();
        auto members = [&] {
            for (TypeId member : t.members)
                ops_.push_back(type(member));
        };
        switch (t.kind) {
        case TypeKind::void_: code = type_void; break;
        case TypeKind::half: code = type_half; break;
        case TypeKind::float_: code = type_float; break;
        case TypeKind::double_: code = type_double; break;
        case TypeKind::label: code = type_label; break;
        case TypeKind::metadata: code = type_metadata; break;
        case TypeKind::integer:
            if (t.width == 0 || t.width > 64)
                return fail(Code::dxil_write_unsupported, "an integer type of %u bits", t.width);
            code = type_integer;
            ops_ = {t.width};
            break;
        case TypeKind::pointer:
            code = type_pointer;
            abbrev = abbrev_type_pointer;
            ops_ = {type(t.element), t.address_space};
            break;
        case TypeKind::array:
        case TypeKind::vector:
            code = t.kind == TypeKind::array ? type_array : type_vector;
            abbrev = t.kind == TypeKind::array ? uint32_t(abbrev_type_array) : 0u;
            ops_ = {t.count, type(t.element)};
            break;
        case TypeKind::function:
            code = type_function;
            abbrev = abbrev_type_function;
            ops_ = {t.vararg ? 1u : 0u, type(t.element)};
            members();
            break;
        case TypeKind::struct_:
        case TypeKind::opaque:
            if (t.identified && !t.name.empty()) {
                string_ops(t.name);
                w_.record(type_struct_name, ops_, abbrev_type_struct_name);
                ops_.clear();
            }
            if (t.kind == TypeKind::opaque) {
                code = type_opaque;
                ops_ = {0};
                break;
            }
            code = t.identified ? type_struct_named : type_struct_anon;
            abbrev = t.identified ? abbrev_type_struct_named : abbrev_type_struct_anon;
            ops_ = {t.packed ? 1u : 0u};
            members();
            break;
        default: return fail(Code::dxil_write_unsupported, "type %u has a kind LLVM 3.7 bitcode cannot express", id);
        }
        w_.record(code, ops_, abbrev);
    }
    w_.exit_block();
    return true;
}

bool ModuleWriter::write_globals_and_functions()
{
    // LLVM's abbreviation for globals without visibility, thread-local
    // mode or the like, sized by the largest type id, alignment and section.
    uint32_t simple_global = 0;
    if (!m_.globals.empty()) {
        uint64_t max_type = 0, max_align = 0;
        for (const GlobalVariable& g : m_.globals) {
            if (g.value_type < m_.types.size() && type(g.value_type) > max_type)
                max_type = type(g.value_type);
            max_align = std::max<uint64_t>(max_align, g.alignment);
        }
        for (const Function& f : m_.functions)
            max_align = std::max<uint64_t>(max_align, f.alignment);
        const Op abbrev[] = {lit(module_globalvar),
                             fixed(ceil_log2(max_type + 1)),
                             vbr(6),
                             vbr(6),
                             fixed(5),
                             max_align ? fixed(ceil_log2(uint64_t(std::bit_width(max_align)) + 1)) : lit(0),
                             m_.sections.empty() ? lit(0) : fixed(ceil_log2(m_.sections.size() + 1))};
        simple_global = w_.define_abbrev(abbrev);
    }
    for (size_t i = 0; i < m_.globals.size(); ++i) {
        const GlobalVariable& g = m_.globals[i];
        uint64_t linkage = 0, align = 0;
        uint32_t init = 0;
        if (!type_ok(g.value_type, "global") || !encode_linkage(g.linkage, linkage))
            return false;
        if (!encode_alignment(g.alignment, align))
            return fail(Code::dxil_write_unsupported, "global %zu: alignment %u is not a power of two", i, g.alignment);
        if (g.initializer != no_id && (g.initializer >= m_.values.size() || !value_id(g.initializer, init)))
            return fail(Code::dxil_write_inconsistent, "global %zu: initializer %u is out of range", i, g.initializer);
        if (g.section > m_.sections.size())
            return fail(Code::dxil_write_inconsistent, "global %zu: section %u is out of range", i, g.section);
        ops_ = {type(g.value_type), uint64_t(g.address_space) << 2 | 2 | (g.is_constant ? 1 : 0),
                g.initializer == no_id ? 0 : uint64_t(init) + 1, linkage, align, g.section};
        if (g.thread_local_mode || g.unnamed_addr || g.externally_initialized)
            ops_.insert(ops_.end(), {0, g.thread_local_mode, g.unnamed_addr ? 1u : 0u,
                                     g.externally_initialized ? 1u : 0u, 0, 0});
        if (!check_types_used())
            return false;
        w_.record(module_globalvar, ops_, simple_global);
    }
    for (size_t i = 0; i < m_.functions.size(); ++i) {
        const Function& f = m_.functions[i];
        uint64_t linkage = 0, align = 0;
        if (!type_ok(f.function_type, "function") || !encode_linkage(f.linkage, linkage))
            return false;
        if (m_.types[f.function_type].kind != TypeKind::function)
            return fail(Code::dxil_write_inconsistent, "function %zu's type is not a function type", i);
        if (!encode_alignment(f.alignment, align))
            return fail(Code::dxil_write_unsupported, "function %zu: alignment %u is not a power of two", i,
                        f.alignment);
        if (f.attributes > m_.attribute_lists.size() || f.section > m_.sections.size())
            return fail(Code::dxil_write_inconsistent, "function %zu: attribute list or section out of range", i);
        if (!f.is_declaration && f.blocks.empty())
            return fail(Code::dxil_write_inconsistent, "function %zu is a definition without basic blocks", i);
        ops_ = {type(f.function_type), f.calling_conv, f.is_declaration ? 1u : 0u, linkage, f.attributes, align,
                f.section, 0, 0, f.unnamed_addr ? 1u : 0u, 0, 0, 0, 0, 0};
        if (!check_types_used())
            return false;
        w_.record(module_function, ops_);
    }
    return true;
}

void ModuleWriter::write_vst_entry(uint32_t code, uint64_t id, std::string_view name)
{
    // As LLVM: char6 names use the char6 abbreviations, 7-bit ones the
    // 7-bit entry abbreviation, anything else the 8-bit one.
    bool is_char6 = true, is_7bit = true;
    for (char c : name) {
        is_char6 = is_char6 && encode_char6(uint8_t(c)) >= 0;
        is_7bit = is_7bit && uint8_t(c) < 128;
    }
    string_ops(name, 1);
    ops_[0] = id;
    uint32_t abbrev = abbrev_vst_entry8;
    if (code == 2 && is_char6)
        abbrev = abbrev_vst_bbentry6;
    else if (code == 1 && is_char6)
        abbrev = abbrev_vst_entry6;
    else if (code == 1 && is_7bit)
        abbrev = abbrev_vst_entry7;
    w_.record(code, ops_, abbrev);
}

void ModuleWriter::write_module_vst()
{
    bool any = false;
    for (size_t i = 0; i < m_.values.size(); ++i) {
        const ModuleValue& v = m_.values[i];
        if (v.kind == ModuleValue::Kind::constant)
            continue;
        std::string_view name = i < m_.value_names.size() ? m_.value_names[i] : std::string_view();
        if (name.empty())
            name = v.kind == ModuleValue::Kind::global ? m_.globals[v.index].name : m_.functions[v.index].name;
        if (name.empty())
            continue;
        if (!any)
            w_.enter_block(block_value_symtab, 4);
        any = true;
        uint32_t id = 0;
        value_id(ValueId(i), id);
        write_vst_entry(1, id, name); // VST_CODE_ENTRY
    }
    if (any)
        w_.exit_block();
}

bool ModuleWriter::run()
{
    if (!m_.global_attachments.empty())
        return fail(Code::dxil_write_unsupported, "metadata attached to global variables needs a newer LLVM than 3.7");
    if (!number_types() || !number_values() || !number_metadata())
        return false;
    w_.magic();
    w_.enter_block(block_module, 3);
    ops_ = {1}; // version 1: relative value ids
    w_.record(module_version, ops_);
    write_blockinfo();
    write_attributes();
    if (!write_types())
        return false;
    if (!m_.triple.empty()) {
        string_ops(m_.triple);
        w_.record(module_triple, ops_);
    }
    if (!m_.datalayout.empty()) {
        string_ops(m_.datalayout);
        w_.record(module_datalayout, ops_);
    }
    for (std::string_view s : m_.sections) {
        string_ops(s);
        w_.record(module_section, ops_);
    }
    if (!write_globals_and_functions())
        return false;
    if (!m_.constants.empty() && !write_constants(m_.constants, true))
        return false;
    if (!write_module_metadata())
        return false;
    write_metadata_kinds();
    write_module_vst();
    for (uint32_t i = 0; i < m_.functions.size(); ++i)
        if (!m_.functions[i].is_declaration && !write_function(i))
            return false;
    w_.exit_block();
    if (!check_types_used())
        return false;
    if (!w_.ok())
        return fail(Code::api_internal_error, "the bitstream writer was misused (a bug)");
    return true;
}

} // namespace bitcode

bool write_bitcode(const Module& module, std::vector<uint8_t>& out, Diagnostics& diags)
{
    out.clear();
    size_t errors = diags.error_count();
    bitcode::ModuleWriter writer(module, out, diags);
    bool ok = writer.run() && diags.error_count() == errors;
    if (!ok)
        out.clear();
    return ok;
}

} // namespace dxspv::dxil

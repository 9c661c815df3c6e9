// Module reader: the module block, types, attributes, globals, functions
// and value symbol tables. Constants, metadata and function bodies are in
// their own files.
#include "dxil/module/reader.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "dxil/dxil.h"

namespace dxspv::dxil {

namespace detail {

namespace {

enum : uint32_t {
    module_version = 1, module_triple = 2, module_datalayout = 3, module_section = 5, module_globalvar = 7,
    module_function = 8, module_vstoffset = 13
};

enum : uint32_t {
    type_numentry = 1, type_void = 2, type_float = 3, type_double = 4, type_label = 5, type_opaque = 6,
    type_integer = 7, type_pointer = 8, type_half = 10, type_array = 11, type_vector = 12, type_metadata = 16,
    type_struct_anon = 18, type_struct_name = 19, type_struct_named = 20, type_function = 21
};

Linkage decode_linkage(uint64_t v)
{
    switch (v) {
    case 0: case 5: case 6: return Linkage::external;
    case 2: return Linkage::appending;
    case 3: return Linkage::internal;
    case 7: return Linkage::extern_weak;
    case 8: return Linkage::common;
    case 9: case 13: case 14: return Linkage::private_;
    case 1: case 16: return Linkage::weak_any;
    case 10: case 17: return Linkage::weak_odr;
    case 4: case 18: return Linkage::linkonce_any;
    case 11: case 19: return Linkage::linkonce_odr;
    case 12: return Linkage::available_externally;
    default: return Linkage::other;
    }
}

} // namespace

bool ModuleReader::fail(Code code, const char* fmt, ...)
{
    char buf[512];
    va_list args;
    va_start(args, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, args);
    va_end(args);
    uint64_t bit = cursor_.bit_pos();
    diags_.error(code, cursor_.location(), "%s (bit %u of byte, bitstream bit %llu)", buf, unsigned(bit & 7),
                 (unsigned long long)bit);
    return false;
}

bool ModuleReader::too_short(size_t count, const char* what)
{
    return fail(Code::dxil_record_too_short, "%s record has %zu operands, needs %zu", what, ops_.size(), count);
}

bool ModuleReader::bad_type(uint64_t id, const char* what)
{
    return fail(Code::dxil_bad_type_id, "%s: type id %llu is out of range (%zu types)", what, (unsigned long long)id,
                m_.types.size());
}

bool ModuleReader::skip_or_fail(uint32_t block_id)
{
    (void)block_id;
    return cursor_.skip_block();
}

std::string_view ModuleReader::ops_chars(size_t first, size_t n)
{
    // Through a local pointer: the char stores may alias anything, so
    // ops_[i] would reload the operands' pointer on every character.
    const uint64_t* src = ops_.data() + (n ? first : 0);
    char* p = m_.arena.alloc_array<char>(n + 1);
    for (size_t i = 0; i < n; ++i)
        p[i] = char(src[i]);
    p[n] = 0;
    return {p, n};
}

std::string_view ModuleReader::ops_name(size_t first)
{
    return ops_chars(first, first < ops_.size() ? ops_.size() - first : 0);
}

bool ModuleReader::ops_string(size_t& at, std::string_view& out)
{
    size_t end = at;
    while (end < ops_.size() && ops_[end] != 0)
        ++end;
    if (end >= ops_.size())
        return false;
    out = ops_chars(at, end - at);
    at = end + 1;
    return true;
}

std::span<const uint32_t> ModuleReader::copy_ids(std::span<const uint32_t> ids)
{
    uint32_t* p = m_.arena.alloc_array<uint32_t>(ids.size());
    if (!ids.empty())
        std::memcpy(p, ids.data(), ids.size() * sizeof(uint32_t));
    return {p, ids.size()};
}

bool ModuleReader::ops_ids(size_t first, uint64_t limit, std::span<const uint32_t>& out, size_t& bad,
                           uint64_t* high_out)
{
    // Narrowed into the arena while taking the bound, in one pass (no
    // staging copy); an error leaves the copy unused.
    size_t n = first < ops_.size() ? ops_.size() - first : 0;
    const uint64_t* src = ops_.data() + (n ? first : 0);
    uint32_t* p = m_.arena.alloc_array<uint32_t>(n);
    uint64_t high = 0;
    for (size_t i = 0; i < n; ++i) {
        p[i] = uint32_t(src[i]);
        high = src[i] > high ? src[i] : high;
    }
    if (high_out && high > *high_out)
        *high_out = high;
    if (n && high >= limit) {
        for (size_t i = 0; i < n; ++i)
            if (src[i] >= limit) {
                bad = first + i;
                return false;
            }
    }
    out = {p, n};
    return true;
}

/// Every pointer type is in pointer_cache_ (the first of equal ones), so
/// pointer_to() finds it without searching the types.
TypeId ModuleReader::add_type(const Type& type)
{
    const TypeId id = TypeId(m_.types.size());
    m_.types.push_back(type);
    if (type.kind == TypeKind::pointer) {
        uint32_t& cached = pointer_cache_[(uint64_t(type.address_space) << 32) | type.element];
        if (!cached)
            cached = id + 1;
    }
    return id;
}

TypeId ModuleReader::pointer_to(TypeId element, uint32_t address_space)
{
    if (uint32_t cached = pointer_cache_.find((uint64_t(address_space) << 32) | element))
        return cached - 1;
    Type t;
    t.kind = TypeKind::pointer;
    t.element = element;
    t.address_space = address_space;
    return add_type(t);
}

namespace {

bool same_unnamed_type(const Type& t, const Type& want)
{
    return !t.identified && t.kind == want.kind && t.width == want.width && t.count == want.count &&
           t.element == want.element && t.packed == want.packed &&
           std::equal(t.members.begin(), t.members.end(), want.members.begin(), want.members.end());
}

uint64_t unnamed_type_hash(const Type& t)
{
    uint64_t h = (uint64_t(t.kind) << 56 | uint64_t(t.packed) << 48 | t.width) * 0x9e3779b97f4a7c15ull;
    h = (h ^ t.count) * 0x100000001b3ull;
    h = (h ^ t.element) * 0x100000001b3ull;
    for (TypeId m : t.members)
        h = (h ^ m) * 0x100000001b3ull;
    return h;
}

} // namespace

/// The first unnamed type equal to `want` (the result type of an
/// instruction: i1, a vector, a literal struct), added when there is none.
/// The types are hashed into unnamed_types_ in order, as far as a search
/// needs (the one wanted is usually among the first), each once: a module
/// with many types and instructions costs linear time.
TypeId ModuleReader::find_or_add(const Type& want)
{
    const uint64_t key = unnamed_type_hash(want);
    if (uint32_t found = unnamed_types_.find(key)) {
        if (same_unnamed_type(m_.types[found - 1], want))
            return found - 1;
        for (TypeId i = 0; i < indexed_types_; ++i) // another type with this hash: search
            if (same_unnamed_type(m_.types[i], want))
                return i;
    }
    for (; indexed_types_ < m_.types.size(); ++indexed_types_) {
        const Type& t = m_.types[indexed_types_];
        if (t.identified)
            continue;
        uint32_t& slot = unnamed_types_[unnamed_type_hash(t)];
        if (!slot)
            slot = indexed_types_ + 1;
        if (same_unnamed_type(t, want))
            return indexed_types_++;
    }
    return add_type(want); // indexed by the next search
}

/// i1, or a vector of i1 as long as `like` when that is a vector.
TypeId ModuleReader::bool_type(TypeId like)
{
    Type i1;
    i1.kind = TypeKind::integer;
    i1.width = 1;
    TypeId b = find_or_add(i1);
    if (like != no_id && m_.types[like].kind == TypeKind::vector) {
        Type v;
        v.kind = TypeKind::vector;
        v.count = m_.types[like].count;
        v.element = b;
        return find_or_add(v);
    }
    return b;
}

bool ModuleReader::run()
{
    if (!cursor_.read_header())
        return false;
    while (!cursor_.at_top_level_end()) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind != BitstreamEntry::Kind::subblock)
            return fail(Code::dxil_no_module, "a record at the top level of the bitcode");
        if (e.id == block_module && !seen_module_) {
            seen_module_ = true;
            if (!cursor_.enter_block(e.id) || !read_module_block())
                return false;
        } else if (e.id == blockinfo_block_id) {
            if (!cursor_.enter_block(e.id) || !cursor_.read_blockinfo())
                return false;
        } else if (!cursor_.skip_block()) {
            return false;
        }
    }
    if (cursor_.failed())
        return false;
    if (!seen_module_)
        return fail(Code::dxil_no_module, "the bitcode holds no module block");
    return check_module();
}

bool ModuleReader::check_module()
{
    for (const auto& g : m_.globals)
        if (g.initializer != no_id && g.initializer >= m_.values.size())
            return fail(Code::dxil_bad_value_id, "global initializer id %u is out of range", g.initializer);
    if (!check_constants(m_.constants, false))
        return false;
    if (module_values_ok_ && module_node_high_ <= module_metadata_count_)
        return check_named_metadata();
    return check_metadata(0, module_metadata_count_);
}

bool ModuleReader::read_module_block()
{
    // Lowering does not read the target's triple and data layout.
    const uint64_t unneeded = whole_ ? 0 : uint64_t(1) << module_triple | uint64_t(1) << module_datalayout;
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        switch (e.kind) {
        case BitstreamEntry::Kind::error: return false;
        case BitstreamEntry::Kind::end_block: return true;
        case BitstreamEntry::Kind::subblock: {
            bool ok = true;
            switch (e.id) {
            case blockinfo_block_id: ok = cursor_.enter_block(e.id) && cursor_.read_blockinfo(); break;
            case block_type: ok = cursor_.enter_block(e.id) && read_type_block(); break;
            case block_paramattr:
                ok = whole_ ? cursor_.enter_block(e.id) && read_paramattr_block() : cursor_.skip_block();
                break;
            case block_paramattr_group:
                ok = whole_ ? cursor_.enter_block(e.id) && read_paramattr_group_block() : cursor_.skip_block();
                break;
            case block_constants: ok = cursor_.enter_block(e.id) && read_constants_block(false); break;
            case block_metadata:
                ok = read_module_metadata(e.id);
                module_metadata_count_ = uint32_t(m_.metadata.size());
                break;
            case block_metadata_kind: ok = read_module_metadata(e.id); break;
            case block_value_symtab: ok = cursor_.enter_block(e.id) && read_value_symtab(false); break;
            case block_function: ok = cursor_.enter_block(e.id) && read_function_block(); break;
            default: ok = skip_or_fail(e.id); break;
            }
            if (!ok)
                return false;
            break;
        }
        case BitstreamEntry::Kind::record: {
            uint32_t code = 0;
            if (!cursor_.read_record_or_skip(e.id, code, ops_, unneeded))
                return false;
            switch (code) {
            case module_version:
                if (!need(1, "VERSION"))
                    return false;
                if (ops_[0] > 2)
                    return fail(Code::dxil_bad_version, "module version %llu is not supported",
                                (unsigned long long)ops_[0]);
                m_.version = uint32_t(ops_[0]);
                relative_ids_ = ops_[0] >= 1;
                break;
            case module_triple:
                if (whole_)
                    m_.triple = ops_name(0);
                break;
            case module_datalayout:
                if (whole_)
                    m_.datalayout = ops_name(0);
                break;
            case module_section: m_.sections.push_back(ops_name(0)); break;
            case module_globalvar:
                if (!read_global_var())
                    return false;
                break;
            case module_function:
                if (!read_function_record())
                    return false;
                break;
            default: break; // ASM, DEPLIB, GCNAME, COMDAT, VSTOFFSET, ...: not used by DXIL
            }
            break;
        }
        }
    }
}

bool ModuleReader::read_type_block()
{
    // Lowering does not read the structs' names.
    const uint64_t unneeded = whole_ ? 0 : uint64_t(1) << type_struct_name;
    std::string_view pending_name;
    // Records may refer forward (LLVM lists a pointer to a named struct
    // before the struct); check_types() then rejects all but named structs.
    uint64_t declared = 0;
    // Whether every reference so far is to a type before (not forward):
    // then no type nests deeper than the count of types, and check_types()
    // has nothing to find in a module of at most max_type_depth of them.
    bool backward = m_.types.empty();
    auto ref_ok = [&](uint64_t id, const char* what) __attribute__((always_inline)) { return id < declared || type_ok(id, what); };
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            break;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            if (!cursor_.skip_block())
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record_or_skip(e.id, code, ops_, unneeded))
            return false;
        Type t;
        switch (code) {
        case type_numentry:
            if (!need(1, "NUMENTRY"))
                return false;
            if (ops_[0] > max_count)
                return fail(Code::dxil_too_large, "%llu types", (unsigned long long)ops_[0]);
            m_.types.reserve(size_t(ops_[0]));
            // dxc lists a pointer after about every other type (each
            // function type and global's): room for them at once, bounded
            // (the count is the input's word; reserving zeroes the room).
            pointer_cache_.reserve(size_t(std::min<uint64_t>(ops_[0], 4096)) / 2);
            declared = ops_[0];
            continue;
        case type_void: t.kind = TypeKind::void_; break;
        case type_half: t.kind = TypeKind::half; break;
        case type_float: t.kind = TypeKind::float_; break;
        case type_double: t.kind = TypeKind::double_; break;
        case type_label: t.kind = TypeKind::label; break;
        case type_metadata: t.kind = TypeKind::metadata; break;
        case type_integer:
            if (!need(1, "INTEGER"))
                return false;
            if (ops_[0] == 0 || ops_[0] > 64)
                return fail(Code::dxil_bad_type_id, "integer width %llu is not supported", (unsigned long long)ops_[0]);
            t.kind = TypeKind::integer;
            t.width = uint32_t(ops_[0]);
            break;
        case type_pointer:
            if (!need(1, "POINTER") || !ref_ok(ops_[0], "pointer element"))
                return false;
            t.kind = TypeKind::pointer;
            t.element = TypeId(ops_[0]);
            t.address_space = ops_.size() > 1 ? uint32_t(ops_[1]) : 0;
            break;
        case type_array:
        case type_vector:
            if (!need(2, "ARRAY") || !ref_ok(ops_[1], "array element"))
                return false;
            t.kind = code == type_array ? TypeKind::array : TypeKind::vector;
            t.count = ops_[0];
            t.element = TypeId(ops_[1]);
            break;
        case type_struct_name:
            if (whole_)
                pending_name = ops_name(0);
            continue;
        case type_opaque:
            t.kind = TypeKind::opaque;
            t.identified = true;
            t.name = pending_name;
            pending_name = {};
            break;
        case type_struct_anon:
        case type_struct_named:
        case type_function: {
            size_t first = code == type_function ? 2 : 1;
            if (!need(first, "STRUCT/FUNCTION"))
                return false;
            size_t bad = 0;
            if (!ops_ids(first, std::max<uint64_t>(declared, m_.types.size()), t.members, bad))
                return ref_ok(ops_[bad], "member");
            if (code == type_function) {
                if (!ref_ok(ops_[1], "return"))
                    return false;
                t.kind = TypeKind::function;
                t.vararg = ops_[0] != 0;
                t.element = TypeId(ops_[1]);
            } else {
                t.kind = TypeKind::struct_;
                t.packed = ops_[0] != 0;
                if (code == type_struct_named) {
                    t.identified = true;
                    t.name = pending_name;
                    pending_name = {};
                }
            }
            break;
        }
        default: return fail(Code::dxil_unknown_record, "unknown type record %u", code);
        }
        if (m_.types.size() >= max_count)
            return fail(Code::dxil_too_large, "too many types");
        const TypeId self = TypeId(m_.types.size());
        backward &= t.element == no_id || t.element < self;
        for (TypeId id : t.members)
            backward &= id < self;
        add_type(t);
    }
    return (backward && m_.types.size() <= max_type_depth) || check_types();
}

bool ModuleReader::check_types()
{
    // Only identified structs may be referenced before they are defined (as
    // in LLVM), so every cycle goes through a name; nesting is bounded.
    // The types through locals: the depth stores (bytes) may alias anything,
    // so m_.types' pointer and size would be loaded again per member.
    const Type* types = m_.types.data();
    const size_t count = m_.types.size();
    ScratchVector<uint8_t> depths(count, 1);
    uint8_t* depth = depths.data();
    for (TypeId i = 0; i < count; ++i) {
        const Type& t = types[i];
        auto check = [&](TypeId id) {
            if (id >= count)
                return fail(Code::dxil_bad_type_id, "a type refers to type id %u of %zu", id, count);
            if (id >= i && !types[id].identified)
                return fail(Code::dxil_bad_type_id, "type %u refers forward to type %u, which is not a named struct", i, id);
            if (!types[id].identified && depth[id] + 1u > depth[i])
                depth[i] = uint8_t(depth[id] + 1u);
            if (depth[i] > max_type_depth)
                return fail(Code::dxil_too_deep, "type %u is nested more than %u levels deep", i, max_type_depth);
            return true;
        };
        if (t.element != no_id && !check(t.element))
            return false;
        for (TypeId id : t.members)
            if (!check(id))
                return false;
    }
    return true;
}

bool ModuleReader::read_paramattr_group_block()
{
    ScratchVector<Attribute> attrs;
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            return true;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            if (!cursor_.skip_block())
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record(e.id, code, ops_))
            return false;
        if (code != 3) // PARAMATTR_GRP_CODE_ENTRY
            continue;
        if (!need(2, "PARAMATTR_GRP_ENTRY"))
            return false;
        AttributeGroup group;
        group.id = uint32_t(ops_[0]);
        group.index = uint32_t(ops_[1]);
        attrs.clear();
        for (size_t i = 2; i < ops_.size();) {
            Attribute a;
            uint64_t kind = ops_[i++];
            if (kind == 0 || kind == 1) {
                if (i >= ops_.size() || (kind == 1 && i + 1 >= ops_.size()))
                    return fail(Code::dxil_bad_attribute, "an attribute is truncated");
                a.kind = kind == 0 ? Attribute::Kind::enum_ : Attribute::Kind::integer;
                a.id = uint32_t(ops_[i++]);
                if (kind == 1)
                    a.value = ops_[i++];
            } else if (kind == 3 || kind == 4) {
                a.kind = Attribute::Kind::string;
                if (!ops_string(i, a.key))
                    return fail(Code::dxil_bad_attribute, "a string attribute is not terminated");
                if (kind == 4 && !ops_string(i, a.string_value))
                    return fail(Code::dxil_bad_attribute, "a string attribute value is not terminated");
            } else {
                return fail(Code::dxil_bad_attribute, "unknown attribute encoding %llu", (unsigned long long)kind);
            }
            attrs.push_back(a);
        }
        Attribute* p = m_.arena.alloc_array<Attribute>(attrs.size());
        for (size_t i = 0; i < attrs.size(); ++i)
            p[i] = attrs[i];
        group.attributes = {p, attrs.size()};
        m_.attribute_groups.push_back(group);
    }
}

bool ModuleReader::read_paramattr_block()
{
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            return true;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            if (!cursor_.skip_block())
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record(e.id, code, ops_))
            return false;
        if (code != 2) // PARAMATTR_CODE_ENTRY (group ids)
            continue;
        ids_.clear();
        for (uint64_t g : ops_) {
            if (!m_.find_attribute_group(uint32_t(g)))
                return fail(Code::dxil_bad_attribute, "attribute group %llu is not defined", (unsigned long long)g);
            ids_.push_back(uint32_t(g));
        }
        m_.attribute_lists.push_back({copy_ids(ids_)});
    }
}

bool ModuleReader::read_global_var()
{
    // [type, isconst|explicit<<1|addrspace<<2, initid, linkage, alignment, section, visibility,
    //  threadlocal, unnamed_addr, externally_initialized, ...]
    if (!need(6, "GLOBALVAR") || !type_ok(ops_[0], "global"))
        return false;
    GlobalVariable g;
    bool explicit_type = (ops_[1] & 2) != 0;
    g.is_constant = (ops_[1] & 1) != 0;
    if (explicit_type) {
        g.value_type = TypeId(ops_[0]);
        g.address_space = uint32_t(ops_[1] >> 2);
        g.pointer_type = pointer_to(g.value_type, g.address_space);
    } else {
        const Type& pt = m_.types[ops_[0]];
        if (pt.kind != TypeKind::pointer)
            return fail(Code::dxil_bad_type_id, "a global's type is not a pointer");
        g.pointer_type = TypeId(ops_[0]);
        g.value_type = pt.element;
        g.address_space = pt.address_space;
    }
    g.initializer = ops_[2] ? uint32_t(ops_[2] - 1) : no_id;
    g.linkage = decode_linkage(ops_[3]);
    if (ops_[4] > 32)
        return fail(Code::dxil_bad_attribute, "a global's alignment is too large");
    g.alignment = ops_[4] ? 1u << (ops_[4] - 1) : 0;
    g.section = uint32_t(ops_[5]);
    if (ops_.size() > 7)
        g.thread_local_mode = uint8_t(ops_[7]);
    if (ops_.size() > 8)
        g.unnamed_addr = ops_[8] != 0;
    if (ops_.size() > 9)
        g.externally_initialized = ops_[9] != 0;
    if (m_.values.size() >= max_count)
        return fail(Code::dxil_too_large, "too many values");
    m_.values.push_back({ModuleValue::Kind::global, g.pointer_type, uint32_t(m_.globals.size())});
    m_.value_names.emplace_back();
    m_.globals.push_back(g);
    return true;
}

bool ModuleReader::read_function_record()
{
    // [type, callingconv, isproto, linkage, paramattr, alignment, section, visibility, gc, unnamed_addr, ...]
    if (!need(8, "FUNCTION") || !type_ok(ops_[0], "function"))
        return false;
    TypeId type = TypeId(ops_[0]);
    if (m_.types[type].kind == TypeKind::pointer)
        type = m_.types[type].element;
    if (m_.types[type].kind != TypeKind::function)
        return fail(Code::dxil_bad_type_id, "a function's type is not a function type");
    if (whole_ && ops_[4] > m_.attribute_lists.size())
        return fail(Code::dxil_bad_attribute, "attribute list %llu is not defined", (unsigned long long)ops_[4]);
    if (ops_[5] > 32)
        return fail(Code::dxil_bad_attribute, "a function's alignment is too large");
    if (m_.values.size() >= max_count)
        return fail(Code::dxil_too_large, "too many values");
    const TypeId pointer_type = pointer_to(type, 0);
    const uint32_t index = uint32_t(m_.functions.size());
    // Made in place, in room for the usual count at once: a Function (its
    // body's vectors) is not cheap to move. dxc declares one per DXIL
    // operation overload the shader uses, rarely more than 16.
    if (index == 0)
        m_.functions.reserve(16);
    Function& f = m_.functions.emplace_back();
    f.function_type = type;
    f.pointer_type = pointer_type;
    f.calling_conv = uint32_t(ops_[1]);
    f.is_declaration = ops_[2] != 0;
    f.linkage = decode_linkage(ops_[3]);
    f.attributes = whole_ ? uint32_t(ops_[4]) : 0;
    f.alignment = ops_[5] ? 1u << (ops_[5] - 1) : 0;
    f.section = uint32_t(ops_[6]);
    if (ops_.size() > 9)
        f.unnamed_addr = ops_[9] != 0;
    if (!f.is_declaration)
        bodies_.push_back(index);
    m_.values.push_back({ModuleValue::Kind::function, pointer_type, index});
    m_.value_names.emplace_back();
    return true;
}

bool ModuleReader::read_value_symtab(bool local)
{
    enum : uint32_t { vst_entry = 1, vst_bbentry = 2, vst_fnentry = 3 };
    uint32_t base = uint32_t(m_.values.size());
    for (;;) {
        BitstreamEntry e = cursor_.advance();
        if (e.kind == BitstreamEntry::Kind::error)
            return false;
        if (e.kind == BitstreamEntry::Kind::end_block)
            return true;
        if (e.kind == BitstreamEntry::Kind::subblock) {
            if (!cursor_.skip_block())
                return false;
            continue;
        }
        uint32_t code = 0;
        if (!cursor_.read_record(e.id, code, ops_))
            return false;
        if (code != vst_entry && code != vst_bbentry && code != vst_fnentry)
            continue;
        size_t first = code == vst_fnentry ? 2 : 1;
        if (!need(first, "VST_ENTRY"))
            return false;
        std::string_view name = ops_name(first);
        uint64_t id = ops_[0];
        if (code == vst_bbentry) {
            if (!local || id >= fn_->blocks.size())
                return fail(Code::dxil_bad_symbol, "a block name refers to block %llu", (unsigned long long)id);
            fn_->blocks[id].name = name;
        } else if (id < base) {
            m_.value_names[id] = name;
            const ModuleValue& v = m_.values[id];
            if (v.kind == ModuleValue::Kind::global)
                m_.globals[v.index].name = name;
            else if (v.kind == ModuleValue::Kind::function)
                m_.functions[v.index].name = name;
        } else if (local && id - base < fn_->values.size()) {
            fn_->values[id - base].name = name;
        } else {
            return fail(Code::dxil_bad_symbol, "a symbol refers to value %llu", (unsigned long long)id);
        }
    }
}

} // namespace detail

bool read_module(std::span<const uint8_t> bitcode, uint32_t bitcode_offset_in_container, Module& module,
                 Diagnostics& diags, ReadDepth depth)
{
    detail::ModuleReader reader(bitcode, bitcode_offset_in_container, module, diags, depth == ReadDepth::whole);
    size_t errors = diags.error_count();
    bool ok = reader.run();
    return ok && diags.error_count() == errors;
}

} // namespace dxspv::dxil

// Test helper: builds dxil::Module values in code (types, globals,
// functions, constants, metadata, function bodies) for the bitcode writer
// tests, keeping the module's tables consistent the way the reader fills
// them.
#pragma once

#include <initializer_list>
#include <string_view>
#include <vector>

#include "dxil/module/module.h"

namespace dxspv_test {

using namespace dxspv::dxil;

struct ModuleBuilder {
    Module m;

    template <typename T> std::span<const T> copy(std::initializer_list<T> v)
    {
        T* p = m.arena.alloc_array<T>(v.size());
        size_t i = 0;
        for (const T& x : v)
            p[i++] = x;
        return {p, v.size()};
    }
    template <typename T> std::span<const T> copy(const std::vector<T>& v)
    {
        T* p = m.arena.alloc_array<T>(v.size());
        for (size_t i = 0; i < v.size(); ++i)
            p[i] = v[i];
        return {p, v.size()};
    }
    std::string_view str(std::string_view s) { return m.arena.intern(s); }

    // Types.
    TypeId add(const Type& t)
    {
        m.types.push_back(t);
        return TypeId(m.types.size() - 1);
    }
    TypeId basic(TypeKind k)
    {
        Type t;
        t.kind = k;
        return add(t);
    }
    TypeId integer(uint32_t width)
    {
        Type t;
        t.kind = TypeKind::integer;
        t.width = width;
        return add(t);
    }
    TypeId pointer(TypeId element, uint32_t address_space = 0)
    {
        Type t;
        t.kind = TypeKind::pointer;
        t.element = element;
        t.address_space = address_space;
        return add(t);
    }
    TypeId sequence(TypeKind kind, uint64_t count, TypeId element)
    {
        Type t;
        t.kind = kind;
        t.count = count;
        t.element = element;
        return add(t);
    }
    TypeId function_type(TypeId ret, std::initializer_list<TypeId> params, bool vararg = false)
    {
        Type t;
        t.kind = TypeKind::function;
        t.element = ret;
        t.members = copy(params);
        t.vararg = vararg;
        return add(t);
    }
    TypeId structure(std::initializer_list<TypeId> members, std::string_view name = {}, bool identified = false,
                     bool packed = false)
    {
        Type t;
        t.kind = TypeKind::struct_;
        t.members = copy(members);
        t.name = str(name);
        t.identified = identified || !name.empty();
        t.packed = packed;
        return add(t);
    }
    TypeId find_pointer(TypeId element, uint32_t address_space = 0)
    {
        for (TypeId i = 0; i < m.types.size(); ++i)
            if (m.types[i].kind == TypeKind::pointer && m.types[i].element == element &&
                m.types[i].address_space == address_space)
                return i;
        return pointer(element, address_space);
    }

    // Module values: add globals, then functions, then constants.
    ValueId global(std::string_view name, TypeId value_type, GlobalVariable g = {})
    {
        g.name = str(name);
        g.value_type = value_type;
        g.pointer_type = find_pointer(value_type, g.address_space);
        m.values.push_back({ModuleValue::Kind::global, g.pointer_type, uint32_t(m.globals.size())});
        m.value_names.push_back(g.name);
        m.globals.push_back(g);
        return ValueId(m.values.size() - 1);
    }
    ValueId function(std::string_view name, TypeId type, bool declaration, uint32_t attributes = 0)
    {
        Function f;
        f.name = str(name);
        f.function_type = type;
        f.pointer_type = find_pointer(type);
        f.is_declaration = declaration;
        f.attributes = attributes;
        m.values.push_back({ModuleValue::Kind::function, f.pointer_type, uint32_t(m.functions.size())});
        m.value_names.push_back(f.name);
        m.functions.push_back(std::move(f));
        return ValueId(m.values.size() - 1);
    }
    ValueId constant(Constant c)
    {
        m.values.push_back({ModuleValue::Kind::constant, c.type, uint32_t(m.constants.size())});
        m.value_names.emplace_back();
        m.constants.push_back(c);
        return ValueId(m.values.size() - 1);
    }
    ValueId int_constant(TypeId type, int64_t v)
    {
        Constant c;
        c.kind = ConstantKind::integer;
        c.type = type;
        c.value = uint64_t(v);
        return constant(c);
    }

    // Metadata.
    MetadataId md(Metadata md)
    {
        m.metadata.push_back(md);
        return MetadataId(m.metadata.size() - 1);
    }
    MetadataId md_string(std::string_view s)
    {
        Metadata md;
        md.kind = MetadataKind::string;
        md.string = str(s);
        return this->md(md);
    }
    MetadataId md_value(ValueId v)
    {
        Metadata md;
        md.kind = MetadataKind::value;
        md.value = v;
        md.type = m.values[v].type;
        return this->md(md);
    }
    /// Operands are metadata ids; no_id gives null.
    MetadataId md_node(std::initializer_list<uint32_t> ops, bool distinct = false)
    {
        std::vector<uint32_t> plus_one;
        for (uint32_t op : ops)
            plus_one.push_back(op == no_id ? 0 : op + 1);
        Metadata md;
        md.kind = distinct ? MetadataKind::distinct_node : MetadataKind::node;
        md.operands = copy(plus_one);
        return this->md(md);
    }
    void named(std::string_view name, std::initializer_list<MetadataId> ops)
    {
        m.named_metadata.push_back({str(name), copy(ops)});
    }
};

/// Builds one function body: arguments exist from the start; add the
/// function's constants before any instruction that uses them.
struct BodyBuilder {
    ModuleBuilder& b;
    uint32_t index;
    Function& f;
    uint32_t base;

    BodyBuilder(ModuleBuilder& builder, ValueId function)
        : b(builder), index(builder.m.values[function].index), f(builder.m.functions[index]),
          base(uint32_t(builder.m.values.size()))
    {
        f.is_declaration = false;
        const Type& ft = b.m.types[f.function_type];
        for (uint32_t i = 0; i < ft.members.size(); ++i)
            f.values.push_back({LocalValue::Kind::argument, ft.members[i], i, {}});
    }
    ValueId arg(uint32_t i) const { return base + i; }
    void name(ValueId v, std::string_view n) { f.values[v - base].name = b.str(n); }
    ValueId constant(Constant c)
    {
        f.values.push_back({LocalValue::Kind::constant, c.type, uint32_t(f.constants.size()), {}});
        f.constants.push_back(c);
        return base + uint32_t(f.values.size() - 1);
    }
    /// Starts a new basic block (the previous one must end with a terminator).
    uint32_t block(std::string_view n = {})
    {
        BasicBlock bb;
        bb.name = b.str(n);
        bb.first = uint32_t(f.instructions.size());
        f.blocks.push_back(bb);
        return uint32_t(f.blocks.size() - 1);
    }
    /// Appends an instruction; returns its result value (no_id if void).
    ValueId inst(Opcode op, TypeId type, std::initializer_list<uint32_t> operands, uint8_t sub = 0, uint8_t flags = 0,
                 TypeId aux = no_id, uint32_t extra = 0)
    {
        Instruction i;
        i.op = op;
        i.type = type;
        i.operands = b.copy(operands);
        i.sub = sub;
        i.flags = flags;
        i.aux_type = aux;
        i.extra = extra;
        if (type != no_id && b.m.types[type].kind != TypeKind::void_) {
            i.result = base + uint32_t(f.values.size());
            f.values.push_back({LocalValue::Kind::instruction, type, uint32_t(f.instructions.size()), {}});
        }
        f.blocks.back().count++;
        f.instructions.push_back(i);
        return i.result;
    }
    /// The value id the next instruction with a result will get.
    ValueId next_value() const { return base + uint32_t(f.values.size()); }
};

} // namespace dxspv_test

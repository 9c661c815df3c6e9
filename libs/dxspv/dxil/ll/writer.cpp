#include "dxil/ll/writer.h"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "dxil/dxil.h"
#include "dxil/ll/names.h"

namespace dxspv::dxil {

namespace {

using ll::attribute_name;
using ll::binop_names;
using ll::cast_names;
using ll::fbinop_names;
using ll::fcmp_names;
using ll::icmp_names;
using ll::ordering_names;
using ll::rmw_names;

const char* ordering_name(uint32_t o) { return o < 7 ? ordering_names[o] : "unknown_ordering"; }

bool is_float(TypeKind k) { return k == TypeKind::half || k == TypeKind::float_ || k == TypeKind::double_; }

/// `%name` / `@name`, quoted when it holds characters LLVM does not allow bare.
void append_name(std::string& out, char prefix, std::string_view name)
{
    out.push_back(prefix);
    bool quote = !name.empty() && name[0] >= '0' && name[0] <= '9';
    for (char c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_')
            quote = true;
    if (!quote) {
        out += name;
        return;
    }
    out.push_back('"');
    for (char c : name) {
        unsigned char u = static_cast<unsigned char>(c);
        if (u >= 0x20 && u < 0x7F && c != '"' && c != '\\') {
            out.push_back(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "\\%02X", u);
            out += buf;
        }
    }
    out.push_back('"');
}

/// `!name` as LLVM writes metadata names: characters outside [-$._A-Za-z0-9] as \XX.
void append_metadata_name(std::string& out, std::string_view name)
{
    out.push_back('!');
    for (size_t i = 0; i < name.size(); ++i) {
        unsigned char u = static_cast<unsigned char>(name[i]);
        bool plain = std::isalpha(u) || u == '-' || u == '$' || u == '.' || u == '_' || (i > 0 && std::isdigit(u));
        if (plain) {
            out.push_back(char(u));
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "\\%02X", u);
            out += buf;
        }
    }
}

void append_escaped(std::string& out, std::string_view s)
{
    for (char c : s) {
        unsigned char u = static_cast<unsigned char>(c);
        if (std::isprint(u) && c != '"' && c != '\\') {
            out.push_back(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "\\%02X", u);
            out += buf;
        }
    }
}

/// LLVM 3.7's float printing: "%e" when it reads back exactly, else the
/// double's bits in hex (floats are widened to double first).
void append_fp(std::string& out, TypeKind kind, uint64_t bits)
{
    char buf[64];
    if (kind == TypeKind::half) {
        std::snprintf(buf, sizeof buf, "0xH%04X", unsigned(bits & 0xFFFF));
        out += buf;
        return;
    }
    double v;
    if (kind == TypeKind::float_) {
        float f;
        uint32_t b = uint32_t(bits);
        std::memcpy(&f, &b, 4);
        v = f;
    } else {
        std::memcpy(&v, &bits, 8);
    }
    if (std::isfinite(v)) {
        std::snprintf(buf, sizeof buf, "%e", v);
        if (std::strtod(buf, nullptr) == v) {
            out += buf;
            return;
        }
    }
    uint64_t dbits;
    std::memcpy(&dbits, &v, 8);
    if (kind == TypeKind::float_ && std::isnan(v)) {
        // Keep the float NaN payload: widen the bits by hand.
        uint32_t b = uint32_t(bits);
        dbits = (uint64_t(b >> 31) << 63) | (uint64_t(0x7FF) << 52) | (uint64_t(b & 0x7FFFFF) << 29);
    }
    std::snprintf(buf, sizeof buf, "0x%016" PRIX64, dbits);
    out += buf;
}

int64_t sign_extend(uint64_t v, uint32_t width)
{
    if (width == 0 || width >= 64)
        return int64_t(v);
    return int64_t(v << (64 - width)) >> (64 - width);
}

/// Indices of f's instruction attachments, ordered by instruction (stable).
std::vector<uint32_t> attachment_order(const Function& f)
{
    std::vector<uint32_t> order;
    for (uint32_t i = 0; i < f.attachments.size(); ++i)
        if (f.attachments[i].instruction != no_id)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return f.attachments[a].instruction < f.attachments[b].instruction;
    });
    return order;
}

class Printer {
public:
    explicit Printer(const Module& m) : m_(m) {}
    std::string run();

    void type(TypeId id);
    std::string type_text(TypeId id)
    {
        out_.clear();
        type(id);
        return std::move(out_);
    }

private:
    void number_metadata();
    void number_md_node(MetadataId id);
    void number_attributes();
    uint32_t fn_attr_group(uint32_t list) const;
    void header_and_types();
    void global(const GlobalVariable& g);
    void function(uint32_t index);
    void function_header(const Function& f);
    void number_locals(const Function& f);
    void block_label(const Function& f, uint32_t b, const std::vector<std::vector<uint32_t>>& preds);
    void instruction(const Function& f, const Instruction& inst);
    void call(const Instruction& inst);
    void attributes();
    void metadata();
    void md_operand(uint32_t op_plus_one);
    void md_ref(MetadataId id);
    void value(ValueId id);
    void typed_value(ValueId id);
    void constant(const Constant& c);
    void data_element(TypeId elem, uint64_t bits);
    void block_ref(uint32_t block);
    TypeId type_of(ValueId id) const;
    const Constant* constant_of(ValueId id) const;
    void attribute_group_text(const AttributeGroup& g, std::string& s) const;
    /// Attributes of parameter `index` (0 = return value) of a list; a
    /// space before (parameters) or after (return value).
    void index_attributes(uint32_t list, uint32_t index, bool leading_space);

    const Module& m_;
    std::string out_;
    std::vector<uint32_t> md_slot_;
    std::vector<MetadataId> md_order_;
    std::vector<uint32_t> attr_group_slots_; ///< group id per #N
    std::vector<uint32_t> global_slot_;      ///< unnamed module values: @N
    std::vector<ValueId> global_ids_, function_ids_;
    const Function* fn_ = nullptr;
    std::vector<uint32_t> local_slot_;
    std::vector<uint32_t> block_slot_;
};

const Constant* Printer::constant_of(ValueId id) const
{
    if (id < m_.values.size())
        return m_.values[id].kind == ModuleValue::Kind::constant ? &m_.constants[m_.values[id].index] : nullptr;
    size_t local = id - m_.values.size();
    if (!fn_ || local >= fn_->values.size() || fn_->values[local].kind != LocalValue::Kind::constant)
        return nullptr;
    return &fn_->constants[fn_->values[local].index];
}

TypeId Printer::type_of(ValueId id) const
{
    if (id < m_.values.size())
        return m_.values[id].type;
    size_t local = id - m_.values.size();
    return fn_ && local < fn_->values.size() ? fn_->values[local].type : no_id;
}

void Printer::type(TypeId id)
{
    if (id >= m_.types.size()) {
        out_ += "<bad type>";
        return;
    }
    const Type& t = m_.types[id];
    char buf[48];
    switch (t.kind) {
    case TypeKind::void_: out_ += "void"; return;
    case TypeKind::half: out_ += "half"; return;
    case TypeKind::float_: out_ += "float"; return;
    case TypeKind::double_: out_ += "double"; return;
    case TypeKind::label: out_ += "label"; return;
    case TypeKind::metadata: out_ += "metadata"; return;
    case TypeKind::integer: std::snprintf(buf, sizeof buf, "i%u", t.width); out_ += buf; return;
    case TypeKind::pointer:
        type(t.element);
        if (t.address_space) {
            std::snprintf(buf, sizeof buf, " addrspace(%u)", t.address_space);
            out_ += buf;
        }
        out_ += '*';
        return;
    case TypeKind::array:
    case TypeKind::vector:
        std::snprintf(buf, sizeof buf, "%c%" PRIu64 " x ", t.kind == TypeKind::array ? '[' : '<', t.count);
        out_ += buf;
        type(t.element);
        out_ += t.kind == TypeKind::array ? ']' : '>';
        return;
    case TypeKind::function:
        type(t.element);
        out_ += " (";
        for (size_t i = 0; i < t.members.size(); ++i) {
            if (i)
                out_ += ", ";
            type(t.members[i]);
        }
        if (t.vararg)
            out_ += t.members.empty() ? "..." : ", ...";
        out_ += ')';
        return;
    case TypeKind::struct_:
    case TypeKind::opaque:
        if (t.identified) {
            if (!t.name.empty()) {
                append_name(out_, '%', t.name);
            } else {
                uint32_t n = 0;
                for (TypeId i = 0; i < id; ++i)
                    n += m_.types[i].identified && m_.types[i].name.empty();
                out_ += '%' + std::to_string(n);
            }
            return;
        }
        if (t.members.empty()) {
            out_ += t.packed ? "<{}>" : "{}";
            return;
        }
        out_ += t.packed ? "<{ " : "{ ";
        for (size_t i = 0; i < t.members.size(); ++i) {
            if (i)
                out_ += ", ";
            type(t.members[i]);
        }
        out_ += t.packed ? " }>" : " }";
        return;
    default: out_ += "<unknown type>"; return;
    }
}

void Printer::number_md_node(MetadataId id)
{
    // Iterative pre-order walk (bounded memory, no recursion on malformed input).
    std::vector<std::pair<MetadataId, size_t>> stack;
    auto visit = [&](MetadataId n) {
        if (n >= m_.metadata.size() || md_slot_[n] != no_id)
            return false;
        MetadataKind k = m_.metadata[n].kind;
        if (k != MetadataKind::node && k != MetadataKind::distinct_node && k != MetadataKind::other)
            return false;
        md_slot_[n] = uint32_t(md_order_.size());
        md_order_.push_back(n);
        return true;
    };
    if (!visit(id))
        return;
    stack.push_back({id, 0});
    while (!stack.empty()) {
        auto& [n, i] = stack.back();
        const Metadata& md = m_.metadata[n];
        if (i >= md.operands.size()) {
            stack.pop_back();
            continue;
        }
        uint32_t op = md.operands[i++];
        if (op && visit(op - 1))
            stack.push_back({op - 1, 0});
    }
}

void Printer::number_metadata()
{
    md_slot_.assign(m_.metadata.size(), no_id);
    for (const NamedMetadata& n : m_.named_metadata)
        for (MetadataId id : n.operands)
            number_md_node(id);
    for (const Function& f : m_.functions) {
        if (f.is_declaration)
            continue;
        std::vector<uint32_t> order = attachment_order(f);
        size_t next = 0;
        for (uint32_t i = 0; i < f.instructions.size(); ++i) {
            const Instruction& inst = f.instructions[i];
            if (inst.op == Opcode::call)
                for (uint32_t op : inst.operands)
                    if (op & metadata_operand)
                        number_md_node(op & ~metadata_operand);
            for (; next < order.size() && f.attachments[order[next]].instruction <= i; ++next)
                if (f.attachments[order[next]].instruction == i)
                    number_md_node(f.attachments[order[next]].node);
        }
    }
}

uint32_t Printer::fn_attr_group(uint32_t list) const
{
    if (list == 0 || list > m_.attribute_lists.size())
        return no_id;
    for (uint32_t g : m_.attribute_lists[list - 1].groups) {
        const AttributeGroup* group = m_.find_attribute_group(g);
        if (group && group->index == 0xFFFFFFFFu)
            return g;
    }
    return no_id;
}

void Printer::number_attributes()
{
    auto add = [&](uint32_t list) {
        uint32_t g = fn_attr_group(list);
        if (g == no_id)
            return;
        for (uint32_t s : attr_group_slots_)
            if (s == g)
                return;
        attr_group_slots_.push_back(g);
    };
    for (const Function& f : m_.functions)
        add(f.attributes);
    for (const Function& f : m_.functions)
        for (const Instruction& inst : f.instructions)
            if (inst.op == Opcode::call)
                add(inst.extra);
}

void Printer::index_attributes(uint32_t list, uint32_t index, bool leading_space)
{
    if (list == 0 || list > m_.attribute_lists.size())
        return;
    std::string text;
    for (uint32_t g : m_.attribute_lists[list - 1].groups) {
        const AttributeGroup* group = m_.find_attribute_group(g);
        if (group && group->index == index)
            attribute_group_text(*group, text);
    }
    if (text.empty())
        return;
    if (leading_space)
        out_ += ' ';
    out_ += text;
    if (!leading_space)
        out_ += ' ';
}

void Printer::attribute_group_text(const AttributeGroup& g, std::string& s) const
{
    for (const Attribute& a : g.attributes) {
        if (!s.empty())
            s += ' ';
        if (a.kind == Attribute::Kind::string) {
            s += '"';
            append_escaped(s, a.key);
            s += '"';
            if (!a.string_value.empty() || a.key.empty()) {
                s += "=\"";
                append_escaped(s, a.string_value);
                s += '"';
            }
            continue;
        }
        const char* name = attribute_name(a.id);
        if (name)
            s += name;
        else
            s.append("attr").append(std::to_string(a.id));
        if (a.kind == Attribute::Kind::integer) {
            const bool equals = a.id == 1; // align=N; the others take (N)
            s.append(equals ? "=" : "(").append(std::to_string(a.value)).append(equals ? "" : ")");
        }
    }
}

void Printer::md_ref(MetadataId id)
{
    if (id >= m_.metadata.size()) {
        out_ += "!<bad>";
        return;
    }
    const Metadata& md = m_.metadata[id];
    switch (md.kind) {
    case MetadataKind::string:
        out_ += "!\"";
        append_escaped(out_, md.string);
        out_ += '"';
        return;
    case MetadataKind::value: {
        const Function* saved = fn_;
        if (md.function == no_id)
            fn_ = nullptr;
        type(md.type);
        out_ += ' ';
        value(md.value);
        fn_ = saved;
        return;
    }
    default: out_ += '!' + std::to_string(md_slot_[id]); return;
    }
}

void Printer::md_operand(uint32_t op)
{
    if (op == 0)
        out_ += "null";
    else
        md_ref(op - 1);
}

void Printer::block_ref(uint32_t block)
{
    out_ += "label ";
    if (block < fn_->blocks.size() && !fn_->blocks[block].name.empty())
        append_name(out_, '%', fn_->blocks[block].name);
    else
        out_ += '%' + std::to_string(block < block_slot_.size() ? block_slot_[block] : block);
}

void Printer::value(ValueId id)
{
    if (id & metadata_operand) {
        md_ref(id & ~metadata_operand);
        return;
    }
    if (id < m_.values.size()) {
        const ModuleValue& v = m_.values[id];
        if (v.kind == ModuleValue::Kind::constant) {
            constant(m_.constants[v.index]);
            return;
        }
        if (!m_.value_names[id].empty())
            append_name(out_, '@', m_.value_names[id]);
        else
            out_ += '@' + std::to_string(global_slot_[id]);
        return;
    }
    size_t local = id - m_.values.size();
    if (!fn_ || local >= fn_->values.size()) {
        out_ += "<bad value>";
        return;
    }
    const LocalValue& v = fn_->values[local];
    if (v.kind == LocalValue::Kind::constant) {
        constant(fn_->constants[v.index]);
        return;
    }
    if (!v.name.empty())
        append_name(out_, '%', v.name);
    else
        out_ += '%' + std::to_string(local_slot_[local]);
}

void Printer::typed_value(ValueId id)
{
    if (id & metadata_operand) {
        out_ += "metadata ";
        md_ref(id & ~metadata_operand);
        return;
    }
    type(type_of(id));
    out_ += ' ';
    value(id);
}

void Printer::data_element(TypeId elem, uint64_t bits)
{
    const Type& t = m_.types[elem];
    if (t.kind == TypeKind::integer)
        out_ += t.width == 1 ? ((bits & 1) ? "true" : "false") : std::to_string(sign_extend(bits, t.width));
    else
        append_fp(out_, t.kind, bits);
}

void Printer::constant(const Constant& c)
{
    const Type& t = m_.types[c.type];
    switch (c.kind) {
    case ConstantKind::undef: out_ += "undef"; return;
    case ConstantKind::null:
        if (t.kind == TypeKind::pointer)
            out_ += "null";
        else if (t.kind == TypeKind::integer)
            out_ += t.width == 1 ? "false" : "0";
        else if (is_float(t.kind))
            append_fp(out_, t.kind, 0);
        else
            out_ += "zeroinitializer";
        return;
    case ConstantKind::integer:
        out_ += t.width == 1 ? ((c.value & 1) ? "true" : "false") : std::to_string(sign_extend(c.value, t.width));
        return;
    case ConstantKind::float_: append_fp(out_, t.kind, c.value); return;
    case ConstantKind::data:
    case ConstantKind::string:
    case ConstantKind::aggregate: {
        bool i8_array = t.kind == TypeKind::array && m_.types[t.element].kind == TypeKind::integer &&
                        m_.types[t.element].width == 8 && c.kind != ConstantKind::aggregate;
        if (i8_array) {
            out_ += "c\"";
            for (uint64_t b : c.data) {
                char ch = char(b);
                std::string_view s(&ch, 1);
                append_escaped(out_, s);
            }
            out_ += '"';
            return;
        }
        const char* open = t.kind == TypeKind::array ? "[" : t.kind == TypeKind::vector ? "<" : t.packed ? "<{ " : "{ ";
        const char* close = t.kind == TypeKind::array ? "]" : t.kind == TypeKind::vector ? ">" : t.packed ? " }>" : " }";
        out_ += open;
        size_t n = c.kind == ConstantKind::aggregate ? c.operands.size() : c.data.size();
        for (size_t i = 0; i < n; ++i) {
            if (i)
                out_ += ", ";
            if (c.kind == ConstantKind::aggregate) {
                typed_value(c.operands[i]);
            } else {
                type(t.element);
                out_ += ' ';
                data_element(t.element, c.data[i]);
            }
        }
        out_ += close;
        return;
    }
    case ConstantKind::cast:
        out_ += c.opcode < 13 ? cast_names[c.opcode] : "cast";
        out_ += " (";
        typed_value(c.operands[0]);
        out_ += " to ";
        type(c.type);
        out_ += ')';
        return;
    case ConstantKind::gep:
        out_ += c.flags & 1 ? "getelementptr inbounds (" : "getelementptr (";
        type(c.source_type);
        for (ValueId op : c.operands) {
            out_ += ", ";
            typed_value(op);
        }
        out_ += ')';
        return;
    case ConstantKind::binop: {
        bool fp = is_float(t.kind == TypeKind::vector ? m_.types[t.element].kind : t.kind);
        out_ += fp && c.opcode < 7 ? fbinop_names[c.opcode] : c.opcode < 13 ? binop_names[c.opcode] : "binop";
        out_ += " (";
        typed_value(c.operands[0]);
        out_ += ", ";
        typed_value(c.operands[1]);
        out_ += ')';
        return;
    }
    case ConstantKind::cmp:
        out_ += c.opcode < 16 ? "fcmp " : "icmp ";
        out_ += c.opcode < 16 ? fcmp_names[c.opcode] : c.opcode >= 32 && c.opcode <= 41 ? icmp_names[c.opcode - 32] : "?";
        out_ += " (";
        typed_value(c.operands[0]);
        out_ += ", ";
        typed_value(c.operands[1]);
        out_ += ')';
        return;
    default: {
        const char* name = c.kind == ConstantKind::select           ? "select"
                           : c.kind == ConstantKind::extractelement ? "extractelement"
                           : c.kind == ConstantKind::insertelement  ? "insertelement"
                                                                    : "shufflevector";
        out_ += name;
        out_ += " (";
        for (size_t i = 0; i < c.operands.size(); ++i) {
            if (i)
                out_ += ", ";
            typed_value(c.operands[i]);
        }
        out_ += ')';
        return;
    }
    }
}

void Printer::header_and_types()
{
    // Escaped like every string: the reader unescapes them.
    if (!m_.datalayout.empty()) {
        out_ += "target datalayout = \"";
        append_escaped(out_, m_.datalayout);
        out_ += "\"\n";
    }
    if (!m_.triple.empty()) {
        out_ += "target triple = \"";
        append_escaped(out_, m_.triple);
        out_ += "\"\n";
    }
    bool any = false;
    for (TypeId i = 0; i < m_.types.size(); ++i) {
        const Type& t = m_.types[i];
        if (!t.identified)
            continue;
        if (!any)
            out_ += '\n';
        any = true;
        type(i);
        out_ += " = type ";
        if (t.kind == TypeKind::opaque) {
            out_ += "opaque\n";
            continue;
        }
        out_ += t.packed ? "<{ " : "{ ";
        if (t.members.empty())
            out_.resize(out_.size() - (t.packed ? 2 : 1)), out_ += t.packed ? "{}>" : "}";
        else {
            for (size_t k = 0; k < t.members.size(); ++k) {
                if (k)
                    out_ += ", ";
                type(t.members[k]);
            }
            out_ += t.packed ? " }>" : " }";
        }
        out_ += '\n';
    }
}

const char* linkage_text(Linkage l)
{
    switch (l) {
    case Linkage::private_: return "private ";
    case Linkage::internal: return "internal ";
    case Linkage::available_externally: return "available_externally ";
    case Linkage::linkonce_any: return "linkonce ";
    case Linkage::linkonce_odr: return "linkonce_odr ";
    case Linkage::weak_any: return "weak ";
    case Linkage::weak_odr: return "weak_odr ";
    case Linkage::common: return "common ";
    case Linkage::appending: return "appending ";
    case Linkage::extern_weak: return "extern_weak ";
    default: return "";
    }
}

void Printer::global(const GlobalVariable& g)
{
    value(global_ids_[size_t(&g - m_.globals.data())]);
    out_ += " = ";
    if (g.initializer == no_id && g.linkage == Linkage::external)
        out_ += "external ";
    out_ += linkage_text(g.linkage);
    static const char* const tls[] = {"", "thread_local ", "thread_local(localdynamic) ",
                                      "thread_local(initialexec) ", "thread_local(localexec) "};
    if (g.thread_local_mode && g.thread_local_mode < 5)
        out_ += tls[g.thread_local_mode];
    if (g.unnamed_addr)
        out_ += "unnamed_addr ";
    if (g.address_space)
        out_ += "addrspace(" + std::to_string(g.address_space) + ") ";
    if (g.externally_initialized)
        out_ += "externally_initialized ";
    out_ += g.is_constant ? "constant " : "global ";
    type(g.value_type);
    if (g.initializer != no_id) {
        out_ += ' ';
        value(g.initializer);
    }
    if (g.section && g.section <= m_.sections.size()) {
        out_ += ", section \"";
        append_escaped(out_, m_.sections[g.section - 1]);
        out_ += '"';
    }
    if (g.alignment)
        out_ += ", align " + std::to_string(g.alignment);
    out_ += '\n';
}

void Printer::number_locals(const Function& f)
{
    local_slot_.assign(f.values.size(), no_id);
    block_slot_.assign(f.blocks.size(), no_id);
    uint32_t next = 0;
    for (size_t i = 0; i < f.values.size(); ++i)
        if (f.values[i].kind == LocalValue::Kind::argument && f.values[i].name.empty())
            local_slot_[i] = next++;
    uint32_t base = uint32_t(m_.values.size());
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
        if (f.blocks[b].name.empty())
            block_slot_[b] = next++;
        for (uint32_t k = 0; k < f.blocks[b].count; ++k) {
            const Instruction& inst = f.instructions[f.blocks[b].first + k];
            if (inst.result != no_id && f.values[inst.result - base].name.empty())
                local_slot_[inst.result - base] = next++;
        }
    }
}

void Printer::function_header(const Function& f)
{
    uint32_t g = fn_attr_group(f.attributes);
    if (g != no_id) {
        std::string s;
        attribute_group_text(*m_.find_attribute_group(g), s);
        out_ += "; Function Attrs: " + s + '\n';
    }
    out_ += f.is_declaration ? "declare " : "define ";
    out_ += linkage_text(f.linkage);
    const Type& ft = m_.types[f.function_type];
    index_attributes(f.attributes, 0, false);
    type(ft.element);
    out_ += ' ';
    value(function_ids_[size_t(&f - m_.functions.data())]);
    out_ += '(';
    for (size_t i = 0; i < ft.members.size(); ++i) {
        if (i)
            out_ += ", ";
        type(ft.members[i]);
        index_attributes(f.attributes, uint32_t(i + 1), true);
        if (!f.is_declaration && i < f.values.size() && !f.values[i].name.empty()) {
            out_ += ' ';
            append_name(out_, '%', f.values[i].name);
        }
    }
    if (ft.vararg)
        out_ += ft.members.empty() ? "..." : ", ...";
    out_ += ')';
    if (f.unnamed_addr)
        out_ += " unnamed_addr";
    if (g != no_id)
        for (uint32_t s = 0; s < attr_group_slots_.size(); ++s)
            if (attr_group_slots_[s] == g)
                out_ += " #" + std::to_string(s);
    if (f.section && f.section <= m_.sections.size())
        out_ += " section \"" + std::string(m_.sections[f.section - 1]) + "\"";
    if (f.alignment)
        out_ += " align " + std::to_string(f.alignment);
}

void Printer::block_label(const Function& f, uint32_t b, const std::vector<std::vector<uint32_t>>& preds)
{
    size_t start = out_.size();
    if (!f.blocks[b].name.empty()) {
        append_name(out_, '%', f.blocks[b].name);
        out_.erase(start, 1);
        out_ += ':';
    } else if (preds[b].empty()) {
        // no label for an unused unnamed block
    } else {
        out_ += "; <label>:" + std::to_string(block_slot_[b]);
    }
    size_t col = out_.size() - start;
    out_.append(col < 50 ? 50 - col : (col ? 1 : 0), ' ');
    if (preds[b].empty()) {
        out_ += "; No predecessors!";
    } else {
        out_ += "; preds = ";
        for (size_t i = 0; i < preds[b].size(); ++i) {
            if (i)
                out_ += ", ";
            size_t at = out_.size();
            block_ref(preds[b][i]);
            out_.erase(at, 6); // drop "label "
        }
    }
    out_ += '\n';
}

void Printer::function(uint32_t index)
{
    const Function& f = m_.functions[index];
    fn_ = &f;
    out_ += '\n';
    if (!f.is_declaration)
        number_locals(f);
    function_header(f);
    if (f.is_declaration) {
        out_ += '\n';
        fn_ = nullptr;
        return;
    }
    out_ += " {\n";
    // Predecessors in LLVM's use-list order: the most recent use first.
    std::vector<std::vector<uint32_t>> preds(f.blocks.size());
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
        if (!f.blocks[b].count)
            continue;
        const Instruction& term = f.instructions[f.blocks[b].first + f.blocks[b].count - 1];
        for (size_t i = 0; i < term.operands.size(); ++i)
            if ((term.op == Opcode::br || term.op == Opcode::switch_) && !is_value_operand(term, i) &&
                term.operands[i] < f.blocks.size())
                preds[term.operands[i]].insert(preds[term.operands[i]].begin(), b);
    }
    std::vector<uint32_t> order = attachment_order(f);
    size_t next_attachment = 0;
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
        // LLVM 3.7: a blank line before each printed label; the entry block
        // gets no predecessor comment; an unnamed unused block no label.
        if (b == 0) {
            if (!f.blocks[b].name.empty()) {
                size_t at = out_.size();
                append_name(out_, '%', f.blocks[b].name);
                out_.erase(at, 1);
                out_ += ":\n";
            }
        } else {
            if (!f.blocks[b].name.empty() || !preds[b].empty())
                out_ += '\n';
            block_label(f, b, preds);
        }
        for (uint32_t k = 0; k < f.blocks[b].count; ++k) {
            uint32_t at = f.blocks[b].first + k;
            out_ += "  ";
            instruction(f, f.instructions[at]);
            for (; next_attachment < order.size() && f.attachments[order[next_attachment]].instruction <= at;
                 ++next_attachment) {
                const MetadataAttachment& a = f.attachments[order[next_attachment]];
                if (a.instruction != at || a.kind >= m_.metadata_kinds.size())
                    continue;
                out_ += ", ";
                append_metadata_name(out_, m_.metadata_kinds[a.kind]);
                out_ += ' ';
                md_ref(a.node);
            }
            out_ += '\n';
        }
    }
    out_ += "}\n";
    fn_ = nullptr;
}

void Printer::call(const Instruction& inst)
{
    if (inst.flags & 1)
        out_ += "tail ";
    out_ += "call ";
    if (inst.sub)
        out_ += "cc" + std::to_string(inst.sub) + ' ';
    const Type& ft = m_.types[inst.aux_type];
    index_attributes(inst.extra, 0, false);
    type(ft.vararg ? inst.aux_type : ft.element); // LLVM 3.7: the full function type only for varargs
    out_ += ' ';
    value(inst.operands[0]);
    out_ += '(';
    for (size_t i = 1; i < inst.operands.size(); ++i) {
        if (i > 1)
            out_ += ", ";
        uint32_t op = inst.operands[i];
        if (op & metadata_operand) {
            typed_value(op);
            continue;
        }
        type(type_of(op));
        index_attributes(inst.extra, uint32_t(i), true);
        out_ += ' ';
        value(op);
    }
    out_ += ')';
    uint32_t g = fn_attr_group(inst.extra);
    if (g != no_id)
        for (uint32_t s = 0; s < attr_group_slots_.size(); ++s)
            if (attr_group_slots_[s] == g)
                out_ += " #" + std::to_string(s);
}

void Printer::instruction(const Function& f, const Instruction& inst)
{
    if (inst.result != no_id) {
        value(inst.result);
        out_ += " = ";
    }
    auto ops = inst.operands;
    auto align = [&] {
        if (inst.extra)
            out_ += ", align " + std::to_string(inst.extra);
    };
    switch (inst.op) {
    case Opcode::binop: {
        const Type& t = m_.types[inst.type];
        bool fp = is_float(t.kind == TypeKind::vector ? m_.types[t.element].kind : t.kind);
        out_ += fp ? fbinop_names[inst.sub < 7 ? inst.sub : 0] : binop_names[inst.sub];
        if (fp) {
            if (inst.flags & 1)
                out_ += " fast";
            else {
                if (inst.flags & 2) out_ += " nnan";
                if (inst.flags & 4) out_ += " ninf";
                if (inst.flags & 8) out_ += " nsz";
                if (inst.flags & 16) out_ += " arcp";
            }
        } else if (inst.sub <= 2 || inst.sub == 7) {
            if (inst.flags & 1) out_ += " nuw";
            if (inst.flags & 2) out_ += " nsw";
        } else if ((inst.sub == 3 || inst.sub == 4 || inst.sub == 8 || inst.sub == 9) && (inst.flags & 1)) {
            out_ += " exact";
        }
        out_ += ' ';
        typed_value(ops[0]);
        out_ += ", ";
        value(ops[1]);
        return;
    }
    case Opcode::cast:
        out_ += cast_names[inst.sub];
        out_ += ' ';
        typed_value(ops[0]);
        out_ += " to ";
        type(inst.type);
        return;
    case Opcode::cmp:
        out_ += inst.sub < 16 ? "fcmp " : "icmp ";
        if (inst.sub < 16 && (inst.flags & 1))
            out_ += "fast ";
        out_ += inst.sub < 16 ? fcmp_names[inst.sub] : icmp_names[inst.sub - 32];
        out_ += ' ';
        typed_value(ops[0]);
        out_ += ", ";
        value(ops[1]);
        return;
    case Opcode::select:
        out_ += "select ";
        typed_value(ops[0]);
        out_ += ", ";
        typed_value(ops[1]);
        out_ += ", ";
        typed_value(ops[2]);
        return;
    case Opcode::phi:
        out_ += "phi ";
        type(inst.type);
        for (size_t i = 0; i + 1 < ops.size(); i += 2) {
            out_ += i ? ", [ " : " [ ";
            value(ops[i]);
            out_ += ", ";
            size_t at = out_.size();
            block_ref(ops[i + 1]);
            out_.erase(at, 6);
            out_ += " ]";
        }
        return;
    case Opcode::br:
        out_ += "br ";
        if (ops.size() == 1) {
            block_ref(ops[0]);
            return;
        }
        typed_value(ops[2]);
        out_ += ", ";
        block_ref(ops[0]);
        out_ += ", ";
        block_ref(ops[1]);
        return;
    case Opcode::switch_:
        out_ += "switch ";
        typed_value(ops[0]);
        out_ += ", ";
        block_ref(ops[1]);
        out_ += " [\n";
        for (size_t i = 2; i + 1 < ops.size(); i += 2) {
            out_ += "    ";
            typed_value(ops[i]);
            out_ += ", ";
            block_ref(ops[i + 1]);
            out_ += '\n';
        }
        out_ += "  ]";
        return;
    case Opcode::ret:
        out_ += "ret ";
        if (ops.empty())
            out_ += "void";
        else
            typed_value(ops[0]);
        return;
    case Opcode::unreachable: out_ += "unreachable"; return;
    case Opcode::alloca: {
        // LLVM omits the element count when it is the constant i32 1.
        out_ += "alloca ";
        type(inst.aux_type);
        const Constant* size = constant_of(ops[0]);
        bool one = size && size->kind == ConstantKind::integer && size->value == 1 &&
                   m_.types[size->type].kind == TypeKind::integer && m_.types[size->type].width == 32;
        if (!one) {
            out_ += ", ";
            typed_value(ops[0]);
        }
        align();
        return;
    }
    case Opcode::load:
        out_ += inst.flags & 1 ? "load volatile " : "load ";
        type(inst.type);
        out_ += ", ";
        typed_value(ops[0]);
        align();
        return;
    case Opcode::store:
        out_ += inst.flags & 1 ? "store volatile " : "store ";
        typed_value(ops[1]);
        out_ += ", ";
        typed_value(ops[0]);
        align();
        return;
    case Opcode::gep:
        out_ += inst.flags & 1 ? "getelementptr inbounds " : "getelementptr ";
        type(inst.aux_type);
        for (ValueId op : ops) {
            out_ += ", ";
            typed_value(op);
        }
        return;
    case Opcode::extractvalue:
    case Opcode::insertvalue: {
        bool extract = inst.op == Opcode::extractvalue;
        out_ += extract ? "extractvalue " : "insertvalue ";
        typed_value(ops[0]);
        if (!extract) {
            out_ += ", ";
            typed_value(ops[1]);
        }
        for (size_t i = extract ? 1 : 2; i < ops.size(); ++i)
            out_ += ", " + std::to_string(ops[i]);
        return;
    }
    case Opcode::extractelement:
    case Opcode::insertelement:
    case Opcode::shufflevector:
        out_ += inst.op == Opcode::extractelement ? "extractelement "
                : inst.op == Opcode::insertelement ? "insertelement "
                                                   : "shufflevector ";
        for (size_t i = 0; i < ops.size(); ++i) {
            if (i)
                out_ += ", ";
            typed_value(ops[i]);
        }
        return;
    case Opcode::atomicrmw:
        out_ += inst.flags & 1 ? "atomicrmw volatile " : "atomicrmw ";
        out_ += inst.sub < 11 ? rmw_names[inst.sub] : "?";
        out_ += ' ';
        typed_value(ops[0]);
        out_ += ", ";
        typed_value(ops[1]);
        out_ += ((inst.extra >> 8) & 0xFF) == 0 ? " singlethread " : " ";
        out_ += ordering_name(inst.extra & 0xFF);
        return;
    case Opcode::cmpxchg:
        out_ += "cmpxchg ";
        if (inst.flags & 2)
            out_ += "weak ";
        if (inst.flags & 1)
            out_ += "volatile ";
        typed_value(ops[0]);
        out_ += ", ";
        typed_value(ops[1]);
        out_ += ", ";
        typed_value(ops[2]);
        out_ += ((inst.extra >> 16) & 0xFF) == 0 ? " singlethread " : " ";
        out_ += ordering_name(inst.extra & 0xFF);
        out_ += ' ';
        out_ += ordering_name((inst.extra >> 8) & 0xFF);
        return;
    case Opcode::call: call(inst); return;
    case Opcode::fence:
        out_ += ((inst.extra >> 8) & 0xFF) == 0 ? "fence singlethread " : "fence ";
        out_ += ordering_name(inst.extra & 0xFF);
        return;
    }
}

void Printer::attributes()
{
    if (attr_group_slots_.empty())
        return;
    out_ += '\n';
    for (uint32_t s = 0; s < attr_group_slots_.size(); ++s) {
        std::string text;
        attribute_group_text(*m_.find_attribute_group(attr_group_slots_[s]), text);
        out_ += "attributes #" + std::to_string(s) + " = { " + text + " }\n";
    }
}

void Printer::metadata()
{
    if (!m_.named_metadata.empty())
        out_ += '\n';
    for (const NamedMetadata& n : m_.named_metadata) {
        append_metadata_name(out_, n.name);
        out_ += " = !{";
        for (size_t i = 0; i < n.operands.size(); ++i) {
            if (i)
                out_ += ", ";
            md_ref(n.operands[i]);
        }
        out_ += "}\n";
    }
    if (md_order_.empty())
        return;
    out_ += '\n';
    for (size_t s = 0; s < md_order_.size(); ++s) {
        const Metadata& md = m_.metadata[md_order_[s]];
        out_ += '!' + std::to_string(s) + " = ";
        if (md.kind == MetadataKind::other) {
            // Debug-info nodes by name (their fields are not decoded), so the text reads back.
            if (const char* name = ll::specialized_metadata_name(md.value))
                out_ += std::string("!") + name + "()  ; fields not decoded\n";
            else
                out_ += "!{}  ; unsupported metadata record " + std::to_string(md.value) + '\n';
            continue;
        }
        if (md.kind == MetadataKind::distinct_node)
            out_ += "distinct ";
        out_ += "!{";
        for (size_t i = 0; i < md.operands.size(); ++i) {
            if (i)
                out_ += ", ";
            md_operand(md.operands[i]);
        }
        out_ += "}\n";
    }
}

std::string Printer::run()
{
    global_slot_.assign(m_.values.size(), no_id);
    global_ids_.assign(m_.globals.size(), 0);
    function_ids_.assign(m_.functions.size(), 0);
    uint32_t next = 0;
    for (ValueId i = 0; i < m_.values.size(); ++i) {
        const ModuleValue& v = m_.values[i];
        if (v.kind != ModuleValue::Kind::constant && m_.value_names[i].empty())
            global_slot_[i] = next++;
        if (v.kind == ModuleValue::Kind::global)
            global_ids_[v.index] = i;
        else if (v.kind == ModuleValue::Kind::function)
            function_ids_[v.index] = i;
    }
    number_metadata();
    number_attributes();
    header_and_types();
    if (!m_.globals.empty())
        out_ += '\n';
    for (const GlobalVariable& g : m_.globals)
        global(g);
    for (uint32_t i = 0; i < m_.functions.size(); ++i)
        function(i);
    attributes();
    metadata();
    return std::move(out_);
}

} // namespace

std::string print_type(const Module& module, TypeId type)
{
    Printer p(module);
    return p.type_text(type);
}

std::string print_module(const Module& module)
{
    Printer p(module);
    return p.run();
}

} // namespace dxspv::dxil

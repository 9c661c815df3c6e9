#include "dxil/ops/ops.h"

#include <string>

namespace dxspv::dxil::ops {

namespace {

// Stage names as the data file spells them, indexed by ShaderStage.
const char* const stage_names[] = {
    "pixel", "vertex", "geometry", "hull", "domain", "compute", "library", "raygeneration",
    "intersection", "anyhit", "closesthit", "miss", "callable", "mesh", "amplification", "node",
};

const char* stage_name(ShaderStage s)
{
    return unsigned(s) < std::size(stage_names) ? stage_names[unsigned(s)] : "unknown";
}

const char* const scalar_names[] = {"void", "f16", "f32", "f64", "i1", "i8", "i16", "i32", "i64", "udt", "object"};

bool is_aggregate(ScalarType t) { return t == ScalarType::udt || t == ScalarType::object; }

/// "DXIL op 13 (Sin)" for the stable table, "DXIL op 0x80000012 (experimental
/// feature 0x8000, op 18, Name)" otherwise; name may be null.
std::string describe(uint32_t opcode, const char* name)
{
    uint16_t feature = uint16_t(opcode >> 16), index = uint16_t(opcode & 0xffff);
    if (feature == 0)
        return name ? strformat("DXIL op %u (%s)", opcode, name) : strformat("DXIL op %u", opcode);
    const TableInfo* t = find_table(feature);
    const char* kind = t && t->experimental ? "experimental feature" : "feature";
    if (name)
        return strformat("DXIL op 0x%08x (%s 0x%04x, op %u, %s)", opcode, kind, feature, index, name);
    return strformat("DXIL op 0x%08x (%s 0x%04x, op %u)", opcode, kind, feature, index);
}

std::string describe(const OpInfo& op) { return describe(op.opcode, op.name); }

std::string dim_types(const OverloadDim& d)
{
    std::string s;
    for (unsigned t = 0; t < std::size(scalar_names); ++t)
        if (d.scalars >> t & 1)
            s += std::string(s.empty() ? "" : ",") + scalar_names[t];
    for (unsigned t = 0; t < std::size(scalar_names); ++t)
        if (d.vectors >> t & 1)
            s += std::string(s.empty() ? "" : ",") + "<n x " + scalar_names[t] + ">";
    return s;
}

std::string step_types(const OverloadStep& st)
{
    std::string s;
    for (unsigned i = 0; i < st.dim_count; ++i)
        s += (i ? "; " : "") + dim_types(st.dims[i]);
    return s;
}

bool dim_allows(const OverloadDim& d, Overload o)
{
    uint16_t bit = uint16_t(1u << unsigned(o.type));
    if (o.vector)
        return (d.vectors & bit) != 0;
    if (d.scalars & bit)
        return true;
    // A struct type in a function name does not tell a UDT from an object
    // (handle, matrix): accept one for the other.
    uint16_t agg = uint16_t(1u << unsigned(ScalarType::udt) | 1u << unsigned(ScalarType::object));
    return is_aggregate(o.type) && (d.scalars & agg) != 0;
}

bool sm_less(ShaderModel sm, uint8_t major, uint8_t minor)
{
    return sm.major < major || (sm.major == major && sm.minor < minor);
}

bool is_void_op(const OpInfo& op)
{
    const OverloadStep& st = op.overload_steps[0];
    return st.dim_count == 1 && st.dims[0].scalars == 1u << unsigned(ScalarType::void_) && st.dims[0].vectors == 0;
}

bool has_aggregate_dim(const OpInfo& op)
{
    uint16_t agg = uint16_t(1u << unsigned(ScalarType::udt) | 1u << unsigned(ScalarType::object));
    for (const OverloadStep& st : op.overloads())
        for (unsigned i = 0; i < st.dim_count; ++i)
            if (st.dims[i].scalars & agg)
                return true;
    return false;
}

bool check_overloads(const OpInfo& op, std::string_view suffix, std::span<const Overload> overloads, ShaderModel sm,
                     Diagnostics& diags, Location loc)
{
    bool ok = true;
    bool void_op = is_void_op(op);
    size_t dims = op.overload_steps[0].dim_count;
    std::span<const Overload> given = overloads;
    if (void_op && given.size() == 1 && given[0] == Overload{})
        given = {};
    size_t expected = void_op ? 0 : dims;
    if (given.size() != expected) {
        diags.error(Code::dxil_op_overload_mismatch, loc,
                    "%s takes %zu overload type(s), the call gives %zu", describe(op).c_str(), expected, given.size());
        return false;
    }
    // The function name's suffixes: none for an op that is not overloaded;
    // checked against the types when every position is a primitive type
    // (struct names may themselves contain dots).
    if (void_op) {
        if (!suffix.empty()) {
            diags.error(Code::dxil_op_overload_mismatch, loc, "%s is not overloaded, but its function has the suffix '%.*s'",
                        describe(op).c_str(), int(suffix.size()), suffix.data());
            ok = false;
        }
        return ok;
    }
    if (!has_aggregate_dim(op)) {
        std::string_view rest = suffix;
        for (size_t i = 0; i < given.size(); ++i) {
            size_t dot = rest.find('.');
            std::string_view part = rest.substr(0, dot);
            rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
            Overload parsed;
            if (part.empty() || !parse_overload_suffix(part, parsed) || !(parsed == given[i])) {
                diags.error(Code::dxil_op_overload_mismatch, loc,
                            "the function name's overload '%.*s' does not match the call's type %s for %s",
                            int(part.size()), part.data(), overload_name(given[i]).c_str(), describe(op).c_str());
                return false;
            }
        }
        if (!rest.empty()) {
            diags.error(Code::dxil_op_overload_mismatch, loc, "extra overload suffix '%.*s' for %s", int(rest.size()),
                        rest.data(), describe(op).c_str());
            return false;
        }
    }
    // The overloads allowed at this shader model: the last step at or below it.
    const OverloadStep* step = nullptr;
    for (const OverloadStep& st : op.overloads())
        if (!sm_less(sm, st.sm_major, st.sm_minor))
            step = &st;
    for (size_t i = 0; i < given.size(); ++i) {
        if (step && dim_allows(step->dims[i], given[i]))
            continue;
        const OverloadStep* later = nullptr;
        for (const OverloadStep& st : op.overloads())
            if (sm_less(sm, st.sm_major, st.sm_minor) && dim_allows(st.dims[i], given[i])) {
                later = &st;
                break;
            }
        std::string allowed = step ? step_types(*step) : std::string("none");
        if (later)
            diags.error(Code::dxil_op_overload_not_allowed, loc,
                        "overload %s of %s needs shader model %u.%u; the shader is %u.%u (allowed there: %s)",
                        overload_name(given[i]).c_str(), describe(op).c_str(), later->sm_major, later->sm_minor,
                        sm.major, sm.minor, allowed.c_str());
        else
            diags.error(Code::dxil_op_overload_not_allowed, loc,
                        "overload %s is not allowed for %s (allowed at shader model %u.%u: %s)",
                        overload_name(given[i]).c_str(), describe(op).c_str(), sm.major, sm.minor, allowed.c_str());
        ok = false;
    }
    return ok;
}

} // namespace

std::span<const TableInfo> tables() { return detail::tables; }

const TableInfo* find_table(uint16_t feature)
{
    for (const TableInfo& t : detail::tables)
        if (t.feature == feature)
            return &t;
    return nullptr;
}

const ClassInfo& class_info(OpClass c) { return detail::classes[unsigned(c)]; }

const OpInfo& info(OpId id)
{
    // OpId values are generated from the table, so this always finds it.
    const TableInfo* t = find_table(uint16_t(uint32_t(id) >> 16));
    return t->ops[uint32_t(id) & 0xffff];
}

const OpInfo* find_by_name(std::string_view name)
{
    for (const TableInfo& t : detail::tables)
        for (const OpInfo& op : t.ops)
            if (name == op.name)
                return &op;
    return nullptr;
}

const OpInfo* lookup(uint32_t opcode, bool experimental_enabled, Diagnostics& diags, Location loc)
{
    uint16_t feature = uint16_t(opcode >> 16), index = uint16_t(opcode & 0xffff);
    const TableInfo* t = find_table(feature);
    if (!t) {
        std::string known;
        for (const TableInfo& k : detail::tables)
            known += strformat("%s0x%04x %s", known.empty() ? "" : ", ", k.feature, k.experimental ? "experimental" : "stable");
        diags.error(Code::dxil_op_unknown_feature, loc, "unknown %s: no op table has feature id 0x%04x (known: %s)",
                    describe(opcode, nullptr).c_str(), feature, known.c_str());
        return nullptr;
    }
    if (index >= t->ops.size()) {
        diags.error(Code::dxil_op_unknown_index, loc, "unknown %s: the %s op table (%s) has ops 0-%zu",
                    describe(opcode, nullptr).c_str(), t->experimental ? "experimental" : "stable", t->name,
                    t->ops.size() - 1);
        return nullptr;
    }
    const OpInfo& op = t->ops[index];
    if (t->experimental && !experimental_enabled) {
        diags.error(Code::dxil_op_experimental_disabled, loc,
                    "%s is experimental; enable experimental ops to accept it", describe(op).c_str());
        return nullptr;
    }
    if (op.has(Flag::reserved)) {
        diags.error(Code::dxil_op_reserved, loc, "%s is a reserved slot, not an operation", describe(op).c_str());
        return nullptr;
    }
    return &op;
}

bool parse_overload_suffix(std::string_view s, Overload& out)
{
    if (s.starts_with("struct.")) {
        out = {ScalarType::udt, false};
        return true;
    }
    bool vector = false;
    if (s.size() > 1 && s[0] == 'v' && s[1] >= '0' && s[1] <= '9') {
        size_t i = 1;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9')
            ++i;
        s = s.substr(i);
        vector = true;
    }
    for (unsigned t = unsigned(ScalarType::f16); t <= unsigned(ScalarType::i64); ++t)
        if (s == scalar_names[t]) {
            out = {ScalarType(t), vector};
            return true;
        }
    return false;
}

std::string overload_name(Overload o)
{
    const char* n = unsigned(o.type) < std::size(scalar_names) ? scalar_names[unsigned(o.type)] : "?";
    return o.vector ? strformat("<n x %s>", n) : std::string(n);
}

bool check_call(const OpInfo& op, std::string_view function_name, std::span<const Overload> overloads, ShaderModel sm,
                ShaderStage stage, Diagnostics& diags, Location loc)
{
    constexpr std::string_view prefix = "dx.op.";
    if (!function_name.starts_with(prefix)) {
        diags.error(Code::dxil_op_bad_function_name, loc, "%s is called through '%.*s', which is not a dx.op.* function",
                    describe(op).c_str(), int(function_name.size()), function_name.data());
        return false;
    }
    std::string_view rest = function_name.substr(prefix.size());
    size_t dot = rest.find('.');
    std::string_view fn = rest.substr(0, dot);
    std::string_view suffix = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
    const ClassInfo& ci = class_info(op.op_class);
    bool ok = true;
    if (fn != ci.function) {
        diags.error(Code::dxil_op_class_mismatch, loc,
                    "'%.*s' calls %s, whose op class %s is called through dx.op.%s", int(function_name.size()),
                    function_name.data(), describe(op).c_str(), ci.name, ci.function);
        ok = false;
    }
    if (sm_less(sm, op.min_sm_major, op.min_sm_minor)) {
        diags.error(Code::dxil_op_shader_model, loc, "%s needs shader model %u.%u; the shader is %u.%u",
                    describe(op).c_str(), op.min_sm_major, op.min_sm_minor, sm.major, sm.minor);
        ok = false;
    }
    if (ok && !check_overloads(op, suffix, overloads, sm, diags, loc))
        ok = false;
    if (!op.allows_stage(stage)) {
        std::string allowed;
        for (unsigned s = 0; s < std::size(stage_names); ++s)
            if (op.stages >> s & 1)
                allowed += std::string(allowed.empty() ? "" : ", ") + stage_names[s];
        diags.error(Code::dxil_op_stage_not_allowed, loc, "%s is not allowed in %s shaders (allowed: %s)",
                    describe(op).c_str(), stage_name(stage), allowed.c_str());
        ok = false;
    }
    return ok;
}

bool check_call(const OpInfo& op, std::string_view function_name, Overload overload, ShaderModel sm,
                ShaderStage stage, Diagnostics& diags, Location loc)
{
    return check_call(op, function_name, std::span<const Overload>(&overload, 1), sm, stage, diags, loc);
}

} // namespace dxspv::dxil::ops

#include "bindings_file.h"

#include <charconv>

namespace shader_translate {

namespace {

bool parse_u32(std::string_view s, uint32_t& out)
{
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

bool parse_visibility(std::string_view s, dxspv_shader_visibility& out)
{
    static const std::pair<const char*, dxspv_shader_visibility> names[] = {
        {"all", DXSPV_SHADER_VISIBILITY_ALL},    {"vs", DXSPV_SHADER_VISIBILITY_VERTEX},
        {"hs", DXSPV_SHADER_VISIBILITY_HULL},    {"ds", DXSPV_SHADER_VISIBILITY_DOMAIN},
        {"gs", DXSPV_SHADER_VISIBILITY_GEOMETRY}, {"ps", DXSPV_SHADER_VISIBILITY_PIXEL},
        {"as", DXSPV_SHADER_VISIBILITY_AMPLIFICATION}, {"ms", DXSPV_SHADER_VISIBILITY_MESH},
    };
    for (const auto& [name, value] : names)
        if (s == name) {
            out = value;
            return true;
        }
    return false;
}

/// `R`, `R..L` or `R..*` into first register and count.
bool parse_registers(std::string_view s, uint32_t& first, uint32_t& count)
{
    size_t dots = s.find("..");
    if (dots == std::string_view::npos) {
        count = 1;
        return parse_u32(s, first);
    }
    if (!parse_u32(s.substr(0, dots), first))
        return false;
    std::string_view last = s.substr(dots + 2);
    if (last == "*") {
        count = ~0u;
        return true;
    }
    uint32_t l;
    if (!parse_u32(last, l) || l < first)
        return false;
    count = l - first + 1;
    return true;
}

std::vector<std::string_view> words(std::string_view line)
{
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            ++i;
        size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            ++i;
        if (i > start)
            out.push_back(line.substr(start, i - start));
    }
    return out;
}

struct Entry {
    bool has_space = false, has_register = false, has_set = false, has_binding = false, has_push = false;
    uint32_t space = 0, first = 0, count = 1, set = 0, binding = 0, push = 0;
    dxspv_shader_visibility visibility = DXSPV_SHADER_VISIBILITY_ALL;
};

/// The key=value words after the kind; an error message or "".
std::string parse_entry(const std::vector<std::string_view>& w, Entry& e)
{
    for (size_t i = 1; i < w.size(); ++i) {
        size_t eq = w[i].find('=');
        if (eq == std::string_view::npos)
            return "expected key=value, got '" + std::string(w[i]) + "'";
        std::string_view key = w[i].substr(0, eq), value = w[i].substr(eq + 1);
        bool ok;
        if (key == "space")
            ok = e.has_space = parse_u32(value, e.space);
        else if (key == "register")
            ok = e.has_register = parse_registers(value, e.first, e.count);
        else if (key == "set")
            ok = e.has_set = parse_u32(value, e.set);
        else if (key == "binding")
            ok = e.has_binding = parse_u32(value, e.binding);
        else if (key == "push_constant")
            ok = e.has_push = parse_u32(value, e.push);
        else if (key == "visibility")
            ok = parse_visibility(value, e.visibility);
        else
            return "unknown key '" + std::string(key) + "'";
        if (!ok)
            return "bad value for " + std::string(key) + ": '" + std::string(value) + "'";
    }
    if (!e.has_space || !e.has_register)
        return "space= and register= are required";
    return {};
}

} // namespace

dxspv_interface_info BindingFile::interface_info(const void* next) const
{
    dxspv_interface_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_INTERFACE_INFO;
    info.next = next;
    info.bindings = bindings.data();
    info.binding_count = unsigned(bindings.size());
    info.counter_bindings = counters.data();
    info.counter_binding_count = unsigned(counters.size());
    info.flags = flags;
    return info;
}

bool parse_binding_file(std::string_view text, std::string_view name, BindingFile& out, std::string& error)
{
    unsigned line_number = 0;
    while (!text.empty()) {
        size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        ++line_number;
        if (size_t hash = line.find('#'); hash != std::string_view::npos)
            line = line.substr(0, hash);
        std::vector<std::string_view> w = words(line);
        if (w.empty())
            continue;
        auto fail = [&](const std::string& message) {
            error = std::string(name) + ":" + std::to_string(line_number) + ": " + message;
            return false;
        };
        if (w[0] == "strict") {
            if (w.size() != 1)
                return fail("'strict' takes no values");
            out.flags |= DXSPV_INTERFACE_STRICT;
            continue;
        }
        static const std::pair<const char*, dxspv_descriptor_type> kinds[] = {
            {"srv", DXSPV_DESCRIPTOR_TYPE_SRV}, {"uav", DXSPV_DESCRIPTOR_TYPE_UAV},
            {"cbv", DXSPV_DESCRIPTOR_TYPE_CBV}, {"sampler", DXSPV_DESCRIPTOR_TYPE_SAMPLER}};
        Entry e;
        if (std::string message = parse_entry(w, e); !message.empty())
            return fail(message);
        if (w[0] == "counter") {
            if (e.count != 1 || e.has_push || !e.has_set || !e.has_binding)
                return fail("a counter maps one register and needs set= and binding=");
            out.counters.push_back({e.space, e.first, e.visibility, e.set, e.binding});
            continue;
        }
        const dxspv_descriptor_type* type = nullptr;
        for (const auto& [kind, value] : kinds)
            if (w[0] == kind)
                type = &value;
        if (!type)
            return fail("unknown entry kind '" + std::string(w[0]) + "' (srv, uav, cbv, sampler, counter, strict)");
        if (e.has_push && *type != DXSPV_DESCRIPTOR_TYPE_CBV)
            return fail("push_constant= is for cbv entries only");
        if (!e.has_push && (!e.has_set || !e.has_binding))
            return fail("set= and binding= are required");
        dxspv_descriptor_binding b = {};
        b.type = *type;
        b.register_space = e.space;
        b.register_index = e.first;
        b.register_count = e.count;
        b.visibility = e.visibility;
        b.set = e.set;
        b.binding = e.binding;
        b.flags = e.has_push ? DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT : 0;
        b.push_constant_offset = e.push;
        out.bindings.push_back(b);
    }
    return true;
}

} // namespace shader_translate

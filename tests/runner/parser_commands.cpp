// .shader_test [test] commands: prefixes (todo, todo(cond), bug(cond),
// if(cond)), then uniform / draw / dispatch / clear / probe / state commands.
#include "parser.h"
#include "parser_util.h"

#include <cstring>

namespace runner {

using namespace detail;

namespace {

struct CommandError {
    std::string message;
};

[[noreturn]] void fail(const std::string& message) { throw CommandError{message}; }

/// Reads "(cond)" after a prefix; the condition without the parentheses.
std::string read_paren_condition(std::string_view& line)
{
    if (line.empty() || line.front() != '(')
        return {};
    int depth = 0;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '(')
            ++depth;
        else if (line[i] == ')' && --depth == 0) {
            std::string cond(line.substr(1, i - 1));
            line = trim(line.substr(i + 1));
            return cond;
        }
    }
    fail("missing ')' in condition");
}

bool match_prefix(std::string_view& line, std::string_view word, std::optional<std::string>& out, bool needs_cond)
{
    if (line.substr(0, word.size()) != word)
        return false;
    std::string_view rest = line.substr(word.size());
    if (rest.empty() || !(rest.front() == '(' || rest.front() == ' ' || rest.front() == '\t'))
        return false;
    rest = trim(rest);
    if (rest.front() != '(' && needs_cond)
        return false;
    line = rest;
    out = read_paren_condition(line);
    return true;
}

int parse_comparison(std::string_view& line)
{
    static const struct { const char* name; int func; } funcs[] = {
        {"never", 1}, {"less equal", 4}, {"less", 2}, {"equal", 3}, {"greater equal", 7},
        {"greater", 5}, {"not equal", 6}, {"always", 8},
    };
    for (const auto& f : funcs) {
        std::string_view name = f.name;
        if (line.substr(0, name.size()) == name) {
            line = trim(line.substr(name.size()));
            return f.func;
        }
    }
    fail("unknown comparison '" + std::string(line) + "'");
}

void read_floats(std::string_view& line, float* out, int count, const char* what)
{
    for (int i = 0; i < count; ++i) {
        double d = 0;
        uint64_t u = 0;
        if (!read_number(line, true, false, d, u))
            fail(std::string("malformed ") + what + " arguments");
        out[i] = static_cast<float>(d);
    }
}

void uniform_command(std::string_view line, Command& cmd)
{
    if (!read_uint(line, cmd.offset))
        fail("expected 'uniform <offset> <type> <values>'");
    std::string_view type = read_token(line);
    static const struct { const char* base; int words; bool is_float, is_double, is_signed; } bases[] = {
        {"float", 1, true, false, false}, {"int64_t", 2, false, false, true}, {"uint64_t", 2, false, false, false},
        {"int", 1, false, false, true}, {"uint", 1, false, false, false}, {"double", 2, true, true, false},
        {"bool", 1, false, false, false},
    };
    for (const auto& b : bases) {
        std::string_view base = b.base;
        if (type.substr(0, base.size()) != base)
            continue;
        std::string_view count_text = type.substr(base.size());
        if (!count_text.empty() && !(count_text.size() == 1 && count_text[0] >= '1' && count_text[0] <= '4'))
            continue;
        int count = count_text.empty() ? 1 : count_text[0] - '0';
        for (int i = 0; i < count; ++i) {
            double d = 0;
            uint64_t u = 0;
            if (!read_number(line, b.is_float, b.is_signed, d, u))
                fail("uniform " + std::string(type) + " needs " + std::to_string(count) + " values");
            if (b.is_double)
                std::memcpy(&u, &d, 8);
            else if (b.is_float) {
                float f = static_cast<float>(d);
                uint32_t w = 0;
                std::memcpy(&w, &f, 4);
                u = w;
            }
            cmd.words.push_back(static_cast<uint32_t>(u));
            if (b.words == 2)
                cmd.words.push_back(static_cast<uint32_t>(u >> 32));
        }
        if (!line.empty())
            fail("trailing text after uniform values: '" + std::string(line) + "'");
        cmd.kind = Command::Kind::uniform;
        return;
    }
    fail("unknown uniform type '" + std::string(type) + "'");
}

void draw_command(std::string_view line, Command& cmd)
{
    cmd.kind = Command::Kind::draw;
    if (match_word(line, "quad")) {
        cmd.kind = Command::Kind::draw_quad;
        cmd.count = 3;
    } else if (match_word(line, "triangle")) {
        if (match_word(line, "list"))
            cmd.topology = Topology::triangle_list;
        else if (match_word(line, "strip"))
            cmd.topology = Topology::triangle_strip;
        else
            fail("expected 'draw triangle list|strip'");
    } else if (match_word(line, "point")) {
        if (!match_word(line, "list"))
            fail("expected 'draw point list'");
        cmd.topology = Topology::point_list;
    } else if (match_word(line, "line")) {
        if (match_word(line, "list"))
            cmd.topology = Topology::line_list;
        else if (match_word(line, "strip"))
            cmd.topology = Topology::line_strip;
        else
            fail("expected 'draw line list|strip'");
    } else {
        uint32_t points = 0;
        if (!read_uint(line, points) || !match_word(line, "control") || !match_word(line, "point")
                || !match_word(line, "patch") || !match_word(line, "list") || points == 0 || points > 32)
            fail("unknown draw topology '" + std::string(line) + "'");
        cmd.topology = Topology::patch_list;
        cmd.control_points = points;
    }
    if (cmd.kind == Command::Kind::draw) {
        if (!read_uint(line, cmd.count))
            fail("draw needs a vertex count");
        if (!line.empty() && !read_uint(line, cmd.instances))
            fail("malformed instance count");
    }
    if (!line.empty())
        fail("trailing text '" + std::string(line) + "'");
}

void resource_ref(std::string_view& line, ResourceKind& kind, uint32_t& slot)
{
    slot = 0;
    if (match_word(line, "dsv")) {
        kind = ResourceKind::dsv;
        return;
    }
    if (match_word(line, "rtv"))
        kind = ResourceKind::rtv;
    else if (match_word(line, "srv"))
        kind = ResourceKind::srv;
    else if (match_word(line, "uav"))
        kind = ResourceKind::uav;
    else if (match_word(line, "vb"))
        kind = ResourceKind::vb;
    else
        fail("expected a resource (rtv N, srv N, uav N, vb N, dsv)");
    if (!read_uint(line, slot))
        fail("missing resource index");
}

void probe_values(std::string_view& line, Probe& p)
{
    if (line.empty() || line.front() != '(')
        fail("expected '(' before the probe values");
    line = trim(line.substr(1));
    bool is_float = p.kind == Probe::Kind::f32 || p.kind == Probe::Kind::f64;
    bool is_signed = p.kind == Probe::Kind::i32 || p.kind == Probe::Kind::i64;
    uint32_t n = 0;
    while (!line.empty() && line.front() != ')') {
        if (n == 4)
            fail("more than 4 probe values");
        if (!read_number(line, is_float, is_signed, p.fvalues[n], p.ivalues[n]))
            fail("malformed probe value '" + std::string(line) + "'");
        ++n;
    }
    if (line.empty())
        fail("missing ')' after the probe values");
    line = trim(line.substr(1));
    if (p.components == 0)
        p.components = n;
    if (n != p.components || n == 0)
        fail("expected " + std::to_string(p.components) + " probe values, got " + std::to_string(n));
}

void probe_command(std::string_view line, Command& cmd)
{
    Probe& p = cmd.probe;
    cmd.kind = Command::Kind::probe;
    if (match_word(line, "uav") || match_word(line, "rtv")) {
        p.target = cmd.text.find("probe uav") != std::string::npos ? ResourceKind::uav : ResourceKind::rtv;
        if (!read_uint(line, p.slot))
            fail("missing resource index after 'probe uav|rtv'");
        if (p.target == ResourceKind::uav && match_word(line, "counter")) {
            p.counter = true;
            if (!match_word(line, "u32"))
                fail("expected 'probe uav N counter u32 (value)'");
            p.kind = Probe::Kind::u32;
            p.components = 1;
            probe_values(line, p);
            if (!line.empty())
                fail("trailing text '" + std::string(line) + "'");
            return;
        }
    } else if (match_word(line, "dsv")) {
        p.target = ResourceKind::dsv;
    }
    if (line.empty() || line.front() != '(')
        fail("expected '(x[, y[, w, h]])' in probe");
    line = trim(line.substr(1));
    uint32_t coords[4] = {};
    int n = 0;
    while (n < 4 && read_uint(line, coords[n]))
        ++n;
    if (line.empty() || line.front() != ')' || n == 0)
        fail("malformed probe coordinates");
    line = trim(line.substr(1));
    p.x = coords[0];
    p.y = n >= 2 ? coords[1] : 0;
    if (n == 3)
        p.layer = coords[2];
    if (n == 4) {
        p.w = coords[2];
        p.h = coords[3];
    }
    static const struct { const char* name; Probe::Kind kind; uint32_t components; } kinds[] = {
        {"rgbaui", Probe::Kind::u32, 4}, {"rgbai", Probe::Kind::i32, 4}, {"rgba", Probe::Kind::f32, 4},
        {"rgb", Probe::Kind::f32, 3}, {"rgui64", Probe::Kind::u64, 2}, {"rgui", Probe::Kind::u32, 2},
        {"rgd", Probe::Kind::f64, 2}, {"rg", Probe::Kind::f32, 2}, {"rui64", Probe::Kind::u64, 1},
        {"ri64", Probe::Kind::i64, 1}, {"rui", Probe::Kind::u32, 1}, {"ri", Probe::Kind::i32, 1},
        {"rd", Probe::Kind::f64, 1}, {"r", Probe::Kind::f32, 1}, {"u32", Probe::Kind::u32, 0},
        {"i32", Probe::Kind::i32, 0}, {"f32", Probe::Kind::f32, 0}, {"f64", Probe::Kind::f64, 0},
        {"u64", Probe::Kind::u64, 0}, {"i64", Probe::Kind::i64, 0},
    };
    std::string_view kind = read_token(line);
    bool found = false;
    for (const auto& k : kinds) {
        if (kind == k.name) {
            p.kind = k.kind;
            p.components = k.components;
            found = true;
            break;
        }
    }
    if (!found)
        fail("unknown probe kind '" + std::string(kind) + "'");
    probe_values(line, p);
    match_word(line, "ulp");
    if (!line.empty() && !read_uint(line, p.ulp))
        fail("malformed ulp '" + std::string(line) + "'");
    if (!line.empty())
        fail("trailing text '" + std::string(line) + "'");
}

void state_command(std::string_view line, Command& cmd)
{
    using K = Command::Kind;
    if (match_word(line, "dispatch")) {
        cmd.kind = K::dispatch;
        for (uint32_t& g : cmd.groups)
            if (!read_uint(line, g))
                fail("expected 'dispatch X Y Z'");
    } else if (match_word(line, "clear")) {
        if (match_word(line, "rtv")) {
            cmd.kind = K::clear_rtv;
            if (!read_uint(line, cmd.slot))
                fail("expected 'clear rtv N r g b a'");
            read_floats(line, cmd.values, 4, "clear rtv");
        } else if (match_word(line, "dsv")) {
            cmd.kind = K::clear_dsv;
            read_floats(line, cmd.values, 1, "clear dsv");
        } else {
            fail("expected 'clear rtv' or 'clear dsv'");
        }
    } else if (match_word(line, "depth-bounds")) {
        cmd.kind = K::unsupported;
        read_floats(line, cmd.values, 2, "depth-bounds");
    } else if (match_word(line, "depth")) {
        cmd.kind = K::depth;
        cmd.compare = parse_comparison(line);
    } else if (match_word(line, "sample")) {
        if (!match_word(line, "mask") || !read_uint(line, cmd.slot))
            fail("expected 'sample mask N'");
        cmd.kind = K::sample_mask;
    } else if (match_word(line, "viewport")) {
        cmd.kind = K::viewport;
        read_floats(line, cmd.values, 4, "viewport");
        if (!line.empty())
            read_floats(line, cmd.values + 4, 2, "viewport");
    } else if (match_word(line, "clip-plane")) {
        cmd.kind = K::clip_plane;
        if (!read_uint(line, cmd.slot) || cmd.slot >= 8)
            fail("expected 'clip-plane N x y z w|disable'");
        if (!match_word(line, "disable"))
            read_floats(line, cmd.values, 4, "clip-plane");
    } else if (match_word(line, "point-size")) {
        cmd.kind = K::point_size;
        read_floats(line, cmd.values, 3, "point-size");
    } else if (match_word(line, "copy")) {
        cmd.kind = K::copy;
        resource_ref(line, cmd.src_kind, cmd.src_slot);
        resource_ref(line, cmd.dst_kind, cmd.dst_slot);
    } else if (match_word(line, "alpha") || match_word(line, "shade") || match_word(line, "fog")
            || match_word(line, "fog-colour") || match_word(line, "point-sprite")) {
        cmd.kind = K::unsupported; // D3D9 fixed function: no Vulkan equivalent
        return;
    } else {
        fail("unknown test command '" + std::string(line) + "'");
    }
    if (!line.empty())
        fail("trailing text '" + std::string(line) + "'");
}

} // namespace

void parse_command_line(std::string_view line, Command& cmd, std::string& error)
{
    try {
        for (bool again = true; again;) {
            again = match_prefix(line, "todo", cmd.todo, false) || match_prefix(line, "bug", cmd.bug, true)
                    || match_prefix(line, "if", cmd.if_, true);
        }
        cmd.text = std::string(line);
        if (match_word(line, "uniform"))
            uniform_command(line, cmd);
        else if (match_word(line, "draw"))
            draw_command(line, cmd);
        else if (match_word(line, "probe"))
            probe_command(line, cmd);
        else
            state_command(line, cmd);
    } catch (const CommandError& e) {
        error = e.message;
    }
}

} // namespace runner

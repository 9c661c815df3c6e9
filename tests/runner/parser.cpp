// .shader_test parser: sections, qualifiers, resource directives, [test]
// commands and conditions. See parser.h.
#include "parser.h"
#include "parser_util.h"

#include <vulkan/vulkan_core.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace runner {

namespace {

using namespace detail;

/// Splits a section header's inside into words, keeping `(...)` groups with
/// the word they follow: "pixel shader todo(sm < 6) fail".
std::vector<std::string> split_header(std::string_view s)
{
    std::vector<std::string> words;
    std::string cur;
    int depth = 0;
    for (char c : s) {
        if (c == '(')
            ++depth;
        if (c == ')')
            --depth;
        if (depth <= 0 && std::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty())
                words.push_back(cur);
            cur.clear();
            continue;
        }
        if (!(depth > 0 && std::isspace(static_cast<unsigned char>(c))))
            cur += c;
    }
    if (!cur.empty())
        words.push_back(cur);
    return words;
}

struct Error {
    std::string message;
};

// ---- formats --------------------------------------------------------------

const Format formats[] = {
    {"r32g32b32a32-float", VK_FORMAT_R32G32B32A32_SFLOAT, 16, 4, 32, DataType::float_},
    {"r32g32b32a32-uint", VK_FORMAT_R32G32B32A32_UINT, 16, 4, 32, DataType::uint_},
    {"r32g32b32a32-sint", VK_FORMAT_R32G32B32A32_SINT, 16, 4, 32, DataType::sint_},
    {"r32g32b32-float", VK_FORMAT_R32G32B32_SFLOAT, 12, 3, 32, DataType::float_},
    {"r32g32b32-uint", VK_FORMAT_R32G32B32_UINT, 12, 3, 32, DataType::uint_},
    {"r32g32b32-sint", VK_FORMAT_R32G32B32_SINT, 12, 3, 32, DataType::sint_},
    {"r32g32-float", VK_FORMAT_R32G32_SFLOAT, 8, 2, 32, DataType::float_},
    {"r32g32-uint", VK_FORMAT_R32G32_UINT, 8, 2, 32, DataType::uint_},
    {"r32g32-sint", VK_FORMAT_R32G32_SINT, 8, 2, 32, DataType::sint_},
    {"r32-float", VK_FORMAT_R32_SFLOAT, 4, 1, 32, DataType::float_},
    {"r32-uint", VK_FORMAT_R32_UINT, 4, 1, 32, DataType::uint_},
    {"r32-sint", VK_FORMAT_R32_SINT, 4, 1, 32, DataType::sint_},
    {"r32-typeless", VK_FORMAT_R32_UINT, 4, 1, 32, DataType::typeless},
    {"r16g16b16a16-float", VK_FORMAT_R16G16B16A16_SFLOAT, 8, 4, 16, DataType::float_},
    {"r16g16b16a16-unorm", VK_FORMAT_R16G16B16A16_UNORM, 8, 4, 16, DataType::unorm},
    {"r16g16b16a16-snorm", VK_FORMAT_R16G16B16A16_SNORM, 8, 4, 16, DataType::snorm},
    {"r16g16b16a16-uint", VK_FORMAT_R16G16B16A16_UINT, 8, 4, 16, DataType::uint_},
    {"r16g16b16a16-sint", VK_FORMAT_R16G16B16A16_SINT, 8, 4, 16, DataType::sint_},
    {"r16g16-float", VK_FORMAT_R16G16_SFLOAT, 4, 2, 16, DataType::float_},
    {"r16g16-unorm", VK_FORMAT_R16G16_UNORM, 4, 2, 16, DataType::unorm},
    {"r16g16-uint", VK_FORMAT_R16G16_UINT, 4, 2, 16, DataType::uint_},
    {"r16g16-sint", VK_FORMAT_R16G16_SINT, 4, 2, 16, DataType::sint_},
    {"r16-float", VK_FORMAT_R16_SFLOAT, 2, 1, 16, DataType::float_},
    {"r16-unorm", VK_FORMAT_R16_UNORM, 2, 1, 16, DataType::unorm},
    {"r16-uint", VK_FORMAT_R16_UINT, 2, 1, 16, DataType::uint_},
    {"r16-sint", VK_FORMAT_R16_SINT, 2, 1, 16, DataType::sint_},
    {"r8g8b8a8-unorm", VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 8, DataType::unorm},
    {"r8g8b8a8-snorm", VK_FORMAT_R8G8B8A8_SNORM, 4, 4, 8, DataType::snorm},
    {"r8g8b8a8-uint", VK_FORMAT_R8G8B8A8_UINT, 4, 4, 8, DataType::uint_},
    {"r8g8b8a8-sint", VK_FORMAT_R8G8B8A8_SINT, 4, 4, 8, DataType::sint_},
    {"r8g8-unorm", VK_FORMAT_R8G8_UNORM, 2, 2, 8, DataType::unorm},
    {"r8-unorm", VK_FORMAT_R8_UNORM, 1, 1, 8, DataType::unorm},
    {"r8-uint", VK_FORMAT_R8_UINT, 1, 1, 8, DataType::uint_},
    {"r8-sint", VK_FORMAT_R8_SINT, 1, 1, 8, DataType::sint_},
    {"r10g10b10a2-unorm", VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 4, 10, DataType::unorm},
    {"r10g10b10a2-uint", VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, 4, 10, DataType::uint_},
    {"r11g11b10-float", VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 3, 11, DataType::float_},
    {"d32-float", VK_FORMAT_D32_SFLOAT, 4, 1, 32, DataType::depth},
};

// ---- conditions -----------------------------------------------------------

struct ConditionParser {
    static constexpr unsigned max_depth = 64; ///< nested '(' and '!'

    std::string_view s;
    const ConditionContext& ctx;
    std::string error;
    unsigned depth = 0;

    void skip() { s = trim(s); }

    bool atom(bool& out)
    {
        skip();
        if (s.empty()) {
            error = "condition ends early";
            return false;
        }
        if ((s.front() == '!' || s.front() == '(') && depth >= max_depth) {
            error = "condition nested more than 64 levels deep";
            return false;
        }
        struct Nest {
            unsigned& d;
            explicit Nest(unsigned& depth_ref) : d(++depth_ref) {}
            ~Nest() { --d; }
        } nest(depth);
        if (s.front() == '!') {
            s.remove_prefix(1);
            if (!atom(out))
                return false;
            out = !out;
            return true;
        }
        if (s.front() == '(') {
            s.remove_prefix(1);
            if (!expr(out))
                return false;
            skip();
            if (s.empty() || s.front() != ')') {
                error = "missing ')' in condition";
                return false;
            }
            s.remove_prefix(1);
            return true;
        }
        if (s.substr(0, 2) == "sm") {
            s.remove_prefix(2);
            skip();
            bool ge = s.substr(0, 2) == ">=";
            bool lt = !ge && s.substr(0, 1) == "<";
            if (!ge && !lt) {
                error = "expected sm>=X or sm<X";
                return false;
            }
            s.remove_prefix(ge ? 2 : 1);
            skip();
            uint32_t model = 0;
            std::string_view num = read_token(s);
            if (!parse_model(num, model)) {
                error = "bad shader model '" + std::string(num) + "'";
                return false;
            }
            out = ge ? ctx.model >= model : ctx.model < model;
            return true;
        }
        std::string_view tag = read_token(s);
        if (tag.empty()) {
            error = "unexpected '" + std::string(s.substr(0, 1)) + "' in condition";
            return false;
        }
        out = false;
        for (const std::string& t : ctx.tags)
            out |= t == tag;
        return true;
    }

    bool term(bool& out)
    {
        if (!atom(out))
            return false;
        for (;;) {
            skip();
            if (s.empty() || s.front() != '&')
                return true;
            s.remove_prefix(s.substr(0, 2) == "&&" ? 2 : 1);
            bool rhs = false;
            if (!atom(rhs))
                return false;
            out = out && rhs;
        }
    }

    bool expr(bool& out)
    {
        if (!term(out))
            return false;
        for (;;) {
            skip();
            if (s.empty() || s.front() != '|')
                return true;
            s.remove_prefix(s.substr(0, 2) == "||" ? 2 : 1);
            bool rhs = false;
            if (!term(rhs))
                return false;
            out = out || rhs;
        }
    }
};

// ---- the file parser ------------------------------------------------------

class FileParser {
public:
    FileParser(const std::string& name, TestFile& out) : name_(name), out_(out) {}
    bool run(std::string_view text, std::string& error);

private:
    enum class Kind { none, require, shader, resource, input_layout, test, ignored };

    [[noreturn]] void fail(const std::string& message) { throw Error{name_ + ":" + std::to_string(line_) + ": " + message}; }
    void start_section(std::string_view header);
    void finish_section();
    void shader_header(Stage stage, const std::vector<std::string>& words, size_t first);
    void resource_header(ResourceKind kind, const std::vector<std::string>& words);
    void require_line(std::string_view line);
    void resource_line(std::string_view line);
    void sampler_line(std::string_view line);
    void resource_size(std::string_view line);
    void resource_data(std::string_view line);
    void input_layout_line(std::string_view line);
    void test_line(std::string_view line);
    int comparison(std::string_view& line);
    void check_condition(const std::string& condition);

    const std::string& name_;
    TestFile& out_;
    int line_ = 0;
    Kind kind_ = Kind::none;
    Section current_;
};

void FileParser::check_condition(const std::string& condition)
{
    ConditionContext ctx;
    bool result = false;
    std::string error;
    if (!evaluate_condition(condition, ctx, result, error))
        fail(error + " in '" + condition + "'");
}

void FileParser::finish_section()
{
    if (kind_ != Kind::none && kind_ != Kind::ignored)
        out_.sections.push_back(std::move(current_));
    kind_ = Kind::none;
}

void FileParser::shader_header(Stage stage, const std::vector<std::string>& words, size_t first)
{
    ShaderSection shader;
    shader.stage = stage;
    shader.line = line_;
    for (size_t i = first; i < words.size(); ++i) {
        std::string_view w = words[i];
        std::string_view cond;
        size_t paren = w.find('(');
        if (paren != std::string_view::npos) {
            if (w.back() != ')')
                fail("missing ')' in qualifier '" + std::string(w) + "'");
            cond = w.substr(paren + 1, w.size() - paren - 2);
            w = w.substr(0, paren);
        }
        Qualifier q;
        q.condition = std::string(cond);
        if (w == "fail")
            q.kind = Qualifier::Kind::fail;
        else if (w == "todo")
            q.kind = Qualifier::Kind::todo;
        else if (w == "notimpl")
            q.kind = Qualifier::Kind::notimpl;
        else if (w == "dxbc-tpf-hex" && cond.empty()) {
            shader.form = SourceForm::dxbc_tpf_hex;
            continue;
        } else if (w == "dxbc-dxil-hex" && cond.empty()) {
            shader.form = SourceForm::dxbc_dxil_hex;
            continue;
        } else if (w == "d3d-asm" && cond.empty()) {
            shader.form = SourceForm::d3d_asm;
            continue;
        } else if (w == "dxil-ll" && cond.empty()) {
            shader.form = SourceForm::dxil_ll;
            continue;
        } else
            fail("unknown shader qualifier '" + std::string(w) + "'");
        check_condition(q.condition);
        shader.qualifiers.push_back(q);
    }
    current_ = std::move(shader);
    kind_ = Kind::shader;
}

void FileParser::resource_header(ResourceKind kind, const std::vector<std::string>& words)
{
    ResourceSection res;
    res.kind = kind;
    res.line = line_;
    size_t index_word = 1;
    if (words[0] == "vertex" || words[0] == "input")
        index_word = 2;
    if (kind == ResourceKind::dsv) {
        if (words.size() > 1)
            fail("[dsv] takes no index");
    } else {
        std::string_view idx = words.size() > index_word ? std::string_view(words[index_word]) : std::string_view();
        if (!read_uint(idx, res.slot) || !idx.empty() || words.size() != index_word + 1)
            fail("expected [" + words[0] + " N]");
    }
    if (kind == ResourceKind::vb)
        res.dimension = Dimension::buffer;
    current_ = std::move(res);
    kind_ = Kind::resource;
}

void FileParser::start_section(std::string_view header)
{
    finish_section();
    std::vector<std::string> words = split_header(header);
    if (words.empty())
        fail("empty section header");
    const std::string& w0 = words[0];
    static const struct { const char* name; Stage stage; } stages[] = {
        {"vertex", Stage::vertex}, {"pixel", Stage::pixel}, {"geometry", Stage::geometry},
        {"hull", Stage::hull}, {"domain", Stage::domain}, {"compute", Stage::compute},
    };
    if (words.size() >= 2 && words[1] == "shader") {
        for (const auto& s : stages) {
            if (w0 == s.name) {
                shader_header(s.stage, words, 2);
                return;
            }
        }
        fail("unknown shader stage '" + w0 + "'");
    }
    if (w0 == "require" && words.size() == 1) {
        RequireSection req;
        req.line = line_;
        current_ = req;
        kind_ = Kind::require;
    } else if (w0 == "test" && words.size() == 1) {
        TestSection test;
        test.line = line_;
        current_ = test;
        kind_ = Kind::test;
    } else if (w0 == "input" && words.size() == 2 && words[1] == "layout") {
        InputLayoutSection layout;
        layout.line = line_;
        current_ = layout;
        kind_ = Kind::input_layout;
    } else if (w0 == "srv" || w0 == "texture") {
        resource_header(ResourceKind::srv, words);
    } else if (w0 == "uav") {
        resource_header(ResourceKind::uav, words);
    } else if (w0 == "sampler") {
        resource_header(ResourceKind::sampler, words);
    } else if (w0 == "rtv" || w0 == "render") {
        if (w0 == "render")
            words.erase(words.begin() + 1, words.begin() + std::min<size_t>(2, words.size()));
        resource_header(ResourceKind::rtv, words);
    } else if (w0 == "dsv") {
        resource_header(ResourceKind::dsv, words);
    } else if (w0 == "vb" || (w0 == "vertex" && words.size() == 3 && words[1] == "buffer")) {
        resource_header(ResourceKind::vb, words);
    } else if (w0 == "preproc" || w0 == "effect") {
        kind_ = Kind::ignored; // HLSL-compiler-only sections
    } else {
        fail("unknown section [" + std::string(header) + "]");
    }
}

void FileParser::require_line(std::string_view line)
{
    auto& req = std::get<RequireSection>(current_);
    uint32_t model = 0;
    if (match_word(line, "shader")) {
        if (!match_word(line, "model"))
            fail("expected 'shader model'");
        bool ge = line.substr(0, 2) == ">=";
        bool lt = !ge && line.substr(0, 1) == "<";
        if (!ge && !lt)
            fail("expected 'shader model >= X' or 'shader model < X'");
        line = trim(line.substr(ge ? 2 : 1));
        if (!parse_model(line, model))
            fail("bad shader model '" + std::string(line) + "'");
        (ge ? req.min_model : req.max_model) = model;
    } else if (match_word(line, "options:") || line.substr(0, 8) == "options:") {
        // compile-time options: they do not apply to precompiled shaders
    } else if (match_word(line, "format")) {
        std::string_view fname = read_token(line);
        const Format* format = find_format(fname);
        if (!format)
            fail("unknown format '" + std::string(fname) + "'");
        if (!match_word(line, "uav-load") || !line.empty())
            fail("expected 'format <name> uav-load'");
        req.uav_load_formats.push_back(format);
    } else {
        static const char* const known[] = {
            "float64", "int64", "native-16-bit", "wave-ops", "geometry-shader", "tessellation-shader",
            "point-size", "rt-vp-array-index", "clip-planes", "depth-bounds", "fog", "rov",
            "barycentrics", "shared-int64-atomics",
        };
        std::string_view feature = read_token(line);
        for (const char* k : known) {
            if (feature == k && line.empty()) {
                req.features.emplace_back(feature);
                return;
            }
        }
        fail("unknown requirement '" + std::string(feature) + "'");
    }
}

void FileParser::resource_size(std::string_view line)
{
    auto& res = std::get<ResourceSection>(current_);
    if (line.empty() || line.front() != '(')
        fail("expected 'size (kind, ...)'");
    line = trim(line.substr(1));
    std::string_view kind = read_token(line);
    if (!line.empty() && line.front() == ',')
        line = trim(line.substr(1));
    std::vector<uint32_t> dims;
    uint32_t v = 0;
    while (read_uint(line, v))
        dims.push_back(v);
    if (line != ")")
        fail("malformed size");
    static const struct { const char* name; Dimension dim; size_t count; } kinds[] = {
        {"buffer", Dimension::buffer, 1}, {"raw_buffer", Dimension::raw_buffer, 1},
        {"counter_buffer", Dimension::counter_buffer, 1}, {"1d", Dimension::tex1d, 1},
        {"1darray", Dimension::tex1darray, 2}, {"2d", Dimension::tex2d, 2},
        {"2darray", Dimension::tex2darray, 3}, {"2dms", Dimension::tex2dms, 3},
        {"3d", Dimension::tex3d, 3}, {"cube", Dimension::cube, 2}, {"cubearray", Dimension::cubearray, 3},
    };
    for (const auto& k : kinds) {
        if (kind != k.name)
            continue;
        if (dims.size() != k.count)
            fail("size (" + std::string(kind) + ", ...) takes " + std::to_string(k.count) + " numbers");
        res.dimension = k.dim;
        res.explicit_size = true;
        size_t i = 0;
        if (k.dim == Dimension::tex2dms)
            res.samples = dims[i++];
        res.width = dims[i++];
        if (k.dim == Dimension::tex1darray)
            res.depth = dims[i++];
        else if (i < dims.size())
            res.height = dims[i++];
        if (i < dims.size())
            res.depth = dims[i++];
        if (res.width == 0 || res.height == 0 || res.depth == 0 || res.samples == 0)
            fail("zero resource size");
        if (k.dim == Dimension::counter_buffer)
            res.stride = 4;
        return;
    }
    fail("unknown resource kind '" + std::string(kind) + "'");
}

void FileParser::resource_data(std::string_view line)
{
    auto& res = std::get<ResourceSection>(current_);
    const Format* f = res.format;
    bool is_float = !f || (f->data_type == DataType::float_ && f->component_bits == 32) || f->data_type == DataType::depth;
    if (res.stride && !f)
        is_float = false; // structured data: raw 32-bit words unless floats are written
    bool is_signed = f && f->data_type == DataType::sint_;
    while (!line.empty()) {
        double d = 0;
        uint64_t u = 0;
        // Structured buffers accept both: a number with '.', 'e', "inf", "nan" is a float.
        bool as_float = is_float;
        if (res.stride && !f) {
            std::string_view tok = line.substr(0, line.find_first_of(" \t,"));
            as_float = tok.find_first_of(".eEnN") != std::string_view::npos && tok.substr(0, 2) != "0x";
        }
        if (!read_number(line, as_float, is_signed, d, u))
            fail("malformed data '" + std::string(line) + "'");
        uint32_t word = 0;
        if (as_float) {
            float fv = static_cast<float>(d);
            std::memcpy(&word, &fv, 4);
        } else {
            word = static_cast<uint32_t>(u);
        }
        const auto* bytes = reinterpret_cast<const uint8_t*>(&word);
        res.data.insert(res.data.end(), bytes, bytes + 4);
    }
}

int FileParser::comparison(std::string_view& line)
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
    return 0;
}

void FileParser::sampler_line(std::string_view line)
{
    auto& res = std::get<ResourceSection>(current_);
    if (match_word(line, "filter")) {
        bool* fields[3] = {&res.min_linear, &res.mag_linear, &res.mip_linear};
        for (bool* field : fields) {
            std::string_view w = read_token(line);
            if (w != "linear" && w != "point")
                fail("expected 'filter point|linear point|linear point|linear'");
            *field = w == "linear";
        }
    } else if (match_word(line, "address")) {
        static const struct { const char* name; AddressMode mode; } modes[] = {
            {"wrap", AddressMode::wrap}, {"mirror", AddressMode::mirror}, {"clamp", AddressMode::clamp},
            {"border", AddressMode::border}, {"mirror_once", AddressMode::mirror_once},
        };
        for (AddressMode& a : res.address) {
            std::string_view w = read_token(line);
            bool found = false;
            for (const auto& m : modes) {
                if (w == m.name) {
                    a = m.mode;
                    found = true;
                }
            }
            if (!found)
                fail("unknown address mode '" + std::string(w) + "'");
        }
    } else if (match_word(line, "comparison")) {
        res.comparison = comparison(line);
    } else {
        fail("unknown sampler directive '" + std::string(line) + "'");
    }
    if (!line.empty())
        fail("trailing text '" + std::string(line) + "'");
}

void FileParser::resource_line(std::string_view line)
{
    auto& res = std::get<ResourceSection>(current_);
    if (res.kind == ResourceKind::sampler) {
        sampler_line(line);
        return;
    }
    if (match_word(line, "format")) {
        std::string_view fname = read_token(line);
        if (!(res.format = find_format(fname)))
            fail("unknown format '" + std::string(fname) + "'");
    } else if (match_word(line, "stride")) {
        if (!read_uint(line, res.stride) || res.stride == 0 || res.stride % 4)
            fail("stride must be a non-zero multiple of 4");
        if (res.dimension == Dimension::tex2d && !res.explicit_size)
            res.dimension = Dimension::buffer;
    } else if (match_word(line, "size")) {
        resource_size(line);
        return;
    } else if (match_word(line, "levels")) {
        if (!read_uint(line, res.levels) || res.levels == 0 || res.levels > 16)
            fail("levels must be 1..16");
    } else if (res.kind == ResourceKind::uav && match_word(line, "counter")) {
        if (match_word(line, "implicit"))
            res.counter_implicit = true;
        else if (!read_uint(line, res.counter))
            fail("expected 'counter <initial value>' or 'counter implicit'");
    } else {
        resource_data(line);
        return;
    }
    if (!line.empty())
        fail("trailing text '" + std::string(line) + "'");
}

void FileParser::input_layout_line(std::string_view line)
{
    InputElement e;
    if (!read_uint(line, e.slot))
        fail("expected '<slot> <format> <semantic> [index]'");
    std::string_view fname = read_token(line);
    if (!(e.format = find_format(fname)))
        fail("unknown format '" + std::string(fname) + "'");
    e.name = std::string(read_token(line));
    if (e.name.empty())
        fail("missing semantic name");
    if (!line.empty() && !read_uint(line, e.index))
        fail("bad semantic index");
    std::get<InputLayoutSection>(current_).elements.push_back(e);
}

bool FileParser::run(std::string_view text, std::string& error)
{
    out_.name = name_;
    try {
        while (!text.empty()) {
            ++line_;
            size_t nl = text.find('\n');
            std::string_view raw = text.substr(0, nl);
            text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
            if (!raw.empty() && raw.back() == '\r')
                raw.remove_suffix(1);
            std::string_view t = trim(raw);
            if (t.size() >= 2 && t.front() == '[' && t.back() == ']') {
                start_section(trim(t.substr(1, t.size() - 2)));
                continue;
            }
            if (kind_ == Kind::shader) {
                auto& shader = std::get<ShaderSection>(current_);
                // '%' starts a comment line, except in LLVM IR (values and types)
                if (!t.empty() && t.front() == '%' && shader.form != SourceForm::dxil_ll)
                    continue;
                shader.text.append(raw).append("\n");
                continue;
            }
            std::string_view line = strip_comment(raw);
            if (line.empty() || kind_ == Kind::ignored)
                continue;
            switch (kind_) {
            case Kind::none: fail("text outside of a section");
            case Kind::require: require_line(line); break;
            case Kind::resource: resource_line(line); break;
            case Kind::input_layout: input_layout_line(line); break;
            case Kind::test: test_line(line); break;
            default: break;
            }
        }
        finish_section();
    } catch (const Error& e) {
        error = e.message;
        return false;
    }
    return true;
}

} // namespace

// Defined in parser_commands.cpp.
void parse_command_line(std::string_view line, Command& cmd, std::string& error);

void FileParser::test_line(std::string_view line)
{
    Command cmd;
    cmd.line = line_;
    std::string error;
    parse_command_line(line, cmd, error);
    if (!error.empty())
        fail(error);
    for (const auto* cond : {&cmd.todo, &cmd.bug, &cmd.if_})
        if (*cond)
            check_condition(**cond);
    std::get<TestSection>(current_).commands.push_back(std::move(cmd));
}

const char* stage_name(Stage stage)
{
    static const char* const names[] = {"vertex", "pixel", "geometry", "hull", "domain", "compute"};
    return names[static_cast<int>(stage)];
}

const char* source_form_name(SourceForm form)
{
    static const char* const names[] = {"hlsl", "d3d-asm", "dxbc-tpf-hex", "dxbc-dxil-hex", "dxil-ll"};
    return names[static_cast<int>(form)];
}

const char* resource_kind_name(ResourceKind kind)
{
    static const char* const names[] = {"srv", "uav", "sampler", "rtv", "dsv", "vb"};
    return names[static_cast<int>(kind)];
}

const Format* find_format(std::string_view name)
{
    for (const Format& f : formats)
        if (name == f.name)
            return &f;
    return nullptr;
}

bool parse_model(std::string_view text, uint32_t& model)
{
    text = trim(text);
    if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
        return false;
    uint32_t major = text[0] - '0', minor = 0;
    text.remove_prefix(1);
    if (!text.empty() && text[0] == '.') {
        if (text.size() < 2 || !std::isdigit(static_cast<unsigned char>(text[1])))
            return false;
        minor = text[1] - '0';
        text.remove_prefix(2);
    }
    if (!text.empty())
        return false;
    model = major * 10 + minor;
    return true;
}

bool evaluate_condition(std::string_view condition, const ConditionContext& context, bool& result, std::string& error)
{
    if (trim(condition).empty()) {
        result = true;
        return true;
    }
    ConditionParser p{condition, context, {}};
    if (!p.expr(result)) {
        error = p.error;
        return false;
    }
    p.skip();
    if (!p.s.empty()) {
        error = "unexpected '" + std::string(p.s) + "' in condition";
        return false;
    }
    return true;
}

bool parse_test_file(std::string_view text, const std::string& name, TestFile& out, std::string& error)
{
    FileParser parser(name, out);
    return parser.run(text, error);
}

} // namespace runner

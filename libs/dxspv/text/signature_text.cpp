#include "text/signature_text.h"

#include <cstdlib>
#include <cstring>
#include <vector>

namespace dxspv::text {

namespace {

constexpr uint32_t fourcc(const char* s)
{
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 |
           uint32_t(uint8_t(s[3])) << 24;
}

constexpr uint32_t no_register = ~0u;

struct Kind {
    const char* title;       ///< "Input" (`// Input signature:`)
    const char* chunks[3];   ///< the chunk kinds of this signature, the *N form first
    bool output;             ///< Used column shows the always-written components
};

constexpr Kind kinds[3] = {
    {"Input", {"ISGN", "ISG1", nullptr}, false},
    {"Output", {"OSGN", "OSG5", "OSG1"}, true},
    {"Patch Constant", {"PCSG", "PSG1", nullptr}, false},
};

std::vector<SignatureElement>& elements_of(vsir::Program& p, unsigned kind)
{
    return kind == 0 ? p.inputs : kind == 1 ? p.outputs : p.patch_constants;
}
const std::vector<SignatureElement>& elements_of(const vsir::Program& p, unsigned kind)
{
    return kind == 0 ? p.inputs : kind == 1 ? p.outputs : p.patch_constants;
}

/// fxc's SysValue column: D3D_NAME abbreviations.
struct SvName {
    uint32_t value;
    const char* name;
};
constexpr SvName sv_names[] = {
    {0, "NONE"},      {1, "POS"},        {2, "CLIPDST"},   {3, "CULLDST"},  {4, "RTINDEX"},    {5, "VPINDEX"},
    {6, "VERTID"},    {7, "PRIMID"},     {8, "INSTID"},    {9, "FFACE"},    {10, "SAMPLE"},    {11, "QUADEDGE"},
    {12, "QUADINT"},  {13, "TRIEDGE"},   {14, "TRIINT"},   {15, "LINEDET"}, {16, "LINEDEN"},   {23, "BARYCEN"},
    {24, "SHDINGRATE"}, {25, "CULLPRIM"}, {64, "TARGET"},  {65, "DEPTH"},   {66, "COVERAGE"},  {67, "DEPTHGE"},
    {68, "DEPTHLE"},  {69, "STENCILREF"}, {70, "INNERCOV"},
};

/// Output system values fxc stores as 0 in the chunk but prints by semantic name.
struct SemanticSv {
    const char* semantic;
    uint32_t sv;
    const char* reg; ///< register column when the element has no register
};
constexpr SemanticSv semantic_svs[] = {
    {"SV_TARGET", 64, nullptr},        {"SV_DEPTH", 65, "oDepth"},          {"SV_COVERAGE", 66, "oMask"},
    {"SV_DEPTHGREATEREQUAL", 67, "oDepthGE"}, {"SV_DEPTHLESSEQUAL", 68, "oDepthLE"}, {"SV_STENCILREF", 69, "oStencilRef"},
};

bool iequal(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (size_t i = 0; i < a.size(); ++i)
        if ((a[i] >= 'a' && a[i] <= 'z' ? a[i] - 32 : a[i]) != (b[i] >= 'a' && b[i] <= 'z' ? b[i] - 32 : b[i]))
            return false;
    return true;
}

const SemanticSv* semantic_sv(std::string_view name)
{
    for (const SemanticSv& s : semantic_svs)
        if (iequal(name, s.semantic))
            return &s;
    return nullptr;
}

std::string sv_column(const SignatureElement& e)
{
    uint32_t sv = uint32_t(e.system_value);
    const SemanticSv* s = sv == 0 ? semantic_sv(e.semantic_name) : nullptr;
    if (s)
        sv = s->sv;
    for (const SvName& n : sv_names)
        if (n.value == sv)
            return n.name;
    return strformat("%u", sv);
}

/// The chunk value of a SysValue column entry (TARGET, DEPTH ... are stored as 0).
uint32_t sv_value(std::string_view column, bool& ok)
{
    ok = true;
    for (const SvName& n : sv_names)
        if (column == n.name)
            return n.value >= 64 ? 0 : n.value;
    char* end = nullptr;
    std::string s(column);
    unsigned long v = std::strtoul(s.c_str(), &end, 0);
    ok = !s.empty() && end && *end == 0;
    return uint32_t(v);
}

const char* format_names[] = {"unknown", "uint", "int", "float", "uint16", "int16", "float16", "uint64", "int64", "double"};

std::string letters(uint8_t mask)
{
    std::string s = "    ";
    for (unsigned c = 0; c < 4; ++c)
        if (mask & (1u << c))
            s[c] = "xyzw"[c];
    return s;
}

uint8_t mask_of_letters(std::string_view s)
{
    uint8_t m = 0;
    for (char c : s) {
        const char* p = std::strchr("xyzw", c);
        if (c && p)
            m |= uint8_t(1u << (p - "xyzw"));
    }
    return m;
}

std::string trim(std::string_view s)
{
    size_t a = 0, b = s.size();
    while (a < b && (s[a] == ' ' || s[a] == '\t'))
        ++a;
    while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t' || s[b - 1] == '\r'))
        --b;
    return std::string(s.substr(a, b - a));
}

std::vector<std::string> split_blanks(std::string_view s)
{
    std::vector<std::string> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            ++i;
        size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            ++i;
        if (i > start)
            out.emplace_back(s.substr(start, i - start));
    }
    return out;
}

/// One table row, without the leading "// ".
std::string format_row(const SignatureElement& e, bool output)
{
    bool no_reg = e.register_index == no_register;
    const SemanticSv* s = semantic_sv(e.semantic_name);
    std::string reg = !no_reg ? strformat("%u", e.register_index) : s && s->reg ? s->reg : "N/A";
    std::string used;
    uint8_t shown = output ? uint8_t(e.mask & ~e.used_mask & 0xf) : e.used_mask;
    if (no_reg)
        used = shown ? " YES" : "  NO";
    else
        used = letters(shown);
    unsigned type = unsigned(e.component_type);
    std::string format = type < 10 ? format_names[type] : strformat("%u", type);
    std::string row = strformat("%-20.*s %5u   %4s %8s %8s %7s   %s", int(e.semantic_name.size()),
                                e.semantic_name.data(), e.semantic_index, no_reg ? "N/A" : letters(e.mask).c_str(),
                                reg.c_str(), sv_column(e).c_str(), format.c_str(), used.c_str());
    return trim(row);
}

/// Reads a row printed by format_row (or fxc). `name` borrows from `row`.
bool parse_row(std::string_view row, bool output, SignatureElement& e)
{
    e = SignatureElement{};
    std::vector<std::string> head = split_blanks(row);
    if (head.size() < 2)
        return false;
    size_t name_end = row.find(head[0]) + head[0].size();
    e.semantic_name = row.substr(row.find(head[0]), head[0].size());
    size_t index_at = row.find(head[1], name_end);
    char* end = nullptr;
    e.semantic_index = uint32_t(std::strtoul(head[1].c_str(), &end, 10));
    if (!end || *end)
        return false;
    std::string_view rest = row.substr(index_at + head[1].size());
    std::string mask = rest.size() >= 7 ? std::string(rest.substr(3, 4)) : trim(rest);
    std::vector<std::string> cols = split_blanks(rest.size() >= 7 ? rest.substr(7) : std::string_view());
    if (cols.size() < 3)
        return false;
    bool no_reg = trim(mask) == "N/A";
    if (no_reg) {
        e.register_index = no_register;
        e.mask = 0x1;
    } else {
        e.mask = mask_of_letters(mask);
        e.register_index = uint32_t(std::strtoul(cols[0].c_str(), &end, 10));
        if (!end || *end)
            return false;
    }
    bool ok = true;
    e.system_value = SystemValue(sv_value(cols[1], ok));
    if (!ok)
        return false;
    e.component_type = ComponentType(0);
    bool known = false;
    for (unsigned t = 0; t < 10; ++t)
        if (cols[2] == format_names[t]) {
            e.component_type = ComponentType(t);
            known = true;
        }
    if (!known)
        e.component_type = ComponentType(std::strtoul(cols[2].c_str(), nullptr, 10));
    std::string used;
    for (size_t i = 3; i < cols.size(); ++i)
        used += cols[i];
    uint8_t shown = used == "YES" ? 0x1 : used == "NO" ? 0 : mask_of_letters(used);
    e.used_mask = output ? uint8_t(0xf & ~shown) : shown;
    if (output && !no_reg)
        e.used_mask = uint8_t(0xf & ~shown);
    return true;
}

/// ` key=value` for each field the row reads back differently.
std::string overrides(const SignatureElement& e, const SignatureElement& back)
{
    std::string s;
    if (back.mask != e.mask)
        s += strformat(" mask=0x%x", e.mask);
    if (back.used_mask != e.used_mask)
        s += strformat(" used=0x%x", e.used_mask);
    if (back.register_index != e.register_index)
        s += strformat(" reg=%u", e.register_index);
    if (back.system_value != e.system_value)
        s += strformat(" sv=%u", uint32_t(e.system_value));
    if (back.component_type != e.component_type)
        s += strformat(" type=%u", unsigned(e.component_type));
    if (e.stream)
        s += strformat(" stream=%u", e.stream);
    if (e.min_precision != MinPrecision::none)
        s += strformat(" prec=%u", unsigned(e.min_precision));
    if (e.reserved)
        s += strformat(" reserved=0x%x", unsigned(e.reserved));
    return s;
}

bool apply_override(std::string_view item, SignatureElement& e)
{
    size_t eq = item.find('=');
    if (eq == std::string_view::npos)
        return false;
    std::string key(item.substr(0, eq)), value(item.substr(eq + 1));
    char* end = nullptr;
    unsigned long v = std::strtoul(value.c_str(), &end, 0);
    if (value.empty() || !end || *end)
        return false;
    if (key == "mask")
        e.mask = uint8_t(v);
    else if (key == "used")
        e.used_mask = uint8_t(v);
    else if (key == "reg")
        e.register_index = uint32_t(v);
    else if (key == "sv")
        e.system_value = SystemValue(v);
    else if (key == "type")
        e.component_type = ComponentType(v);
    else if (key == "stream")
        e.stream = uint32_t(v);
    else if (key == "prec")
        e.min_precision = MinPrecision(v);
    else if (key == "reserved" && v <= 0xffff)
        e.reserved = uint16_t(v);
    else
        return false;
    return true;
}

std::string fourcc_text(uint32_t code)
{
    std::string s;
    for (unsigned i = 0; i < 4; ++i)
        s += char((code >> (8 * i)) & 0xff);
    return s;
}

/// Parses one block starting at the line after its title.
class BlockParser {
public:
    BlockParser(std::vector<std::string_view>& lines, size_t& at, vsir::Program& p, Diagnostics& diags)
        : lines_(lines), at_(at), p_(p), diags_(diags)
    {
    }
    bool parse(unsigned kind);

private:
    bool fail(const char* what)
    {
        diags_.error(Code::text_bad_signature, Location::text(uint32_t(at_ + 1), 1), "signature block: %s", what);
        return false;
    }
    bool extra_line(std::string_view body, unsigned kind, std::vector<SignatureElement>& elements);

    std::vector<std::string_view>& lines_;
    size_t& at_;
    vsir::Program& p_;
    Diagnostics& diags_;
};

std::string_view comment_body(std::string_view line)
{
    std::string_view l = line;
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t'))
        l.remove_prefix(1);
    if (l.size() < 2 || l[0] != '/' || l[1] != '/')
        return {};
    l.remove_prefix(2);
    if (!l.empty() && l.front() == ' ')
        l.remove_prefix(1);
    while (!l.empty() && (l.back() == '\r' || l.back() == ' '))
        l.remove_suffix(1);
    return l;
}

bool is_comment(std::string_view line)
{
    std::string t = trim(line);
    return t.size() >= 2 && t[0] == '/' && t[1] == '/';
}

bool BlockParser::extra_line(std::string_view body, unsigned kind, std::vector<SignatureElement>& elements)
{
    // dxspv-signature: CODE [unpadded] [; N key=value ...]*
    body.remove_prefix(std::strlen("dxspv-signature:"));
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i <= body.size(); ++i)
        if (i == body.size() || body[i] == ';') {
            parts.push_back(trim(body.substr(start, i - start)));
            start = i + 1;
        }
    std::vector<std::string> head = split_blanks(parts[0]);
    if (head.empty() || head[0].size() != 4)
        return fail("expected a chunk kind after dxspv-signature:");
    bool known = false;
    for (const char* c : kinds[kind].chunks)
        known |= c && head[0] == c;
    if (!known)
        return fail("chunk kind does not fit this signature");
    p_.signature_chunks[kind] = fourcc(head[0].c_str());
    for (size_t i = 1; i < head.size(); ++i) {
        if (head[i] != "unpadded")
            return fail("unknown dxspv-signature flag");
        p_.signature_unpadded |= uint8_t(1u << kind);
    }
    for (size_t i = 1; i < parts.size(); ++i) {
        std::vector<std::string> items = split_blanks(parts[i]);
        if (items.empty())
            continue;
        char* end = nullptr;
        unsigned long n = std::strtoul(items[0].c_str(), &end, 10);
        if (!end || *end || n >= elements.size())
            return fail("element number out of range in dxspv-signature");
        for (size_t j = 1; j < items.size(); ++j)
            if (!apply_override(items[j], elements[n]))
                return fail("invalid key=value in dxspv-signature");
    }
    return true;
}

bool BlockParser::parse(unsigned kind)
{
    std::vector<SignatureElement> elements;
    bool table = false;
    for (; at_ < lines_.size() && is_comment(lines_[at_]); ++at_) {
        std::string_view body = comment_body(lines_[at_]);
        if (body.empty()) {
            if (table)
                break;
            continue;
        }
        if (body.rfind("Name ", 0) == 0 || body.rfind("----", 0) == 0) {
            table = true;
            continue;
        }
        if (body.rfind("dxspv-signature:", 0) == 0) {
            if (!extra_line(body, kind, elements))
                return false;
            ++at_;
            break;
        }
        if (!table || body.rfind("no ", 0) == 0)
            break;
        SignatureElement e;
        if (!parse_row(body, kinds[kind].output, e))
            return fail("malformed signature row");
        e.semantic_name = p_.arena.intern(e.semantic_name);
        elements.push_back(e);
    }
    // The override line may follow the row block's closing "//".
    if (at_ + 1 < lines_.size() && comment_body(lines_[at_]).empty() &&
        comment_body(lines_[at_ + 1]).rfind("dxspv-signature:", 0) == 0) {
        ++at_;
        if (!extra_line(comment_body(lines_[at_]), kind, elements))
            return false;
    }
    if (!p_.signature_chunks[kind])
        p_.signature_chunks[kind] = fourcc(kinds[kind].chunks[0]);
    elements_of(p_, kind) = std::move(elements);
    return true;
}

} // namespace

void print_signatures(const vsir::Program& program, std::string& out)
{
    for (unsigned kind = 0; kind < 3; ++kind) {
        const std::vector<SignatureElement>& elements = elements_of(program, kind);
        uint32_t chunk = program.signature_chunks[kind];
        if (elements.empty() && !chunk)
            continue;
        out += strformat("//\n// %s signature:\n//\n", kinds[kind].title);
        out += "// Name                 Index   Mask Register SysValue  Format   Used\n";
        out += "// -------------------- ----- ------ -------- -------- ------- ------\n";
        std::string extra;
        bool default_chunk = !chunk || chunk == fourcc(kinds[kind].chunks[0]);
        for (size_t i = 0; i < elements.size(); ++i) {
            const SignatureElement& e = elements[i];
            std::string row = format_row(e, kinds[kind].output);
            out += "// " + row + "\n";
            SignatureElement back;
            std::string o = parse_row(row, kinds[kind].output, back) ? overrides(e, back)
                                                                      : strformat(" mask=0x%x used=0x%x reg=%u", e.mask,
                                                                                  e.used_mask, e.register_index);
            if (!o.empty())
                extra += strformat("; %zu%s", i, o.c_str());
        }
        bool unpadded = program.signature_unpadded & (1u << kind);
        if (!default_chunk || unpadded || !extra.empty()) {
            std::string code = fourcc_text(chunk ? chunk : fourcc(kinds[kind].chunks[0]));
            out += strformat("// dxspv-signature: %s%s%s\n", code.c_str(), unpadded ? " unpadded" : "", extra.c_str());
        }
        out += "//\n";
    }
}

bool parse_signatures(std::string_view text, vsir::Program& program, Diagnostics& diags)
{
    std::vector<std::string_view> lines;
    size_t start = 0;
    for (size_t i = 0; i <= text.size(); ++i)
        if (i == text.size() || text[i] == '\n') {
            lines.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    for (size_t at = 0; at < lines.size();) {
        std::string_view body = comment_body(lines[at]);
        unsigned kind = 3;
        constexpr std::string_view suffix = " signature:";
        if (body.ends_with(suffix))
            for (unsigned k = 0; k < 3; ++k)
                if (body.substr(0, body.size() - suffix.size()) == kinds[k].title)
                    kind = k;
        ++at;
        if (kind == 3)
            continue;
        if (!BlockParser(lines, at, program, diags).parse(kind))
            return false;
    }
    return true;
}

} // namespace dxspv::text

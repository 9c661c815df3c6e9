#include "dxil/ll/lexer.h"

#include <algorithm>

namespace dxspv::dxil::ll {

namespace {

bool is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '$' || c == '.' || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c) || c == '-'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hex_value(char c) { return is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10; }

class Lexer {
public:
    Lexer(std::string_view text, LexResult& out, Diagnostics& diags) : s_(text), out_(out), diags_(diags) {}

    bool run()
    {
        out_.line_starts.push_back(0);
        out_.tokens.reserve(s_.size() / 4 + 1);
        while (true) {
            skip_blanks();
            if (p_ >= s_.size())
                break;
            if (!token())
                return false;
        }
        out_.tokens.push_back({Tok::eof, false, false, uint32_t(s_.size()), {}});
        return true;
    }

private:
    void skip_blanks()
    {
        while (p_ < s_.size()) {
            char c = s_[p_];
            if (c == '\n') {
                out_.line_starts.push_back(uint32_t(p_ + 1));
                ++p_;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++p_;
            } else if (c == ';') {
                while (p_ < s_.size() && s_[p_] != '\n')
                    ++p_;
            } else {
                break;
            }
        }
    }

    bool error(size_t at, const char* what)
    {
        diags_.error(Code::ll_bad_token, text_location(out_, uint32_t(at)), "%s", what);
        return false;
    }

    void push(Tok kind, size_t start, size_t end, std::string_view text, bool quoted = false, bool numbered = false)
    {
        (void)end;
        out_.tokens.push_back({kind, quoted, numbered, uint32_t(start), text});
    }

    /// A quoted string starting at p_ (the opening quote): its text with quotes.
    bool quoted(size_t& end)
    {
        size_t q = p_ + 1;
        while (q < s_.size() && s_[q] != '"') {
            if (s_[q] == '\n')
                out_.line_starts.push_back(uint32_t(q + 1));
            ++q;
        }
        if (q >= s_.size())
            return error(p_, "unterminated string");
        end = q + 1;
        return true;
    }

    /// After a sigil (%, @, !, #): a bare, numbered or quoted name.
    bool name(Tok kind, size_t start)
    {
        if (p_ < s_.size() && s_[p_] == '"' && kind != Tok::metadata && kind != Tok::attr_ref) {
            size_t end = 0;
            if (!quoted(end))
                return false;
            push(kind, start, end, s_.substr(p_, end - p_), true);
            p_ = end;
            return true;
        }
        size_t q = p_;
        bool digits = q < s_.size() && is_digit(s_[q]);
        if (digits) {
            while (q < s_.size() && is_digit(s_[q]))
                ++q;
        } else if (kind == Tok::metadata) {
            // !name: letters, digits, '-', '$', '.', '_' and '\' escapes.
            while (q < s_.size() && (is_ident_char(s_[q]) || s_[q] == '\\'))
                ++q;
        } else if (kind != Tok::attr_ref) {
            if (q < s_.size() && (is_ident_start(s_[q]) || s_[q] == '-'))
                while (q < s_.size() && is_ident_char(s_[q]))
                    ++q;
        }
        if (q == p_)
            return error(start, kind == Tok::attr_ref ? "'#' must be followed by a number" : "a sigil without a name");
        push(kind, start, q, s_.substr(p_, q - p_), false, digits);
        p_ = q;
        return true;
    }

    bool number(size_t start)
    {
        size_t q = p_;
        if (s_[q] == '-' || s_[q] == '+')
            ++q;
        if (q + 1 < s_.size() && s_[q] == '0' && s_[q + 1] == 'x') {
            q += 2;
            if (q < s_.size() && (s_[q] == 'H' || s_[q] == 'K' || s_[q] == 'L' || s_[q] == 'M'))
                ++q;
            size_t digits = q;
            while (q < s_.size() && is_hex(s_[q]))
                ++q;
            if (q == digits)
                return error(start, "a hexadecimal constant without digits");
            push(Tok::floating, start, q, s_.substr(start, q - start));
            p_ = q;
            return true;
        }
        size_t digits = q;
        while (q < s_.size() && is_digit(s_[q]))
            ++q;
        if (q == digits)
            return error(start, "a sign without a number");
        // A label made of digits: `5:`.
        if (q < s_.size() && s_[q] == ':' && s_[start] != '-' && s_[start] != '+') {
            push(Tok::label, start, q + 1, s_.substr(start, q - start), false, true);
            p_ = q + 1;
            return true;
        }
        Tok kind = Tok::integer;
        if (q < s_.size() && s_[q] == '.') {
            kind = Tok::floating;
            ++q;
            while (q < s_.size() && is_digit(s_[q]))
                ++q;
            if (q < s_.size() && (s_[q] == 'e' || s_[q] == 'E')) {
                size_t e = q + 1;
                if (e < s_.size() && (s_[e] == '+' || s_[e] == '-'))
                    ++e;
                if (e < s_.size() && is_digit(s_[e])) {
                    q = e;
                    while (q < s_.size() && is_digit(s_[q]))
                        ++q;
                }
            }
        }
        push(kind, start, q, s_.substr(start, q - start));
        p_ = q;
        return true;
    }

    bool token()
    {
        size_t start = p_;
        char c = s_[p_];
        auto single = [&](Tok kind) {
            push(kind, start, start + 1, s_.substr(start, 1));
            ++p_;
            return true;
        };
        switch (c) {
        case '%': ++p_; return name(Tok::local, start);
        case '@': ++p_; return name(Tok::global, start);
        case '#': ++p_; return name(Tok::attr_ref, start);
        case '!':
            if (p_ + 1 < s_.size() && (is_ident_char(s_[p_ + 1]) || s_[p_ + 1] == '\\')) {
                ++p_;
                return name(Tok::metadata, start);
            }
            return single(Tok::exclaim);
        case '"': {
            size_t end = 0;
            if (!quoted(end))
                return false;
            if (end < s_.size() && s_[end] == ':') {
                push(Tok::label, start, end + 1, s_.substr(start, end - start), true);
                p_ = end + 1;
                return true;
            }
            push(Tok::string, start, end, s_.substr(start, end - start), true);
            p_ = end;
            return true;
        }
        case '=': return single(Tok::equal);
        case ',': return single(Tok::comma);
        case '*': return single(Tok::star);
        case '(': return single(Tok::lparen);
        case ')': return single(Tok::rparen);
        case '[': return single(Tok::lbracket);
        case ']': return single(Tok::rbracket);
        case '{': return single(Tok::lbrace);
        case '}': return single(Tok::rbrace);
        case '<': return single(Tok::less);
        case '>': return single(Tok::greater);
        case '|': return single(Tok::bar);
        case '.':
            if (s_.substr(p_, 3) == "...") {
                push(Tok::ellipsis, start, start + 3, s_.substr(start, 3));
                p_ += 3;
                return true;
            }
            break;
        default: break;
        }
        if (is_digit(c) || ((c == '-' || c == '+') && p_ + 1 < s_.size() && is_digit(s_[p_ + 1])))
            return number(start);
        if (c == 'c' && p_ + 1 < s_.size() && s_[p_ + 1] == '"') {
            ++p_;
            size_t end = 0;
            if (!quoted(end))
                return false;
            push(Tok::cstring, start, end, s_.substr(start, end - start), true);
            p_ = end;
            return true;
        }
        if (is_ident_start(c)) {
            size_t q = p_;
            while (q < s_.size() && is_ident_char(s_[q]))
                ++q;
            if (q < s_.size() && s_[q] == ':') {
                push(Tok::label, start, q + 1, s_.substr(start, q - start));
                p_ = q + 1;
                return true;
            }
            push(Tok::word, start, q, s_.substr(start, q - start));
            p_ = q;
            return true;
        }
        return error(start, "unexpected character");
    }

    std::string_view s_;
    size_t p_ = 0;
    LexResult& out_;
    Diagnostics& diags_;
};

} // namespace

bool lex(std::string_view text, LexResult& out, Diagnostics& diags)
{
    out.tokens.clear();
    out.line_starts.clear();
    if (text.size() >= 0xFFFFFFF0u) {
        diags.error(Code::ll_too_large, Location::none(), "the text is larger than 4 GiB");
        return false;
    }
    Lexer lexer(text, out, diags);
    return lexer.run();
}

Location text_location(const LexResult& lexed, uint32_t offset)
{
    auto it = std::upper_bound(lexed.line_starts.begin(), lexed.line_starts.end(), offset);
    size_t line = size_t(it - lexed.line_starts.begin());
    uint32_t start = line ? lexed.line_starts[line - 1] : 0;
    return Location::text(uint32_t(line ? line : 1), offset - start + 1);
}

bool unescape(std::string_view quoted, std::string& out)
{
    out.clear();
    if (!quoted.empty() && quoted[0] == 'c')
        quoted.remove_prefix(1);
    if (quoted.size() < 2)
        return false;
    quoted = quoted.substr(1, quoted.size() - 2);
    for (size_t i = 0; i < quoted.size(); ++i) {
        char c = quoted[i];
        if (c != '\\') {
            out.push_back(c);
            continue;
        }
        if (i + 1 < quoted.size() && quoted[i + 1] == '\\') {
            out.push_back('\\');
            ++i;
        } else if (i + 2 < quoted.size() && is_hex(quoted[i + 1]) && is_hex(quoted[i + 2])) {
            out.push_back(char(hex_value(quoted[i + 1]) * 16 + hex_value(quoted[i + 2])));
            i += 2;
        } else {
            return false;
        }
    }
    return true;
}

const char* token_name(Tok kind)
{
    switch (kind) {
    case Tok::eof: return "the end of the text";
    case Tok::word: return "a keyword";
    case Tok::local: return "a local name";
    case Tok::global: return "a global name";
    case Tok::metadata: return "a metadata name";
    case Tok::attr_ref: return "an attribute group reference";
    case Tok::string: return "a string";
    case Tok::cstring: return "a c-string";
    case Tok::integer: return "an integer";
    case Tok::floating: return "a floating-point number";
    case Tok::label: return "a label";
    case Tok::equal: return "'='";
    case Tok::comma: return "','";
    case Tok::star: return "'*'";
    case Tok::lparen: return "'('";
    case Tok::rparen: return "')'";
    case Tok::lbracket: return "'['";
    case Tok::rbracket: return "']'";
    case Tok::lbrace: return "'{'";
    case Tok::rbrace: return "'}'";
    case Tok::less: return "'<'";
    case Tok::greater: return "'>'";
    case Tok::exclaim: return "'!'";
    case Tok::ellipsis: return "'...'";
    case Tok::bar: return "'|'";
    }
    return "a token";
}

} // namespace dxspv::dxil::ll

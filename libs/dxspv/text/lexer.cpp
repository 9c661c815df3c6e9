#include "text/lexer.h"

#include <cstdlib>
#include <cstring>
#include <string>

namespace dxspv::text {

bool is_word_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_word_char(char c)
{
    return is_word_start(c) || (c >= '0' && c <= '9');
}

uint32_t Number::bits32() const
{
    if (is_float) {
        float f = std::strtof(std::string(text).c_str(), nullptr);
        uint32_t b = 0;
        std::memcpy(&b, &f, 4);
        return b;
    }
    uint32_t v = uint32_t(magnitude);
    return negative ? uint32_t(0u - v) : v;
}

uint64_t Number::bits64() const
{
    if (is_float) {
        double d = std::strtod(std::string(text).c_str(), nullptr);
        uint64_t b = 0;
        std::memcpy(&b, &d, 8);
        return b;
    }
    return negative ? uint64_t(0) - magnitude : magnitude;
}

void Lexer::advance()
{
    if (pos_ >= text_.size())
        return;
    if (text_[pos_] == '\n') {
        ++line_;
        column_ = 1;
    } else {
        ++column_;
    }
    ++pos_;
}

void Lexer::skip_blanks()
{
    while (pos_ < text_.size()) {
        char c = text_[pos_];
        if (c == ' ' || c == '\t' || c == '\r') {
            advance();
        } else if (c == '/' && peek_at(1) == '/') {
            while (pos_ < text_.size() && text_[pos_] != '\n')
                advance();
        } else if (c == '/' && peek_at(1) == '*') {
            advance();
            advance();
            while (pos_ < text_.size() && !(text_[pos_] == '*' && peek_at(1) == '/'))
                advance();
            advance();
            advance();
        } else {
            return;
        }
    }
}

void Lexer::skip_blank_lines()
{
    for (;;) {
        skip_blanks();
        if (peek() != '\n')
            return;
        advance();
    }
}

bool Lexer::at_line_end()
{
    skip_blanks();
    return at_end() || peek() == '\n';
}

void Lexer::next_line()
{
    while (pos_ < text_.size() && text_[pos_] != '\n')
        advance();
    advance();
}

bool Lexer::accept(char c)
{
    skip_blanks();
    if (peek() != c)
        return false;
    advance();
    return true;
}

std::string_view Lexer::word()
{
    size_t start = pos_;
    if (!is_word_start(peek()))
        return {};
    while (is_word_char(peek()))
        advance();
    return text_.substr(start, pos_ - start);
}

bool Lexer::number(Number& out)
{
    skip_blanks();
    out = Number{};
    size_t start = pos_;
    if (peek() == '-' || peek() == '+') {
        out.negative = peek() == '-';
        advance();
    }
    if (!(peek() >= '0' && peek() <= '9') && !(peek() == '.' && peek_at(1) >= '0' && peek_at(1) <= '9'))
        return false;
    if (peek() == '0' && (peek_at(1) == 'x' || peek_at(1) == 'X')) {
        advance();
        advance();
        size_t digits = 0;
        for (;; ++digits) {
            char c = peek();
            unsigned v = c >= '0' && c <= '9' ? unsigned(c - '0') : c >= 'a' && c <= 'f' ? unsigned(c - 'a' + 10)
                         : c >= 'A' && c <= 'F' ? unsigned(c - 'A' + 10) : 16u;
            if (v == 16)
                break;
            if (out.magnitude >> 60)
                return false;
            out.magnitude = out.magnitude * 16 + v;
            advance();
        }
        out.text = text_.substr(start, pos_ - start);
        return digits > 0 && !is_word_char(peek());
    }
    while (peek() >= '0' && peek() <= '9') {
        if (out.magnitude > (~0ull - 9) / 10)
            return false;
        out.magnitude = out.magnitude * 10 + unsigned(peek() - '0');
        advance();
    }
    if (peek() == '.') {
        out.is_float = true;
        advance();
        while (peek() >= '0' && peek() <= '9')
            advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        ((peek_at(1) >= '0' && peek_at(1) <= '9') ||
         ((peek_at(1) == '-' || peek_at(1) == '+') && peek_at(2) >= '0' && peek_at(2) <= '9'))) {
        out.is_float = true;
        advance();
        advance();
        while (peek() >= '0' && peek() <= '9')
            advance();
    }
    out.text = text_.substr(start, pos_ - start);
    if (out.is_float && (peek() == 'f' || peek() == 'l'))
        advance();
    return !is_word_char(peek());
}

bool Lexer::paren_group(std::string_view& out)
{
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ')' && text_[pos_] != '\n')
        advance();
    if (peek() != ')')
        return false;
    out = text_.substr(start, pos_ - start);
    advance();
    return true;
}

} // namespace dxspv::text

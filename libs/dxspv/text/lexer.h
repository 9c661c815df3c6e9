// Character-level lexer of d3d-asm text: blanks and comments (`//` to the
// end of the line, `/* ... */`), words, numbers and punctuation, with 1-based
// line and column positions for diagnostics. Newlines are significant (one
// instruction per line) and only consumed by next_line(). Private to text/.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/diagnostics.h"

namespace dxspv::text {

/// A numeric literal as written: integer (decimal or 0x hex, with sign) or
/// floating point (has a '.' or an exponent; an `f`/`l` suffix is allowed).
struct Number {
    bool is_float = false;
    bool negative = false;
    uint64_t magnitude = 0;  ///< integer literals
    std::string_view text;   ///< the literal without suffix (floats: for strtof/strtod)

    uint32_t bits32() const;  ///< integer: two's complement bits; float: f32 bits
    uint64_t bits64() const;  ///< integer: two's complement bits; float: f64 bits
};

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    /// Skips spaces, tabs, carriage returns and comments, not newlines.
    void skip_blanks();
    /// Skips blanks, newlines and comments (for multi-line constructs).
    void skip_blank_lines();
    bool at_end() const { return pos_ >= text_.size(); }
    /// After skip_blanks: at a newline or the end.
    bool at_line_end();
    /// Moves past the next newline (skipping whatever precedes it).
    void next_line();
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    char peek_at(size_t ahead) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
    void advance();
    /// skip_blanks, then consumes `c` when it is next.
    bool accept(char c);
    /// A word [A-Za-z_][A-Za-z0-9_]* at the current position (empty if none).
    std::string_view word();
    /// A number at the current position (after skip_blanks); false if none.
    bool number(Number& out);
    /// Everything up to the matching ')' of a '(' just consumed; false if unterminated on the line.
    bool paren_group(std::string_view& out);

    Location location() const { return Location::text(line_, column_); }
    uint32_t line() const { return line_; }

private:
    std::string_view text_;
    size_t pos_ = 0;
    uint32_t line_ = 1;
    uint32_t column_ = 1;
};

bool is_word_start(char c);
bool is_word_char(char c);

} // namespace dxspv::text

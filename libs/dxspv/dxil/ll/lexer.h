// Lexer of LLVM 3.7 IR text: turns the whole input into a token array in one
// pass (comments dropped), with the line starts kept for line:column
// locations. Private to dxil/ll/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"

namespace dxspv::dxil::ll {

enum class Tok : uint8_t {
    eof,
    word,      ///< keyword or type name: define, i32, nuw, x, ...
    local,     ///< %name, %N, %"quoted"
    global,    ///< @name, @N, @"quoted"
    metadata,  ///< !name, !N (not !{ or !")
    attr_ref,  ///< #N
    string,    ///< "..." (text keeps the quotes)
    cstring,   ///< c"..." (text keeps c and the quotes)
    integer,   ///< [-]digits
    floating,  ///< [-]digits.digits[e[+-]digits], 0x..., 0xH...
    label,     ///< name: / N: / "quoted": (text without the colon)
    equal, comma, star, lparen, rparen, lbracket, rbracket, lbrace, rbrace, less, greater, exclaim, ellipsis, bar
};

struct Token {
    Tok kind = Tok::eof;
    bool quoted = false;  ///< name tokens: written in quotes
    bool numbered = false; ///< name tokens: all digits (%5, @0, !12, #3)
    uint32_t offset = 0;   ///< byte offset of the token in the input
    std::string_view text; ///< names: without the sigil (quotes kept when quoted)
};

struct LexResult {
    std::vector<Token> tokens; ///< ends with Tok::eof
    std::vector<uint32_t> line_starts;
};

/// Lexes `text`. False (with a diagnostic) on a character no token can
/// start with or an unterminated string.
bool lex(std::string_view text, LexResult& out, Diagnostics& diags);

/// 1-based line and column of a byte offset.
Location text_location(const LexResult& lexed, uint32_t offset);

/// The characters of a quoted string or name with LLVM's `\XX` (and `\\`)
/// escapes decoded. `quoted` is the token text with its quotes (and a
/// leading `c` for c-strings). False on a bad escape.
bool unescape(std::string_view quoted, std::string& out);

const char* token_name(Tok kind);

} // namespace dxspv::dxil::ll

// The dxil-ll lexer: token kinds, names, numbers, labels, comments,
// line:column locations and its errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "dxil/ll/lexer.h"

using dxspv::dxil::ll::lex;
using dxspv::dxil::ll::LexResult;
using dxspv::dxil::ll::Tok;

namespace {

std::vector<Tok> kinds(const LexResult& r)
{
    std::vector<Tok> out;
    for (const auto& t : r.tokens)
        out.push_back(t.kind);
    return out;
}

} // namespace

TEST_CASE("ll lexer: sigils, names, numbers and punctuation")
{
    dxspv::Diagnostics diags;
    LexResult r;
    REQUIRE(lex("%x = add nsw i32 %5, -7 ; a comment\n@g @\"q\\01\" !dx.x !12 #3 !{ } ...", r, diags));
    std::vector<Tok> want = {Tok::local,   Tok::equal,  Tok::word,     Tok::word,     Tok::word,    Tok::local,
                             Tok::comma,   Tok::integer, Tok::global,  Tok::global,   Tok::metadata, Tok::metadata,
                             Tok::attr_ref, Tok::exclaim, Tok::lbrace, Tok::rbrace,   Tok::ellipsis, Tok::eof};
    CHECK(kinds(r) == want);
    CHECK(r.tokens[0].text == "x");
    CHECK(r.tokens[5].numbered);
    CHECK(r.tokens[5].text == "5");
    CHECK(r.tokens[7].text == "-7");
    CHECK(r.tokens[9].quoted);
    CHECK(r.tokens[10].text == "dx.x");
    CHECK(r.tokens[11].numbered);
}

TEST_CASE("ll lexer: floats, strings, c-strings and labels")
{
    dxspv::Diagnostics diags;
    LexResult r;
    REQUIRE(lex("1.5e+00 -0.25 0x3FF0000000000000 0xH3C00 c\"ab\\00\" \"s\" entry: 5: \"x y\": <{ }>", r, diags));
    std::vector<Tok> want = {Tok::floating, Tok::floating, Tok::floating, Tok::floating, Tok::cstring, Tok::string,
                             Tok::label,    Tok::label,    Tok::label,    Tok::less,     Tok::lbrace,  Tok::rbrace,
                             Tok::greater,  Tok::eof};
    CHECK(kinds(r) == want);
    CHECK(r.tokens[6].text == "entry");
    CHECK(r.tokens[7].numbered);
    CHECK(r.tokens[8].quoted);
    std::string s;
    REQUIRE(dxspv::dxil::ll::unescape(r.tokens[4].text, s));
    CHECK(s == std::string("ab\0", 3));
    CHECK(!dxspv::dxil::ll::unescape("\"\\zz\"", s));
    CHECK(dxspv::dxil::ll::unescape("\"a\\\\b\"", s));
    CHECK(s == "a\\b");
}

TEST_CASE("ll lexer: line and column locations")
{
    dxspv::Diagnostics diags;
    LexResult r;
    REQUIRE(lex("; first line\n  define void\n\n\t@f", r, diags));
    auto loc = dxspv::dxil::ll::text_location(r, r.tokens[0].offset);
    CHECK(loc.kind == dxspv::Location::Kind::text);
    CHECK(loc.a == 2);
    CHECK(loc.b == 3);
    loc = dxspv::dxil::ll::text_location(r, r.tokens[2].offset);
    CHECK(loc.a == 4);
    CHECK(loc.b == 2);
}

TEST_CASE("ll lexer: errors")
{
    for (const char* text : {"define \"unterminated", "%x = `", "#x", "@", "c\"open"}) {
        dxspv::Diagnostics diags;
        LexResult r;
        CHECK_MESSAGE(!lex(text, r, diags), text);
        CHECK(diags.has_code(dxspv::Code::ll_bad_token));
    }
    dxspv::Diagnostics diags;
    LexResult r;
    CHECK(!lex("ok\n  `", r, diags));
    REQUIRE(diags.messages().size() == 1);
    CHECK(diags.messages()[0].location.a == 2);
    CHECK(diags.messages()[0].location.b == 3);
}

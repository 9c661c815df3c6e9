#include <doctest/doctest.h>

#include "common/diagnostics.h"

using namespace dxspv;

TEST_CASE("diagnostics format code and location")
{
    Diagnostics d("shader.dxbc");
    d.error(Code::api_invalid_argument, Location::offset(0x1c4), "unknown opcode 0x%x", 0x7f);
    d.warning(Code::api_unknown_option, Location::text(3, 14), "ignored");
    d.error(Code::api_internal_error, Location::instruction(12), "bad");
    d.error(Code::api_not_implemented, Location::none(), "plain");
    CHECK(d.has_errors());
    CHECK(d.error_count() == 3);
    CHECK(d.warning_count() == 1);
    CHECK(d.to_string() ==
          "shader.dxbc:0x1c4: E0001: unknown opcode 0x7f\n"
          "shader.dxbc:3:14: W0005: ignored\n"
          "shader.dxbc:instruction 12: E0008: bad\n"
          "shader.dxbc: E0009: plain\n");
    CHECK(d.has_code(Code::api_unknown_option));
    CHECK_FALSE(d.has_code(Code::api_out_of_memory));
}

TEST_CASE("diagnostics without a source name and long messages")
{
    Diagnostics d;
    std::string long_text(1000, 'x');
    d.error(Code::api_invalid_argument, Location::none(), "%s", long_text.c_str());
    CHECK(d.to_string() == "<input>: E0001: " + long_text + "\n");
}

TEST_CASE("diagnostics cap the number of stored messages")
{
    Diagnostics d("f");
    for (size_t i = 0; i < Diagnostics::max_messages + 5; ++i)
        d.error(Code::api_invalid_argument, Location::offset(i), "e");
    CHECK(d.messages().size() == Diagnostics::max_messages);
    CHECK(d.error_count() == Diagnostics::max_messages + 5);
    CHECK(d.to_string().find("5 further messages not shown") != std::string::npos);
    d.clear();
    CHECK_FALSE(d.has_errors());
}

TEST_CASE("every code has a summary")
{
    CHECK(std::string(code_summary(Code::api_out_of_memory)) == "out of memory");
}

TEST_CASE("diagnostics without texts keep each message's severity, code and location")
{
    Diagnostics d("f");
    d.keep_texts(false);
    d.warning(Code::api_invalid_argument, Location::offset(8), "text %d", 1);
    d.error(Code::api_out_of_memory, Location::none(), "more text");
    REQUIRE(d.messages().size() == 2);
    CHECK(d.messages()[0].code == Code::api_invalid_argument);
    CHECK(d.messages()[0].location.a == 8);
    CHECK(d.messages()[0].text.empty());
    CHECK(d.messages()[1].severity == Severity::error);
    CHECK((d.warning_count() == 1 && d.error_count() == 1 && d.has_code(Code::api_out_of_memory)));
    d.keep_texts(true);
    d.warning(Code::api_invalid_argument, Location::none(), "kept %d", 2);
    CHECK(d.messages()[2].text == "kept 2");
}

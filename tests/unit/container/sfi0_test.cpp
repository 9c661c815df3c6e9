#include <doctest/doctest.h>

#include <string>

#include "container/sfi0.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

TEST_CASE("SFI0 flags")
{
    uint64_t flags = 0x1 | 0x4000 | (uint64_t(1) << 32) | (uint64_t(1) << 50);
    Bytes data = serialize_sfi0(flags);
    REQUIRE(data.size() == 8);
    uint64_t parsed = 0;
    Diagnostics diags;
    REQUIRE(parse_sfi0(Chunk{fourcc("SFI0"), 40, data}, parsed, diags));
    CHECK(parsed == flags);
    CHECK(sfi0_flags_string(parsed) == "Doubles | WaveOps | ExtendedCommandInfo | 0x4000000000000");
    CHECK(sfi0_flags_string(0) == "none");
    CHECK(std::string(sfi0_flag_name(16)) == "ViewID");
    CHECK(sfi0_flag_name(33) == nullptr);
    CHECK(sfi0_flag_name(64) == nullptr);
}

TEST_CASE("SFI0 too small")
{
    Bytes data(7, 0);
    uint64_t parsed = 1;
    Diagnostics diags;
    CHECK_FALSE(parse_sfi0(Chunk{fourcc("SFI0"), 40, data}, parsed, diags));
    CHECK(reported(diags, Code::sfi0_bad_size, 40));
    CHECK(parsed == 0);
}

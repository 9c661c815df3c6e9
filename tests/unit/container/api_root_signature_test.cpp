#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "container/checksum.h"
#include "container/container.h"
#include "container/root_signature.h"
#include "dxspv/dxspv.h"
#include "root_signature_fixture.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

// dxspv_free_code() and dxspv_free_messages() are free(); they live in
// another part of the API, so these tests free directly.

TEST_CASE("C API: serialize then parse a root signature")
{
    for (auto version : {DXSPV_ROOT_SIGNATURE_VERSION_1_0, DXSPV_ROOT_SIGNATURE_VERSION_1_1,
                         DXSPV_ROOT_SIGNATURE_VERSION_1_2}) {
        SampleRootSignature sample(version);
        dxspv_code dxbc{};
        char* messages = reinterpret_cast<char*>(1);
        REQUIRE(dxspv_serialize_root_signature(&sample.desc, &dxbc, &messages) == DXSPV_OK);
        CHECK(messages == nullptr);
        REQUIRE(dxbc.code);
        std::span<const uint8_t> bytes(static_cast<const uint8_t*>(dxbc.code), dxbc.size);

        // A checksummed container with one RTS0 chunk.
        Container c;
        Diagnostics diags;
        REQUIRE(parse_container(bytes, c, diags));
        REQUIRE(c.chunks.size() == 1);
        CHECK(c.chunks[0].fourcc == fourcc("RTS0"));
        CHECK(verify_checksum(bytes) == ChecksumStatus::ok);

        dxspv_root_signature_desc desc{};
        REQUIRE(dxspv_parse_root_signature(&dxbc, &desc, &messages) == DXSPV_OK);
        CHECK(messages == nullptr);
        CHECK(same_desc(desc, sample.desc));

        // The bare chunk parses too.
        dxspv_root_signature_desc bare{};
        dxspv_code chunk{c.chunks[0].data.data(), c.chunks[0].data.size()};
        REQUIRE(dxspv_parse_root_signature(&chunk, &bare, nullptr) == DXSPV_OK);
        CHECK(same_desc(bare, sample.desc));

        // Serialising the parsed description gives the same container.
        dxspv_code again{};
        REQUIRE(dxspv_serialize_root_signature(&desc, &again, nullptr) == DXSPV_OK);
        CHECK(Bytes(static_cast<const uint8_t*>(again.code), static_cast<const uint8_t*>(again.code) + again.size) ==
              Bytes(bytes.begin(), bytes.end()));

        dxspv_free_root_signature(&desc);
        CHECK(desc.parameters == nullptr);
        CHECK(desc.parameter_count == 0);
        dxspv_free_root_signature(&bare);
        std::free(const_cast<void*>(dxbc.code));
        std::free(const_cast<void*>(again.code));
    }
}

TEST_CASE("C API: bad arguments")
{
    SampleRootSignature sample(DXSPV_ROOT_SIGNATURE_VERSION_1_1);
    dxspv_root_signature_desc desc{};
    dxspv_code code{};
    char* messages = nullptr;

    CHECK(dxspv_parse_root_signature(nullptr, &desc, &messages) == DXSPV_ERROR_INVALID_ARGUMENT);
    REQUIRE(messages);
    CHECK(std::string(messages).find("E0001") != std::string::npos);
    std::free(messages);
    dxspv_code null_bytes{nullptr, 16};
    CHECK(dxspv_parse_root_signature(&null_bytes, &desc, nullptr) == DXSPV_ERROR_INVALID_ARGUMENT);
    uint8_t byte = 0;
    dxspv_code one{&byte, 1};
    CHECK(dxspv_parse_root_signature(&one, nullptr, nullptr) == DXSPV_ERROR_INVALID_ARGUMENT);

    CHECK(dxspv_serialize_root_signature(nullptr, &code, nullptr) == DXSPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxspv_serialize_root_signature(&sample.desc, nullptr, nullptr) == DXSPV_ERROR_INVALID_ARGUMENT);
    sample.desc.version = dxspv_root_signature_version(0);
    CHECK(dxspv_serialize_root_signature(&sample.desc, &code, &messages) == DXSPV_ERROR_INVALID_ARGUMENT);
    CHECK(code.code == nullptr);
    REQUIRE(messages);
    CHECK(std::string(messages).find("E3408") != std::string::npos);
    std::free(messages);

    dxspv_free_root_signature(nullptr);
    dxspv_free_root_signature(&desc);
}

TEST_CASE("C API: malformed input")
{
    dxspv_root_signature_desc desc{};
    char* messages = nullptr;

    SUBCASE("empty input")
    {
        dxspv_code empty{nullptr, 0};
        CHECK(dxspv_parse_root_signature(&empty, &desc, &messages) == DXSPV_ERROR_INVALID_SHADER);
        REQUIRE(messages);
        CHECK(std::string(messages).find("E3401") != std::string::npos);
    }
    SUBCASE("a container without RTS0")
    {
        Bytes bytes = make_container({{fourcc("SHEX"), make_shex(0, 5, 0)}});
        dxspv_code code{bytes.data(), bytes.size()};
        CHECK(dxspv_parse_root_signature(&code, &desc, &messages) == DXSPV_ERROR_INVALID_SHADER);
        REQUIRE(messages);
        CHECK(std::string(messages).find("E3407") != std::string::npos);
    }
    SUBCASE("a broken container")
    {
        Bytes bytes = make_container({{fourcc("RTS0"), Bytes(24, 0)}});
        bytes.pop_back();
        dxspv_code code{bytes.data(), bytes.size()};
        CHECK(dxspv_parse_root_signature(&code, &desc, &messages) == DXSPV_ERROR_INVALID_SHADER);
        REQUIRE(messages);
        CHECK(std::string(messages).find("E3004") != std::string::npos);
    }
    SUBCASE("a bad chunk")
    {
        Bytes bytes(24, 0);
        bytes[0] = 9;
        dxspv_code code{bytes.data(), bytes.size()};
        CHECK(dxspv_parse_root_signature(&code, &desc, &messages) == DXSPV_ERROR_INVALID_SHADER);
        REQUIRE(messages);
        CHECK(std::string(messages).find("E3402") != std::string::npos);
    }
    CHECK(desc.parameters == nullptr);
    CHECK(desc.parameter_count == 0);
    std::free(messages);
}

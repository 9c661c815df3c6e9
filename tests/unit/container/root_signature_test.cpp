#include <doctest/doctest.h>

#include "container/root_signature.h"
#include "root_signature_fixture.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

constexpr uint32_t base = 0x40;

Bytes serialize(const dxspv_root_signature_desc& desc)
{
    Bytes out;
    Diagnostics diags;
    bool ok = serialize_root_signature(desc, out, diags);
    INFO(diags.to_string());
    CHECK(ok);
    return out;
}

bool parse_fails_with(const Bytes& bytes, Code code, uint32_t offset)
{
    RootSignature rs;
    Diagnostics diags;
    bool ok = parse_root_signature(bytes, base, rs, diags);
    INFO(diags.to_string());
    return !ok && reported(diags, code, base + offset);
}

uint32_t parameter_data(const Bytes& b, uint32_t index) { return load_le32(b.data() + 24 + 12 * index + 8); }

} // namespace

TEST_CASE("root signature serialize, parse, serialize is byte-identical")
{
    const struct {
        dxspv_root_signature_version version;
        size_t size;
    } cases[] = {
        {DXSPV_ROOT_SIGNATURE_VERSION_1_0, 312},
        {DXSPV_ROOT_SIGNATURE_VERSION_1_1, 336},
        {DXSPV_ROOT_SIGNATURE_VERSION_1_2, 344},
    };
    for (const auto& c : cases) {
        INFO("version ", int(c.version));
        SampleRootSignature sample(c.version);
        Bytes first = serialize(sample.desc);
        CHECK(first.size() == c.size);
        CHECK(load_le32(first.data()) == uint32_t(c.version));
        CHECK(load_le32(first.data() + 8) == 24);                      // parameters right after the header
        CHECK(parameter_data(first, 0) == 24 + 6 * 12);                 // then their data in order
        CHECK(load_le32(first.data() + 16) == first.size() - 2 * (c.size == 344 ? 56 : 52)); // samplers last

        RootSignature rs;
        Diagnostics diags;
        REQUIRE(parse_root_signature(first, base, rs, diags));
        CHECK(diags.messages().empty());
        CHECK(same_desc(rs.desc, sample.desc));
        CHECK(serialize(rs.desc) == first);

        // Moving keeps the description valid.
        RootSignature moved = std::move(rs);
        CHECK(serialize(moved.desc) == first);
    }
}

TEST_CASE("version 1.0 drops the flags it cannot store")
{
    SampleRootSignature sample(DXSPV_ROOT_SIGNATURE_VERSION_1_1);
    sample.desc.version = DXSPV_ROOT_SIGNATURE_VERSION_1_0;
    Bytes bytes = serialize(sample.desc);
    CHECK(bytes.size() == 312);
    RootSignature rs;
    Diagnostics diags;
    REQUIRE(parse_root_signature(bytes, 0, rs, diags));
    CHECK(rs.desc.parameters[0].u.descriptor_table.ranges[0].flags == 0);
    CHECK(rs.desc.parameters[0].u.descriptor_table.ranges[1].descriptor_table_offset == 4);
    CHECK(rs.desc.parameters[2].u.descriptor.flags == 0);
}

TEST_CASE("empty root signature")
{
    dxspv_root_signature_desc desc{};
    desc.version = DXSPV_ROOT_SIGNATURE_VERSION_1_1;
    Bytes bytes = serialize(desc);
    CHECK(bytes == Bytes{2, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0, 24, 0, 0, 0, 0, 0, 0, 0});
    RootSignature rs;
    Diagnostics diags;
    REQUIRE(parse_root_signature(bytes, 0, rs, diags));
    CHECK(rs.desc.parameter_count == 0);
    CHECK(rs.desc.static_sampler_count == 0);
}

TEST_CASE("malformed RTS0")
{
    SampleRootSignature sample(DXSPV_ROOT_SIGNATURE_VERSION_1_1);
    const Bytes good = serialize(sample.desc);
    Bytes b = good;
    uint32_t table = parameter_data(good, 0);
    uint32_t ranges = load_le32(good.data() + table + 4);

    SUBCASE("truncated header") { CHECK(parse_fails_with(Bytes(good.begin(), good.begin() + 23), Code::rts0_truncated_header, 0)); }
    SUBCASE("version")
    {
        put_u32(b, 0, 4);
        CHECK(parse_fails_with(b, Code::rts0_bad_version, 0));
        put_u32(b, 0, 0);
        CHECK(parse_fails_with(b, Code::rts0_bad_version, 0));
    }
    SUBCASE("parameter table")
    {
        put_u32(b, 4, 0x40000000);
        CHECK(parse_fails_with(b, Code::rts0_bad_offset, 8));
        b = good;
        put_u32(b, 8, uint32_t(good.size()) - 12);
        CHECK(parse_fails_with(b, Code::rts0_bad_offset, 8));
    }
    SUBCASE("parameter type")
    {
        put_u32(b, 24 + 12, 5);
        CHECK(parse_fails_with(b, Code::rts0_bad_parameter_type, 24 + 12));
    }
    SUBCASE("visibility")
    {
        put_u32(b, 24 + 4, 8);
        CHECK(parse_fails_with(b, Code::rts0_bad_visibility, 24 + 4));
        b = good;
        uint32_t samplers = load_le32(good.data() + 16);
        put_u32(b, samplers + 52 + 48, 0x100);
        CHECK(parse_fails_with(b, Code::rts0_bad_visibility, samplers + 52 + 48));
    }
    SUBCASE("parameter data out of range")
    {
        for (uint32_t p = 0; p < 5; ++p) {
            b = good;
            put_u32(b, 24 + 12 * p + 8, uint32_t(good.size()) - 4);
            CHECK(parse_fails_with(b, Code::rts0_bad_offset, 24 + 12 * p + 8));
        }
    }
    SUBCASE("ranges")
    {
        put_u32(b, table, 1000);
        CHECK(parse_fails_with(b, Code::rts0_bad_offset, table + 4));
        b = good;
        put_u32(b, table + 4, 0xfffffffc);
        CHECK(parse_fails_with(b, Code::rts0_bad_offset, table + 4));
        b = good;
        put_u32(b, ranges + 24, 4);
        CHECK(parse_fails_with(b, Code::rts0_bad_range_type, ranges + 24));
    }
    SUBCASE("static samplers")
    {
        put_u32(b, 12, 3);
        CHECK(parse_fails_with(b, Code::rts0_bad_offset, 16));
    }
}

TEST_CASE("every truncation and byte flip of an RTS0 is handled")
{
    for (auto version : {DXSPV_ROOT_SIGNATURE_VERSION_1_0, DXSPV_ROOT_SIGNATURE_VERSION_1_2}) {
        SampleRootSignature sample(version);
        Bytes good = serialize(sample.desc);
        for (size_t n = 0; n < good.size(); ++n) {
            RootSignature rs;
            Diagnostics diags;
            bool ok = parse_root_signature(Bytes(good.begin(), good.begin() + long(n)), 0, rs, diags);
            CHECK(ok != diags.has_errors());
        }
        for (size_t i = 0; i < good.size(); ++i)
            for (uint8_t v : {uint8_t(0), uint8_t(0x10), uint8_t(0xff)}) {
                Bytes b = good;
                b[i] = v;
                RootSignature rs;
                Diagnostics diags;
                bool ok = parse_root_signature(b, 0, rs, diags);
                CHECK(ok != diags.has_errors());
                if (ok) {
                    Bytes again; // whatever parses serialises
                    CHECK(serialize_root_signature(rs.desc, again, diags));
                }
            }
    }
}

TEST_CASE("invalid descriptions are refused")
{
    SampleRootSignature sample(DXSPV_ROOT_SIGNATURE_VERSION_1_1);
    Bytes out;
    auto refused = [&](const dxspv_root_signature_desc& d) {
        Diagnostics diags;
        bool ok = serialize_root_signature(d, out, diags);
        return !ok && diags.has_code(Code::rts0_invalid_desc) && out.empty();
    };
    dxspv_root_signature_desc d = sample.desc;
    d.version = dxspv_root_signature_version(4);
    CHECK(refused(d));
    d = sample.desc;
    d.parameters = nullptr;
    CHECK(refused(d));
    d = sample.desc;
    d.static_samplers = nullptr;
    CHECK(refused(d));
    sample.parameters[1].parameter_type = dxspv_root_parameter_type(9);
    CHECK(refused(sample.desc));
    sample.parameters[1].parameter_type = DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    sample.parameters[2].shader_visibility = 8;
    CHECK(refused(sample.desc));
    sample.parameters[2].shader_visibility = 0;
    sample.ranges[0].range_type = dxspv_descriptor_range_type(4);
    CHECK(refused(sample.desc));
    sample.ranges[0].range_type = DXSPV_DESCRIPTOR_RANGE_TYPE_SRV;
    sample.parameters[0].u.descriptor_table.ranges = nullptr;
    CHECK(refused(sample.desc));
    sample.parameters[0].u.descriptor_table.ranges = sample.ranges.data();
    sample.samplers[0].shader_visibility = 99;
    CHECK(refused(sample.desc));
    sample.samplers[0].shader_visibility = 0;
    Diagnostics diags;
    CHECK(serialize_root_signature(sample.desc, out, diags));
}

TEST_CASE("root signature names")
{
    CHECK(std::string(root_signature_version_name(3)) == "1.2");
    CHECK(std::string(root_parameter_type_name(1)) == "constants");
    CHECK(std::string(descriptor_range_type_name(3)) == "sampler");
    CHECK(std::string(shader_visibility_name(7)) == "mesh");
    CHECK(std::string(shader_visibility_name(8)) == "?");
}

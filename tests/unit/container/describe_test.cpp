#include <doctest/doctest.h>

#include <string>

#include "container/describe.h"
#include "container/root_signature.h"
#include "container/sfi0.h"
#include "container/signature.h"
#include "root_signature_fixture.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

Bytes sample_container()
{
    std::vector<SignatureElement> in(1);
    in[0].semantic_name = "TEXCOORD";
    in[0].semantic_index = 3;
    in[0].component_type = ComponentType::float32;
    in[0].mask = 0x3;
    std::vector<SignatureElement> out(1);
    out[0].semantic_name = "SV_Target";
    out[0].system_value = SystemValue::target;
    out[0].mask = 0xf;
    SampleRootSignature rs(DXSPV_ROOT_SIGNATURE_VERSION_1_1);
    Bytes rts0;
    Diagnostics diags;
    serialize_root_signature(rs.desc, rts0, diags);
    return make_container({{fourcc("ISGN"), serialize_signature(in, SignatureFormat::sgn)},
                           {fourcc("OSG1"), serialize_signature(out, SignatureFormat::sg1)},
                           {fourcc("SFI0"), serialize_sfi0(0x4001)},
                           {fourcc("SHEX"), make_shex(0, 5, 0)},
                           {fourcc("XYZW"), Bytes(3, 7)},
                           {fourcc("RTS0"), rts0}});
}

bool contains(const std::string& text, const std::string& line) { return text.find(line) != std::string::npos; }

} // namespace

TEST_CASE("describe a container")
{
    Diagnostics diags;
    std::string text = describe_container(sample_container(), diags);
    INFO(text);
    CHECK(diags.messages().empty());
    CHECK(text.rfind("stage: ps\nmodel: 5.0\nchecksum: ok\nchunks: ISGN,OSG1,SFI0,SHEX,XYZW,RTS0\n", 0) == 0);
    CHECK(contains(text, "  XYZW: offset 0x"));
    CHECK(contains(text, "0: TEXCOORD 3, register 0, mask xy, used -, sysval NONE, float32\n"));
    CHECK(contains(text, "0: SV_Target 0, register 0, mask xyzw, used -, sysval SV_Target, unknown, stream 0, "
                         "min precision default\n"));
    CHECK(contains(text, "SFI0: 0x4001 (Doubles | WaveOps)"));
    CHECK(contains(text, "RTS0: version 1.1, flags 0x1, 6 parameters, 2 static samplers"));
    CHECK(contains(text, "    uav: base register 0, space 3, count -1, flags 0x1, offset 4\n"));
    CHECK(contains(text, "  parameter 1: constants, visibility pixel, register 2, space 1, 16 values\n"));
    CHECK(contains(text, "  static sampler 1: register 4, space 1, visibility pixel"));
}

TEST_CASE("describe reports a checksum mismatch and goes on")
{
    Bytes bytes = sample_container();
    bytes[bytes.size() - 30] ^= 1;
    Diagnostics diags;
    std::string text = describe_container(bytes, diags);
    CHECK(contains(text, "checksum: mismatch\n"));
    CHECK_FALSE(diags.has_errors());
    CHECK(diags.has_code(Code::container_checksum_mismatch));
}

TEST_CASE("describe a container without a program")
{
    Diagnostics diags;
    std::string text = describe_container(make_container({{fourcc("RTS0"), Bytes(24, 0)}}), diags);
    CHECK(text.rfind("stage: none\nmodel: none\nchecksum: ok\nchunks: RTS0\n", 0) == 0);
    CHECK(diags.has_code(Code::rts0_bad_version));
    CHECK(contains(text, "RTS0: malformed"));
}

TEST_CASE("describe fails on a broken container")
{
    Bytes bytes = sample_container();
    bytes[0] = 'Q';
    Diagnostics diags;
    CHECK(describe_container(bytes, diags).empty());
    CHECK(diags.has_code(Code::container_bad_magic));
}

TEST_CASE("describe survives every byte flip")
{
    Bytes good = sample_container();
    for (size_t i = 0; i < good.size(); ++i)
        for (uint8_t v : {uint8_t(0), uint8_t(0xff)}) {
            Bytes b = good;
            b[i] = v;
            Diagnostics diags;
            std::string text = describe_container(b, diags);
            CHECK((text.empty() ? diags.has_errors() : text.rfind("stage: ", 0) == 0));
        }
}

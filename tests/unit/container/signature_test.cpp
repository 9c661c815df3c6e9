#include <doctest/doctest.h>

#include "container/signature.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

std::vector<SignatureElement> sample_elements()
{
    std::vector<SignatureElement> v(3);
    v[0].semantic_name = "SV_Position";
    v[0].system_value = SystemValue::position;
    v[0].component_type = ComponentType::float32;
    v[0].mask = 0xf;
    v[0].used_mask = 0xf;
    v[1].semantic_name = "TEXCOORD";
    v[1].semantic_index = 1;
    v[1].register_index = 1;
    v[1].component_type = ComponentType::float16;
    v[1].min_precision = MinPrecision::float16;
    v[1].mask = 0x3;
    v[1].used_mask = 0x1;
    v[1].stream = 2;
    v[2].semantic_name = "TEXCOORD";
    v[2].semantic_index = 2;
    v[2].register_index = 1;
    v[2].component_type = ComponentType::uint32;
    v[2].mask = 0xc;
    v[2].stream = 2;
    return v;
}

Chunk chunk_of(const char (&code)[5], const Bytes& data, uint32_t offset = 100)
{
    return Chunk{fourcc(code), offset, data};
}

void check_same(const SignatureElement& a, const SignatureElement& b, SignatureFormat format)
{
    CHECK(a.semantic_name == b.semantic_name);
    CHECK(a.semantic_index == b.semantic_index);
    CHECK(a.register_index == b.register_index);
    CHECK(a.system_value == b.system_value);
    CHECK(a.component_type == b.component_type);
    CHECK(a.mask == b.mask);
    CHECK(a.used_mask == b.used_mask);
    CHECK(a.stream == (format == SignatureFormat::sgn ? 0 : b.stream));
    CHECK(a.min_precision == (format == SignatureFormat::sg1 ? b.min_precision : MinPrecision::none));
}

} // namespace

TEST_CASE("signature formats")
{
    SignatureFormat f;
    CHECK((signature_format_of(fourcc("ISGN"), f) && f == SignatureFormat::sgn));
    CHECK((signature_format_of(fourcc("PCSG"), f) && f == SignatureFormat::sgn));
    CHECK((signature_format_of(fourcc("OSG5"), f) && f == SignatureFormat::sg5));
    CHECK((signature_format_of(fourcc("PSG1"), f) && f == SignatureFormat::sg1));
    CHECK_FALSE(signature_format_of(fourcc("SHEX"), f));
    CHECK(signature_element_size(SignatureFormat::sgn) == 24);
    CHECK(signature_element_size(SignatureFormat::sg5) == 28);
    CHECK(signature_element_size(SignatureFormat::sg1) == 32);
}

TEST_CASE("signature round trip in every format")
{
    std::vector<SignatureElement> elements = sample_elements();
    const struct {
        const char* code;
        SignatureFormat format;
    } kinds[] = {{"OSGN", SignatureFormat::sgn}, {"OSG5", SignatureFormat::sg5}, {"OSG1", SignatureFormat::sg1}};
    for (const auto& kind : kinds) {
        INFO(kind.code);
        Bytes data = serialize_signature(elements, kind.format);
        // Header, elements, then "SV_Position\0TEXCOORD\0" (stored once) padded to 4.
        size_t names = 8 + 3 * signature_element_size(kind.format);
        REQUIRE(data.size() == names + 24);
        CHECK(data[names + 21] == 0xab);
        CHECK(load_le32(data.data() + 8 + signature_element_size(kind.format) * 2 +
                        (kind.format == SignatureFormat::sgn ? 0 : 4)) == names + 12);

        Chunk chunk{fourcc(kind.code), 100, data};
        std::vector<SignatureElement> parsed;
        Diagnostics diags;
        REQUIRE(parse_signature(chunk, parsed, diags));
        REQUIRE(parsed.size() == 3);
        for (size_t i = 0; i < 3; ++i)
            check_same(parsed[i], elements[i], kind.format);
        CHECK(parsed[0].semantic_name.data() == reinterpret_cast<const char*>(data.data() + names));
        CHECK(serialize_signature(parsed, kind.format) == data);
    }
}

TEST_CASE("signature: the reserved bytes after the masks survive parse and serialize")
{
    // Compilers write 0 there; a hand-made container (dxilconv's hs3 test)
    // has 0x10 in byte 23 of an element. Round trips keep it.
    std::vector<SignatureElement> elements = sample_elements();
    for (SignatureFormat format : {SignatureFormat::sgn, SignatureFormat::sg5, SignatureFormat::sg1}) {
        Bytes data = serialize_signature(elements, format);
        size_t at = 8 + signature_element_size(format) + (format == SignatureFormat::sgn ? 0 : 4);
        CHECK(data[at + 22] == 0);
        CHECK(data[at + 23] == 0);
        data[at + 23] = 0x10;
        std::vector<SignatureElement> parsed;
        Diagnostics diags;
        Chunk chunk{fourcc(format == SignatureFormat::sgn ? "OSGN" : format == SignatureFormat::sg5 ? "OSG5" : "OSG1"),
                    100, data};
        REQUIRE(parse_signature(chunk, parsed, diags));
        CHECK(parsed[1].reserved == 0x1000);
        CHECK(parsed[0].reserved == 0);
        CHECK(serialize_signature(parsed, format) == data);
    }
}

TEST_CASE("signature padding and empty signatures")
{
    CHECK(serialize_signature({}, SignatureFormat::sg1) == Bytes{0, 0, 0, 0, 8, 0, 0, 0});
    std::vector<SignatureElement> one(1);
    one[0].semantic_name = "A";
    Bytes data = serialize_signature(one, SignatureFormat::sgn, 0);
    REQUIRE(data.size() == 8 + 24 + 4);
    CHECK(data[8 + 24 + 2] == 0);
    std::vector<SignatureElement> parsed;
    Diagnostics diags;
    REQUIRE(parse_signature(chunk_of("ISGN", data), parsed, diags));
    CHECK(parsed[0].semantic_name == "A");
}

TEST_CASE("malformed signatures")
{
    Bytes good = serialize_signature(sample_elements(), SignatureFormat::sgn);
    std::vector<SignatureElement> parsed;
    Diagnostics diags;

    SUBCASE("not a signature")
    {
        CHECK_FALSE(parse_signature(chunk_of("SHEX", good), parsed, diags));
        CHECK(reported(diags, Code::signature_unknown_kind, 92));
    }
    SUBCASE("truncated header")
    {
        CHECK_FALSE(parse_signature(chunk_of("ISGN", Bytes(good.begin(), good.begin() + 6)), parsed, diags));
        CHECK(reported(diags, Code::signature_truncated, 100));
    }
    SUBCASE("too many elements")
    {
        Bytes b = good;
        put_u32(b, 0, 5);
        CHECK_FALSE(parse_signature(chunk_of("ISGN", b), parsed, diags));
        CHECK(reported(diags, Code::signature_truncated, 100));
        put_u32(b, 0, 0xffffffff);
        CHECK_FALSE(parse_signature(chunk_of("ISGN", b), parsed, diags));
    }
    SUBCASE("element table offset out of range")
    {
        Bytes b = good;
        put_u32(b, 4, 0xfffffff0);
        CHECK_FALSE(parse_signature(chunk_of("ISGN", b), parsed, diags));
        CHECK(diags.has_code(Code::signature_truncated));
    }
    SUBCASE("name offset out of range")
    {
        Bytes b = good;
        put_u32(b, 8 + 24, uint32_t(b.size()));
        CHECK_FALSE(parse_signature(chunk_of("ISGN", b), parsed, diags));
        CHECK(reported(diags, Code::signature_bad_name, 100 + 8 + 24));
    }
    SUBCASE("unterminated name")
    {
        Bytes b = good;
        b.resize(b.size() - 4); // cut "ORD\0" + padding area
        b.back() = 'X';
        CHECK_FALSE(parse_signature(chunk_of("ISGN", b), parsed, diags));
        CHECK(diags.has_code(Code::signature_bad_name));
    }
}

TEST_CASE("every truncation and byte flip of a signature is handled")
{
    for (SignatureFormat format : {SignatureFormat::sgn, SignatureFormat::sg5, SignatureFormat::sg1}) {
        const char* code = format == SignatureFormat::sgn ? "ISGN" : format == SignatureFormat::sg5 ? "OSG5" : "ISG1";
        Bytes good = serialize_signature(sample_elements(), format);
        for (size_t n = 0; n < good.size(); ++n) {
            Bytes b(good.begin(), good.begin() + long(n));
            std::vector<SignatureElement> parsed;
            Diagnostics diags;
            bool ok = parse_signature(Chunk{fourcc(code), 0, b}, parsed, diags);
            CHECK(ok != diags.has_errors());
        }
        for (size_t i = 0; i < good.size(); ++i) {
            Bytes b = good;
            b[i] = 0xff;
            std::vector<SignatureElement> parsed;
            Diagnostics diags;
            bool ok = parse_signature(Chunk{fourcc(code), 0, b}, parsed, diags);
            CHECK(ok != diags.has_errors());
        }
    }
}

#include <doctest/doctest.h>

#include <tuple>

#include "container/program_header.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

/// A DXIL chunk: program header, 'DXIL' header, `bitcode` bytes.
Bytes make_dxil(uint32_t kind, uint32_t major, uint32_t minor, const Bytes& bitcode)
{
    ByteWriter w;
    w.u32(kind << 16 | major << 4 | minor);
    w.u32(uint32_t(6 + bitcode.size() / 4));
    w.u32(fourcc("DXIL"));
    w.u32(0x0105);
    w.u32(16);
    w.u32(uint32_t(bitcode.size()));
    w.append(bitcode);
    return w.bytes();
}

bool parse(const Bytes& container, ProgramHeader& out, Diagnostics& diags)
{
    Container c;
    return parse_container(container, c, diags) && parse_program_header(c, out, diags);
}

} // namespace

TEST_CASE("SHEX program header")
{
    for (uint32_t type = 0; type <= 5; ++type) {
        Bytes bytes = make_container({{fourcc("ISGN"), Bytes{0, 0, 0, 0, 8, 0, 0, 0}}, {fourcc("SHEX"), make_shex(type, 5, 1)}});
        ProgramHeader p;
        Diagnostics diags;
        REQUIRE(parse(bytes, p, diags));
        CHECK(p.format == ProgramFormat::tpf);
        CHECK(p.model.stage == ShaderStage(type));
        CHECK(p.model.major == 5);
        CHECK(p.model.minor == 1);
        CHECK(p.tokens.size() == 12);
        CHECK(p.chunk.fourcc == fourcc("SHEX"));
    }
    Bytes shdr = make_container({{fourcc("SHDR"), make_shex(1, 4, 0)}});
    ProgramHeader p;
    Diagnostics diags;
    REQUIRE(parse(shdr, p, diags));
    CHECK(p.model.stage == ShaderStage::vertex);
    CHECK(p.model.major == 4);
}

TEST_CASE("DXIL program header")
{
    Bytes bitcode{'B', 'C', 0xc0, 0xde, 1, 2, 3, 4};
    Bytes bytes = make_container({{fourcc("DXIL"), make_dxil(13, 6, 10, bitcode)}});
    ProgramHeader p;
    Diagnostics diags;
    REQUIRE(parse(bytes, p, diags));
    CHECK(p.format == ProgramFormat::dxil);
    CHECK(p.model.stage == ShaderStage::mesh);
    CHECK(p.model.major == 6);
    CHECK(p.model.minor == 10);
    CHECK(p.dxil_major == 1);
    CHECK(p.dxil_minor == 5);
    CHECK(Bytes(p.bitcode.begin(), p.bitcode.end()) == bitcode);
    CHECK(p.bitcode_offset == 32 + 4 + 8 + 24);
    CHECK(bytes[p.bitcode_offset] == 'B');
}

TEST_CASE("malformed program chunks")
{
    ProgramHeader p;
    Diagnostics diags;
    SUBCASE("missing")
    {
        CHECK_FALSE(parse(make_container({{fourcc("ISGN"), Bytes(8, 0)}}), p, diags));
        CHECK(diags.has_code(Code::program_missing));
    }
    SUBCASE("truncated tokens")
    {
        CHECK_FALSE(parse(make_container({{fourcc("SHEX"), Bytes{0x50, 0, 5, 0}}}), p, diags));
        CHECK(diags.has_code(Code::program_truncated));
        Bytes shex = make_shex(0, 5, 0);
        put_u32(shex, 4, 4);
        CHECK_FALSE(parse(make_container({{fourcc("SHEX"), shex}}), p, diags));
        CHECK(reported(diags, Code::program_truncated, 32 + 4 + 8 + 4));
    }
    SUBCASE("unknown program type")
    {
        CHECK_FALSE(parse(make_container({{fourcc("SHEX"), make_shex(6, 5, 0)}}), p, diags));
        CHECK(diags.has_code(Code::program_bad_type));
        CHECK_FALSE(parse(make_container({{fourcc("DXIL"), make_dxil(16, 6, 0, Bytes(4, 0))}}), p, diags));
        CHECK(diags.has_code(Code::program_bad_type));
    }
    SUBCASE("bad DXIL header")
    {
        Bytes dxil = make_dxil(0, 6, 0, Bytes(8, 0));
        Bytes b = dxil;
        b[8] = 'X';
        CHECK_FALSE(parse(make_container({{fourcc("DXIL"), b}}), p, diags));
        CHECK(diags.has_code(Code::program_bad_dxil_header));
        b = dxil;
        put_u32(b, 20, 9); // bitcode size past the program
        CHECK_FALSE(parse(make_container({{fourcc("DXIL"), b}}), p, diags));
        CHECK(reported(diags, Code::program_bad_dxil_header, 32 + 4 + 8 + 16));
        b = dxil;
        put_u32(b, 16, 4); // bitcode inside the header
        CHECK_FALSE(parse(make_container({{fourcc("DXIL"), b}}), p, diags));
        b = dxil;
        put_u32(b, 4, 100); // program larger than the chunk
        CHECK_FALSE(parse(make_container({{fourcc("DXIL"), b}}), p, diags));
        CHECK(diags.has_code(Code::program_truncated));
        CHECK_FALSE(parse(make_container({{fourcc("DXIL"), Bytes(dxil.begin(), dxil.begin() + 20)}}), p, diags));
    }
}

TEST_CASE("DXIL program header serializer: what parse_dxil_header reads back")
{
    for (size_t size : {0, 1, 3, 4, 5, 8, 13}) {
        Bytes bitcode(size);
        for (size_t i = 0; i < size; ++i)
            bitcode[i] = uint8_t(0x42 + i);
        for (auto [stage, major, minor] : {std::tuple{ShaderStage::pixel, 6, 0}, std::tuple{ShaderStage::compute, 6, 8},
                                           std::tuple{ShaderStage::library, 6, 3}, std::tuple{ShaderStage::node, 6, 9}}) {
            Diagnostics diags;
            Bytes program;
            REQUIRE(serialize_dxil_program(ShaderModel{stage, uint8_t(major), uint8_t(minor)}, 1, 7, bitcode, program,
                                           diags));
            CHECK(program.size() % 4 == 0);
            CHECK(program.size() == 24 + ((size + 3) & ~size_t(3)));
            CHECK(size_t(load_le32(program.data() + 4)) * 4 == program.size());
            ProgramHeader p;
            Bytes container = make_container({{fourcc("DXIL"), program}}); // p's spans point into it
            REQUIRE_MESSAGE(parse(container, p, diags), diags.to_string());
            CHECK(p.format == ProgramFormat::dxil);
            CHECK(p.model.stage == stage);
            CHECK(p.model.major == major);
            CHECK(p.model.minor == minor);
            CHECK(p.dxil_major == 1);
            CHECK(p.dxil_minor == 7);
            CHECK(Bytes(p.bitcode.begin(), p.bitcode.end()) == bitcode);
            CHECK(p.bitcode_offset == 32 + 4 + 8 + 24);
        }
    }
    Diagnostics diags;
    Bytes program;
    CHECK_FALSE(serialize_dxil_program(ShaderModel{ShaderStage::invalid, 6, 0}, 1, 0, {}, program, diags));
    CHECK(diags.has_code(Code::program_bad_dxil_header));
    CHECK_FALSE(serialize_dxil_program(ShaderModel{ShaderStage::pixel, 16, 0}, 1, 0, {}, program, diags));
}

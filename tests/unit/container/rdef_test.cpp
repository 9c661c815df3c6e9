#include <doctest/doctest.h>

#include <string>

#include "container/rdef.h"
#include "test_helpers.h"

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

constexpr uint32_t chunk_offset = 64;

/// A small RDEF: two bindings, one cbuffer with a float4 and a struct {float a; float b;}.
struct RdefImage {
    Bytes bytes;
    size_t binding_table = 0;
    size_t cbuffer_table = 0;
    size_t variable_table = 0;
    size_t float4_type = 0;
    size_t struct_type = 0;
    size_t float_type = 0;
    size_t member_table = 0;
};

class Builder {
public:
    ByteWriter w;
    void name(const std::string& s)
    {
        strings_.push_back({w.size(), s});
        w.u32(0);
    }
    Bytes finish()
    {
        for (const auto& [at, s] : strings_) {
            w.patch_u32(at, uint32_t(w.size()));
            w.cstring(s);
        }
        w.align(4, 0xab);
        return w.bytes();
    }

private:
    std::vector<std::pair<size_t, std::string>> strings_;
};

void write_type(Builder& b, bool sm5, uint16_t cls, uint16_t base, uint16_t rows, uint16_t cols, uint16_t members,
                size_t member_table, const char* name)
{
    b.w.u16(cls);
    b.w.u16(base);
    b.w.u16(rows);
    b.w.u16(cols);
    b.w.u16(0);
    b.w.u16(members);
    b.w.u32(uint32_t(member_table));
    if (sm5) {
        for (int i = 0; i < 4; ++i)
            b.w.u32(0);
        b.name(name);
    }
}

RdefImage build_rdef(uint8_t major, uint8_t minor)
{
    bool sm5 = major >= 5;
    bool sm51 = sm5 && minor >= 1;
    uint32_t binding_size = sm51 ? 40 : 32, variable_size = sm5 ? 40 : 24, type_size = sm5 ? 36 : 16;
    RdefImage img;
    Builder b;
    size_t header = 0;
    b.w.u32(1); // cbuffers
    b.w.u32(0);
    b.w.u32(2); // bindings
    b.w.u32(0);
    b.w.u32(0x43530000u | uint32_t(major) << 8 | minor);
    b.w.u32(0x100);
    b.name("test compiler");
    if (sm5) {
        b.w.u32(sm51 ? 0x25441313u : fourcc("RD11"));
        for (uint32_t v : {60u, 24u, binding_size, 40u, 36u, 12u, 0u})
            b.w.u32(v);
    }

    img.binding_table = b.w.size();
    b.w.patch_u32(header + 12, uint32_t(img.binding_table));
    const uint32_t bindings[2][9] = {{2, 5, 4, 0xffffffff, 3, 1, 0xc, 2, 7}, {0, 0, 0, 0, 0, 1, 1, 0, 0}};
    const char* binding_names[2] = {"tex", "cb0"};
    for (int i = 0; i < 2; ++i) {
        b.name(binding_names[i]);
        for (int f = 0; f < (sm51 ? 9 : 7); ++f)
            b.w.u32(bindings[i][f]);
    }

    img.cbuffer_table = b.w.size();
    b.w.patch_u32(header + 4, uint32_t(img.cbuffer_table));
    b.name("cb0");
    b.w.u32(2);
    size_t var_offset_field = b.w.size();
    b.w.u32(0);
    b.w.u32(32);
    b.w.u32(0);
    b.w.u32(0);

    img.variable_table = b.w.size();
    b.w.patch_u32(var_offset_field, uint32_t(img.variable_table));
    img.float4_type = img.variable_table + 2 * variable_size;
    img.struct_type = img.float4_type + type_size;
    img.float_type = img.struct_type + type_size;
    img.member_table = img.float_type + type_size;
    size_t default_value = img.member_table + 2 * 12;
    const struct {
        const char* name;
        uint32_t offset, size;
        size_t type, default_value;
    } vars[2] = {{"color", 0, 16, img.float4_type, 0}, {"s", 16, 8, img.struct_type, default_value}};
    for (const auto& v : vars) {
        b.name(v.name);
        b.w.u32(v.offset);
        b.w.u32(v.size);
        b.w.u32(2);
        b.w.u32(uint32_t(v.type));
        b.w.u32(uint32_t(v.default_value));
        if (sm5)
            for (uint32_t x : {0xffffffffu, 0u, 0xffffffffu, 0u})
                b.w.u32(x);
    }
    write_type(b, sm5, 1, 3, 1, 4, 0, 0, "float4");
    write_type(b, sm5, 5, 0, 1, 2, 2, img.member_table, "S");
    write_type(b, sm5, 0, 3, 1, 1, 0, 0, "float");
    for (uint32_t i = 0; i < 2; ++i) {
        b.name(i ? "b" : "a");
        b.w.u32(uint32_t(img.float_type));
        b.w.u32(4 * i);
    }
    REQUIRE(b.w.size() == default_value);
    b.w.f32(1.0f);
    b.w.f32(2.0f);
    img.bytes = b.finish();
    return img;
}

bool parse(const Bytes& bytes, Rdef& rdef, Diagnostics& diags)
{
    return parse_rdef(Chunk{fourcc("RDEF"), chunk_offset, bytes}, rdef, diags);
}

void check_common(const Rdef& r, bool sm5)
{
    CHECK(r.creator == "test compiler");
    CHECK(r.compile_flags == 0x100);
    CHECK(r.program_type == 0x4353);
    REQUIRE(r.bindings.size() == 2);
    CHECK(r.bindings[0].name == "tex");
    CHECK(r.bindings[0].type == 2);
    CHECK(r.bindings[0].return_type == 5);
    CHECK(r.bindings[0].dimension == 4);
    CHECK(r.bindings[0].sample_count == 0xffffffff);
    CHECK(r.bindings[0].bind_point == 3);
    CHECK(r.bindings[0].bind_count == 1);
    CHECK(r.bindings[0].flags == 0xc);
    CHECK(r.bindings[1].name == "cb0");
    REQUIRE(r.constant_buffers.size() == 1);
    const RdefConstantBuffer& cb = r.constant_buffers[0];
    CHECK(cb.name == "cb0");
    CHECK(cb.size == 32);
    REQUIRE(cb.variables.size() == 2);
    CHECK(cb.variables[0].name == "color");
    CHECK(cb.variables[0].size == 16);
    CHECK(cb.variables[0].flags == 2);
    CHECK(cb.variables[0].default_value.empty());
    CHECK(cb.variables[1].name == "s");
    CHECK(cb.variables[1].offset == 16);
    CHECK(cb.variables[1].default_value.size() == 8);
    CHECK(cb.variables[1].start_texture == (sm5 ? 0xffffffff : rdef_no_index));

    REQUIRE(cb.variables[0].type < r.types.size());
    const RdefType& float4 = r.types[cb.variables[0].type];
    CHECK(float4.type_class == 1);
    CHECK(float4.base_type == 3);
    CHECK(float4.columns == 4);
    CHECK(float4.name == (sm5 ? "float4" : ""));
    const RdefType& s = r.types[cb.variables[1].type];
    CHECK(s.type_class == 5);
    CHECK(s.height == 2);
    REQUIRE(s.member_count == 2);
    const RdefMember& b = r.members[s.first_member + 1];
    CHECK(b.name == "b");
    CHECK(b.offset == 4);
    CHECK(r.members[s.first_member].type == b.type); // one type for both members
    CHECK(r.types.size() == 3);
}

bool fails_with(const Bytes& bytes, Code code)
{
    Rdef rdef;
    Diagnostics diags;
    bool ok = parse(bytes, rdef, diags);
    INFO(diags.to_string());
    return !ok && diags.has_code(code);
}

} // namespace

TEST_CASE("RDEF shader model 5.0")
{
    RdefImage img = build_rdef(5, 0);
    Rdef r;
    Diagnostics diags;
    REQUIRE(parse(img.bytes, r, diags));
    CHECK(diags.messages().empty());
    CHECK(r.major == 5);
    CHECK(r.minor == 0);
    CHECK(r.has_rd11);
    CHECK_FALSE(r.has_spaces);
    CHECK(r.bindings[0].space == 0);
    check_common(r, true);
}

TEST_CASE("RDEF shader model 5.1 has spaces and ids")
{
    RdefImage img = build_rdef(5, 1);
    Rdef r;
    Diagnostics diags;
    REQUIRE(parse(img.bytes, r, diags));
    CHECK(r.has_spaces);
    CHECK(r.bindings[0].space == 2);
    CHECK(r.bindings[0].id == 7);
    check_common(r, true);
}

TEST_CASE("RDEF shader model 4.0")
{
    RdefImage img = build_rdef(4, 0);
    Rdef r;
    Diagnostics diags;
    REQUIRE(parse(img.bytes, r, diags));
    CHECK_FALSE(r.has_rd11);
    check_common(r, false);
}

TEST_CASE("RDEF names")
{
    CHECK(std::string(rdef_input_type_name(2)) == "texture");
    CHECK(std::string(rdef_input_type_name(99)) == "?");
    CHECK(std::string(rdef_return_type_name(5)) == "float");
    CHECK(std::string(rdef_dimension_name(4)) == "texture2d");
    CHECK(std::string(rdef_cbuffer_type_name(1)) == "tbuffer");
}

TEST_CASE("malformed RDEF")
{
    RdefImage img = build_rdef(5, 0);
    Bytes b = img.bytes;
    SUBCASE("truncated header")
    {
        CHECK(fails_with(Bytes(b.begin(), b.begin() + 27), Code::rdef_truncated_header));
        CHECK(fails_with(Bytes(b.begin(), b.begin() + 40), Code::rdef_truncated_header));
    }
    SUBCASE("RD11 header")
    {
        put_u32(b, 28, fourcc("RD12"));
        CHECK(fails_with(b, Code::rdef_bad_rd11));
        b = img.bytes;
        put_u32(b, 28 + 16, 8); // variable records of 8 bytes
        CHECK(fails_with(b, Code::rdef_bad_rd11));
    }
    SUBCASE("creator")
    {
        put_u32(b, 24, uint32_t(b.size()));
        CHECK(fails_with(b, Code::rdef_bad_string));
    }
    SUBCASE("tables")
    {
        put_u32(b, 0, 0x10000000);
        CHECK(fails_with(b, Code::rdef_bad_table));
        b = img.bytes;
        put_u32(b, 12, uint32_t(b.size()) - 8);
        CHECK(fails_with(b, Code::rdef_bad_table));
        b = img.bytes;
        put_u32(b, img.cbuffer_table + 8, 0xfffffff0);
        CHECK(fails_with(b, Code::rdef_bad_table));
    }
    SUBCASE("binding name")
    {
        put_u32(b, img.binding_table, 0xffffffff);
        CHECK(fails_with(b, Code::rdef_bad_string));
    }
    SUBCASE("variable type out of range")
    {
        put_u32(b, img.variable_table + 16, uint32_t(b.size()) - 4);
        CHECK(fails_with(b, Code::rdef_bad_type));
    }
    SUBCASE("default value out of range")
    {
        put_u32(b, img.variable_table + 40 + 20, uint32_t(b.size()) - 4);
        CHECK(fails_with(b, Code::rdef_bad_table));
    }
    SUBCASE("member table out of range")
    {
        put_u32(b, img.struct_type + 12, uint32_t(b.size()));
        CHECK(fails_with(b, Code::rdef_bad_table));
    }
    SUBCASE("a type containing itself")
    {
        put_u32(b, img.member_table + 4, uint32_t(img.struct_type));
        CHECK(fails_with(b, Code::rdef_type_too_deep));
    }
}

TEST_CASE("RDEF type nesting is bounded")
{
    // A chain of structs, each with one member of the next type.
    auto chain = [](uint32_t depth) {
        Builder b;
        b.w.u32(1);
        b.w.u32(28 + 32);
        b.w.u32(0);
        b.w.u32(0);
        b.w.u32(0xffff0500);
        b.w.u32(0);
        b.name("c");
        b.w.u32(fourcc("RD11"));
        for (uint32_t v : {60u, 24u, 32u, 40u, 36u, 12u, 0u})
            b.w.u32(v);
        size_t vars = b.w.size() + 24;
        b.name("cb");
        b.w.u32(1);
        b.w.u32(uint32_t(vars));
        b.w.u32(16);
        b.w.u32(0);
        b.w.u32(0);
        size_t types = vars + 40;
        constexpr size_t type_size = 36 + 12; // each type followed by its member record
        b.name("v");
        for (uint32_t x : {0u, 16u, 0u, uint32_t(types), 0u, 0u, 0u, 0u, 0u})
            b.w.u32(x);
        for (uint32_t i = 0; i < depth; ++i) {
            size_t self = types + i * type_size;
            write_type(b, true, 5, 0, 1, 1, i + 1 < depth ? 1 : 0, self + 36, "T");
            b.name("m");
            b.w.u32(uint32_t(self + type_size));
            b.w.u32(0);
        }
        return b.finish();
    };
    Rdef r;
    Diagnostics diags;
    CHECK(parse(chain(rdef_max_type_depth), r, diags));
    INFO(diags.to_string());
    CHECK(r.types.size() == rdef_max_type_depth);
    CHECK(fails_with(chain(rdef_max_type_depth + 1), Code::rdef_type_too_deep));
    CHECK(fails_with(chain(1000), Code::rdef_type_too_deep));
}

TEST_CASE("every truncation and byte flip of an RDEF is handled")
{
    for (auto [major, minor] : {std::pair{4, 0}, std::pair{5, 0}, std::pair{5, 1}}) {
        Bytes good = build_rdef(uint8_t(major), uint8_t(minor)).bytes;
        for (size_t n = 0; n < good.size(); ++n) {
            Rdef r;
            Diagnostics diags;
            bool ok = parse(Bytes(good.begin(), good.begin() + long(n)), r, diags);
            CHECK(ok != diags.has_errors());
        }
        for (size_t i = 0; i < good.size(); ++i)
            for (uint8_t v : {uint8_t(0), uint8_t(0x7f), uint8_t(0xff)}) {
                Bytes b = good;
                b[i] = v;
                Rdef r;
                Diagnostics diags;
                bool ok = parse(b, r, diags);
                CHECK(ok != diags.has_errors());
            }
    }
}

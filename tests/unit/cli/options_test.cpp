#include <doctest/doctest.h>

#include "options.h"

using namespace shader_translate;

static bool parse(std::vector<std::string> args, Options& o, std::string& error)
{
    args.insert(args.begin(), "shader-translate");
    return parse_options(args, o, error);
}

TEST_CASE("defaults: stdin to SPIR-V binary for vulkan1.1")
{
    Options o;
    std::string e;
    REQUIRE(parse({}, o, e));
    CHECK(o.action == Action::translate);
    CHECK(o.input == "-");
    CHECK(o.output.empty());
    CHECK(o.source_type == DXSPV_SOURCE_TYPE_NONE);
    CHECK(o.target_type == DXSPV_TARGET_TYPE_SPIRV_BINARY);
    CHECK(o.environment == DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1);
    CHECK_FALSE(o.validate);
}

TEST_CASE("every option, short and long, separate and with '='")
{
    Options o;
    std::string e;
    REQUIRE(parse({"-x", "dxbc-dxil", "-b", "vsir-text", "-o", "out.txt", "--env", "vulkan1.3", "--entry", "main2",
                   "--experimental-ops", "--validate", "--optimize", "in.dxil"},
                  o, e));
    CHECK(o.source_type == DXSPV_SOURCE_TYPE_DXBC_DXIL);
    CHECK(o.target_type == DXSPV_TARGET_TYPE_VSIR_TEXT);
    CHECK(o.output == "out.txt");
    CHECK(o.environment == DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_3);
    CHECK(o.entry_point == "main2");
    CHECK(o.experimental_ops);
    CHECK(o.validate);
    CHECK(o.optimize);
    CHECK(o.input == "in.dxil");

    Options p;
    REQUIRE(parse({"--source-type=d3d-asm", "--target-type=dxbc-tpf", "--output=x.dxbc", "--env=vulkan1.0", "a.asm"}, p, e));
    CHECK(p.source_type == DXSPV_SOURCE_TYPE_D3D_ASM);
    CHECK(p.target_type == DXSPV_TARGET_TYPE_DXBC_TPF);
    CHECK(p.output == "x.dxbc");
    CHECK(p.environment == DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_0);
}

TEST_CASE("every source and target type name parses")
{
    for (const char* s : {"dxbc-tpf", "dxbc-dxil", "d3d-asm", "dxil-ll"})
        CHECK(parse_source_type(s) != DXSPV_SOURCE_TYPE_NONE);
    for (const char* t : {"spirv-binary", "spirv-text", "d3d-asm", "dxil-ll", "dxbc-tpf", "dxbc-dxil", "vsir-text"})
        CHECK(parse_target_type(t) != DXSPV_TARGET_TYPE_NONE);
    CHECK(is_binary_target(DXSPV_TARGET_TYPE_SPIRV_BINARY));
    CHECK_FALSE(is_binary_target(DXSPV_TARGET_TYPE_SPIRV_TEXT));
}

TEST_CASE("actions")
{
    std::string e;
    struct {
        const char* arg;
        Action action;
    } cases[] = {{"--info", Action::info}, {"-h", Action::help}, {"--help", Action::help}, {"-V", Action::version},
                 {"--version", Action::version}, {"--print-source-types", Action::print_source_types},
                 {"--print-target-types", Action::print_target_types}};
    for (auto& c : cases) {
        Options o;
        REQUIRE(parse({c.arg}, o, e));
        CHECK(o.action == c.action);
    }
}

TEST_CASE("usage errors")
{
    struct {
        std::vector<std::string> args;
        const char* message;
    } cases[] = {
        {{"--bogus"}, "unknown option '--bogus'"},
        {{"-x"}, "option -x needs a value"},
        {{"-x", "hlsl"}, "unknown source type 'hlsl'"},
        {{"-b", "glsl"}, "unknown target type 'glsl'"},
        {{"--env", "vulkan2.0"}, "unknown environment 'vulkan2.0'"},
        {{"--output="}, "empty output file name"},
        {{"a", "b"}, "more than one input file"},
    };
    for (auto& c : cases) {
        Options o;
        std::string e;
        CHECK_FALSE(parse(c.args, o, e));
        CHECK_MESSAGE(e.find(c.message) != std::string::npos, e);
    }
}

TEST_CASE("'-' and '--' name inputs")
{
    Options o;
    std::string e;
    REQUIRE(parse({"--", "-weird-name"}, o, e));
    CHECK(o.input == "-weird-name");
    Options p;
    REQUIRE(parse({"-"}, p, e));
    CHECK(p.input == "-");
}

// Unit tests of the .shader_test parser and conditions.
#include "parser.h"

#include <doctest/doctest.h>

using namespace runner;

namespace {

TestFile parse_ok(const char* text)
{
    TestFile file;
    std::string error;
    bool ok = parse_test_file(text, "t.shader_test", file, error);
    INFO(error);
    CHECK(ok);
    return file;
}

std::string parse_error(const char* text)
{
    TestFile file;
    std::string error;
    CHECK_FALSE(parse_test_file(text, "t.shader_test", file, error));
    return error;
}

bool cond(const char* text, uint32_t model)
{
    ConditionContext ctx;
    ctx.model = model;
    bool result = false;
    std::string error;
    REQUIRE(evaluate_condition(text, ctx, result, error));
    return result;
}

} // namespace

TEST_CASE("conditions combine sm, tags, !, & and |")
{
    CHECK(cond("sm>=6", 60));
    CHECK_FALSE(cond("sm>=6", 51));
    CHECK(cond("sm<6", 50));
    CHECK(cond("vulkan", 50));
    CHECK_FALSE(cond("d3d12", 50));
    CHECK(cond("!d3d12 & sm>=5.1", 51));
    CHECK(cond("glsl | sm<5", 40));
    CHECK_FALSE(cond("!(vulkan | glsl)", 50));
    CHECK(cond("", 50));
    ConditionContext ctx;
    bool r = false;
    std::string error;
    CHECK_FALSE(evaluate_condition("sm>=", ctx, r, error));
    CHECK_FALSE(evaluate_condition("(vulkan", ctx, r, error));
    // Nesting is bounded (a fuzzed file nested '(' deep enough to overflow
    // the stack): 64 levels parse, deeper ones are an error.
    std::string nested = std::string(64, '(') + "vulkan" + std::string(64, ')');
    CHECK(cond(nested.substr(1, nested.size() - 2).c_str(), 50));
    std::string deep = std::string(100000, '(') + "vulkan";
    CHECK_FALSE(evaluate_condition(deep, ctx, r, error));
    CHECK(error.find("64 levels") != std::string::npos);
    CHECK_FALSE(evaluate_condition(std::string(100000, '!') + "vulkan", ctx, r, error));
}

TEST_CASE("sections, qualifiers and comments")
{
    TestFile f = parse_ok(
        "% a comment\n"
        "[require]\n"
        "shader model >= 5.0 % trailing comment\n"
        "float64\n"
        "options: backcompat\n"
        "[compute shader d3d-asm todo(sm<6) fail(glsl)]\n"
        "cs_5_0\n"
        "ret\n"
        "[pixel shader]\n"
        "float4 main() : sv_target { return 1 % 2; }\n"
        "[uav 1]\n"
        "format r32-uint\n"
        "size (buffer, 4)\n"
        "1 2 0x3 4\n"
        "[sampler 0]\n"
        "filter linear point linear\n"
        "address wrap clamp border\n"
        "comparison less equal\n"
        "[test]\n"
        "uniform 0 float4 1.0 2.0 3.0 4.0\n"
        "todo(sm<6) dispatch 1 2 3\n"
        "if(sm>=6) probe uav 1 (0) rui (1)\n"
        "probe (0, 0, 640, 480) rgba (1.0, 0.5, inf, -nan) 4\n"
        "probe uav 1 (2, 3) u32 (5, 6) ulp 2\n");
    REQUIRE(f.sections.size() == 6);
    const auto& req = std::get<RequireSection>(f.sections[0]);
    CHECK(req.min_model == 50);
    CHECK(req.features == std::vector<std::string>{"float64"});
    const auto& cs = std::get<ShaderSection>(f.sections[1]);
    CHECK(cs.form == SourceForm::d3d_asm);
    REQUIRE(cs.qualifiers.size() == 2);
    CHECK(cs.qualifiers[0].kind == Qualifier::Kind::todo);
    CHECK(cs.qualifiers[0].condition == "sm<6");
    CHECK(cs.text == "cs_5_0\nret\n");
    const auto& ps = std::get<ShaderSection>(f.sections[2]);
    CHECK(ps.form == SourceForm::hlsl);
    CHECK(ps.text.find("1 % 2") != std::string::npos); // no comment stripping in shader bodies
    const auto& uav = std::get<ResourceSection>(f.sections[3]);
    CHECK(uav.dimension == Dimension::buffer);
    CHECK(uav.width == 4);
    REQUIRE(uav.data.size() == 16);
    CHECK(uav.data[8] == 3);
    const auto& sampler = std::get<ResourceSection>(f.sections[4]);
    CHECK(sampler.min_linear);
    CHECK_FALSE(sampler.mag_linear);
    CHECK(sampler.address[2] == AddressMode::border);
    CHECK(sampler.comparison == 4);
    const auto& test = std::get<TestSection>(f.sections[5]);
    REQUIRE(test.commands.size() == 5);
    CHECK(test.commands[0].words.size() == 4);
    CHECK(test.commands[1].kind == Command::Kind::dispatch);
    CHECK(test.commands[1].todo == std::optional<std::string>("sm<6"));
    CHECK(test.commands[1].groups[2] == 3);
    CHECK(test.commands[2].if_ == std::optional<std::string>("sm>=6"));
    CHECK(test.commands[2].probe.target == ResourceKind::uav);
    CHECK(test.commands[3].probe.w == 640);
    CHECK(test.commands[3].probe.ulp == 4);
    CHECK(test.commands[4].probe.components == 2);
    CHECK(test.commands[4].probe.ulp == 2);
}

TEST_CASE("dxil-ll shader bodies keep their '%' lines")
{
    TestFile f = parse_ok(
        "[compute shader dxil-ll]\n"
        "% not a comment in LLVM IR\n"
        "%dx.types.Handle = type { i8* }\n"
        "  %1 = add i32 1, 2\n"
        "[pixel shader d3d-asm]\n"
        "% a comment\n"
        "ps_5_0\n");
    REQUIRE(f.sections.size() == 2);
    const auto& cs = std::get<ShaderSection>(f.sections[0]);
    CHECK(cs.form == SourceForm::dxil_ll);
    CHECK(cs.text == "% not a comment in LLVM IR\n%dx.types.Handle = type { i8* }\n  %1 = add i32 1, 2\n");
    CHECK(std::get<ShaderSection>(f.sections[1]).text == "ps_5_0\n");
}

TEST_CASE("malformed files give file:line errors")
{
    CHECK(parse_error("[test]\nprobe uav 0 (0) rgba (1, 2)\n").find("t.shader_test:2:") == 0);
    CHECK(parse_error("[uav 0]\nsize (buffer)\n").find("t.shader_test:2:") == 0);
    CHECK(parse_error("[bogus]\n").find("t.shader_test:1: unknown section") == 0);
    CHECK(parse_error("[test]\ndispatch 1 1\n").find("t.shader_test:2:") == 0);
    CHECK(parse_error("[compute shader todo(sm>=)]\n").find("t.shader_test:1:") == 0);
    CHECK(parse_error("[require]\nshader model >= x\n").find("t.shader_test:2:") == 0);
    CHECK(parse_error("text\n").find("t.shader_test:1:") == 0);
    CHECK(parse_error("[test]\nuniform 0 float4 1 2\n").find("t.shader_test:2:") == 0);
}

TEST_CASE("UAV counters: initial value, implicit binding and counter probes")
{
    TestFile f = parse_ok("[uav 2]\nstride 4\nsize (buffer, 4)\ncounter 10\ncounter implicit\n"
                          "[uav 3]\nstride 4\nsize (buffer, 4)\n"
                          "[test]\nprobe uav 2 counter u32 (7)\n");
    const auto& a = std::get<ResourceSection>(f.sections[0]);
    CHECK(a.counter == 10);
    CHECK(a.counter_implicit);
    const auto& b = std::get<ResourceSection>(f.sections[1]);
    CHECK(b.counter == 0);
    CHECK_FALSE(b.counter_implicit);
    const Probe& p = std::get<TestSection>(f.sections[2]).commands[0].probe;
    CHECK(p.counter);
    CHECK(p.target == ResourceKind::uav);
    CHECK(p.slot == 2);
    CHECK(p.ivalues[0] == 7);
    CHECK(parse_error("[uav 0]\ncounter x\n").find("counter implicit") != std::string::npos);
    CHECK(parse_error("[test]\nprobe uav 0 counter f32 (1.0)\n").find("counter u32") != std::string::npos);
    CHECK(parse_error("[srv 0]\ncounter 1\n").find("t.shader_test:2") != std::string::npos);
}

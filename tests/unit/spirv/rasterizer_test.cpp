// SPIR-V emitter tests for sampleinfo / samplepos on the rasterizer: the
// sample count is a specialization constant (spec_id_rasterizer_sample_count,
// default 1); spirv-opt specialises it and folds the program, so the tests
// check the values the shader computes for each sample count.
#include "asm_emit.h"

#include <cstdio>

using namespace spirv_asm_test;

namespace {

// o0 = (samplepos(rasterizer, 3).xy, sampleinfo(rasterizer), sampleinfo_uint(rasterizer))
const char* rasterizer_queries = R"(
ps_5_0
dcl_output o0.xyzw
dcl_temps 2
sampleinfo r0.x, rasterizer.x
sampleinfo_uint r0.y, rasterizer.x
samplepos r1.xy, rasterizer.xyxx, l(3)
mov o0.xy, r1.xyxx
mov o0.z, r0.x
utof o0.w, r0.y
ret
)";

/// The folded output of rasterizer_queries for `samples`: its four floats.
std::string folded_output(const dxspv::vsir::Program& p, const char* samples)
{
    return fold_constants(p, {{dxspv::spirv::spec_id_rasterizer_sample_count, samples}});
}

std::string float_constant(float v)
{
    char text[64];
    snprintf(text, sizeof(text), "OpConstant %%float %g\n", double(v));
    return text;
}

} // namespace

TEST_CASE("spirv: rasterizer sample count is specialization constant 0, default 1")
{
    dxspv::vsir::Program p = assemble(rasterizer_queries);
    std::vector<std::string> texts = emit_all(p);
    for (const std::string& t : texts) {
        CHECK_HAS(t, "OpDecorate %rasterizer_sample_count SpecId 0");
        CHECK_HAS(t, "%rasterizer_sample_count = OpSpecConstant %uint 1");
        CHECK(count(t, "OpSpecConstant") == 1);
    }
    CHECK(dxspv::spirv::specialization_constants_used(p) == 1u << dxspv::spirv::spec_id_rasterizer_sample_count);
    CHECK(dxspv::spirv::specialization_constants_used(assemble(R"(
ps_5_0
dcl_resource_texture2dms(4) (float,float,float,float) t0
dcl_output o0.xyzw
sampleinfo o0.x, t0.x
samplepos o0.yz, t0.xxyx, l(1)
mov o0.w, l(0)
ret
)")) == 0);
}

TEST_CASE("spirv: sampleinfo and samplepos on the rasterizer give the standard D3D sample positions")
{
    dxspv::vsir::Program p = assemble(rasterizer_queries);
    struct Case {
        const char* samples;
        float x, y; // sample 3 of the standard pattern, in pixels
    } cases[] = {
        {"1", 0.0f, 0.0f},           // index 3 is outside a 1-sample pattern
        {"2", 0.0f, 0.0f},
        {"4", 2 / 16.0f, 6 / 16.0f},
        {"8", -3 / 16.0f, -5 / 16.0f},
        {"16", 4 / 16.0f, -1 / 16.0f},
        {"3", 0.0f, 0.0f},           // not a standard pattern
    };
    for (const Case& c : cases) {
        INFO("sample count " << c.samples);
        std::string t = folded_output(p, c.samples);
        float count = float(std::atoi(c.samples));
        CHECK_HAS(t, float_constant(count));
        CHECK_HAS(t, float_constant(c.x));
        CHECK_HAS(t, float_constant(c.y));
        CHECK_HAS_NOT(t, "OpSpecConstant");
        CHECK_HAS_NOT(t, "OpLoad"); // everything folded
    }
    // Without specialisation the default is one sample at the centre.
    std::string t = fold_constants(p);
    CHECK_HAS(t, float_constant(1.0f));
}

TEST_CASE("spirv: samplepos on a multisampled texture uses its sample count")
{
    dxspv::vsir::Program p = assemble(R"(
ps_5_0
dcl_resource_texture2dms(8) (float,float,float,float) t0
dcl_input_ps constant v0.x
dcl_output o0.xyzw
dcl_temps 1
ftou r0.x, v0.x
samplepos o0.xy, t0.xyxx, r0.x
sampleinfo o0.z, t0.x
mov o0.w, l(0)
ret
)");
    std::vector<std::string> texts = emit_all(p);
    CHECK_HAS(texts[1], "OpImageQuerySamples");
    CHECK_HAS_NOT(texts[1], "OpSpecConstant");
    CHECK_HAS(texts[1], "OpCapability ImageQuery");
}

// SPIR-V emitter tests for the graphics stages and the binding map: d3d-asm
// programs (with their signature comment blocks) are assembled into VSIR,
// emitted for Vulkan 1.0-1.3, validated with spirv-val and checked for the
// key instructions and decorations.
#include "asm_emit.h"

using dxspv::Code;
using dxspv::Diagnostics;
using dxspv::spirv::EmitOptions;
using dxspv::spirv::TargetEnv;
using namespace spirv_asm_test;

namespace {

const char* vertex_shader = R"(
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyz         0     NONE   float   xyz
// SV_VertexID              0   x           1   VERTID    uint   x
// SV_InstanceID            0   x           2   INSTID    uint   x
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   x           1     NONE    uint   x
// LAYER                    0    y          1     NONE   float    y
// SV_ClipDistance          0     zw        1  CLIPDST   float     zw
// SV_ClipDistance          1   x           2  CLIPDST   float   x
// SV_CullDistance          0    y          2  CULLDST   float    y
// SV_RenderTargetArrayIndex     0     z     2  RTINDEX    uint     z
//
vs_5_0
dcl_constantbuffer cb0[4], dynamicIndexed
dcl_input v0.xyz
dcl_input_sgv v1.x, vertex_id
dcl_input_sgv v2.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_output o1.x
dcl_output o1.y
dcl_output_siv o1.zw, clip_distance
dcl_output_siv o2.x, clip_distance
dcl_output_siv o2.y, cull_distance
dcl_output_siv o2.z, rendertarget_array_index
dcl_temps 1
mov r0.x, v1.x
mov o0.xyz, v0.xyzx
mov o0.w, cb0[r0.x + 0].x
iadd o1.x, v1.x, v2.x
utof o1.y, v2.x
mov o1.zw, v0.xxxy
mov o2.xy, v0.zzzz
mov o2.z, v2.x
ret
)";

const char* pixel_shader = R"(
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xy
// TEXCOORD                 0   xy          1     NONE   float   xy
// TEXCOORD                 1     zw        1     NONE   float     zw
// COLOR                    0   xyzw        2     NONE   float   xyzw
// BLENDINDICES             0   x           3     NONE    uint   x
// SV_IsFrontFace           0   x           4    FFACE    uint   x
// SV_SampleIndex           0    y          4   SAMPLE    uint    y
// SV_ClipDistance          0     z         4  CLIPDST   float     z
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
// SV_Target                1   xyzw        1   TARGET    uint   xyzw
// SV_DepthGreaterEqual     0    N/A oDepthGE DEPTHGE    float    YES
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2dms(4) (float,float,float,float) t1
dcl_input_ps_siv linear noperspective v0.xy, position
dcl_input_ps linear centroid v1.xy
dcl_input_ps linear noperspective sample v1.zw
dcl_input_ps linear v2.xyzw
dcl_input_ps constant v3.x
dcl_input_ps_sgv constant v4.x, is_front_face
dcl_input_ps_sgv constant v4.y, sampleIndex
dcl_input_ps_siv linear v4.z, clip_distance
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output oDepthGE
dcl_temps 3
discard_nz v3.x
deriv_rtx_coarse r0.x, v1.x
deriv_rty_fine r0.y, v1.y
sample r1.xyzw, v1.xyxx, t0.xyzw, s0
sample_b r2.xyzw, v1.xyxx, t0.xyzw, s0, l(0.500000)
add r1.xyzw, r1.xyzw, r2.xyzw
sample_c r2.x, v1.xyxx, t0.xxxx, s1, v2.x
gather4_po_c r2.yzw, v1.xyxx, l(1, -1, 0, 0), t0.xxyz, s1.x, v2.y
add r1.xyzw, r1.xyzw, r2.xyzw
lod r2.xy, v1.xyxx, t0.xyzw, s0
eval_centroid r2.z, v2.z
eval_sample_index r2.w, v2.w, v4.y
add r1.xyzw, r1.xyzw, r2.xyzw
eval_snapped r2.xy, v1.zwzz, l(2, -3, 0, 0)
resinfo_uint r0.zw, l(0), t0.zzzw
sampleinfo_uint r2.z, t1.x
samplepos r2.w, t1.x, v4.y
add r1.xyzw, r1.xyzw, r2.xyzw
add o0.xyzw, r1.xyzw, v0.xyxy
add o0.x, o0.x, v4.z
ftou r0.xy, r0.xyxx
and o1.xyzw, r0.xyzw, v4.xxxx
mov oDepthGE, v2.w
ret
)";

} // namespace

TEST_CASE("spirv: vertex shader inputs, outputs and system values")
{
    dxspv::vsir::Program p = assemble(vertex_shader);
    CHECK(p.inputs.size() == 3);
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpEntryPoint Vertex %main \"main\"");
    CHECK_HAS(t, "BuiltIn VertexIndex");
    CHECK_HAS(t, "BuiltIn BaseVertex");
    CHECK_HAS(t, "BuiltIn InstanceIndex");
    CHECK_HAS(t, "BuiltIn BaseInstance");
    CHECK_HAS(t, "OpISub");
    CHECK_HAS(t, "BuiltIn Position");
    CHECK_HAS(t, "BuiltIn ClipDistance");
    CHECK_HAS(t, "BuiltIn CullDistance");
    CHECK_HAS(t, "BuiltIn Layer");
    CHECK_HAS(t, "%_arr_float_uint_3"); // 3 clip distances gathered from o1.zw and o2.x
    CHECK_HAS(t, "OpDecorate %TEXCOORD0 Location 1");
    CHECK_HAS(t, "OpDecorate %LAYER0 Component 1");
    // Returns only at the top level: the program is the entry point itself.
    CHECK_FALSE(spirv_asm_test::has(t, "OpFunctionCall"));
    // One block: the output registers are values, their partial writes
    // merged in, and the clip distances gathered from o1.zw and o2.x are
    // taken from those values (Private o1 and o2 variables, read through
    // access chains, stayed in the module before).
    CHECK_FALSE(spirv_asm_test::has(t, "Private"));
    CHECK_HAS(texts[0], "OpExtension \"SPV_KHR_shader_draw_parameters\"");
    CHECK_HAS(texts[0], "ShaderViewportIndexLayerEXT");
    CHECK_HAS(texts[2], "OpCapability ShaderLayer");
}

TEST_CASE("spirv: a program that is one block keeps its registers as values, also across a discard")
{
    // r0 is written before the discard and read after it; o0 is written on
    // both sides. Function and Private variables held them before, with a
    // store before the discard's branch and a load after it.
    dxspv::vsir::Program p = assemble(R"(//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// COLOR                    0   xyzw        1     NONE   float   xyzw
// MASK                     0   x           2     NONE    uint   x
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_input_ps linear v1.xyzw
dcl_input_ps constant v2.x
dcl_output o0.xyzw
dcl_temps 1
mul r0.xyzw, v1.xyzw, l(2.000000, 2.000000, 2.000000, 2.000000)
mov o0.xy, r0.yxyy
discard_nz v2.x
add o0.zw, r0.zzzw, l(0.000000, 0.000000, 1.000000, 1.000000)
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpKill");
    CHECK_HAS_NOT(t, "%r0");
    CHECK_HAS_NOT(t, "%o0");
    CHECK_HAS_NOT(t, "OpVariable %_ptr_Function");
    CHECK_HAS_NOT(t, "Private");
    // The input is the value of its variable (a float vec4), and o0, all
    // floats, a vec4: no words, so no bitcasts, in between.
    CHECK_HAS_NOT(t, "OpBitcast");
    CHECK_HAS(texts[3], "OpDemoteToHelperInvocation");
}

TEST_CASE("spirv: a register held as a value takes writes lane by lane; a read makes one instruction")
{
    // r0.x is written twice (the first value is dead), r0.y and r0.zw once
    // each; o0 takes r0 whole, o1 two of its lanes in another order. Held
    // as whole vectors, each partial write made an insert or a shuffle, and
    // an overwritten lane stayed alive as the base of the next one.
    dxspv::vsir::Program p = assemble(R"(//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// COLOR                    0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
// SV_Target                1   xy          1   TARGET   float   xy
//
ps_5_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_output o1.xy
dcl_temps 1
exp r0.x, v0.x
sqrt r0.x, v0.y
log r0.y, v0.z
mul r0.zw, v0.zzzw, l(0.000000, 0.000000, 2.000000, 3.000000)
mov o0.xyzw, r0.xyzw
mov o1.xy, r0.wzww
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS_NOT(t, "OpCompositeInsert");
    CHECK_HAS_NOT(t, "Exp2"); // the overwritten r0.x
    CHECK_HAS(t, "Sqrt");
    CHECK_HAS(t, "Log2");
    // o0: the three written values in one construct (two lanes extracted
    // from the mul's vec2); o1: one shuffle of the mul's result (the other
    // shuffle reads v0.zw for the mul).
    CHECK(count(t, "OpCompositeConstruct %v4float") == 1);
    CHECK(count(t, "OpVectorShuffle %v2float") == 2);
    CHECK_HAS_NOT(t, "OpBitcast");
}

TEST_CASE("spirv: held lanes keep the kind they were written in")
{
    // r0 is read as integers and as floats, so it is held as uint words.
    // Each lane keeps the kind of the value written to it: the float mul's
    // lanes go to o0 as floats and the integer lanes to the iadd as they
    // are. Held as words, each float lane was bitcast to a uint and back.
    dxspv::vsir::Program p = assemble(R"(//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// COLOR                    0   xyzw        0     NONE   float   xyzw
// INDEX                    0   x           1     NONE    uint   x
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
// SV_Target                1   x           1   TARGET    uint   x
//
ps_5_0
dcl_input_ps linear v0.xyzw
dcl_input_ps constant v1.x
dcl_output o0.xyzw
dcl_output o1.x
dcl_temps 1
mul r0.xyzw, v0.xyzw, l(2.000000, 2.000000, 2.000000, 2.000000)
mov o0.xyzw, r0.wzyx
iadd r0.x, v1.x, l(1)
iadd o1.x, r0.x, l(3)
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpVectorShuffle %v4float");
    CHECK_HAS(t, "OpIAdd %uint");
    CHECK_HAS_NOT(t, "OpBitcast");
}

TEST_CASE("spirv: SV_Position, with D3D's 1/w, is an input register held as its value")
{
    // The register is the float vec4 that has 1/w in w; before, it was taken
    // to words (a bitcast) and its reads bitcast back.
    dxspv::vsir::Program p = assemble(R"(//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_output o0.xyzw
mul o0.xyzw, v0.wzyx, l(2.000000, 2.000000, 2.000000, 2.000000)
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpFDiv %float %float_1");
    CHECK_HAS(t, "OpVectorShuffle %v4float");
    CHECK_HAS_NOT(t, "OpBitcast");
}

TEST_CASE("spirv: signature inputs the program neither declares nor reads get no variable")
{
    // SV_Position and SV_RenderTargetArrayIndex are in the signature (the
    // previous stage writes them) but not declared: no FragCoord, no Layer
    // and so no Geometry capability; the declared TEXCOORD stays.
    dxspv::vsir::Program p = assemble(R"(//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_POSITION              0   xyzw        0      POS   float
// SV_RENDERTARGETARRAYINDEX     0   x           1  RTINDEX    uint
// TEXCOORD                 0   xyz         2     NONE   float   xyz
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_input_ps linear v2.xyz
dcl_output o0.xyzw
mov o0.xyzw, v2.xyzx
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "Location 2");
    CHECK_HAS_NOT(t, "FragCoord");
    CHECK_HAS_NOT(t, "BuiltIn Layer");
    CHECK_HAS_NOT(t, "OpCapability Geometry");
    // Nor anything for the registers no source reads (no uvec4, no OpUndef
    // that pruning would take out again).
    CHECK(ids_made_for_nothing(p) == 0);
}

TEST_CASE("spirv: pixel shader interface, sampling, queries and pull-model interpolation")
{
    dxspv::vsir::Program p = assemble(pixel_shader);
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpEntryPoint Fragment %main \"main\"");
    CHECK_HAS(t, "OpExecutionMode %main OriginUpperLeft");
    CHECK_HAS(t, "OpExecutionMode %main DepthReplacing");
    CHECK_HAS(t, "OpExecutionMode %main DepthGreater");
    CHECK_HAS(t, "BuiltIn FragCoord");
    CHECK_HAS(t, "BuiltIn FragDepth");
    CHECK_HAS(t, "BuiltIn FrontFacing");
    CHECK_HAS(t, "BuiltIn SampleId");
    CHECK_HAS(t, "OpDecorate %TEXCOORD0 Centroid");
    CHECK_HAS(t, "OpDecorate %TEXCOORD1 Component 2");
    CHECK_HAS(t, "OpDecorate %TEXCOORD1 NoPerspective");
    CHECK_HAS(t, "OpDecorate %TEXCOORD1 Sample");
    CHECK_HAS(t, "OpDecorate %BLENDINDICES0 Flat");
    CHECK_HAS(t, "OpDecorate %SV_Target1 Location 1");
    CHECK_HAS(t, "OpKill");
    CHECK_HAS(texts[3], "OpDemoteToHelperInvocation");
    CHECK_HAS_NOT(texts[3], "OpKill");
    CHECK_HAS(t, "OpDPdxCoarse");
    CHECK_HAS(t, "OpDPdyFine");
    CHECK_HAS(t, "OpCapability DerivativeControl");
    CHECK_HAS(t, "OpImageSampleImplicitLod");
    CHECK_HAS(t, "Bias");
    CHECK_HAS(t, "OpImageSampleDrefImplicitLod");
    CHECK_HAS(t, "OpImageDrefGather");
    CHECK_HAS(t, "OpCapability ImageGatherExtended");
    CHECK_HAS(t, "OpImageQueryLod");
    CHECK_HAS(t, "OpImageQuerySizeLod");
    CHECK_HAS(t, "OpImageQueryLevels");
    CHECK_HAS(t, "OpImageQuerySamples");
    CHECK_HAS(t, "%sample_positions");
    CHECK_HAS(t, "InterpolateAtCentroid");
    CHECK_HAS(t, "InterpolateAtSample");
    CHECK_HAS(t, "InterpolateAtOffset");
    CHECK_HAS(t, "OpCapability InterpolationFunction");
}

TEST_CASE("spirv: pixel shader coverage, stencil export and sparse feedback")
{
    dxspv::vsir::Program p = assemble(R"(
ps_5_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input vCoverage
dcl_input vInnerCoverage
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_output oMask
dcl_output oStencilRef
dcl_temps 2
sample_l_s r0.xyzw, r1.x, v1.xyxx, t0.xyzw, s0, l(0.000000)
check_access_fully_mapped r1.x, r1.x
and o0.xyzw, r0.xyzw, r1.xxxx
and oMask, vCoverage.x, vInnerCoverage.x
mov oStencilRef, l(3)
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "BuiltIn SampleMask");
    CHECK_HAS(t, "BuiltIn FragStencilRefEXT");
    CHECK_HAS(t, "OpExecutionMode %main StencilRefReplacingEXT");
    CHECK_HAS(t, "OpExtension \"SPV_EXT_shader_stencil_export\"");
    CHECK_HAS(t, "BuiltIn FullyCoveredEXT");
    CHECK_HAS(t, "OpImageSparseSampleExplicitLod");
    CHECK_HAS(t, "OpImageSparseTexelsResident");
    CHECK_HAS(t, "OpCapability SparseResidency");
}

TEST_CASE("spirv: a straight-line entry holds its scalar system registers as values")
{
    // oDepth and vCoverage without Private copies: the entry writes the
    // builtins from the values (and makes no Private uint, nor its null).
    dxspv::vsir::Program p = assemble(R"(
ps_5_0
dcl_constantbuffer cb0[1], immediateIndexed
dcl_input vCoverage
dcl_output o0.xyzw
dcl_output oDepth
dcl_output oMask
mov o0.xyzw, l(0, 1.000000, 0, 1.000000)
mov oDepth, cb0[0].x
mov oMask, vCoverage.x
ret
)");
    const std::string t = emit_all(p)[1];
    CHECK(count(t, "OpVariable %_ptr_Private") == 0);
    CHECK(count(t, "OpConstantNull") == 0);
    CHECK_HAS(t, "BuiltIn FragDepth");
    CHECK(count(t, "OpStore %oDepth ") == 1);
    CHECK(count(t, "OpStore %oMask") == 0); // through an access chain to its element
    CHECK(count(t, "OpLoad %int %") == 1);  // vCoverage's element, once
}

TEST_CASE("spirv: a mov into a held output names the source's components")
{
    // o0.x is v1's .w as it was loaded and o0.yzw the constant: the output
    // is one shuffle of the two at the end, without an extract at the mov.
    const std::string t = emit_all(assemble(R"(
ps_4_0
dcl_input_ps linear v1.xyzw
dcl_output o0.xyzw
mov o0.x, v1.w
mov o0.yzw, l(0, 0, 0, 1.000000)
ret
)"))[1];
    CHECK(count(t, "OpCompositeExtract") == 0);
    CHECK(count(t, "OpCompositeConstruct") == 0);
    CHECK(count(t, "OpVectorShuffle %v4float") == 1);
}

TEST_CASE("spirv: an input register of two float inputs is one float shuffle of them")
{
    const std::string t = emit_all(assemble(R"(
ps_4_0
dcl_input_ps linear v1.xy
dcl_input_ps linear v1.zw
dcl_output o0.xyzw
mov o0.xyzw, v1.xyzw
ret
)"))[1];
    CHECK(count(t, "OpBitcast") == 0);
    CHECK(count(t, "OpVectorShuffle %v4float") == 1);
    CHECK(count(t, "OpVectorShuffle") == 1);
}

TEST_CASE("spirv: SV_Position's 1/w only where a source may read .w")
{
    // An early return: the inputs are Private copies the entry makes first.
    const char* text = R"(
ps_5_0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_output o0.xyzw
if_nz v0.x
  ret
endif
mov o0.xyzw, v0.%s
ret
)";
    char xy[512], w[512];
    snprintf(xy, sizeof(xy), text, "xyxy");
    snprintf(w, sizeof(w), text, "xyzw");
    CHECK(count(emit_all(assemble(xy))[1], "OpFDiv") == 0);
    CHECK(count(emit_all(assemble(w))[1], "OpFDiv") == 1);
}

TEST_CASE("spirv: movs into single lanes of a held temp name the source's components")
{
    // Each lane of r0 is a component of v0 as it was loaded: the output is
    // one shuffle of that load in the movs' order, not four extracts and a
    // construct.
    const std::string t = emit_all(assemble(R"(
ps_4_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, v0.w
mov r0.y, v0.z
mov r0.z, v0.y
mov r0.w, v0.x
mov o0.xyzw, r0.xyzw
ret
)"))[1];
    CHECK(count(t, "OpCompositeExtract") == 0);
    CHECK(count(t, "OpVectorShuffle %v4float") == 1);
    CHECK_HAS(t, " 3 2 1 0");
}

TEST_CASE("spirv: a pixel shader returning early is a function the entry point calls")
{
    const char* text = R"(
ps_5_0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
mov o0.xyzw, l(1.0, 2.0, 3.0, 4.0)
%s
mov o0.xy, v1.xyxx
ret
)";
    char early[512], top[512];
    snprintf(early, sizeof(early), text, "if_nz v1.x\nret\nendif");
    snprintf(top, sizeof(top), text, "");
    std::string with_early_return = emit_all(assemble(early))[1];
    std::string straight = emit_all(assemble(top))[1];
    CHECK_HAS(with_early_return, "OpFunctionCall");
    CHECK_FALSE(spirv_asm_test::has(straight, "OpFunctionCall"));
    // Inputs are values there, not Private copies; outputs are written once.
    // (o0's Private copy, only written, is gone too.)
    CHECK(spirv_asm_test::count(straight, "OpVariable %_ptr_Private") == 0);
    CHECK(spirv_asm_test::count(straight, "OpStore %o0 ") == 1);
}

TEST_CASE("spirv: relative addressing of inputs and outputs")
{
    dxspv::vsir::Program p = assemble(R"(
vs_5_0
dcl_input v0.xyzw
dcl_input v1.xyzw
dcl_input v2.xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_indexRange v0.xyzw, 3
dcl_indexRange o1.xyzw, 2
dcl_temps 1
ftou r0.x, v0.w
mov o0.xyzw, v[r0.x + 0].xyzw
mov o[r0.x + 1].xyzw, v[r0.x + 1].wzyx
ret
)");
    std::vector<std::string> texts = emit_all(p);
    CHECK_HAS(texts[1], "OpAccessChain %_ptr_Private_v4uint %v");
    CHECK_HAS(texts[1], "OpAccessChain %_ptr_Private_v4uint %o");
}

TEST_CASE("spirv: implicit-LOD sampling and derivatives are refused outside pixel shaders")
{
    dxspv::vsir::Program p = assemble(R"(
vs_5_0
dcl_sampler s0, mode_default
dcl_resource_texture2d (float,float,float,float) t0
dcl_input v0.xy
dcl_output_siv o0.xyzw, position
sample o0.xyzw, v0.xyxx, t0.xyzw, s0
ret
)");
    std::vector<uint32_t> words;
    Diagnostics diags("emit");
    CHECK_FALSE(dxspv::spirv::emit_spirv(p, {}, words, diags));
    CHECK(diags.has_code(Code::spirv_unsupported_opcode));
    CHECK(has(diags.to_string(), "'sample'"));
}

TEST_CASE("spirv: binding map, push constants and strict mode")
{
    dxspv::vsir::Program p = assemble(R"(
ps_5_1
dcl_constantbuffer CB0[0:0][4], immediateIndexed, space=0
dcl_constantbuffer CB1[1:1][2], immediateIndexed, space=0
dcl_constantbuffer CB2[2:2][1], immediateIndexed, space=1
dcl_resource_texture2d (float,float,float,float) T0[3:3], space=2
dcl_output o0.xyzw
dcl_temps 1
add r0.xyzw, CB0[0][3].xyzw, CB1[1][1].xyzw
add r0.xyzw, r0.xyzw, CB2[2][0].xyzw
ld r0.xyzw, l(0, 0, 0, 0), T0[3].xyzw
mov o0.xyzw, r0.xyzw
ret
)");
    using dxspv::spirv::DescriptorBinding;
    using dxspv::spirv::DescriptorType;
    SUBCASE("default mapping")
    {
        std::vector<std::string> texts = emit_all(p);
        CHECK_HAS(texts[1], "OpDecorate %cb2 DescriptorSet 1");
        CHECK_HAS(texts[1], "OpDecorate %t0 Binding 1003");
    }
    SUBCASE("explicit map with two push-constant buffers in one block")
    {
        DescriptorBinding map[4];
        map[0].type = DescriptorType::cbv;
        map[0].register_index = 1;
        map[0].push_constant = true;
        map[0].push_constant_offset = 0;
        map[3].type = DescriptorType::cbv;
        map[3].register_index = 0;
        map[3].push_constant = true;
        map[3].push_constant_offset = 32;
        map[1].type = DescriptorType::cbv;
        map[1].space = 1;
        map[1].register_index = 2;
        map[1].set = 4;
        map[1].binding = 7;
        map[2].type = DescriptorType::srv;
        map[2].space = 2;
        map[2].register_index = 0;
        map[2].register_count = ~0u;
        map[2].set = 2;
        map[2].binding = 10;
        EmitOptions options;
        options.bindings.bindings = map;
        std::vector<std::string> texts = emit_all(p, options);
        const std::string& t = texts[1];
        CHECK_HAS(t, "OpDecorate %push_constants Block");
        CHECK_HAS(t, "OpMemberDecorate %push_constants 0 Offset 0");
        CHECK_HAS(t, "OpMemberDecorate %push_constants 1 Offset 32");
        CHECK_HAS(t, "OpVariable %_ptr_PushConstant_push_constants PushConstant");
        CHECK_HAS(t, "OpDecorate %cb2 DescriptorSet 4");
        CHECK_HAS(t, "OpDecorate %cb2 Binding 7");
        CHECK_HAS(t, "OpDecorate %t0 DescriptorSet 2");
        CHECK_HAS(t, "OpDecorate %t0 Binding 13");
        CHECK_HAS_NOT(t, "Binding 0\n");
        // Both push-constant buffers are members of the one block.
        CHECK_HAS(t, "OpMemberName %push_constants 0 \"cb1\"");
        CHECK_HAS(t, "OpMemberName %push_constants 1 \"cb0\"");
    }
    SUBCASE("overlapping push-constant buffers are refused")
    {
        DescriptorBinding map[1];
        map[0].type = DescriptorType::cbv;
        map[0].register_index = 0;
        map[0].register_count = 2;
        map[0].push_constant = true;
        EmitOptions options;
        options.bindings.bindings = map;
        std::vector<uint32_t> words;
        Diagnostics diags("emit");
        CHECK_FALSE(dxspv::spirv::emit_spirv(p, options, words, diags));
        CHECK(diags.has_code(Code::spirv_unsupported_declaration));
    }
    SUBCASE("strict mode: an unmapped descriptor is E2012")
    {
        DescriptorBinding map[1];
        map[0].type = DescriptorType::cbv;
        map[0].register_index = 0;
        map[0].register_count = 3;
        EmitOptions options;
        options.bindings.bindings = map;
        options.bindings.strict = true;
        std::vector<uint32_t> words;
        Diagnostics diags("emit");
        CHECK_FALSE(dxspv::spirv::emit_spirv(p, options, words, diags));
        CHECK(diags.has_code(Code::spirv_unmapped_descriptor));
        CHECK(has(diags.to_string(), "b2, space 1"));
        CHECK(has(diags.to_string(), "t3, space 2"));
    }
}

TEST_CASE("spirv: geometry shader primitives, emit and cut")
{
    dxspv::vsir::Program p = assemble(R"(
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   xy          1     NONE   float   xy
// SV_ClipDistance          0     z         1  CLIPDST   float     z
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   xy          1     NONE   float   xy
// SV_RenderTargetArrayIndex     0   x     2  RTINDEX    uint   x
//
gs_5_0
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xy
dcl_input_siv v[3][1].z, clip_distance
dcl_input vPrim
dcl_input vGSInstanceID
dcl_temps 1
dcl_inputprimitive triangle
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_output_siv o2.x, rendertarget_array_index
dcl_maxout 3
dcl_gsinstances 2
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(3)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  add o1.xy, v[r0.x + 0][1].xyxx, v[r0.x + 0][1].zzzz
  iadd o2.x, vPrim, vGSInstanceID
  emit_stream m0
  iadd r0.x, r0.x, l(1)
endloop
cut_stream m0
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpEntryPoint Geometry %main \"main\"");
    CHECK_HAS(t, "OpExecutionMode %main Triangles");
    CHECK_HAS(t, "OpExecutionMode %main OutputTriangleStrip");
    CHECK_HAS(t, "OpExecutionMode %main OutputVertices 3");
    CHECK_HAS(t, "OpExecutionMode %main Invocations 2");
    CHECK_HAS(t, "OpEmitVertex");
    CHECK_HAS(t, "OpEndPrimitive");
    CHECK_HAS(t, "BuiltIn PrimitiveId");
    CHECK_HAS(t, "BuiltIn InvocationId");
    CHECK_HAS(t, "BuiltIn ClipDistance");
    CHECK_HAS(t, "%_arr__arr_float_uint_1_uint_3"); // per-vertex clip distances
    CHECK_HAS(t, "%_arr_v4float_uint_3");          // gl_in[].Position
}

/// A domain shader of three control points (SV_Position, COLOR) and five
/// patch constants, reading vicp[*][0], vpc0.x, vpc3.x and vpc4.
constexpr const char* domain_shader = R"(
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
//
// Patch Constant signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TessFactor            0   x           0 TRIEDGE    float   x
// SV_TessFactor            1   x           1 TRIEDGE    float   x
// SV_TessFactor            2   x           2 TRIEDGE    float   x
// SV_InsideTessFactor      0   x           3  TRIINT    float   x
// CENTER                   0   xyzw        4     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
ds_5_0
dcl_input_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_input vDomain.xyz
dcl_input vicp[3][0].xyzw
dcl_input vpc0.x
dcl_input vpc3.x
dcl_input vpc4.xyzw
dcl_input vPrim
dcl_output_siv o0.xyzw, position
dcl_temps 1
mul r0.xyzw, vDomain.xxxx, vicp[0][0].xyzw
mad r0.xyzw, vDomain.yyyy, vicp[1][0].xyzw, r0.xyzw
mad r0.xyzw, vDomain.zzzz, vicp[2][0].xyzw, r0.xyzw
add r0.xyzw, r0.xyzw, vpc4.xyzw
add r0.x, r0.x, vpc0.x
add r0.y, r0.y, vpc3.x
utof r0.z, vPrim
mov o0.xyzw, r0.xyzw
ret
)";

TEST_CASE("spirv: hull shader phases and domain shader")
{
    dxspv::vsir::Program hs = assemble(R"(
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
//
// Patch Constant signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TessFactor            0   x           0 TRIEDGE    float   x
// SV_TessFactor            1   x           1 TRIEDGE    float   x
// SV_TessFactor            2   x           2 TRIEDGE    float   x
// SV_InsideTessFactor      0   x           3  TRIINT    float   x
// CENTER                   0   xyzw        4     NONE   float   xyzw
//
hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_fractional_odd
dcl_tessellator_output_primitive output_triangle_ccw
dcl_hs_max_tessfactor l(64.000000)
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[3][0].xyzw
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_temps 1
mov r0.x, vOutputControlPointID
mov o0.xyzw, v[r0.x + 0][0].xyzw
utof o1.xyzw, vOutputControlPointID
ret
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_temps 1
dcl_indexRange o0.x, 3
mov r0.x, vForkInstanceID
mov o[r0.x + 0].x, l(4.000000)
ret
hs_join_phase
dcl_input vocp[3][1].xyzw
dcl_output_siv o3.x, finalTriInsideTessFactor
dcl_output o4.xyzw
add o4.xyzw, vocp[0][1].xyzw, vocp[2][1].xyzw
mov o3.x, l(2.000000)
ret
)");
    std::vector<std::string> texts = emit_all(hs);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpEntryPoint TessellationControl %main \"main\"");
    CHECK_HAS(t, "OpExecutionMode %main Triangles");
    CHECK_HAS(t, "OpExecutionMode %main OutputVertices 3");
    CHECK_HAS(t, "OpExecutionMode %main SpacingFractionalOdd");
    CHECK_HAS(t, "OpExecutionMode %main VertexOrderCcw");
    CHECK_HAS(t, "BuiltIn TessLevelOuter");
    CHECK_HAS(t, "BuiltIn TessLevelInner");
    CHECK_HAS(t, "OpControlBarrier");
    CHECK_HAS(t, "%hs_fork_phase = OpFunction");
    CHECK_HAS(t, "%hs_join_phase = OpFunction");
    CHECK_HAS(t, "OpDecorate %CENTER0 Patch");
    CHECK_HAS(t, "OpDecorate %CENTER0 Location 6"); // after the 2 per-vertex registers... offset by the signature
    CHECK_HAS(t, "%vocp = OpVariable");

    dxspv::vsir::Program ds = assemble(domain_shader);
    texts = emit_all(ds);
    const std::string& d = texts[1];
    CHECK_HAS(d, "OpEntryPoint TessellationEvaluation %main \"main\"");
    CHECK_HAS(d, "OpExecutionMode %main Triangles");
    CHECK_HAS(d, "BuiltIn TessCoord");
    CHECK_HAS(d, "BuiltIn TessLevelOuter");
    CHECK_HAS(d, "BuiltIn TessLevelInner");
    CHECK_HAS(d, "OpDecorate %CENTER0 Location 6");
    CHECK_HAS(d, "BuiltIn PrimitiveId");
}

TEST_CASE("spirv: a domain shader copies in only the control point and patch constant registers it reads")
{
    // COLOR (v*[1]) and the second and third tess factors (vpc1, vpc2) are
    // in the signatures, not read: no copy loads them. An input that fills
    // its register (SV_Position, CENTER) goes in with one store.
    std::vector<std::string> texts = emit_all(assemble(domain_shader));
    const std::string& d = texts[1];
    CHECK_HAS_NOT(d, "%COLOR0 %uint_");
    CHECK_HAS(d, "%TessLevelOuter %uint_0");
    CHECK_HAS_NOT(d, "%TessLevelOuter %uint_1");
    CHECK_HAS_NOT(d, "%TessLevelOuter %uint_2");
    CHECK_HAS(d, "%TessLevelInner %uint_0");
    CHECK_HAS(d, "OpLoad %v4float %CENTER0");
    CHECK_HAS_NOT(d, "OpAccessChain %_ptr_Private_uint %v %uint_0 %uint_0 %uint_");
    CHECK_HAS_NOT(d, "OpAccessChain %_ptr_Private_uint %vpc %uint_4 %uint_");

    // A patch constant read through a relative index: every one is copied.
    std::string relative = domain_shader;
    relative.replace(relative.find("dcl_temps 1"), 11, "dcl_indexRange vpc0.x, 4\ndcl_temps 1");
    relative.replace(relative.find("add r0.x, r0.x, vpc0.x"), 22, "ftou r0.w, r0.w\nadd r0.x, r0.x, vpc[r0.w + 0].x");
    texts = emit_all(assemble(relative.c_str()));
    const std::string& r = texts[1];
    CHECK_HAS(r, "%TessLevelOuter %uint_1");
    CHECK_HAS(r, "%TessLevelOuter %uint_2");
    CHECK_HAS_NOT(r, "%COLOR0 %uint_");
}

TEST_CASE("spirv: UAV counters, typed UAV atomics, msad and unbounded descriptor arrays")
{
    dxspv::vsir::Program p = assemble(R"(
cs_5_1
dcl_uav_structured U0[0:0], 4, space=0
dcl_uav_typed_texture2d (uint,uint,uint,uint) U1[1:1], space=0
dcl_uav_typed_texture2d (sint,sint,sint,sint) U2[2:2], space=0
dcl_resource_structured T0[0:*], 4, space=1
dcl_input vThreadID.xy
dcl_temps 2
dcl_thread_group 8, 8, 1
imm_atomic_alloc r0.x, U0[0]
imm_atomic_consume r0.y, U0[0]
atomic_iadd U1[1], vThreadID.xyxx, r0.x
imm_atomic_imax r1.x, U2[2], vThreadID.xyxx, r0.y
imm_atomic_cmp_exch r1.y, U1[1], vThreadID.xyxx, r0.x, r0.y
msad r1.z, r0.x, r0.y, r1.x
ld_structured r1.w, vThreadID.x, l(0), T0[vThreadID.y + 0].xxxx
iadd r1.x, r1.x, r1.w
store_structured U0[0].xyzw, vThreadID.x, l(0), r1.xyzw
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "%u0_counter = OpVariable");
    CHECK_HAS(t, "OpDecorate %u0_counter Binding 4000");
    CHECK_HAS(t, "OpAtomicIAdd");
    CHECK_HAS(t, "OpAtomicISub");
    CHECK_HAS(t, "OpImageTexelPointer");
    CHECK_HAS(t, "R32ui");
    CHECK_HAS(t, "R32i");
    CHECK_HAS(t, "OpAtomicSMax");
    CHECK_HAS(t, "OpAtomicCompareExchange");
    CHECK_HAS(t, "OpTypeRuntimeArray %srv_buffer");
    CHECK_HAS(t, "OpCapability RuntimeDescriptorArray");
    CHECK_HAS(texts[0], "OpExtension \"SPV_EXT_descriptor_indexing\"");
}

TEST_CASE("spirv: subroutines share Private temps")
{
    dxspv::vsir::Program p = assemble(R"(
ps_5_0
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 2
mov r0.xy, v0.xyxx
call l1
lt r1.x, r0.x, l(0.500000)
callc_nz r1.x, l1
mov o0.xyzw, r0.xyxy
ret
label l1
add r0.xy, r0.xyxx, l(1.000000, 1.000000, 0.000000, 0.000000)
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "%l1 = OpFunction");
    CHECK_HAS(t, "OpFunctionCall %void %l1");
    CHECK_HAS(t, "%r0 = OpVariable %_ptr_Private_v4float Private"); // read and written as floats
    CHECK_HAS(t, "%r1 = OpVariable %_ptr_Private_v4uint Private");  // lt writes a mask
}

TEST_CASE("spirv: mutated graphics programs never crash the emitter")
{
    // The interface code paths (signatures, declarations, per-vertex and
    // patch registers, phases) under random corruption: the emitter may
    // refuse, but must not crash, hang or assert.
    const char* hull = R"(
hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[3][0].xyzw
dcl_output o0.xyzw
mov o0.xyzw, v[vOutputControlPointID][0].xyzw
ret
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_temps 1
dcl_indexRange o0.x, 3
mov r0.x, vForkInstanceID
mov o[r0.x + 0].x, vocp[0][0].x
ret
hs_join_phase
dcl_output_siv o3.x, finalTriInsideTessFactor
mov o3.x, l(2.000000)
ret
)";
    const char* geometry = R"(
gs_5_0
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xy
dcl_input vPrim
dcl_temps 1
dcl_inputprimitive triangle
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xy
dcl_maxout 3
mov o0.xyzw, v[0][0].xyzw
mov o1.xy, v[1][1].xyxx
emit_stream m0
cut_stream m0
ret
)";
    const char* texts[] = {vertex_shader, pixel_shader, hull, geometry};
    uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&state](uint32_t bound) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return uint32_t(state % bound);
    };
    using namespace dxspv::vsir;
    for (const char* text : texts) {
        Program base = assemble(text);
        auto mutate_register = [&](Register& reg) {
            switch (next(5)) {
            case 0: reg.file = RegisterFile(next(uint32_t(RegisterFile::count))); break;
            case 1: reg.idx[next(3)].offset = next(8) == 0 ? ~0u : next(40); break;
            case 2: reg.idx[next(3)].rel_addr = next(4) == 0 ? next(uint32_t(base.srcs.size()) + 2) : invalid_index; break;
            case 3: reg.index_count = uint8_t(next(4)); break;
            default: reg.type = DataType(next(uint32_t(DataType::opaque) + 1)); break;
            }
        };
        for (int round = 0; round < 400; ++round) {
            Program p;
            p.model = base.model;
            p.control_flow = base.control_flow;
            p.instructions = base.instructions;
            p.dsts = base.dsts;
            p.srcs = base.srcs;
            p.decls = base.decls;
            p.u32_pool = base.u32_pool;
            p.inputs = base.inputs;
            p.outputs = base.outputs;
            p.patch_constants = base.patch_constants;
            p.temp_count = base.temp_count;
            p.label_count = base.label_count;
            for (int m = 0, n = 1 + int(next(3)); m < n; ++m) {
                switch (next(7)) {
                case 0: p.instructions[next(uint32_t(p.instructions.size()))].opcode = Opcode(next(uint32_t(Opcode::count))); break;
                case 1: mutate_register(p.dsts[next(uint32_t(p.dsts.size()))].reg); break;
                case 2: if (!p.srcs.empty()) mutate_register(p.srcs[next(uint32_t(p.srcs.size()))].reg); break;
                case 3: p.dsts[next(uint32_t(p.dsts.size()))].write_mask = uint8_t(next(256)); break;
                case 4: {
                    std::vector<dxspv::SignatureElement>* sigs[] = {&p.inputs, &p.outputs, &p.patch_constants};
                    std::vector<dxspv::SignatureElement>& sig = *sigs[next(3)];
                    if (sig.empty())
                        break;
                    dxspv::SignatureElement& e = sig[next(uint32_t(sig.size()))];
                    switch (next(4)) {
                    case 0: e.register_index = next(4) ? next(40) : ~0u; break;
                    case 1: e.mask = uint8_t(next(256)); break;
                    case 2: e.system_value = dxspv::SystemValue(next(72)); break;
                    default: e.component_type = dxspv::ComponentType(next(10)); break;
                    }
                    break;
                }
                default: {
                    if (p.decls.empty())
                        break;
                    Declaration& d = p.decls[next(uint32_t(p.decls.size()))];
                    d.count = next(3) ? next(40) : ~0u;
                    d.value = next(12);
                    d.system_value = dxspv::SystemValue(next(72));
                    d.interpolation = InterpolationMode(next(8));
                    break;
                }
                }
            }
            std::vector<uint32_t> words;
            Diagnostics diags("emit");
            if (dxspv::spirv::emit_spirv(p, {}, words, diags)) {
                Diagnostics val("spirv-val");
                dxspv::spirv::validate_spirv(words, TargetEnv::vulkan1_1, val); // must not crash either
            }
        }
    }
}

TEST_CASE("spirv: geometry shader with several streams")
{
    dxspv::vsir::Program p = assemble(R"(
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// COORD                    0   xyzw        0     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   xy          1     NONE   float   xy
//
// dxspv-signature: OSG5 ; 1 stream=1
//
gs_5_0
dcl_input v[1][0].xyzw
dcl_inputprimitive point
dcl_stream m0
dcl_outputtopology pointlist
dcl_output_siv o0.xyzw, position
dcl_stream m1
dcl_outputtopology pointlist
dcl_output o1.xy
dcl_maxout 2
mov o0.xyzw, v[0][0].xyzw
emit_stream m0
mov o1.xy, v[0][0].xyxx
emit_stream m1
cut_stream m1
ret
)");
    REQUIRE(p.outputs.size() == 2);
    if (p.outputs[1].stream != 1)
        p.outputs[1].stream = 1; // the element of the second stream
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    CHECK_HAS(t, "OpCapability GeometryStreams");
    CHECK_HAS(t, "OpDecorate %TEXCOORD0 Stream 1");
    CHECK_HAS(t, "OpDecorate %TEXCOORD0 Location 2"); // after stream 0's registers
    CHECK_HAS(t, "OpEmitStreamVertex %uint_1");
    CHECK_HAS(t, "OpEndStreamPrimitive %uint_1");
}

TEST_CASE("spirv: indexable temps declared in hs_decls are seen by every phase")
{
    // The DXIL lowering declares a hull shader's arrays once, in hs_decls;
    // they become Private arrays that the phase functions share.
    dxspv::vsir::Program hs = assemble(R"(
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
//
//
// Patch Constant signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_TessFactor            0   x           0 TRIEDGE    float   x
// SV_TessFactor            1   x           1 TRIEDGE    float   x
// SV_TessFactor            2   x           2 TRIEDGE    float   x
// SV_InsideTessFactor      0   x           3  TRIINT    float   x
//
hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
dcl_indexableTemp x0[3], 4
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[3][0].xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, vOutputControlPointID
mov x0[r0.x + 0].xyzw, v[r0.x + 0][0].xyzw
mov o0.xyzw, x0[r0.x + 0].xyzw
ret
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_temps 1
dcl_indexRange o0.x, 3
mov r0.x, vForkInstanceID
mov x0[r0.x + 0].x, l(4.000000)
mov o[r0.x + 0].x, x0[r0.x + 0].x
ret
hs_join_phase
dcl_output_siv o3.x, finalTriInsideTessFactor
mov x0[1].y, l(2.000000)
mov o3.x, x0[1].y
ret
)");
    std::vector<std::string> texts = emit_all(hs);
    CHECK_HAS(texts[1], "%x0 = OpVariable %_ptr_Private__arr_v4uint_uint_3 Private");
    CHECK_HAS(texts[1], "OpAccessChain %_ptr_Private_v4uint %x0");
}

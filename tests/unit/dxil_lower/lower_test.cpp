// DXIL lowering (dxil/lower): modules written as dxil-ll text, lowered into
// unstructured VSIR and printed, compared with the expected vsir-text.
#include <doctest/doctest.h>

#include <string>

#include "dxil/dxil.h"
#include "dxil/lower/lower.h"
#include "dxil/metadata.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

using namespace dxspv;

namespace {

struct Lowered {
    bool ok = false;
    std::string text;     ///< vsir-text of the program
    std::string messages; ///< diagnostics
};

Lowered lower(const std::string& ll, bool experimental = false)
{
    Lowered r;
    dxil::Module module;
    Diagnostics diags("test.ll");
    dxil::DxilMetadata md;
    if (!dxil::parse_module_text(ll, module, diags) || !dxil::read_dxil_metadata(module, md, diags)) {
        r.messages = diags.to_string();
        return r;
    }
    vsir::Program program;
    dxil::LowerOptions options;
    options.experimental_ops = experimental;
    r.ok = dxil::lower_module(module, md, options, program, diags);
    if (r.ok)
        r.ok = vsir::validate_program(program, diags, "lower");
    r.text = vsir::print_program(program);
    r.messages = diags.to_string();
    return r;
}

const char* const header = R"(target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"
)";

/// A compute shader module around `body` (the instructions of @main) with
/// the given declarations and one RWByteAddressBuffer u0.
std::string compute(const std::string& body, const std::string& declarations)
{
    return std::string(header) + R"(
%dx.types.Handle = type { i8* }
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%struct.RWByteAddressBuffer = type { i32 }

define void @main() {
)" + body + R"(}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #0
declare void @dx.op.bufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8) #1
)" + declarations + R"(
attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.resources = !{!2}
!dx.entryPoints = !{!5}

!0 = !{i32 1, i32 0}
!1 = !{!"cs", i32 6, i32 0}
!2 = !{null, !3, null, null}
!3 = !{!4}
!4 = !{i32 0, %struct.RWByteAddressBuffer* undef, !"buf", i32 0, i32 0, i32 1, i32 11, i1 false, i1 false, i1 false, null}
!5 = !{void ()* @main, !"main", null, !2, !6}
!6 = !{i32 4, !7}
!7 = !{i32 8, i32 1, i32 1}
)";
}

/// A pixel shader sampling t0 with s0, reading cb0 and discarding.
const char* const pixel_shader = R"PS(target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%dx.types.ResRet.f32 = type { float, float, float, float, i32 }
%dx.types.CBufRet.f32 = type { float, float, float, float }
%"class.Texture2D<vector<float, 4> >" = type { <4 x float> }
%struct.SamplerState = type { i32 }
%cb = type { <4 x float> }

define void @main() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)
  %2 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 3, i32 0, i32 0, i1 false)
  %3 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)
  %4 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 0, i32 undef)
  %5 = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 1, i32 undef)
  %6 = call %dx.types.ResRet.f32 @dx.op.sample.f32(i32 60, %dx.types.Handle %1, %dx.types.Handle %2, float %4, float %5, float undef, float undef, i32 0, i32 0, i32 undef, float undef)
  %7 = extractvalue %dx.types.ResRet.f32 %6, 0
  %8 = extractvalue %dx.types.ResRet.f32 %6, 3
  %9 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %3, i32 0)
  %10 = extractvalue %dx.types.CBufRet.f32 %9, 2
  %11 = fmul fast float %7, %10
  %12 = fcmp fast ogt float %8, 5.000000e-01
  br i1 %12, label %13, label %14

; <label>:13
  call void @dx.op.discard(i32 82, i1 true)
  br label %14

; <label>:14
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %11)
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 1, float %8)
  ret void
}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1) #1
declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0
declare %dx.types.ResRet.f32 @dx.op.sample.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32, float) #1
declare %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32, %dx.types.Handle, i32) #1
declare void @dx.op.discard(i32, i1) #2
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #2

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind readonly }
attributes #2 = { nounwind }

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.resources = !{!2}
!dx.entryPoints = !{!10}

!0 = !{i32 1, i32 0}
!1 = !{!"ps", i32 6, i32 0}
!2 = !{!3, null, !6, !8}
!3 = !{!4}
!4 = !{i32 0, %"class.Texture2D<vector<float, 4> >"* undef, !"tex", i32 0, i32 0, i32 1, i32 2, i32 0, !5}
!5 = !{i32 0, i32 9}
!6 = !{!7}
!7 = !{i32 0, %cb* undef, !"cb", i32 0, i32 0, i32 1, i32 16, null}
!8 = !{!9}
!9 = !{i32 0, %struct.SamplerState* undef, !"smp", i32 0, i32 0, i32 1, i32 0, null}
!10 = !{void ()* @main, !"main", !11, !2, null}
!11 = !{!12, !15, null}
!12 = !{!13}
!13 = !{i32 0, !"TEXCOORD", i8 9, i8 0, !14, i8 2, i32 1, i8 2, i32 0, i8 0, null}
!14 = !{i32 0}
!15 = !{!16}
!16 = !{i32 0, !"SV_Target", i8 9, i8 16, !14, i8 0, i32 1, i8 2, i32 0, i8 0, null}
)PS";

} // namespace

TEST_CASE("lower: compute shader with a raw buffer, a branch and a phi")
{
    Lowered r = lower(compute(R"(
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %2 = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %3 = shl i32 %2, 2
  %4 = call %dx.types.ResRet.i32 @dx.op.bufferLoad.i32(i32 68, %dx.types.Handle %1, i32 %3, i32 undef)
  %5 = extractvalue %dx.types.ResRet.i32 %4, 0
  %6 = icmp ult i32 %5, 10
  br i1 %6, label %7, label %9

; <label>:7
  %8 = add i32 %5, 1
  br label %9

; <label>:9
  %10 = phi i32 [ %8, %7 ], [ 0, %0 ]
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %3, i32 undef, i32 %10, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n"
    "declare %dx.types.ResRet.i32 @dx.op.bufferLoad.i32(i32, %dx.types.Handle, i32, i32) #0\n"));
    INFO(r.messages);
    REQUIRE(r.ok);
    CHECK(r.text == R"(cs_6_0 unstructured
; temps=0 ssa=5 labels=3
dcl_thread_group 8, 1, 1
dcl_uav_raw u0[0:0], space=0
dcl_input vThreadID.xyz
label l0:
  ishl sr0, vThreadID.x, l(2)
  ld_raw sr1.x, sr0, u0[0]
  ult sr2, sr1.x, l(10)
  branch_nz sr2, l1, l2
label l1:
  iadd sr3, sr1.x, l(1):i32
  branch l2
label l2:
  phi sr4, [sr3, l1], [l(0), l0]
  store_raw u0[0].x, sr0, sr4
  ret
)");
}

TEST_CASE("lower: pixel shader with signatures, a texture sample, a cbuffer and discard")
{
    Lowered r = lower(pixel_shader);
    INFO(r.messages);
    REQUIRE(r.ok);
    CHECK(r.text == R"(ps_6_0 unstructured
; temps=1 ssa=3 labels=3
; input signature
;   v0.xy TEXCOORD0 float used=
; output signature
;   o0.xy SV_Target0 float used= SV_Target
dcl_resource t0[0:0], texture2d, (float,float,float,float), space=0
dcl_constantbuffer cb0[0:0], 1, space=0
dcl_sampler s0[0:0], mode_default, space=0
dcl_input_ps v0.xy, linear
dcl_output o0.xy
label l0:
  mov r0.x, v0.x
  mov r0.y, v0.y
  sample sr0.xyzw, r0.xyyy, t0[0], s0[0]
  mul sr1, sr0.x, cb0[0][0].z
  lt sr2, l(0.5), sr0.w
  branch_nz sr2, l1, l2
label l1:
  discard_nz l(0x1):bool
  branch l2
label l2:
  mov o0.x, sr1
  mov o0.y, sr0.w
  ret
)");
}

TEST_CASE("lower: arithmetic, conversions and compares keep LLVM's meaning")
{
    Lowered r = lower(compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %a = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %b = sub i32 0, %a
  %c = sdiv i32 %b, 3
  %d = urem i32 %a, 5
  %e = ashr i32 %c, 1
  %f = sitofp i32 %e to float
  %g = fptoui float %f to i32
  %i = icmp sgt i32 %c, %d
  %j = zext i1 %i to i32
  %k = select i1 %i, i32 %g, i32 %j
  %l = fcmp fast olt float %f, 1.000000e+00
  %m = sext i1 %l to i32
  %n = xor i32 %k, %m
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 0, i32 undef, i32 %n, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n"));
    INFO(r.messages);
    REQUIRE(r.ok);
    CHECK(r.text.find(R"(label l0:
  iadd sr0, l(0):i32, -vThreadID.x
  idiv sr1, null, sr0, l(3):i32
  udiv null, sr2, vThreadID.x, l(5)
  ishr sr3, sr1, l(1)
  itof sr4, sr3
  ftou sr5, sr4
  ilt sr6, sr2, sr1
  utou sr7, sr6
  movc sr8, sr6, sr5, sr7
  lt sr9, sr4, l(1.0)
  itoi sr10, sr9
  xor sr11, sr8, sr10
  store_raw u0[0].x, l(0), sr11
  ret
)") != std::string::npos);
}

TEST_CASE("lower: every unsupported op is reported, each once, with its name (and why, when known)")
{
    Lowered r = lower(compute(R"(
  %a = call i32 @dx.op.allocateRayQuery(i32 178)
  %b = call i32 @dx.op.allocateRayQuery(i32 178)
  call void @dx.op.writeSamplerFeedback(i32 174)
  call void @dx.op.writeSamplerFeedbackGrad(i32 177)
  ret void
)", "declare i32 @dx.op.allocateRayQuery(i32) #0\ndeclare void @dx.op.writeSamplerFeedback(i32) #1\n"
    "declare void @dx.op.writeSamplerFeedbackGrad(i32) #1\n"));
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8101: @main: DXIL op AllocateRayQuery is not supported\n") != std::string::npos);
    CHECK(r.messages.find("E8101: @main: DXIL op WriteSamplerFeedback is not supported: sampler feedback has no "
                          "Vulkan or SPIR-V equivalent") != std::string::npos);
    CHECK(r.messages.find("DXIL op WriteSamplerFeedbackGrad is not supported: sampler feedback") != std::string::npos);
    CHECK(r.messages.find("AllocateRayQuery") == r.messages.rfind("AllocateRayQuery"));
}

TEST_CASE("lower: a switch with more cases than a VSIR instruction holds is refused, not cut short")
{
    // 32767 cases: 2 + 2 * 32767 sources, one more than vsir::max_src_count.
    // (200 cases, past the old 8-bit count, run in dxil-cf-switch-many-cases.shader_test.)
    std::string body = "entry:\n  %tid = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n"
                       "  switch i32 %tid, label %done [\n";
    for (uint32_t k = 0; k < 32767; ++k)
        body += "    i32 " + std::to_string(k) + ", label %done\n";
    body += "  ]\ndone:\n  ret void\n";
    Lowered r = lower(compute(body, "declare i32 @dx.op.threadId.i32(i32, i32) #0\n"));
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8107: @main: a switch with 32767 cases (at most 32766)") != std::string::npos);
}

TEST_CASE("lower: experimental ops need the option; unknown opcodes are errors")
{
    const char* body = R"(
  call void @dx.op.nop(i32 -2147483648)
  ret void
)";
    Lowered off = lower(compute(body, "declare void @dx.op.nop(i32) #1\n"));
    CHECK_FALSE(off.ok);
    CHECK(off.messages.find("E8503") != std::string::npos);
    CHECK(off.messages.find("ExperimentalNop") != std::string::npos);
    Lowered unknown = lower(compute(R"(
  call void @dx.op.nop(i32 1193046)
  ret void
)", "declare void @dx.op.nop(i32) #1\n"));
    CHECK_FALSE(unknown.ok);
    CHECK(unknown.messages.find("E8501") != std::string::npos);
    // An index past the end of the experimental table (feature 0x8000),
    // with the option on: an error naming the feature and the index.
    Lowered past_end = lower(compute(R"(
  call void @dx.op.nop(i32 -2147418113)
  ret void
)", "declare void @dx.op.nop(i32) #1\n"), true);
    CHECK_FALSE(past_end.ok);
    INFO(past_end.messages);
    CHECK(past_end.messages.find("E8502") != std::string::npos);
    CHECK(past_end.messages.find("experimental feature 0x8000, op 65535") != std::string::npos);
    Lowered on = lower(compute(body, "declare void @dx.op.nop(i32) #1\n"), true);
    CHECK_MESSAGE(on.ok, on.messages);
}

TEST_CASE("lower: mesh, amplification and library shaders are refused by name")
{
    std::string ms = compute("  ret void\n", "");
    ms.replace(ms.find("!\"cs\""), 5, "!\"ms\"");
    Lowered r = lower(ms);
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8104: mesh shaders are not supported yet") != std::string::npos);
}

TEST_CASE("lower: group-shared arrays, allocas and atomics")
{
    std::string m = compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %p = getelementptr [8 x i32], [8 x i32] addrspace(3)* @gs, i32 0, i32 %t
  store i32 %t, i32 addrspace(3)* %p, align 4
  %o = atomicrmw add i32 addrspace(3)* %p, i32 1 seq_cst
  %arr = alloca [4 x float], align 4
  %q = getelementptr [4 x float], [4 x float]* %arr, i32 0, i32 2
  store float 1.000000e+00, float* %q, align 4
  %v = load float, float* %q, align 4
  %w = bitcast float %v to i32
  %x = add i32 %w, %o
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 0, i32 undef, i32 %x, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n");
    m.insert(m.find("define void @main"), "@gs = internal addrspace(3) global [8 x i32] undef, align 4\n\n");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("dcl_tgsm_raw g0, 32") != std::string::npos);
    CHECK(r.text.find("dcl_indexableTemp x0[4], 1") != std::string::npos);
    CHECK(r.text.find(R"(label l0:
  imad sr0, vThreadID.x, l(4):i32, l(0):i32
  store_raw g0.x, sr0, vThreadID.x
  imad sr1, vThreadID.x, l(4):i32, l(0):i32
  imm_atomic_iadd sr2, g0.x, sr1, l(1)
  mov x0[2].x, l(1.0)
  mov sr3, x0[2].x
  mov sr4, sr3
  iadd sr5, sr4, sr2
  store_raw u0[0].x, l(0), sr5
  ret
)") != std::string::npos);
}

TEST_CASE("lower: SM 6.6 descriptor heap handles become unbounded ranges in the heap space")
{
    std::string m = compute(R"(
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %h = call %dx.types.Handle @dx.op.createHandleFromHeap(i32 218, i32 %t, i1 false, i1 true)
  %a = call %dx.types.Handle @dx.op.annotateHandle(i32 216, %dx.types.Handle %h, %dx.types.ResourceProperties { i32 4107, i32 0 })
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %a, i32 0, i32 undef, i32 7, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n"
    "declare %dx.types.Handle @dx.op.createHandleFromHeap(i32, i32, i1, i1) #0\n"
    "declare %dx.types.Handle @dx.op.annotateHandle(i32, %dx.types.Handle, %dx.types.ResourceProperties) #0\n");
    m.insert(m.find("%struct.RWByteAddressBuffer"), "%dx.types.ResourceProperties = type { i32, i32 }\n");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("dcl_uav_raw u1[0:*], space=4294967280") != std::string::npos);
    CHECK(r.text.find("store_raw u1[vThreadID.x].x {nonuniform}, l(0), l(7, 0, 0, 0)") != std::string::npos);
}

TEST_CASE("lower: SM 6.9 native vectors are lowered one element at a time")
{
    std::string m = compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %v = call %dx.types.ResRet.v5f32 @dx.op.rawBufferVectorLoad.v5f32(i32 303, %dx.types.Handle %h, i32 0, i32 undef, i32 4)
  %a = extractvalue %dx.types.ResRet.v5f32 %v, 0
  %b = fmul fast <5 x float> %a, %a
  %c = shufflevector <5 x float> %b, <5 x float> undef, <5 x i32> <i32 4, i32 3, i32 2, i32 1, i32 0>
  %d = call float @dx.op.dot.v5f32(i32 311, <5 x float> %b, <5 x float> %c)
  %e = extractelement <5 x float> %c, i32 %t
  %f = insertelement <5 x float> %b, float %d, i32 0
  call void @dx.op.rawBufferVectorStore.v5f32(i32 304, %dx.types.Handle %h, i32 32, i32 undef, <5 x float> %f, i32 4)
  %g = bitcast float %e to i32
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 64, i32 undef, i32 %g, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n"
    "declare %dx.types.ResRet.v5f32 @dx.op.rawBufferVectorLoad.v5f32(i32, %dx.types.Handle, i32, i32, i32) #0\n"
    "declare void @dx.op.rawBufferVectorStore.v5f32(i32, %dx.types.Handle, i32, i32, <5 x float>, i32) #1\n"
    "declare float @dx.op.dot.v5f32(i32, <5 x float>, <5 x float>) #0\n");
    m.insert(m.find("%struct.RWByteAddressBuffer"), "%dx.types.ResRet.v5f32 = type { <5 x float>, i32 }\n");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find(R"(label l0:
  ld_raw sr0.xyzw, l(0), u0[0]
  ld_raw sr1.x, l(16), u0[0]
  mul sr2, sr0.x, sr0.x
  mul sr3, sr0.y, sr0.y
  mul sr4, sr0.z, sr0.z
  mul sr5, sr0.w, sr0.w
  mul sr6, sr1.x, sr1.x
  mul sr7, sr2, sr6
  mad sr8, sr3, sr5, sr7
  mad sr9, sr4, sr4, sr8
  mad sr10, sr5, sr3, sr9
  mad sr11, sr6, sr2, sr10
  ieq sr12, vThreadID.x, l(1)
  movc sr13, sr12, sr5, sr6
)") != std::string::npos);
    CHECK(r.text.find(R"(  store_raw u0[0].xyzw, l(32), r0.xyzw
  store_raw u0[0].x, l(48), sr6
)") != std::string::npos);
}

TEST_CASE("lower: textureGather selects its channel with the sampler's swizzle")
{
    Lowered r = lower(std::string(header) + R"(
%dx.types.Handle = type { i8* }
%dx.types.ResRet.f32 = type { float, float, float, float, i32 }
%"class.Texture2D<vector<float, 4> >" = type { <4 x float> }
%struct.SamplerState = type { i32 }

define void @main() {
  %t = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)
  %s = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 3, i32 0, i32 0, i1 false)
  %g = call %dx.types.ResRet.f32 @dx.op.textureGather.f32(i32 73, %dx.types.Handle %t, %dx.types.Handle %s, float 5.000000e-01, float 5.000000e-01, float undef, float undef, i32 0, i32 0, i32 2)
  ret void
}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare %dx.types.ResRet.f32 @dx.op.textureGather.f32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, float, i32, i32, i32)

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.resources = !{!2}
!dx.entryPoints = !{!8}
!0 = !{i32 1, i32 0}
!1 = !{!"cs", i32 6, i32 0}
!2 = !{!3, null, null, !6}
!3 = !{!4}
!4 = !{i32 0, %"class.Texture2D<vector<float, 4> >"* undef, !"tex", i32 0, i32 0, i32 1, i32 2, i32 0, !5}
!5 = !{i32 0, i32 9}
!6 = !{!7}
!7 = !{i32 0, %struct.SamplerState* undef, !"smp", i32 0, i32 0, i32 1, i32 0, null}
!8 = !{void ()* @main, !"main", null, !2, !9}
!9 = !{i32 4, !10}
!10 = !{i32 1, i32 1, i32 1}
)");
    INFO(r.messages);
    REQUIRE(r.ok);
    CHECK(r.text.find("gather4 sr0.xyzw, l(0.5, 0.5, 0.0, 0.0), t0[0], s0[0].z\n") != std::string::npos);
}

TEST_CASE("lower: constant-expression GEPs of group-shared globals inside a function")
{
    std::string m = compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  store i32 5, i32 addrspace(3)* getelementptr inbounds ([8 x i32], [8 x i32] addrspace(3)* @gs, i32 0, i32 3), align 4
  %o = atomicrmw add i32 addrspace(3)* getelementptr inbounds ([8 x i32], [8 x i32] addrspace(3)* @gs, i32 0, i32 3), i32 1 seq_cst
  %v = load i32, i32 addrspace(3)* getelementptr inbounds ([8 x i32], [8 x i32] addrspace(3)* @gs, i32 0, i32 3), align 4
  %x = add i32 %v, %o
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 0, i32 undef, i32 %x, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "");
    m.insert(m.find("define void @main"), "@gs = internal addrspace(3) global [8 x i32] undef, align 4\n\n");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("store_raw g0.x, l(12), l(5)") != std::string::npos);
    CHECK(r.text.find("imm_atomic_iadd sr0, g0.x, l(12), l(1)") != std::string::npos);
    CHECK(r.text.find("ld_raw sr1, l(12), g0\n") != std::string::npos);
}

TEST_CASE("lower: with experimental ops on, GetGroupWaveIndex/Count read the wave registers")
{
    std::string m = compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  call void @dx.op.nop(i32 -2147483648)
  %w = call i32 @dx.op.getGroupWaveIndex(i32 -2147483647)
  %n = call i32 @dx.op.getGroupWaveCount(i32 -2147483646)
  %a = shl i32 %w, 2
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 %a, i32 undef, i32 %n, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare void @dx.op.nop(i32) #1\ndeclare i32 @dx.op.getGroupWaveIndex(i32) #0\n"
    "declare i32 @dx.op.getGroupWaveCount(i32) #0\n");
    Lowered off = lower(m);
    CHECK_FALSE(off.ok);
    CHECK(off.messages.find("GetGroupWaveIndex) is experimental") != std::string::npos);
    Lowered on = lower(m, true);
    INFO(on.messages);
    REQUIRE(on.ok);
    CHECK(on.text.find(R"(label l0:
  ishl sr0, vWaveIndex, l(2)
  store_raw u0[0].x, sr0, vWaveCount
  ret
)") != std::string::npos);
}

TEST_CASE("lower: private and group-shared memory is bounded per array and in all")
{
    std::string m = compute("  ret void\n", "");
    auto with_globals = [&](const std::string& globals) {
        std::string s = m;
        s.insert(s.find("define void @main"), globals + "\n");
        return lower(s);
    };
    // A few bytes of text must not become millions of initialising stores.
    Lowered r = with_globals("@big = internal global [65537 x float] zeroinitializer");
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8107: a global array of 65537 elements exceeds the limits") != std::string::npos);
    r = with_globals("@big = internal addrspace(3) global [40000 x double] undef");
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8107: a global array of 80000 elements") != std::string::npos);
    r = with_globals("@a = internal global [65536 x float] undef\n@b = internal global [65536 x float] undef\n"
                     "@c = internal global [1 x float] undef");
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8107: a global array of 1 elements") != std::string::npos);
    // An array of empty structs has no leaves: no memory and no loop over its count.
    r = with_globals("@e = internal global [4000000000 x {}] zeroinitializer\n"
                     "@f = internal global { [4000000000 x {}], float } { [4000000000 x {}] zeroinitializer, float 1.0 }");
    INFO(r.messages);
    CHECK(r.ok);
    CHECK(r.text.find("mov x0[0].x, l(1.0)") != std::string::npos);
}

TEST_CASE("lower: signature rows past 32 bits do not wrap into the register range")
{
    // Element 0 (rejected for its row count) ends past 2^32 rows; element 1,
    // placed after it, must not wrap around to a small register.
    std::string m = std::string(header) + R"(
define void @main() {
  ret void
}

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.entryPoints = !{!2}

!0 = !{i32 1, i32 0}
!1 = !{!"ps", i32 6, i32 0}
!2 = !{void ()* @main, !"main", !3, null, null}
!3 = !{!4, null, null}
!4 = !{!5, !6}
!5 = !{i32 0, !"A", i8 9, i8 0, null, i8 2, i32 2147483633, i8 1, i32 2147483647, i8 0, null}
!6 = !{i32 1, !"B", i8 9, i8 0, null, i8 2, i32 32, i8 1, i32 -1, i8 0, null}
)";
    Lowered r = lower(m);
    INFO(r.messages);
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8106: signature element 0 has 2147483633 rows") != std::string::npos);
    CHECK(r.messages.find("E8106: signature element 1 does not fit in 64 registers") != std::string::npos);
}

TEST_CASE("lower: an input column past 32 bits does not wrap to a valid component")
{
    std::string m = std::string(header) + R"(
define void @main() {
  %x = call float @dx.op.loadInput.f32(i32 4, i32 0, i32 0, i8 -1, i32 undef)
  ret void
}

declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0

attributes #0 = { nounwind readnone }

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.entryPoints = !{!2}

!0 = !{i32 1, i32 0}
!1 = !{!"ps", i32 6, i32 0}
!2 = !{void ()* @main, !"main", !3, null, null}
!3 = !{!4, null, null}
!4 = !{!5}
!5 = !{i32 0, !"A", i8 9, i8 0, null, i8 2, i32 1, i8 1, i32 0, i8 1, null}
)";
    Lowered r = lower(m);
    INFO(r.messages);
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("E8106: @main: column 4294967295 of signature element 0 is out of range") != std::string::npos);
}

TEST_CASE("lower: IsHelperLane and ViewID")
{
    std::string m = compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %c = call i1 @dx.op.isHelperLane.i1(i32 221)
  %x = zext i1 %c to i32
  %v = call i32 @dx.op.viewID.i32(i32 138)
  %y = add i32 %x, %v
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 0, i32 undef, i32 %y, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i1 @dx.op.isHelperLane.i1(i32) #0\ndeclare i32 @dx.op.viewID.i32(i32) #0\n");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("is_helper_lane sr0") != std::string::npos);
    CHECK(r.text.find("view_id sr2") != std::string::npos);
}

TEST_CASE("lower: a sample with a minimum-LOD clamp becomes sample_cl")
{
    std::string m = pixel_shader;
    std::string plain = "i32 0, i32 0, i32 undef, float undef)";
    REQUIRE(m.find(plain) != std::string::npos);
    m.replace(m.find(plain), plain.size(), "i32 0, i32 0, i32 undef, float 2.000000e+00)");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("sample_cl sr0.xyzw, r0.xyyy, t0[0], s0[0], l(2.0)") != std::string::npos);
}

TEST_CASE("lower: 64-bit atomics on raw buffers")
{
    Lowered r = lower(compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %a = call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 0, i32 8, i32 undef, i32 undef, i64 3)
  %b = call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 5, i32 16, i32 undef, i32 undef, i64 %a)
  %c = call i64 @dx.op.atomicCompareExchange.i64(i32 79, %dx.types.Handle %h, i32 24, i32 undef, i32 undef, i64 %b, i64 7)
  ret void
)", "declare i64 @dx.op.atomicBinOp.i64(i32, %dx.types.Handle, i32, i32, i32, i32, i64) #1\n"
    "declare i64 @dx.op.atomicCompareExchange.i64(i32, %dx.types.Handle, i32, i32, i32, i64, i64) #1\n"));
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("imm_atomic_iadd sr0, u0[0].x, l(8), d(3):u64") != std::string::npos);
    CHECK(r.text.find("imm_atomic_imax sr1, u0[0].x, l(16), sr0") != std::string::npos);
    CHECK(r.text.find("imm_atomic_cmp_exch sr2, u0[0].x, l(24), sr1, d(7):u64") != std::string::npos);
}

TEST_CASE("lower: CBufferLoadLegacy of 16-bit values reads halves of the row's words")
{
    std::string m = pixel_shader;
    auto replace = [&](const std::string& from, const std::string& to) {
        REQUIRE(m.find(from) != std::string::npos);
        m.replace(m.find(from), from.size(), to);
    };
    replace("  %9 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %3, i32 0)\n"
            "  %10 = extractvalue %dx.types.CBufRet.f32 %9, 2\n",
            "  %9 = call %dx.types.CBufRet.i16.8 @dx.op.cbufferLoadLegacy.i16(i32 59, %dx.types.Handle %3, i32 0)\n"
            "  %h = extractvalue %dx.types.CBufRet.i16.8 %9, 5\n"
            "  %10 = uitofp i16 %h to float\n");
    replace("%cb = type", "%dx.types.CBufRet.i16.8 = type { i16, i16, i16, i16, i16, i16, i16, i16 }\n%cb = type");
    replace("declare void @dx.op.discard",
            "declare %dx.types.CBufRet.i16.8 @dx.op.cbufferLoadLegacy.i16(i32, %dx.types.Handle, i32) #1\n"
            "declare void @dx.op.discard");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find(R"(  ushr sr1, cb0[0][0].z, l(16)
  utou sr2, sr1
)") != std::string::npos);
}

TEST_CASE("lower: CBufferLoad (byte offsets): constant and dynamic offsets, 32- and 16-bit values")
{
    std::string m = pixel_shader;
    auto replace = [&](const std::string& from, const std::string& to) {
        REQUIRE(m.find(from) != std::string::npos);
        m.replace(m.find(from), from.size(), to);
    };
    replace("  %9 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %3, i32 0)\n"
            "  %10 = extractvalue %dx.types.CBufRet.f32 %9, 2\n",
            "  %c = call float @dx.op.cbufferLoad.f32(i32 58, %dx.types.Handle %3, i32 8, i32 4)\n"
            "  %o = fptoui float %4 to i32\n"
            "  %s = call i16 @dx.op.cbufferLoad.i16(i32 58, %dx.types.Handle %3, i32 %o, i32 2)\n"
            "  %9 = uitofp i16 %s to float\n"
            "  %10 = fadd fast float %c, %9\n");
    replace("declare void @dx.op.discard",
            "declare float @dx.op.cbufferLoad.f32(i32, %dx.types.Handle, i32, i32) #1\n"
            "declare i16 @dx.op.cbufferLoad.i16(i32, %dx.types.Handle, i32, i32) #1\n"
            "declare void @dx.op.discard");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("mov sr1, cb0[0][0].z") != std::string::npos);
    CHECK(r.text.find("ushr sr3, sr2, l(4)") != std::string::npos);
    CHECK(r.text.find("movc sr7, sr6, cb0[0][sr3].y, cb0[0][sr3].x") != std::string::npos);
    CHECK(r.text.find("mov sr12, sr11") != std::string::npos); // min precision: i16 is a 32-bit word
}

TEST_CASE("lower: QuadVote folds the quad's values with the quad reads")
{
    std::string m = compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %c = icmp eq i32 %t, 3
  %v = call i1 @dx.op.quadVote.i1(i32 222, i1 %c, i8 1)
  %x = zext i1 %v to i32
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 0, i32 undef, i32 %x, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\ndeclare i1 @dx.op.quadVote.i1(i32, i1, i8) #0\n");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find(R"(  utou sr1, sr0
  quad_read_across_x sr2, sr1
  quad_read_across_y sr3, sr1
  quad_read_across_diagonal sr4, sr1
  and sr5, sr1, sr2
  and sr6, sr5, sr3
  and sr7, sr6, sr4
  ine sr8, sr7, l(0)
)") != std::string::npos);
}

TEST_CASE("lower: 64-bit atomics on a typed UAV marked for them (tag 3) declare 64-bit components")
{
    std::string m = compute(R"(
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %a = call i64 @dx.op.atomicBinOp.i64(i32 78, %dx.types.Handle %h, i32 6, i32 1, i32 2, i32 undef, i64 3)
  ret void
)", "declare i64 @dx.op.atomicBinOp.i64(i32, %dx.types.Handle, i32, i32, i32, i32, i64) #1\n");
    std::string raw = "i32 11, i1 false, i1 false, i1 false, null}";
    REQUIRE(m.find(raw) != std::string::npos);
    m.replace(m.find(raw), raw.size(), "i32 2, i1 false, i1 false, i1 false, !8}\n!8 = !{i32 0, i32 5, i32 3, i32 1}");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("dcl_uav_typed u0[0:0], texture2d, (u64,u64,u64,u64)") != std::string::npos);
    CHECK(r.text.find("imm_atomic_umin sr0, u0[0].x, l(1, 2, 0, 0), d(3):u64") != std::string::npos);
}

TEST_CASE("lower: float operations without fast-math flags are precise (HLSL precise)")
{
    std::string m = pixel_shader;
    const std::string fast = "fmul fast float";
    REQUIRE(m.find(fast) != std::string::npos);
    m.replace(m.find(fast), fast.size(), "fmul float");
    Lowered r = lower(m);
    INFO(r.messages);
    REQUIRE(r.ok);
    CHECK(r.text.find("mul_precise(x) sr1, sr0.x, cb0[0][0].z") != std::string::npos);
    CHECK(lower(pixel_shader).text.find("mul sr1, sr0.x, cb0[0][0].z") != std::string::npos);
}

TEST_CASE("lower: WaveMatch and the WaveMultiPrefix ops (SM 6.5) take the mask as one u32 vector")
{
    std::string m = compute(R"(
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %f = uitofp i32 %t to float
  %m = call %dx.types.fouri32 @dx.op.waveMatch.f32(i32 165, float %f)
  %m0 = extractvalue %dx.types.fouri32 %m, 0
  %m1 = extractvalue %dx.types.fouri32 %m, 1
  %m2 = extractvalue %dx.types.fouri32 %m, 2
  %m3 = extractvalue %dx.types.fouri32 %m, 3
  %s = call i32 @dx.op.waveMultiPrefixOp.i32(i32 166, i32 %t, i32 %m0, i32 %m1, i32 %m2, i32 %m3, i8 0, i8 1)
  %p = call float @dx.op.waveMultiPrefixOp.f32(i32 166, float %f, i32 %m0, i32 %m1, i32 %m2, i32 %m3, i8 4, i8 0)
  %x = call i32 @dx.op.waveMultiPrefixOp.i32(i32 166, i32 %t, i32 3, i32 0, i32 0, i32 0, i8 3, i8 1)
  %b = icmp ne i32 %t, 0
  %c = call i32 @dx.op.waveMultiPrefixBitCount(i32 167, i1 %b, i32 %m0, i32 %m1, i32 %m2, i32 %m3)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n"
    "declare %dx.types.fouri32 @dx.op.waveMatch.f32(i32, float) #1\n"
    "declare i32 @dx.op.waveMultiPrefixOp.i32(i32, i32, i32, i32, i32, i32, i8, i8) #1\n"
    "declare float @dx.op.waveMultiPrefixOp.f32(i32, float, i32, i32, i32, i32, i8, i8) #1\n"
    "declare i32 @dx.op.waveMultiPrefixBitCount(i32, i1, i32, i32, i32, i32) #1\n");
    m.replace(m.find("%dx.types.ResRet.i32 ="), 0, "%dx.types.fouri32 = type { i32, i32, i32, i32 }\n");
    m.replace(m.find("i32 6, i32 0}"), 13, "i32 6, i32 5}");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("  wave_match sr1.xyzw, sr0\n") != std::string::npos);
    CHECK(r.text.find("  wave_multi_prefix_sum sr2, vThreadID.x, sr1.xyzw\n") != std::string::npos);
    CHECK(r.text.find("  wave_multi_prefix_product sr3, sr0, sr1.xyzw\n") != std::string::npos);
    CHECK(r.text.find("  wave_multi_prefix_xor sr4, vThreadID.x, l(3, 0, 0, 0)\n") != std::string::npos);
    CHECK(r.text.find("  wave_multi_prefix_count_bits sr6, sr5, sr1.xyzw\n") != std::string::npos);
    CHECK(r.text.find("mov r0") == std::string::npos); // WaveMatch's result is the mask as it is
}

TEST_CASE("lower: WaveMultiPrefix bit operations on floats are refused")
{
    std::string m = compute(R"(
  %p = call float @dx.op.waveMultiPrefixOp.f32(i32 166, float 1.0, i32 1, i32 0, i32 0, i32 0, i8 1, i8 0)
  ret void
)", "declare float @dx.op.waveMultiPrefixOp.f32(i32, float, i32, i32, i32, i32, i8, i8) #1\n");
    m.replace(m.find("i32 6, i32 0}"), 13, "i32 6, i32 5}");
    Lowered r = lower(m);
    CHECK_FALSE(r.ok);
    CHECK(r.messages.find("WaveMultiPrefixOp: operation 1 does not apply to f32 values") != std::string::npos);
}

TEST_CASE("lower: SV_Barycentrics is a system-value input; AttributeAtVertex reads one vertex of an input")
{
    std::string m = std::string(header) + R"(
define void @main() {
  %b = call float @dx.op.loadInput.f32(i32 4, i32 1, i32 0, i8 1, i32 undef)
  %a = call float @dx.op.attributeAtVertex.f32(i32 137, i32 0, i32 0, i8 2, i8 1)
  %c = fadd fast float %a, %b
  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %c)
  ret void
}

declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32) #0
declare float @dx.op.attributeAtVertex.f32(i32, i32, i32, i8, i8) #0
declare void @dx.op.storeOutput.f32(i32, i32, i32, i8, float) #1

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind }

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.entryPoints = !{!2}
!0 = !{i32 1, i32 1}
!1 = !{!"ps", i32 6, i32 1}
!2 = !{void ()* @main, !"main", !3, null, null}
!3 = !{!4, !8, null}
!4 = !{!5, !7}
!5 = !{i32 0, !"COLOR", i8 9, i8 0, !6, i8 1, i32 1, i8 4, i32 0, i8 0, null}
!6 = !{i32 0}
!7 = !{i32 1, !"SV_Barycentrics", i8 9, i8 28, !6, i8 4, i32 1, i8 3, i32 1, i8 0, null}
!8 = !{!9}
!9 = !{i32 0, !"SV_Target", i8 9, i8 16, !6, i8 0, i32 1, i8 1, i32 0, i8 0, null}
)";
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("dcl_input_ps_siv v1.xyz, SV_Barycentrics, linear noperspective\n") != std::string::npos);
    CHECK(r.text.find("  attribute_at_vertex sr0, v0.z, l(1)\n") != std::string::npos);
    CHECK(r.text.find("  add sr1, sr0, v1.y\n") != std::string::npos);

    std::string bad = m;
    bad.replace(bad.find("i8 2, i8 1)"), 11, "i8 2, i8 3)");
    Lowered b = lower(bad);
    CHECK_FALSE(b.ok);
    CHECK(b.messages.find("AttributeAtVertex: the vertex must be a constant 0, 1 or 2") != std::string::npos);
}

TEST_CASE("lower: TextureGatherRaw (SM 6.7) is gather4 of a uint view; 64 bits pack two gathered words")
{
    std::string m = std::string(header) + R"(
%dx.types.Handle = type { i8* }
%dx.types.ResRet.i32 = type { i32, i32, i32, i32, i32 }
%dx.types.ResRet.i64 = type { i64, i64, i64, i64, i32 }
%"class.Texture2D<unsigned int>" = type { i32 }
%struct.SamplerState = type { i32 }

define void @main() {
  %t = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 0, i32 0, i32 0, i1 false)
  %s = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 3, i32 0, i32 0, i1 false)
  %g = call %dx.types.ResRet.i32 @dx.op.textureGatherRaw.i32(i32 223, %dx.types.Handle %t, %dx.types.Handle %s, float 5.000000e-01, float 2.500000e-01, float undef, i32 1, i32 0)
  %w = call %dx.types.ResRet.i64 @dx.op.textureGatherRaw.i64(i32 223, %dx.types.Handle %t, %dx.types.Handle %s, float 5.000000e-01, float 2.500000e-01, float undef, i32 undef, i32 undef)
  %w2 = extractvalue %dx.types.ResRet.i64 %w, 2
  ret void
}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare %dx.types.ResRet.i32 @dx.op.textureGatherRaw.i32(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, i32, i32)
declare %dx.types.ResRet.i64 @dx.op.textureGatherRaw.i64(i32, %dx.types.Handle, %dx.types.Handle, float, float, float, i32, i32)

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.resources = !{!2}
!dx.entryPoints = !{!8}
!0 = !{i32 1, i32 7}
!1 = !{!"cs", i32 6, i32 7}
!2 = !{!3, null, null, !6}
!3 = !{!4}
!4 = !{i32 0, %"class.Texture2D<unsigned int>"* undef, !"tex", i32 0, i32 0, i32 1, i32 2, i32 0, !5}
!5 = !{i32 0, i32 5}
!6 = !{!7}
!7 = !{i32 0, %struct.SamplerState* undef, !"smp", i32 0, i32 0, i32 1, i32 0, null}
!8 = !{void ()* @main, !"main", null, !2, !9}
!9 = !{i32 4, !10}
!10 = !{i32 1, i32 1, i32 1}
)";
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("  gather4_aoffimmi(1,0,0) sr0.xyzw, l(0.5, 0.25, 0.0, 0.0), t0[0], s0[0].x\n") != std::string::npos);
    CHECK(r.text.find("  gather4 sr1.xyzw, l(0.5, 0.25, 0.0, 0.0), t0[0], s0[0].x\n") != std::string::npos);
    CHECK(r.text.find("  gather4 sr2.xyzw, l(0.5, 0.25, 0.0, 0.0), t0[0], s0[0].y\n") != std::string::npos);
    CHECK(r.text.find("  pack64 sr5, sr1.z, sr2.z\n") != std::string::npos);
}

TEST_CASE("lower: 64-bit atomicrmw and cmpxchg on groupshared memory have u64 values")
{
    std::string m = compute(R"(
  %p = getelementptr [2 x i64], [2 x i64] addrspace(3)* @gs, i32 0, i32 1
  %a = atomicrmw add i64 addrspace(3)* %p, i64 3 seq_cst
  %b = atomicrmw max i64 addrspace(3)* %p, i64 %a seq_cst
  %x = cmpxchg i64 addrspace(3)* %p, i64 %b, i64 9 seq_cst seq_cst
  ret void
)", "");
    m.insert(m.find("define void @main"), "@gs = internal addrspace(3) global [2 x i64] undef, align 8\n\n");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find("  imm_atomic_iadd sr0, g0.x, l(8), d(3):u64\n") != std::string::npos);
    CHECK(r.text.find("  imm_atomic_imax sr1, g0.x, l(8), sr0\n") != std::string::npos);
    CHECK(r.text.find("  imm_atomic_cmp_exch sr2, g0.x, l(8), sr1, d(9):u64\n") != std::string::npos);
}

TEST_CASE("lower: WaveMatch of a native vector ands the masks of its elements")
{
    std::string m = compute(R"(
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %v0 = insertelement <2 x i32> undef, i32 %t, i32 0
  %v = insertelement <2 x i32> %v0, i32 7, i32 1
  %m = call %dx.types.fouri32 @dx.op.waveMatch.v2i32(i32 165, <2 x i32> %v)
  %m0 = extractvalue %dx.types.fouri32 %m, 0
  %w = call <2 x i32> @dx.op.waveMultiPrefixOp.v2i32(i32 166, <2 x i32> %v, i32 %m0, i32 0, i32 0, i32 0, i8 0, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n"
    "declare %dx.types.fouri32 @dx.op.waveMatch.v2i32(i32, <2 x i32>) #1\n"
    "declare <2 x i32> @dx.op.waveMultiPrefixOp.v2i32(i32, <2 x i32>, i32, i32, i32, i32, i8, i8) #1\n");
    m.replace(m.find("%dx.types.ResRet.i32 ="), 0, "%dx.types.fouri32 = type { i32, i32, i32, i32 }\n");
    m.replace(m.find("i32 6, i32 0}"), 13, "i32 6, i32 9}");
    Lowered r = lower(m);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find(R"(  wave_match sr0.xyzw, vThreadID.x
  wave_match sr1.xyzw, l(7)
  and sr2.xyzw, sr0.xyzw, sr1.xyzw
)") != std::string::npos);
    CHECK(r.text.find("  wave_multi_prefix_sum sr3, vThreadID.x, r0.xyzw\n") != std::string::npos);
    CHECK(r.text.find("  wave_multi_prefix_sum sr4, l(7), r0.xyzw\n") != std::string::npos);
}

TEST_CASE("lower: calls of internal functions are inlined; recursion is refused")
{
    std::string m = compute(R"(
  %t = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %r = call i32 @twice(i32 %t)
  %h = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %h, i32 0, i32 undef, i32 %r, i32 undef, i32 undef, i32 undef, i8 1)
  ret void
)", "declare i32 @dx.op.threadId.i32(i32, i32) #0\n");
    std::string twice = "define internal i32 @twice(i32 %x) {\n  %y = add i32 %x, %x\n  ret i32 %y\n}\n\n";
    std::string with_call = m;
    with_call.insert(with_call.find("declare %dx.types.Handle"), twice);
    Lowered r = lower(with_call);
    INFO(r.messages);
    INFO(r.text);
    REQUIRE(r.ok);
    CHECK(r.text.find(R"(label l0:
  branch l2
label l2:
  iadd sr0, vThreadID.x, vThreadID.x
  branch l1
label l1:
  phi sr1, [sr0, l2]
  store_raw u0[0].x, l(0), sr1
  ret
)") != std::string::npos);

    std::string recursive = m;
    recursive.insert(recursive.find("declare %dx.types.Handle"),
                     "define internal i32 @twice(i32 %x) {\n  %y = call i32 @twice(i32 %x)\n  ret i32 %y\n}\n\n");
    Lowered rec = lower(recursive);
    INFO(rec.messages);
    CHECK_FALSE(rec.ok);
    CHECK(rec.messages.find("E8101: @twice: recursive call of function twice (recursion is not supported)") !=
          std::string::npos);

    std::string deep = m;
    std::string chain = "define internal i32 @twice(i32 %x) {\n  %y = call i32 @f1(i32 %x)\n  ret i32 %y\n}\n\n";
    for (int k = 1; k <= 20; ++k)
        chain += "define internal i32 @f" + std::to_string(k) + "(i32 %x) {\n  %y = call i32 @f" + std::to_string(k + 1) +
                 "(i32 %x)\n  ret i32 %y\n}\n\n";
    chain += "define internal i32 @f21(i32 %x) {\n  ret i32 %x\n}\n\n";
    deep.insert(deep.find("declare %dx.types.Handle"), chain);
    Lowered d = lower(deep);
    CHECK_FALSE(d.ok);
    CHECK(d.messages.find("E8107: @f15: calls of function f16 nested deeper than 16") != std::string::npos);

    std::string external = m;
    external.insert(external.find("declare %dx.types.Handle"), "declare i32 @twice(i32)\n");
    Lowered ext = lower(external);
    CHECK_FALSE(ext.ok);
    CHECK(ext.messages.find("call of function twice is not supported: it is declared but not defined") !=
          std::string::npos);
}

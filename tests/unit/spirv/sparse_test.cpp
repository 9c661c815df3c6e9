// SPIR-V emitter tests for sparse feedback (the `_s` opcodes and
// check_access_fully_mapped), and for abort / debug_break: d3d-asm programs
// emitted for Vulkan 1.0-1.3, validated, and where the result is a constant
// folded by spirv-opt to check what it computes.
#include "asm_emit.h"

using dxspv::Code;
using dxspv::Diagnostics;
using namespace spirv_asm_test;

TEST_CASE("spirv: sparse feedback on raw and structured buffers reports fully resident")
{
    // Every status, or-ed together, must read as fully mapped: u0[0..1] get
    // ~0 (check_access_fully_mapped true), and no sparse capability is needed.
    dxspv::vsir::Program p = assemble(R"(
cs_5_0
dcl_resource_raw t0
dcl_resource_structured t1, 16
dcl_uav_raw u0
dcl_uav_structured u1, 8
dcl_input vThreadID.x
dcl_temps 4
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(4)
ld_raw_s r1.xy, r2.x, r0.x, t0.xyxx
ld_structured_s r1.zw, r2.y, vThreadID.x, l(4), t1.xxyz
ld_raw_s r3.x, r2.z, r0.x, u0.xxxx
ld_structured_s r3.y, r2.w, vThreadID.x, l(0), u1.yxxx
or r2.x, r2.x, r2.y
or r2.x, r2.x, r2.z
or r2.x, r2.x, r2.w
check_access_fully_mapped r2.y, r2.x
store_raw u0.xy, l(0), r2.yyyy
iadd r3.x, r3.x, r3.y
store_raw u0.xyzw, r0.x, r1.xyzw
store_structured u1.x, vThreadID.x, l(0), r3.x
ret
)");
    std::vector<std::string> texts = emit_all(p);
    CHECK_HAS_NOT(texts[1], "SparseResidency");
    CHECK_HAS_NOT(texts[1], "OpImageSparse");
    CHECK(count(texts[1], "OpLoad %uint") >= 6); // the data is still read: 2 + 2 + 1 + 1 words
    std::string folded = fold_constants(p);
    CHECK_HAS(folded, "OpConstant %uint 4294967295");
    CHECK_HAS_NOT(folded, "OpIEqual");
}

TEST_CASE("spirv: sparse feedback on images uses the sparse image instructions")
{
    dxspv::vsir::Program p = assemble(R"(
ps_5_0
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2dms(4) (uint,uint,uint,uint) t1
dcl_resource_buffer (sint,sint,sint,sint) t2
dcl_resource_texturecube (float,float,float,float) t3
dcl_uav_typed_texture2d (float,float,float,float) u1
dcl_input_ps linear v0.xyz
dcl_output o0.xyzw
dcl_temps 5
ld_s r0.xyzw, r4.x, l(1, 2, 0, 0), t0.xyzw
ld2dms_s r1.xyzw, r4.y, l(1, 2, 0, 0), t1.xyzw, l(3)
ld_s r2.xyzw, r4.z, l(7, 0, 0, 0), t2.xyzw
ld_uav_typed_s r3.xyzw, r4.w, l(1, 2, 0, 0), u1.xyzw
or r4.x, r4.x, r4.y
or r4.x, r4.x, r4.z
or r4.x, r4.x, r4.w
sample_cl_s r0.xyzw, r4.y, v0.xyxx, t0.xyzw, s0, l(1.000000)
sample_b_cl_s r0.xyzw, r4.z, v0.xyxx, t0.xyzw, s0, l(0.500000), l(1.000000)
sample_d_cl_s r0.xyzw, r4.w, v0.xyxx, t0.xyzw, s0, v0.zzzz, v0.zzzz, l(1.000000)
sample_c_cl_s r0.x, r4.y, v0.xyxx, t0.xxxx, s1, v0.z, l(1.000000)
sample_c_lz_s r0.y, r4.z, v0.xyzx, t3.xxxx, s1, v0.z
gather4_s r2.xyzw, r4.w, v0.xyxx, t0.xyzw, s0.y
gather4_c_s r2.xyzw, r4.y, v0.xyxx, t0.xyzw, s1.x, v0.z
gather4_po_s r2.xyzw, r4.z, v0.xyxx, l(1, -1, 0, 0), t0.xyzw, s0.x
gather4_po_c_s r2.xyzw, r4.w, v0.xyxx, l(1, -1, 0, 0), t0.xyzw, s1.x, v0.z
check_access_fully_mapped r4.x, r4.x
and o0.xyzw, r0.xyzw, r4.xxxx
ret
)");
    std::vector<std::string> texts = emit_all(p);
    const std::string& t = texts[1];
    for (const char* op : {"OpImageSparseFetch", "OpImageSparseRead", "OpImageSparseSampleImplicitLod",
             "OpImageSparseSampleExplicitLod", "OpImageSparseSampleDrefImplicitLod",
             "OpImageSparseSampleDrefExplicitLod", "OpImageSparseGather", "OpImageSparseDrefGather",
             "OpCapability SparseResidency", "OpCapability MinLod", "OpCapability ImageGatherExtended", "MinLod %",
             "Grad|MinLod"})
        CHECK_HAS(t, op);
    // Each access turns the driver's residency code into the 0 / 1 status.
    CHECK(count(t, "OpImageSparseTexelsResident") == 13);
    CHECK_HAS(t, "OpIEqual %bool");
}

TEST_CASE("spirv: abort and debug_break do nothing")
{
    const char* with = R"(
ps_5_0
dcl_output o0.xyzw
abort
mov o0.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)
debug_break
ret
)";
    const char* without = R"(
ps_5_0
dcl_output o0.xyzw
mov o0.xyzw, l(1.000000, 2.000000, 3.000000, 4.000000)
ret
)";
    std::vector<std::string> a = emit_all(assemble(with)), b = emit_all(assemble(without));
    for (size_t i = 0; i < a.size(); ++i)
        CHECK(a[i] == b[i]);
}

// d3d-asm round trips per instruction family: text -> assemble -> TPF
// tokens -> read -> disassemble gives the same text; every SM4/5 opcode the
// TPF reader knows appears in at least one snippet. Plus the signature
// comment blocks (fxc's table and the dxspv-signature line) and the token
// forms the text keeps (select-1 vs swizzle, 0/1-component operands).
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "container/signature.h"
#include "helpers.h"
#include "text/assembler.h"
#include "text/disassembler.h"
#include "tpf/opcode_table.h"
#include "tpf/tokens.h"

using namespace dxspv;

namespace {

struct Snippet {
    const char* family;
    const char* text;
};

const Snippet snippets[] = {
    {"float arithmetic, moves, derivatives",
     R"(ps_5_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 4
mov r0.xyzw, v0.xyzw
mov_sat r0.x, -v0.y
movc r1.xyzw, r0.xxxx, l(1, 2, 3, 4), -|v0.wzyx|
swapc r2.xy, r3.xy, r0.xyxx, r1.xyxx, r2.xyxx
add r0.xy, r0.xyxx, l(1.000000, 0.500000, 0.000000, 0.000000)
mul r0.x, r0.x, l(0.0322580636)
mad r0.xyzw, r0.xyzw, v0.xyzw, l(-1.000000, 2.000000, 0.000000, -0.000000)
div r0.x, r0.y, r0.z
dp2 r0.x, r0.xyxx, r0.xyxx
dp3 r0.x, r0.xyzx, r0.xyzx
dp4_sat r0.x, r0.xyzw, r0.xyzw
min r0.x, r0.x, l(1.000000)
max r0.x, r0.x, l(0.000000)
frc r0.x, r0.x
round_ne r0.x, r0.x
round_ni r0.x, r0.x
round_pi r0.x, r0.x
round_z r0.x, r0.x
exp r0.x, r0.x
log r0.x, r0.x
sqrt r0.x, r0.x
rsq r0.x, |r0.x|
rcp r0.x, r0.x
sincos r0.x, r1.x, r0.x
sincos null, r1.x, r0.x
eq r1.x, r0.x, l(0.000000)
ne r1.x, r0.x, l(0.000000)
lt r1.x, r0.x, l(0.000000)
ge r1.x, r0.x, l(0.000000)
deriv_rtx r0.x, v0.x
deriv_rty r0.x, v0.x
deriv_rtx_coarse r0.x, v0.x
deriv_rtx_fine r0.x, v0.x
deriv_rty_coarse r0.x, v0.x
deriv_rty_fine r0.x, v0.x
mov_precise(xy) o0.xy, r0.xyxx
mov o0.zw, r0.zzzw
ret
)"},
    {"integer and bit operations, conversions",
     R"(cs_5_0
dcl_globalFlags refactoringAllowed
dcl_input vThreadID.xyz
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_thread_group 8, 8, 1
iadd r0.x, vThreadID.x, l(-1)
imul null, r0.x, r0.x, l(3)
umul r1.x, r0.y, r0.x, vThreadID.y
imad r0.x, r0.x, l(2), l(1)
umad r0.x, r0.x, l(2), l(1)
udiv r0.x, r1.x, r0.x, l(7)
imin r0.x, r0.x, l(5)
imax r0.x, r0.x, l(5)
umin r0.x, r0.x, l(5)
umax r0.x, r0.x, l(5)
ineg r0.x, r0.x
ishl r0.x, r0.x, l(2)
ishr r0.x, r0.x, l(2)
ushr r0.x, r0.x, l(2)
and r0.x, r0.x, l(65535)
or r0.x, r0.x, l(1)
xor r0.x, r0.x, vThreadIDInGroupFlattened
not r0.x, r0.x
bfi r0.x, l(8), l(4), r0.x, r0.y
ubfe r0.x, l(8), l(4), r0.x
ibfe r0.x, l(8), l(4), r0.x
bfrev r0.x, r0.x
countbits r0.x, r0.x
firstbit_hi r0.x, r0.x
firstbit_lo r0.x, r0.x
firstbit_shi r0.x, r0.x
uaddc r0.x, r1.x, r0.x, r0.y
usubb r0.x, r1.x, r0.x, r0.y
msad r0.x, r0.x, r0.y, r0.z
ieq r0.x, r0.x, l(0)
ine r0.x, r0.x, l(0)
ilt r0.x, r0.x, l(0)
ige r0.x, r0.x, l(0)
ult r0.x, r0.x, l(0)
uge r0.x, r0.x, l(0)
ftoi r0.x, r0.x
ftou r0.x, r0.x
itof r0.x, r0.x
utof r0.x, r0.x
f32tof16 r0.x, r0.x
f16tof32 r0.x, r0.x
ret
)"},
    {"double precision",
     R"(cs_5_0
dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps
dcl_temps 3
dcl_thread_group 1, 1, 1
dmov r0.xy, d(1.000000, 0.000000)
dmovc r1.xy, r0.xxxx, r0.xyxy, d(-2.500000, 0.000000)
ftod r0.xy, l(1.000000)
dtof r0.x, r0.xyxx
dtoi r0.x, r0.xyxx
dtou r0.x, r0.xyxx
itod r0.xy, l(3)
utod r0.xy, l(3)
dadd r0.xy, r0.xyxy, r1.xyxy
dmul r0.xy, r0.xyxy, r1.xyxy
ddiv r0.xy, r0.xyxy, r1.xyxy
dfma r0.xy, r0.xyxy, r1.xyxy, d(1.000000, 0.000000)
drcp r0.xy, r0.xyxy
dmin r0.xy, r0.xyxy, r1.xyxy
dmax r0.xy, r0.xyxy, r1.xyxy
deq r2.x, r0.xyxy, r1.xyxy
dne r2.x, r0.xyxy, r1.xyxy
dlt r2.x, r0.xyxy, r1.xyxy
dge r2.x, r0.xyxy, r1.xyxy
ret
)"},
    {"control flow and subroutines",
     R"(ps_4_0
dcl_input_ps constant v0.x
dcl_output o0.xyzw
dcl_temps 2
mov r0.x, l(0)
loop
  ige r1.x, r0.x, v0.x
  breakc_nz r1.x
  if_z r0.x
    continuec_z r1.x
  else
    discard_nz r1.x
  endif
  switch r0.x
    case l(0)
    break
    case l(1)
    default
    continue
  endswitch
  iadd r0.x, r0.x, l(1)
  break
endloop
retc_z r0.x
call l0
callc_nz r0.x, l1
nop
mov o0.xyzw, r0.xxxx
ret
label l0
ret
label l1
ret
)"},
    {"SM5.0 resources, sampling, loads, queries, evaluation",
     R"(ps_5_0
dcl_constantbuffer cb0[4], dynamicIndexed
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_resource_texture2dms(4) (float,float,float,float) t1
dcl_resource_buffer (uint,uint,uint,uint) t2
dcl_resource_raw t3
dcl_resource_structured t4, 16
dcl_resource_texturecube (float,float,float,float) t5
dcl_uav_typed_texture2d (float,float,float,float) u1
dcl_input_ps linear v0.xy
dcl_input_ps_siv constant v1.x, primitive_id
dcl_input_ps_sgv v2.x, sampleIndex
dcl_output o0.xyzw
dcl_temps 4
sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0
sample_b_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.500000)
sample_l_aoffimmi_indexable(1,-2,0)(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0, l(0.000000)
sample_d_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0, r1.xyxx, r1.zwzz
sample_c_indexable(texture2d)(float,float,float,float) r0.x, v0.xyxx, t0.xxxx, s1, l(0.500000)
sample_c_lz_indexable(texture2d)(float,float,float,float) r0.x, v0.xyxx, t0.xxxx, s1, l(0.500000)
gather4_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s0.x
gather4_c_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, t0.xyzw, s1.x, l(0.500000)
gather4_po_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, l(1, 1, 0, 0), t0.xyzw, s0.y
gather4_po_c_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, l(1, 1, 0, 0), t0.xyzw, s1.x, l(0.500000)
ld_indexable(texture2d)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), t0.xyzw
ldms_indexable(texture2dms)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), t1.xyzw, v2.x
ld_indexable(buffer)(uint,uint,uint,uint) r0.xyzw, l(0, 0, 0, 0), t2.xyzw
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.xy, l(0), t3.xyxx
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.xyzw, l(0), l(0), t4.xyzw
lod_indexable(texturecube)(float,float,float,float) r0.x, r1.xyzx, t5.y, s0
resinfo_indexable(texture2d)(float,float,float,float) r0.xyzw, l(0), t0.xyzw
resinfo_indexable(texture2d)(float,float,float,float)_uint r0.xyzw, l(0), t0.xyzw
resinfo_indexable(texture2d)(float,float,float,float)_rcpFloat r0.xyzw, l(0), t0.xyzw
sampleinfo r0.x, t1.x
sampleinfo_uint r0.x, t1.x
samplepos r0.xy, t1.xyxx, v2.x
bufinfo_indexable(buffer)(uint,uint,uint,uint) r0.x, t2.xxxx
eval_centroid r0.xy, v0.xyxx
eval_sample_index r0.xy, v0.xyxx, v2.x
eval_snapped r0.xy, v0.xyxx, l(1, 1, 0, 0)
ld_uav_typed_indexable(texture2d)(float,float,float,float) r0.xyzw, l(0, 0, 0, 0), u1.xyzw
store_uav_typed u1.xyzw, l(0, 0, 0, 0), r0.xyzw
mov r0.xyzw, cb0[r1.x + 2].xyzw
mov o0.xyzw, r0.xyzw
ret
)"},
    {"UAVs, TGSM, atomics, sync",
     R"(cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_uav_structured_opc u1, 4
dcl_uav_typed_buffer_glc (uint,uint,uint,uint) u2
dcl_tgsm_raw g0, 256
dcl_tgsm_structured g1, 4, 64
dcl_input vThreadID.x
dcl_input vThreadGroupID.x
dcl_input vThreadIDInGroup.x
dcl_temps 2
dcl_thread_group 64, 1, 1
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, l(0), u0.xxxx
store_raw u0.x, l(0), r0.x
ld_structured_indexable(structured_buffer, stride=4)(mixed,mixed,mixed,mixed) r0.x, vThreadID.x, l(0), u1.xxxx
store_structured u1.x, vThreadID.x, l(0), r0.x
store_structured g1.x, vThreadIDInGroup.x, l(0), r0.x
ld_structured r0.x, vThreadIDInGroup.x, l(0), g1.xxxx
store_raw g0.x, l(0), vThreadGroupID.x
ld_raw r0.x, l(0), g0.xxxx
atomic_and u0, l(0), r0.x
atomic_or u0, l(0), r0.x
atomic_xor u0, l(0), r0.x
atomic_cmp_store u0, l(0), r0.x, r0.y
atomic_iadd g0, l(0), r0.x
atomic_imax u0, l(0), r0.x
atomic_imin u0, l(0), r0.x
atomic_umax u0, l(0), r0.x
atomic_umin u0, l(0), r0.x
imm_atomic_alloc r0.x, u1
imm_atomic_consume r0.x, u1
imm_atomic_iadd r0.x, u0, l(0), l(1)
imm_atomic_and r0.x, u0, l(0), l(1)
imm_atomic_or r0.x, u0, l(0), l(1)
imm_atomic_xor r0.x, u0, l(0), l(1)
imm_atomic_exch r0.x, u0, l(0), l(1)
imm_atomic_cmp_exch r0.x, u0, l(0), l(1), l(2)
imm_atomic_imax r0.x, u0, l(0), l(1)
imm_atomic_imin r0.x, u0, l(0), l(1)
imm_atomic_umax r0.x, u0, l(0), l(1)
imm_atomic_umin r0.x, g0, l(0), l(1)
ld_uav_typed_indexable(buffer)(uint,uint,uint,uint) r1.xyzw, l(0, 0, 0, 0), u2.xyzw
store_uav_typed u2.xyzw, l(0, 0, 0, 0), r1.xyzw
sync_g_t
sync_uglobal
sync_ugroup_g
ret
)"},
    {"vertex shader system values",
     R"(vs_4_0
dcl_input_sgv v0.x, vertex_id
dcl_input_sgv v1.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_output_sgv o1.x, primitive_id
utof o0.xyzw, v0.xxxx
mov o1.x, v1.x
ret
)"},
    {"geometry shader with streams",
     R"(gs_5_0
dcl_input v[3][0].xyzw
dcl_input_siv v[3][1].xyzw, position
dcl_input vPrim
dcl_input vGSInstanceID
dcl_temps 1
dcl_inputprimitive triangle
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_stream m1
dcl_outputtopology pointlist
dcl_output o1.xyzw
dcl_maxout 6
dcl_gsinstances 2
mov r0.x, vPrim
mov o0.xyzw, v[0][1].xyzw
emit_stream m0
cut_stream m0
emitThenCut_stream m1
ret
)"},
    {"SM4 geometry shader",
     R"(gs_4_0
dcl_input v[1][0].xyzw
dcl_inputprimitive point
dcl_outputtopology linestrip
dcl_output o0.xyzw
dcl_maxout 2
mov o0.xyzw, v[0][0].xyzw
emit
cut
emitThenCut
ret
)"},
    {"hull shader phases",
     R"(hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_fractional_odd
dcl_tessellator_output_primitive output_triangle_cw
dcl_hs_max_tessfactor l(64.000000)
hs_control_point_phase
dcl_input vOutputControlPointID
dcl_input v[3][0].xyzw
dcl_output o0.xyzw
mov o0.xyzw, v[vOutputControlPointID + 0][0].xyzw
ret
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_output_siv o0.x, finalTriUeq0EdgeTessFactor
dcl_output_siv o1.x, finalTriVeq0EdgeTessFactor
dcl_output_siv o2.x, finalTriWeq0EdgeTessFactor
dcl_indexRange o0.x, 3
dcl_temps 1
mov r0.x, vForkInstanceID.x
mov o[r0.x + 0].x, l(4.000000)
ret
hs_join_phase
dcl_hs_join_phase_instance_count 1
dcl_input vJoinInstanceID
dcl_input vicp[3][0].xyzw
dcl_input vocp[3][0].xyzw
dcl_output_siv o3.x, finalTriInsideTessFactor
mov o3.x, vocp[0][0].x
ret
)"},
    {"domain shader",
     R"(ds_5_0
dcl_input_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_input vDomain.xyz
dcl_input vicp[3][0].xyzw
dcl_input vpc0.x
dcl_output_siv o0.xyzw, position
dcl_temps 1
mul r0.xyzw, vDomain.xxxx, vicp[0][0].xyzw
mad o0.xyzw, vicp[1][0].xyzw, vDomain.yyyy, r0.xyzw
ret
)"},
    {"immediate constant buffer, indexable temps, scalar system registers, abort",
     R"(ps_5_0
dcl_globalFlags refactoringAllowed | skipOptimization
dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},
                              { 0, 1.000000, 0, 0} }
dcl_input_ps_siv linear noperspective centroid v0.xy, position
dcl_input vCoverage
dcl_output o0.xyzw
dcl_output oMask
dcl_output oDepth
dcl_temps 2
dcl_indexableTemp x0[4], 4
mov x0[1].xyzw, icb[r0.x + 0].xyzw
mov r0.xyzw, x0[r1.x + 1].xyzw
and oMask, vCoverage.x, l(1)
mov oDepth, l(0.500000)
mov o0.xyzw, r0.xyzw
abort
debug_break
ret
)"},
    {"SM5.1 descriptor ranges and feedback variants",
     R"(ps_5_1
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[0:0][4], immediateIndexed, space=0
dcl_sampler S0[0:0], mode_default, space=0
dcl_resource_texture2d (float,float,float,float) T0[0:*], space=1
dcl_resource_structured T1[2:5], 16, space=0
dcl_uav_raw U0[0:0], space=0
dcl_uav_typed_texture2d (float,float,float,float) U1[1:1], space=0
dcl_resource_texture2dms(2) (float,float,float,float) T2[3:3], space=0
dcl_input_ps linear v0.xy
dcl_input_ps constant v1.x
dcl_output o0.xyzw
dcl_temps 2
sample_indexable(texture2d)(float,float,float,float) r0.xyzw, v0.xyxx, T0[v1.x + 0].xyzw {nonuniform}, S0[0]
sample_l_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, T0[0].xyzw, S0[0], l(0.000000)
sample_c_lz_s_indexable(texture2d)(float,float,float,float) r0.x, r1.x, v0.xyxx, T0[0].xxxx, S0[0], l(0.500000)
sample_cl_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, T0[0].xyzw, S0[0], l(1.000000)
sample_b_cl_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, T0[0].xyzw, S0[0], l(0.500000), l(1.000000)
sample_d_cl_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, T0[0].xyzw, S0[0], v0.xyxx, v0.xyxx, l(1.000000)
sample_c_cl_s_indexable(texture2d)(float,float,float,float) r0.x, r1.x, v0.xyxx, T0[0].xxxx, S0[0], l(0.500000), l(1.000000)
gather4_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, T0[0].xyzw, S0[0].x
gather4_c_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, T0[0].xyzw, S0[0].x, l(0.500000)
gather4_po_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, l(0, 0, 0, 0), T0[0].xyzw, S0[0].x
gather4_po_c_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, v0.xyxx, l(0, 0, 0, 0), T0[0].xyzw, S0[0].x, l(0.500000)
ld_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, l(0, 0, 0, 0), T0[0].xyzw
ld_structured_s_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.x, r1.x, l(0), l(0), T1[2].xxxx
ld_raw_s_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r0.x, r1.x, l(0), U0[0].xxxx
ldms_s_indexable(texture2dms)(float,float,float,float) r0.xyzw, r1.x, l(0, 0, 0, 0), T2[3].xyzw, l(0)
ld_uav_typed_s_indexable(texture2d)(float,float,float,float) r0.xyzw, r1.x, l(0, 0, 0, 0), U1[1].xyzw
check_access_fully_mapped r1.x, r1.x
mov o0.xyzw, CB0[0][1].xyzw
ret
)"},
};

/// The instruction lines of a disassembly (signature comments dropped).
std::string without_comments(const std::string& text)
{
    std::string out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        std::string line = text.substr(start, end - start);
        if (line.rfind("//", 0) != 0)
            out += line + "\n";
        start = end + 1;
    }
    return out;
}

/// text -> program -> tokens -> program -> text; "" (and a message) on failure.
std::string through_tokens(const std::string& text, vsir::Program& assembled, std::vector<uint32_t>& tokens,
                           Diagnostics& diags)
{
    if (!text::assemble(text, assembled, diags))
        return "";
    tokens.clear();
    if (!tpf::write_program(assembled, tokens, diags))
        return "";
    std::vector<uint8_t> bytes = text_test::to_bytes(tokens);
    vsir::Program back;
    if (!tpf::read_program(bytes, 0, back, diags))
        return "";
    return text::disassemble(back);
}

} // namespace

TEST_CASE("d3d-asm round trip: every instruction family, text -> tokens -> text")
{
    for (const Snippet& s : snippets) {
        INFO(s.family);
        vsir::Program p;
        std::vector<uint32_t> tokens;
        Diagnostics diags;
        std::string back = through_tokens(s.text, p, tokens, diags);
        INFO(diags.to_string());
        CHECK(without_comments(back) == std::string(s.text));
        // And the tokens themselves survive text: write(assemble(disassemble(read(tokens)))) == tokens.
        vsir::Program again;
        std::vector<uint32_t> tokens_again;
        CHECK(through_tokens(back, again, tokens_again, diags) == back);
        CHECK(tokens_again == tokens);
    }
}

TEST_CASE("d3d-asm round trip: every SM4/5 opcode has a snippet")
{
    std::set<vsir::Opcode> seen;
    for (const Snippet& s : snippets) {
        vsir::Program p;
        Diagnostics diags;
        REQUIRE(text::assemble(s.text, p, diags));
        for (const vsir::Instruction& ins : p.instructions)
            seen.insert(ins.opcode);
    }
    for (uint32_t number = 0; number < tpf::op_count; ++number) {
        const tpf::OpcodeEntry& e = tpf::opcode_entry(number);
        if (e.handling != tpf::Handling::instruction && e.handling != tpf::Handling::declaration)
            continue;
        INFO("TPF opcode " << number << " (" << std::string(vsir::opcode_info(e.op).name) << ")");
        CHECK(seen.count(e.op) == 1);
    }
    CHECK(seen.count(vsir::Opcode::dcl_immediate_constant_buffer) == 1);
}

TEST_CASE("d3d-asm round trip: select-1, swizzle, mask and 0/1-component forms")
{
    const char* text = "ps_5_0\n"
                       "dcl_input vCoverage\n"
                       "dcl_output o0.xyzw\n"
                       "dcl_temps 1\n"
                       "mov r0.x, vCoverage.x\n"
                       "mov r0.y, r0.xxxx\n"
                       "mov r0.zw, l(1, 2, 3, 4) {swz}\n"
                       "mov o0.xyzw, r0.xyzw {ext}\n"
                       "ret\n";
    vsir::Program p;
    std::vector<uint32_t> tokens;
    Diagnostics diags;
    std::string back = through_tokens(text, p, tokens, diags);
    INFO(diags.to_string());
    CHECK(without_comments(back) == std::string(text));
    // mov r0.x, vCoverage.x: vCoverage select-1 x (operand type 35).
    CHECK(tokens[12] == ((tpf::operand_coverage_mask_in << 12) | (tpf::select_one << 2) | tpf::components_4));
    // mov r0.y, r0.xxxx: swizzle mode, swizzle 0.
    CHECK(tokens[16] == ((1u << 20) | (tpf::select_swizzle << 2) | tpf::components_4));
}

TEST_CASE("d3d-asm round trip: token forms the text cannot show are annotated")
{
    // A 1-component temp, a 0-component sampler declaration and a vec4
    // immediate in swizzle form: not fxc's choices, kept by annotations.
    const char* text = "ps_5_0\n"
                       "dcl_sampler s0 {swz}, mode_default\n"
                       "dcl_temps 1\n"
                       "mov r0 {c1}, l(1.000000)\n"
                       "ret\n";
    vsir::Program p;
    std::vector<uint32_t> tokens;
    Diagnostics diags;
    std::string back = through_tokens(text, p, tokens, diags);
    INFO(diags.to_string());
    CHECK(without_comments(back) == std::string(text));
}

TEST_CASE("d3d-asm: newer fxc's CB0[n] spelling of SM4/5.0 constant buffer declarations")
{
    vsir::Program p;
    Diagnostics diags;
    REQUIRE(text::assemble("ps_5_0\ndcl_constantbuffer CB0[4], immediateIndexed\nret\n", p, diags));
    CHECK(text::disassemble(p) == "ps_5_0\ndcl_constantbuffer cb0[4], immediateIndexed\nret\n");
}

TEST_CASE("d3d-asm signature blocks: fxc's table and the dxspv-signature line")
{
    const char* text = "//\n"
                       "// Input signature:\n"
                       "//\n"
                       "// Name                 Index   Mask Register SysValue  Format   Used\n"
                       "// -------------------- ----- ------ -------- -------- ------- ------\n"
                       "// SV_POSITION              0   xyzw        0      POS   float\n"
                       "// TEXCOORD                 0   xy          1     NONE   float   xy\n"
                       "// TEXCOORD                 1     zw        1     NONE    uint     z\n"
                       "// dxspv-signature: ISG1; 1 reserved=0x1000; 2 prec=5\n"
                       "//\n"
                       "//\n"
                       "// Output signature:\n"
                       "//\n"
                       "// Name                 Index   Mask Register SysValue  Format   Used\n"
                       "// -------------------- ----- ------ -------- -------- ------- ------\n"
                       "// SV_Target                0   xyzw        0   TARGET   float   xyzw\n"
                       "// SV_Depth                 0    N/A   oDepth    DEPTH   float    YES\n"
                       "// dxspv-signature: OSG5 unpadded; 0 stream=1\n"
                       "//\n"
                       "ps_5_0\n"
                       "ret\n";
    vsir::Program p;
    Diagnostics diags;
    REQUIRE(text::assemble(text, p, diags));
    INFO(diags.to_string());
    REQUIRE(p.inputs.size() == 3);
    REQUIRE(p.outputs.size() == 2);
    CHECK(p.inputs[0].semantic_name == "SV_POSITION");
    CHECK(p.inputs[0].system_value == SystemValue::position);
    CHECK(p.inputs[0].mask == 0xf);
    CHECK(p.inputs[0].used_mask == 0);
    CHECK(p.inputs[1].register_index == 1);
    CHECK(p.inputs[1].used_mask == 0x3);
    CHECK(p.inputs[2].semantic_index == 1);
    CHECK(p.inputs[2].mask == 0xc);
    CHECK(p.inputs[2].used_mask == 0x4);
    CHECK(p.inputs[2].component_type == ComponentType::uint32);
    CHECK(p.inputs[2].min_precision == MinPrecision::uint16);
    CHECK(p.inputs[1].reserved == 0x1000);
    CHECK(p.outputs[0].system_value == SystemValue::none); // fxc stores SV_Target as 0
    CHECK(p.outputs[0].used_mask == 0);
    CHECK(p.outputs[0].stream == 1);
    CHECK(p.outputs[1].register_index == ~0u);
    CHECK(p.outputs[1].mask == 0x1);
    CHECK(p.outputs[1].used_mask == 0xe);
    CHECK(p.signature_chunks[0] == container::fourcc("ISG1"));
    CHECK(p.signature_chunks[1] == container::fourcc("OSG5"));
    CHECK(p.signature_chunks[2] == 0);
    CHECK(p.signature_unpadded == 2);
    CHECK(text::disassemble(p) == std::string(text));

    // The chunk bytes survive: serialize, parse back, same elements.
    container::Chunk chunk;
    std::vector<uint8_t> bytes =
        container::serialize_signature(p.inputs, container::SignatureFormat::sg1, uint8_t(0xab));
    chunk.fourcc = container::fourcc("ISG1");
    chunk.data = bytes;
    std::vector<SignatureElement> back;
    REQUIRE(container::parse_signature(chunk, back, diags));
    REQUIRE(back.size() == 3);
    CHECK(back[2].min_precision == MinPrecision::uint16);
    CHECK(back[2].mask == 0xc);
    CHECK(back[1].reserved == 0x1000);
}

TEST_CASE("d3d-asm signature blocks: malformed blocks are numbered errors")
{
    const char* bad[] = {
        "// Input signature:\n//\n// Name Index\n// ----\n// SV_POSITION x\n//\nps_5_0\nret\n",
        "// Output signature:\n//\n// Name Index\n// ----\n// A 0 x 0 NONE float\n// dxspv-signature: ISGN\n//\nps_5_0\nret\n",
        "// Output signature:\n//\n// Name Index\n// ----\n// A 0   x           0     NONE   float   x\n// dxspv-signature: OSGN; 7 mask=1\n//\nps_5_0\nret\n",
        "// Input signature:\n//\n// Name Index\n// ----\n// A 0   x           0     NONE   float   x\n// dxspv-signature: ISGN; 0 bogus=1\n//\nps_5_0\nret\n",
    };
    for (const char* text : bad) {
        INFO(text);
        vsir::Program p;
        Diagnostics diags;
        CHECK_FALSE(text::assemble(text, p, diags));
        REQUIRE(diags.messages().size() == 1);
        CHECK(diags.messages()[0].code == Code::text_bad_signature);
    }
}

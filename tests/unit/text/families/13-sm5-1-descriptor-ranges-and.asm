// SM5.1 descriptor ranges and feedback variants
ps_5_1
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

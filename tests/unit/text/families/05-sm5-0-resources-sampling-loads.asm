// SM5.0 resources, sampling, loads, queries, evaluation
ps_5_0
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

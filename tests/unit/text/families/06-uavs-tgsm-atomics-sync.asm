// UAVs, TGSM, atomics, sync
cs_5_0
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

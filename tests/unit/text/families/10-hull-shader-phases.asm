// hull shader phases
hs_5_0
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

// domain shader
ds_5_0
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

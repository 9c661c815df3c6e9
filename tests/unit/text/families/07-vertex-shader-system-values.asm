// vertex shader system values
vs_4_0
dcl_input_sgv v0.x, vertex_id
dcl_input_sgv v1.x, instance_id
dcl_output_siv o0.xyzw, position
dcl_output_sgv o1.x, primitive_id
utof o0.xyzw, v0.xxxx
mov o1.x, v1.x
ret

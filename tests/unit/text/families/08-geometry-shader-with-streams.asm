// geometry shader with streams
gs_5_0
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

// SM4 geometry shader
gs_4_0
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

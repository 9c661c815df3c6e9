// immediate constant buffer, indexable temps, scalar system registers, abort
ps_5_0
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

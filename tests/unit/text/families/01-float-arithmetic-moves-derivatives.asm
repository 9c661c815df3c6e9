// float arithmetic, moves, derivatives
ps_5_0
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

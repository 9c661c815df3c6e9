// control flow and subroutines
ps_4_0
dcl_input_ps constant v0.x
dcl_output o0.xyzw
dcl_temps 2
mov r0.x, l(0)
loop
  ige r1.x, r0.x, v0.x
  breakc_nz r1.x
  if_z r0.x
    continuec_z r1.x
  else
    discard_nz r1.x
  endif
  switch r0.x
    case l(0)
    break
    case l(1)
    default
    continue
  endswitch
  iadd r0.x, r0.x, l(1)
  break
endloop
retc_z r0.x
call l0
callc_nz r0.x, l1
nop
mov o0.xyzw, r0.xxxx
ret
label l0
ret
label l1
ret

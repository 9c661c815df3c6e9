// integer and bit operations, conversions
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_input vThreadID.xyz
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_thread_group 8, 8, 1
iadd r0.x, vThreadID.x, l(-1)
imul null, r0.x, r0.x, l(3)
umul r1.x, r0.y, r0.x, vThreadID.y
imad r0.x, r0.x, l(2), l(1)
umad r0.x, r0.x, l(2), l(1)
udiv r0.x, r1.x, r0.x, l(7)
imin r0.x, r0.x, l(5)
imax r0.x, r0.x, l(5)
umin r0.x, r0.x, l(5)
umax r0.x, r0.x, l(5)
ineg r0.x, r0.x
ishl r0.x, r0.x, l(2)
ishr r0.x, r0.x, l(2)
ushr r0.x, r0.x, l(2)
and r0.x, r0.x, l(65535)
or r0.x, r0.x, l(1)
xor r0.x, r0.x, vThreadIDInGroupFlattened
not r0.x, r0.x
bfi r0.x, l(8), l(4), r0.x, r0.y
ubfe r0.x, l(8), l(4), r0.x
ibfe r0.x, l(8), l(4), r0.x
bfrev r0.x, r0.x
countbits r0.x, r0.x
firstbit_hi r0.x, r0.x
firstbit_lo r0.x, r0.x
firstbit_shi r0.x, r0.x
uaddc r0.x, r1.x, r0.x, r0.y
usubb r0.x, r1.x, r0.x, r0.y
msad r0.x, r0.x, r0.y, r0.z
ieq r0.x, r0.x, l(0)
ine r0.x, r0.x, l(0)
ilt r0.x, r0.x, l(0)
ige r0.x, r0.x, l(0)
ult r0.x, r0.x, l(0)
uge r0.x, r0.x, l(0)
ftoi r0.x, r0.x
ftou r0.x, r0.x
itof r0.x, r0.x
utof r0.x, r0.x
f32tof16 r0.x, r0.x
f16tof32 r0.x, r0.x
ret

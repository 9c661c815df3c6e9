// double precision
cs_5_0
dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps
dcl_temps 3
dcl_thread_group 1, 1, 1
dmov r0.xy, d(1.000000, 0.000000)
dmovc r1.xy, r0.xxxx, r0.xyxy, d(-2.500000, 0.000000)
ftod r0.xy, l(1.000000)
dtof r0.x, r0.xyxx
dtoi r0.x, r0.xyxx
dtou r0.x, r0.xyxx
itod r0.xy, l(3)
utod r0.xy, l(3)
dadd r0.xy, r0.xyxy, r1.xyxy
dmul r0.xy, r0.xyxy, r1.xyxy
ddiv r0.xy, r0.xyxy, r1.xyxy
dfma r0.xy, r0.xyxy, r1.xyxy, d(1.000000, 0.000000)
drcp r0.xy, r0.xyxy
dmin r0.xy, r0.xyxy, r1.xyxy
dmax r0.xy, r0.xyxy, r1.xyxy
deq r2.x, r0.xyxy, r1.xyxy
dne r2.x, r0.xyxy, r1.xyxy
dlt r2.x, r0.xyxy, r1.xyxy
dge r2.x, r0.xyxy, r1.xyxy
ret

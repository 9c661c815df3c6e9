// increment_cs.dxbc: adds 1 to every 32-bit word of a raw buffer, one
// thread per word. The same program in d3d-asm (what fxc prints for
//   RWByteAddressBuffer buf : register(u0);
//   [numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID)
//   { buf.Store(id.x * 4, buf.Load(id.x * 4) + 1); }
// ):
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
ld_raw_indexable(raw_buffer)(mixed,mixed,mixed,mixed) r1.x, r0.x, u0.xxxx
iadd r1.x, r1.x, l(1)
store_raw u0.x, r0.x, r1.x
ret

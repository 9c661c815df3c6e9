// Appends the square of every thread id that is a multiple of 7 to an
// AppendStructuredBuffer (what fxc prints for this HLSL):
//
//   AppendStructuredBuffer<uint> squares : register(u0);
//
//   [numthreads(64, 1, 1)]
//   void main(uint3 id : SV_DispatchThreadID)
//   {
//       if (id.x % 7 == 0)
//           squares.Append(id.x * id.x);
//   }
//
// Append is imm_atomic_alloc on the UAV's hidden counter (which gives each
// thread its own slot) followed by a store into that slot.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_structured u0, 4
dcl_input vThreadID.x
dcl_temps 2
dcl_thread_group 64, 1, 1
udiv null, r0.x, vThreadID.x, l(7)
if_z r0.x
  imm_atomic_alloc r0.x, u0
  imul null, r1.x, vThreadID.x, vThreadID.x
  store_structured u0.x, r0.x, l(0), r1.x
endif
ret

// The Mandelbrot set, one thread per pixel, written as packed RGBA8 into a
// raw buffer (what fxc prints for this HLSL):
//
//   cbuffer view : register(b0) {
//       float2 center; float scale; float pad;
//       uint width, height, max_iterations, pad2;
//   };
//   RWByteAddressBuffer image : register(u0);
//
//   [numthreads(8, 8, 1)]
//   void main(uint3 id : SV_DispatchThreadID)
//   {
//       if (id.x >= width || id.y >= height) return;
//       float2 c = center + (float2(id.xy) - 0.5 * float2(width, height)) * scale;
//       float2 z = 0; uint n = 0;
//       for (; n < max_iterations; ++n) {
//           float2 z2 = z * z;
//           if (z2.x + z2.y > 4.0) break;
//           z = float2(z2.x - z2.y, 2.0 * z.x * z.y) + c;
//       }
//       // A cosine palette, black inside the set.
//       float3 rgb = n == max_iterations ? 0 : 0.5 + 0.5 * cos(3.0 + 0.15 * n + float3(0.0, 0.6, 1.0));
//       uint3 c8 = uint3(saturate(rgb) * 255.0 + 0.5);
//       image.Store((id.y * width + id.x) * 4, c8.x | c8.y << 8 | c8.z << 16 | 0xff000000);
//   }
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[2], immediateIndexed
dcl_uav_raw u0
dcl_input vThreadID.xy
dcl_temps 5
dcl_thread_group 8, 8, 1
uge r0.xy, vThreadID.xyxx, cb0[1].xyxx
or r0.x, r0.y, r0.x
retc_nz r0.x
utof r0.xy, vThreadID.xyxx
utof r0.zw, cb0[1].xxxy
mad r0.xy, -r0.zwzz, l(0.500000, 0.500000, 0.000000, 0.000000), r0.xyxx
mad r0.xy, r0.xyxx, cb0[0].zzzz, cb0[0].xyxx
mov r1.xy, l(0, 0, 0, 0)
mov r1.z, l(0)
loop
  uge r2.x, r1.z, cb0[1].z
  breakc_nz r2.x
  mul r2.xy, r1.xyxx, r1.xyxx
  add r2.z, r2.y, r2.x
  lt r2.z, l(4.000000), r2.z
  breakc_nz r2.z
  add r2.x, -r2.y, r2.x
  mul r2.y, r1.y, r1.x
  add r2.y, r2.y, r2.y
  add r1.xy, r0.xyxx, r2.xyxx
  iadd r1.z, r1.z, l(1)
endloop
utof r3.x, r1.z
mad r3.xyz, r3.xxxx, l(0.150000, 0.150000, 0.150000, 0.000000), l(3.000000, 3.600000, 4.000000, 0.000000)
sincos null, r3.xyz, r3.xyzx
mad_sat r3.xyz, r3.xyzx, l(0.500000, 0.500000, 0.500000, 0.000000), l(0.500000, 0.500000, 0.500000, 0.000000)
ieq r2.x, r1.z, cb0[1].z
movc r3.xyz, r2.xxxx, l(0, 0, 0, 0), r3.xyzx
mad r3.xyz, r3.xyzx, l(255.000000, 255.000000, 255.000000, 0.000000), l(0.500000, 0.500000, 0.500000, 0.000000)
ftou r3.xyz, r3.xyzx
ishl r3.yz, r3.yyzy, l(0, 8, 16, 0)
or r3.x, r3.y, r3.x
or r3.x, r3.z, r3.x
or r3.x, r3.x, l(0xff000000)
imad r4.x, vThreadID.y, cb0[1].x, vThreadID.x
ishl r4.x, r4.x, l(2)
store_raw u0.x, r4.x, r3.x
ret

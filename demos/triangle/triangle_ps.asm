// Pixel shader: the interpolated colour, brightened towards the middle of
// the triangle where all three colours mix (what fxc prints for this HLSL):
//
//   float4 main(float4 position : SV_Position, float3 color : COLOR) : SV_Target
//   {
//       float m = min(color.r, min(color.g, color.b));
//       return float4(saturate(color + m), 1.0);
//   }
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// COLOR                    0   xyz         1     NONE   float   xyz
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_input_ps linear v1.xyz
dcl_output o0.xyzw
dcl_temps 1
min r0.x, v1.z, v1.y
min r0.x, r0.x, v1.x
add_sat o0.xyz, r0.xxxx, v1.xyzx
mov o0.w, l(1.000000)
ret

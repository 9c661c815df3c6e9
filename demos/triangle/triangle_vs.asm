// Vertex shader: passes the position and the colour through (what fxc
// prints for this HLSL, signatures included):
//
//   struct VSOut { float4 position : SV_Position; float3 color : COLOR; };
//   VSOut main(float2 position : POSITION, float3 color : COLOR)
//   {
//       VSOut o = { float4(position, 0.0, 1.0), color };
//       return o;
//   }
//
//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xy          0     NONE   float   xy
// COLOR                    0   xyz         1     NONE   float   xyz
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyz         1     NONE   float   xyz
//
vs_4_0
dcl_input v0.xy
dcl_input v1.xyz
dcl_output_siv o0.xyzw, position
dcl_output o1.xyz
mov o0.xy, v0.xyxx
mov o0.zw, l(0, 0, 0, 1.000000)
mov o1.xyz, v1.xyzx
ret

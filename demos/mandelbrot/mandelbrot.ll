; The Mandelbrot set, one thread per pixel, written as packed RGBA8 into a
; raw buffer: the shader of mandelbrot.asm (its HLSL is in that file's
; comment) as DXIL in LLVM 3.7 IR text, in the form DXC gives for cs_6_0.
; `mandelbrot --dxil` loads this file (source type dxil-ll) instead of the
; .asm, with the same binding map, and renders the same image.
;
;   cbuffer view : register(b0)    row 0 = (center.x, center.y, scale, pad),
;                                  row 1 = (width, height, max_iterations, pad2)
;   RWByteAddressBuffer image : register(u0)
;
; Where fxc fused a multiply and an add into `mad`, this has the same fused
; multiply-add, dx.op.tertiary FMad (what DXC gives for HLSL's mad()).
; The pictures still differ at a few hundred pixels on the set's boundary
; (escape counts one or a few iterations apart): SPIR-V lets the Vulkan
; driver contract the loop's multiplies and adds into fused ones, and it
; does so differently for the two modules; check_demo.py allows for that.
target datalayout = "e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-f16:32-f32:32-f64:64-n8:16:32:64"
target triple = "dxil-ms-dx"

%dx.types.Handle = type { i8* }
%dx.types.CBufRet.f32 = type { float, float, float, float }
%dx.types.CBufRet.i32 = type { i32, i32, i32, i32 }
%struct.RWByteAddressBuffer = type { i32 }
%view = type { <2 x float>, float, float, i32, i32, i32, i32 }

define void @main() {
entry:
  %image = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %view = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 0, i32 0, i1 false)
  %id.x = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %id.y = call i32 @dx.op.threadId.i32(i32 93, i32 1)
  %row1 = call %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32 59, %dx.types.Handle %view, i32 1)
  %width = extractvalue %dx.types.CBufRet.i32 %row1, 0
  %height = extractvalue %dx.types.CBufRet.i32 %row1, 1
  %x.in = icmp ult i32 %id.x, %width
  %y.in = icmp ult i32 %id.y, %height
  %in = and i1 %x.in, %y.in
  br i1 %in, label %setup, label %exit

setup:                                            ; c = center + (id.xy - 0.5 * size) * scale
  %row0 = call %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32 59, %dx.types.Handle %view, i32 0)
  %center.x = extractvalue %dx.types.CBufRet.f32 %row0, 0
  %center.y = extractvalue %dx.types.CBufRet.f32 %row0, 1
  %scale = extractvalue %dx.types.CBufRet.f32 %row0, 2
  %max = extractvalue %dx.types.CBufRet.i32 %row1, 2
  %fx = uitofp i32 %id.x to float
  %fy = uitofp i32 %id.y to float
  %fw = uitofp i32 %width to float
  %fh = uitofp i32 %height to float
  %dx = call float @dx.op.tertiary.f32(i32 46, float %fw, float -5.000000e-01, float %fx)
  %dy = call float @dx.op.tertiary.f32(i32 46, float %fh, float -5.000000e-01, float %fy)
  %c.x = call float @dx.op.tertiary.f32(i32 46, float %dx, float %scale, float %center.x)
  %c.y = call float @dx.op.tertiary.f32(i32 46, float %dy, float %scale, float %center.y)
  br label %loop

loop:                                             ; for (; n < max_iterations; ++n)
  %n = phi i32 [ 0, %setup ], [ %n.next, %step ]
  %z.x = phi float [ 0.000000e+00, %setup ], [ %z.x.next, %step ]
  %z.y = phi float [ 0.000000e+00, %setup ], [ %z.y.next, %step ]
  %more = icmp ult i32 %n, %max
  br i1 %more, label %body, label %done

body:                                             ; if (z2.x + z2.y > 4.0) break;
  %z2.x = fmul fast float %z.x, %z.x
  %z2.y = fmul fast float %z.y, %z.y
  %r2 = fadd fast float %z2.x, %z2.y
  %escaped = fcmp fast ogt float %r2, 4.000000e+00
  br i1 %escaped, label %done, label %step

step:                                             ; z = float2(z2.x - z2.y, 2 z.x z.y) + c
  %re = fsub fast float %z2.x, %z2.y
  %z.x.next = fadd fast float %re, %c.x
  %xy = fmul fast float %z.x, %z.y
  %im = fmul fast float %xy, 2.000000e+00
  %z.y.next = fadd fast float %im, %c.y
  %n.next = add i32 %n, 1
  br label %loop

done:                                             ; the cosine palette, black inside the set
  %count = phi i32 [ %n, %loop ], [ %n, %body ]
  %fn = uitofp i32 %count to float
  %a.r = call float @dx.op.tertiary.f32(i32 46, float %fn, float 0x3FC3333340000000, float 3.000000e+00)
  %a.g = call float @dx.op.tertiary.f32(i32 46, float %fn, float 0x3FC3333340000000, float 0x400CCCCCC0000000)
  %a.b = call float @dx.op.tertiary.f32(i32 46, float %fn, float 0x3FC3333340000000, float 4.000000e+00)
  %cos.r = call float @dx.op.unary.f32(i32 12, float %a.r)
  %cos.g = call float @dx.op.unary.f32(i32 12, float %a.g)
  %cos.b = call float @dx.op.unary.f32(i32 12, float %a.b)
  %p.r = call float @dx.op.tertiary.f32(i32 46, float %cos.r, float 5.000000e-01, float 5.000000e-01)
  %p.g = call float @dx.op.tertiary.f32(i32 46, float %cos.g, float 5.000000e-01, float 5.000000e-01)
  %p.b = call float @dx.op.tertiary.f32(i32 46, float %cos.b, float 5.000000e-01, float 5.000000e-01)
  %s.r = call float @dx.op.unary.f32(i32 7, float %p.r)
  %s.g = call float @dx.op.unary.f32(i32 7, float %p.g)
  %s.b = call float @dx.op.unary.f32(i32 7, float %p.b)
  %inside = icmp eq i32 %count, %max
  %rgb.r = select i1 %inside, float 0.000000e+00, float %s.r
  %rgb.g = select i1 %inside, float 0.000000e+00, float %s.g
  %rgb.b = select i1 %inside, float 0.000000e+00, float %s.b
  %w.r = call float @dx.op.tertiary.f32(i32 46, float %rgb.r, float 2.550000e+02, float 5.000000e-01)
  %w.g = call float @dx.op.tertiary.f32(i32 46, float %rgb.g, float 2.550000e+02, float 5.000000e-01)
  %w.b = call float @dx.op.tertiary.f32(i32 46, float %rgb.b, float 2.550000e+02, float 5.000000e-01)
  %c8.r = fptoui float %w.r to i32
  %c8.g = fptoui float %w.g to i32
  %c8.b = fptoui float %w.b to i32
  %g.sh = shl i32 %c8.g, 8
  %b.sh = shl i32 %c8.b, 16
  %rg = or i32 %g.sh, %c8.r
  %rgb = or i32 %rg, %b.sh
  %rgba = or i32 %rgb, -16777216
  %pixel.row = mul i32 %id.y, %width
  %pixel = add i32 %pixel.row, %id.x
  %address = shl i32 %pixel, 2
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %image, i32 %address, i32 undef, i32 %rgba, i32 undef, i32 undef, i32 undef, i8 1)
  br label %exit

exit:
  ret void
}

declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)
declare i32 @dx.op.threadId.i32(i32, i32)
declare %dx.types.CBufRet.f32 @dx.op.cbufferLoadLegacy.f32(i32, %dx.types.Handle, i32)
declare %dx.types.CBufRet.i32 @dx.op.cbufferLoadLegacy.i32(i32, %dx.types.Handle, i32)
declare float @dx.op.unary.f32(i32, float)
declare float @dx.op.tertiary.f32(i32, float, float, float)
declare void @dx.op.bufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8)

!dx.version = !{!0}
!dx.shaderModel = !{!1}
!dx.resources = !{!2}
!dx.entryPoints = !{!9}

!0 = !{i32 1, i32 0}
!1 = !{!"cs", i32 6, i32 0}
!2 = !{null, !3, !5, null}
!3 = !{!4}
!4 = !{i32 0, %struct.RWByteAddressBuffer* undef, !"image", i32 0, i32 0, i32 1, i32 11, i1 false, i1 false, i1 false, null}
!5 = !{!6}
!6 = !{i32 0, %view* undef, !"view", i32 0, i32 0, i32 1, i32 32, null}
!7 = !{i32 8, i32 8, i32 1}
!8 = !{i32 4, !7}
!9 = !{void ()* @main, !"main", null, !2, !8}

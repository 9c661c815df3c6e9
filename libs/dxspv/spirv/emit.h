// The SPIR-V emitter: a structured VSIR program in, SPIR-V words out, for
// compute, vertex, pixel, geometry, hull and domain shaders.
//
// Descriptors go through EmitOptions::bindings (bindings.h): each
// declaration's (type, space, first register, stage) resolves to a
// (set, binding), or for constant buffers mapped to push constants to an
// offset in the one push-constant block. In strict mode an unmatched
// descriptor is error E2012. The default mapping (no entry matched): set =
// register space, binding = per-type base + first register of the range
// (b# 0, t# 1000, u# 2000, s# 3000, UAV counters 4000). A register range
// (SM5.1) is one descriptor array at the binding of its first register; an
// unbounded range a runtime array. A UAV counter the map has no entry for,
// of a UAV the map placed, is bound implicitly: in the UAV's set, after
// every binding of the module (bindings.h, CounterBindingAllocator).
#pragma once

#include <cstdint>
#include <vector>

#include "common/diagnostics.h"
#include "spirv/bindings.h"
#include "spirv/target_env.h"

namespace dxspv::vsir {
struct Program;
}

namespace dxspv::spirv {

/// Specialization constants the emitted modules may declare (OpSpecConstant
/// with this SpecId); the public names are DXSPV_SPEC_CONSTANT_* in dxspv.h.
/// - rasterizer sample count (uint, default 1): what sampleinfo / samplepos
///   on the rasterizer read (HLSL GetRenderTargetSampleCount /
///   GetRenderTargetSamplePosition); set it to the pipeline's
///   rasterizationSamples.
inline constexpr uint32_t spec_id_rasterizer_sample_count = 0;

/// Bit n set: emitting `program` declares the specialization constant with
/// SpecId n. One walk over the instructions.
uint32_t specialization_constants_used(const vsir::Program& program);

struct EmitOptions {
    TargetEnv target_env = TargetEnv::vulkan1_1;
    BindingMap bindings; ///< explicit bindings; default mapping otherwise (bindings.h)
};

/// Programs larger than this (in SPIR-V blocks, estimated from their
/// structured control-flow instructions) are refused with E2014.
inline constexpr size_t max_emit_blocks = size_t(1) << 20;

/// Translates `program` (structured control flow) into a SPIR-V module with
/// one entry point, "main". Returns false, with numbered diagnostics, for
/// anything the emitter does not support; `words` is then left empty.
bool emit_spirv(const vsir::Program& program, const EmitOptions& options, std::vector<uint32_t>& words,
    Diagnostics& diags);

} // namespace dxspv::spirv

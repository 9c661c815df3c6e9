// The SPIR-V emitter: a structured VSIR program in, SPIR-V words out.
//
// Default descriptor mapping (until the API passes an explicit binding map):
// descriptor set = register space; binding = register number (the first
// register of a range) plus a per-type base so that the D3D register
// namespaces never collide:
//   constant buffers (b#) 0, shader resources (t#) 1000, UAVs (u#) 2000,
//   samplers (s#) 3000.
// A register range (SM5.1) is one descriptor array at the binding of its
// first register.
#pragma once

#include <cstdint>
#include <vector>

#include "common/diagnostics.h"
#include "spirv/bindings.h"
#include "spirv/tools.h"

namespace dxspv::vsir {
struct Program;
}

namespace dxspv::spirv {

inline constexpr uint32_t binding_base_cbv = 0;
inline constexpr uint32_t binding_base_srv = 1000;
inline constexpr uint32_t binding_base_uav = 2000;
inline constexpr uint32_t binding_base_sampler = 3000;

struct EmitOptions {
    TargetEnv target_env = TargetEnv::vulkan1_1;
    BindingMap bindings; ///< explicit bindings; default mapping otherwise (bindings.h)
};

/// Translates `program` (structured control flow) into a SPIR-V module with
/// one entry point, "main". Returns false, with numbered diagnostics, for
/// anything the emitter does not support; `words` is then left empty.
bool emit_spirv(const vsir::Program& program, const EmitOptions& options, std::vector<uint32_t>& words,
    Diagnostics& diags);

} // namespace dxspv::spirv

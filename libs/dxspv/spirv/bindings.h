// The binding map: D3D registers (type, space, register, visibility) →
// Vulkan (set, binding) or a push-constant offset. The public form is
// dxspv_interface_info in dxspv.h; this is the emitter's view of it.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/scratch.h"
#include "common/shader_types.h"

namespace dxspv::spirv {

/// Numbered as D3D12_DESCRIPTOR_RANGE_TYPE (and dxspv_descriptor_type).
enum class DescriptorType : uint8_t { srv = 0, uav = 1, cbv = 2, sampler = 3 };

/// Default mapping bases: binding = base + register number, set = space.
inline constexpr uint32_t default_binding_base[4] = {1000, 2000, 0, 3000}; // srv, uav, cbv, sampler
inline constexpr uint32_t default_counter_binding_base = 4000;
inline constexpr uint32_t visibility_all = 0;
/// Push-constant bytes a constant buffer of unknown size mapped to push
/// constants may extend to (the maxPushConstantsSize of desktop drivers).
inline constexpr uint32_t push_constant_block_bytes = 256;

struct DescriptorBinding {
    DescriptorType type = DescriptorType::srv;
    uint32_t space = 0;
    uint32_t register_index = 0;
    uint32_t register_count = 1; ///< ~0u: to the end of the space
    uint32_t visibility = visibility_all; ///< D3D12_SHADER_VISIBILITY
    uint32_t set = 0;
    uint32_t binding = 0;
    bool push_constant = false;
    uint32_t push_constant_offset = 0;
};

struct CounterBinding {
    uint32_t space = 0;
    uint32_t register_index = 0;
    uint32_t visibility = visibility_all;
    uint32_t set = 0;
    uint32_t binding = 0;
};

/// Where one descriptor goes.
struct ResolvedBinding {
    bool found = false; ///< false only in strict mode when no entry matched
    bool from_map = false; ///< an entry matched (else: the default mapping)
    bool push_constant = false;
    uint32_t set = 0;
    uint32_t binding = 0;
    uint32_t push_constant_offset = 0;
};

struct BindingMap {
    std::span<const DescriptorBinding> bindings;
    std::span<const CounterBinding> counters;
    bool strict = false; ///< no default mapping: unmatched descriptors are an error

    /// The binding of the declaration whose first register is `register_index`.
    ResolvedBinding resolve(DescriptorType type, uint32_t space, uint32_t register_index, ShaderStage stage) const;
    /// The binding of the counter of the UAV at (space, register_index)
    /// whose own binding is `uav`: the map's counter entry; else, when the
    /// default mapping placed the UAV, the default counter binding (register
    /// + 4000, same set); else `found` is false: the counter gets an implicit
    /// binding from a CounterBindingAllocator.
    ResolvedBinding resolve_counter(uint32_t space, uint32_t register_index, ShaderStage stage,
                                    const ResolvedBinding& uav) const;
};

/// Implicit UAV counter bindings (like DXC's for counters without
/// [[vk::counter_binding]]): in the set of their UAV, after the highest
/// binding any descriptor or counter of the module uses in that set, one
/// binding per counter (an array of counters is one binding). Reserve every
/// binding first, then allocate in declaration order.
class CounterBindingAllocator {
public:
    void reserve(uint32_t set, uint32_t binding);
    uint32_t allocate(uint32_t set);

private:
    struct SetNext {
        uint32_t set, next;
    };
    SetNext& entry(uint32_t set);
    ScratchVector<SetNext> sets_; ///< few sets: a linear search
};

/// D3D12_SHADER_VISIBILITY of a stage (0, "all", for compute and others).
uint32_t visibility_of(ShaderStage stage);

} // namespace dxspv::spirv

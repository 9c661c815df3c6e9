#include "spirv/bindings.h"

#include "dxspv/dxspv.h"

namespace dxspv::spirv {

/// The default mapping's set: the register space, but for the descriptor
/// heaps' spaces (include/dxspv/dxspv.h).
static uint32_t default_set(uint32_t space)
{
    if (space >= DXSPV_RESOURCE_HEAP_SPACE && space <= DXSPV_SAMPLER_HEAP_SPACE)
        return DXSPV_HEAP_DEFAULT_SET + (space - DXSPV_RESOURCE_HEAP_SPACE);
    return space;
}

uint32_t visibility_of(ShaderStage stage)
{
    switch (stage) {
    case ShaderStage::vertex: return 1;
    case ShaderStage::hull: return 2;
    case ShaderStage::domain: return 3;
    case ShaderStage::geometry: return 4;
    case ShaderStage::pixel: return 5;
    case ShaderStage::amplification: return 6;
    case ShaderStage::mesh: return 7;
    default: return visibility_all;
    }
}

static bool visible(uint32_t entry_visibility, ShaderStage stage)
{
    return entry_visibility == visibility_all || entry_visibility == visibility_of(stage);
}

ResolvedBinding BindingMap::resolve(DescriptorType type, uint32_t space, uint32_t register_index,
                                    ShaderStage stage) const
{
    ResolvedBinding r;
    for (const DescriptorBinding& b : bindings) {
        if (b.type != type || b.space != space || register_index < b.register_index || !visible(b.visibility, stage))
            continue;
        uint32_t offset = register_index - b.register_index;
        if (b.register_count != ~0u && offset >= b.register_count)
            continue;
        r.found = r.from_map = true;
        r.set = b.set;
        r.binding = b.binding + offset;
        r.push_constant = b.push_constant && type == DescriptorType::cbv;
        r.push_constant_offset = b.push_constant_offset;
        return r;
    }
    if (strict)
        return r;
    r.found = true;
    r.set = default_set(space);
    r.binding = default_binding_base[uint32_t(type)] + register_index;
    return r;
}

ResolvedBinding BindingMap::resolve_counter(uint32_t space, uint32_t register_index, ShaderStage stage,
                                            const ResolvedBinding& uav) const
{
    ResolvedBinding r;
    for (const CounterBinding& c : counters) {
        if (c.space != space || c.register_index != register_index || !visible(c.visibility, stage))
            continue;
        r.found = r.from_map = true;
        r.set = c.set;
        r.binding = c.binding;
        return r;
    }
    if (!uav.found || uav.from_map)
        return r;
    r.found = true;
    r.set = default_set(space);
    r.binding = default_counter_binding_base + register_index;
    return r;
}

CounterBindingAllocator::SetNext& CounterBindingAllocator::entry(uint32_t set)
{
    for (SetNext& s : sets_)
        if (s.set == set)
            return s;
    return sets_.emplace_back(SetNext{set, 0});
}

void CounterBindingAllocator::reserve(uint32_t set, uint32_t binding)
{
    SetNext& s = entry(set);
    if (binding != ~0u && binding >= s.next)
        s.next = binding + 1;
}

uint32_t CounterBindingAllocator::allocate(uint32_t set)
{
    SetNext& s = entry(set);
    return s.next++;
}

} // namespace dxspv::spirv

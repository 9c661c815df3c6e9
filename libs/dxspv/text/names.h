// Name tables of the d3d-asm syntax shared by the disassembler and the
// assembler: resource dimensions, return types, interpolation modes, system
// value names, primitive and tessellator enums, global and UAV flags.
// Private to text/.
#pragma once

#include <cstdint>
#include <string_view>

#include "vsir/ir.h"

namespace dxspv::text {

/// A (value, name) table; lookups are linear (tables are tiny).
struct NameEntry {
    uint32_t value;
    const char* name;
};

struct NameTable {
    const NameEntry* entries;
    size_t count;

    const char* name_of(uint32_t value) const;
    bool value_of(std::string_view name, uint32_t& out) const;
};

extern const NameTable resource_dimension_names; ///< texture2d, buffer, raw_buffer ...
extern const NameTable return_type_names;        ///< DataType values: float, sint, uint, unorm ...
extern const NameTable interpolation_names;      ///< linear, linear centroid ...
extern const NameTable system_value_names;       ///< raw TPF names 1..25: position, vertex_id ...
extern const NameTable global_flag_names;        ///< bits of dcl_globalFlags
extern const NameTable sampler_mode_names;       ///< mode_default ...
extern const NameTable primitive_names;          ///< dcl_inputprimitive (patchN handled apart)
extern const NameTable topology_names;           ///< dcl_outputtopology
extern const NameTable domain_names;             ///< dcl_tessellator_domain
extern const NameTable partitioning_names;       ///< dcl_tessellator_partitioning
extern const NameTable output_primitive_names;   ///< dcl_tessellator_output_primitive
extern const NameTable min_precision_names;      ///< min16f, min2_8f, min16i, min16u

/// D3D system value of a raw TPF name (11-14 fold to the quad edge factor etc.).
bool system_value_of_name(uint32_t name, SystemValue& out);

} // namespace dxspv::text

// DXIL metadata of a module read into plain structs: versions, shader
// model, entry points with their signatures and properties, resources.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "common/scratch.h"
#include "dxil/module/module.h"

namespace dxspv::dxil {

struct SignatureElement {
    uint32_t id = 0;
    std::string name;
    uint8_t component_type = 0; ///< DXIL ComponentType enum
    uint8_t semantic_kind = 0;  ///< DXIL SemanticKind enum
    ScratchVector<uint32_t> semantic_indices;
    uint8_t interpolation = 0;
    uint32_t rows = 0;
    uint8_t cols = 0;
    int32_t start_row = -1; ///< -1 when not packed
    int8_t start_col = -1;
    uint32_t output_stream = 0;  ///< extended tag 0
    uint32_t usage_mask = 0;     ///< extended tag 3
    uint32_t dynamic_index_mask = 0; ///< extended tag 4
};

/// The lists of DxilMetadata take their memory from the scratch arena
/// (common/scratch.h) when one is open, as it is while a module is read and
/// lowered: no heap allocation per list (only a name longer than
/// std::string keeps inline still takes one).
using SignatureList = ScratchVector<SignatureElement>;

enum class ResourceClass : uint8_t { srv, uav, cbv, sampler };

struct ResourceBinding {
    ResourceClass resource_class = ResourceClass::srv;
    uint32_t id = 0;
    std::string name;
    TypeId symbol_type = no_id; ///< type of the global symbol (a pointer), no_id if absent
    uint32_t space = 0;
    uint32_t lower_bound = 0;
    uint32_t range_size = 0;      ///< 0xFFFFFFFF: unbounded
    uint32_t kind = 0;            ///< SRV/UAV: ResourceKind shape; sampler: sampler kind
    uint32_t sample_count = 0;    ///< SRV
    bool globally_coherent = false; ///< UAV
    bool has_counter = false;     ///< UAV
    bool rasterizer_ordered = false; ///< UAV
    uint32_t cbuffer_size = 0;    ///< CBV, in bytes
    uint32_t element_type = 0;    ///< typed buffers and textures: ComponentType (tag 0)
    uint32_t stride = 0;          ///< structured buffers: element stride (tag 1)
    bool atomic64 = false;        ///< typed UAVs: used by 64-bit atomics (tag 3)
};

struct EntryPoint {
    std::string name;
    ValueId function = no_id; ///< module value id, no_id if null
    SignatureList inputs, outputs, patch_constants;
    ScratchVector<ResourceBinding> resources; ///< the entry's resource list
    uint64_t shader_flags = 0;
    uint32_t num_threads[3] = {0, 0, 0};
    // GS
    uint32_t gs_input_primitive = 0, gs_max_vertex_count = 0, gs_stream_mask = 0, gs_output_topology = 0,
             gs_instance_count = 0;
    // DS / HS
    uint32_t tess_domain = 0, input_control_points = 0, output_control_points = 0, tess_partitioning = 0,
             tess_output_primitive = 0;
    ValueId patch_constant_function = no_id;
    uint64_t max_tess_factor_bits = 0; ///< float bits
    // MS / AS
    uint32_t ms_max_vertices = 0, ms_max_primitives = 0, ms_topology = 0, payload_size = 0;
    // Wave size: min (and max, preferred from SM 6.8's range form), 0 if unset.
    uint32_t wave_size_min = 0, wave_size_max = 0, wave_size_preferred = 0;
    ScratchVector<uint32_t> unknown_tags;
};

struct DxilMetadata {
    uint32_t dxil_major = 0, dxil_minor = 0;
    uint32_t validator_major = 0, validator_minor = 0;
    std::string shader_kind; ///< "ps", "vs", "cs", "lib", ...
    uint32_t sm_major = 0, sm_minor = 0;
    ScratchVector<EntryPoint> entry_points;
    ScratchVector<ResourceBinding> resources; ///< dx.resources
};

/// Reads the dx.* named metadata of `module`. Malformed metadata gives
/// dxil_bad_metadata (8016).
bool read_dxil_metadata(const Module& module, DxilMetadata& out, Diagnostics& diags);

} // namespace dxspv::dxil

// RTS0: D3D12 root signatures, versions 1.0, 1.1 and 1.2, parsed into the
// public dxspv_root_signature_desc and serialised back. The serialised
// layout is the one D3D12's serialiser writes: header, parameter headers,
// each parameter's data in order (a table's ranges right after its own
// header), then the static samplers.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "container/container.h"
#include "dxspv/dxspv.h"

namespace dxspv::container {

/// Owns what `desc` points to. Move-only: moving keeps the pointers valid.
class RootSignature {
public:
    RootSignature() = default;
    RootSignature(const RootSignature&) = delete;
    RootSignature& operator=(const RootSignature&) = delete;
    RootSignature(RootSignature&&) = default;
    RootSignature& operator=(RootSignature&&) = default;

    dxspv_root_signature_desc desc{};
    std::vector<dxspv_root_parameter> parameters;
    std::vector<dxspv_descriptor_range> ranges;  ///< every table's ranges, table by table
    std::vector<dxspv_static_sampler> static_samplers;
};

/// Parses RTS0 chunk data; `base` is the data's offset in the container
/// (for messages).
bool parse_root_signature(std::span<const uint8_t> data, uint32_t base, RootSignature& out, Diagnostics& diags);
inline bool parse_root_signature(const Chunk& chunk, RootSignature& out, Diagnostics& diags)
{
    return parse_root_signature(chunk.data, chunk.offset, out, diags);
}

/// Checks version, enum values and pointers of a description.
bool validate_root_signature(const dxspv_root_signature_desc& desc, Diagnostics& diags);

/// Builds RTS0 chunk data from a valid description. Fields the version does
/// not store (range and descriptor flags in 1.0, sampler flags before 1.2)
/// are dropped.
bool serialize_root_signature(const dxspv_root_signature_desc& desc, std::vector<uint8_t>& out, Diagnostics& diags);

/// Names for printing; "?" for unknown values.
const char* root_signature_version_name(uint32_t version);
const char* root_parameter_type_name(uint32_t type);
const char* descriptor_range_type_name(uint32_t type);
const char* shader_visibility_name(uint32_t visibility);

} // namespace dxspv::container

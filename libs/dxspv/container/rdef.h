// RDEF: resource definitions (reflection) of SM4/5 containers: constant
// buffers with their variables and types, and resource bindings. SM5 adds
// the RD11 header; SM5.1 adds register space and range id to bindings.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"
#include "container/container.h"

namespace dxspv::container {

inline constexpr uint32_t rdef_no_index = ~0u;

/// A variable type (D3D11_SHADER_TYPE_DESC); members index Rdef::members.
struct RdefType {
    uint32_t offset = 0;        ///< in the chunk; equal offsets share one RdefType
    uint16_t type_class = 0;    ///< D3D_SHADER_VARIABLE_CLASS
    uint16_t base_type = 0;     ///< D3D_SHADER_VARIABLE_TYPE
    uint16_t rows = 0;
    uint16_t columns = 0;
    uint16_t elements = 0;
    std::string_view name;      ///< SM5 only
    uint32_t first_member = 0;
    uint32_t member_count = 0;
    uint32_t height = 0;        ///< 1 + the depth of the deepest member type
};

struct RdefMember {
    std::string_view name;
    uint32_t offset = 0;        ///< byte offset in the parent
    uint32_t type = rdef_no_index;  ///< index in Rdef::types
};

struct RdefVariable {
    std::string_view name;
    uint32_t offset = 0;
    uint32_t size = 0;
    uint32_t flags = 0;         ///< D3D_SHADER_VARIABLE_FLAGS
    uint32_t type = rdef_no_index;  ///< index in Rdef::types
    std::span<const uint8_t> default_value;  ///< empty when none
    uint32_t start_texture = rdef_no_index;  ///< SM5 only
    uint32_t texture_size = 0;
    uint32_t start_sampler = rdef_no_index;
    uint32_t sampler_size = 0;
};

struct RdefConstantBuffer {
    std::string_view name;
    std::vector<RdefVariable> variables;
    uint32_t size = 0;
    uint32_t flags = 0;         ///< D3D_SHADER_CBUFFER_FLAGS
    uint32_t type = 0;          ///< D3D_CBUFFER_TYPE
};

struct RdefBinding {
    std::string_view name;
    uint32_t type = 0;          ///< D3D_SHADER_INPUT_TYPE
    uint32_t return_type = 0;   ///< D3D_RESOURCE_RETURN_TYPE
    uint32_t dimension = 0;     ///< D3D_SRV_DIMENSION
    uint32_t sample_count = 0;
    uint32_t bind_point = 0;
    uint32_t bind_count = 0;
    uint32_t flags = 0;         ///< D3D_SHADER_INPUT_FLAGS
    uint32_t space = 0;         ///< SM5.1
    uint32_t id = 0;            ///< SM5.1 range id
};

struct Rdef {
    uint8_t major = 0;
    uint8_t minor = 0;
    uint16_t program_type = 0;  ///< 0xffff ps, 0xfffe vs, 'GS', 'HS', 'DS', 'CS'
    uint32_t compile_flags = 0;
    std::string_view creator;
    bool has_rd11 = false;
    bool has_spaces = false;    ///< bindings carry space and id (SM5.1)
    std::vector<RdefConstantBuffer> constant_buffers;
    std::vector<RdefBinding> bindings;
    std::vector<RdefType> types;
    std::vector<RdefMember> members;
};

/// Deepest type nesting accepted.
inline constexpr uint32_t rdef_max_type_depth = 32;

bool parse_rdef(const Chunk& chunk, Rdef& out, Diagnostics& diags);

/// Short names for printing; "?" for unknown values.
const char* rdef_input_type_name(uint32_t type);
const char* rdef_return_type_name(uint32_t type);
const char* rdef_dimension_name(uint32_t dimension);
const char* rdef_cbuffer_type_name(uint32_t type);

} // namespace dxspv::container

// A root signature using every parameter kind, for the RTS0 tests.
#pragma once

#include <vector>

#include "dxspv/dxspv.h"

namespace dxspv::container::test {

struct SampleRootSignature {
    std::vector<dxspv_descriptor_range> ranges;
    std::vector<dxspv_root_parameter> parameters;
    std::vector<dxspv_static_sampler> samplers;
    dxspv_root_signature_desc desc{};

    explicit SampleRootSignature(dxspv_root_signature_version version)
    {
        bool v10 = version == DXSPV_ROOT_SIGNATURE_VERSION_1_0;
        ranges = {
            {DXSPV_DESCRIPTOR_RANGE_TYPE_SRV, 4, 1, 0, v10 ? 0u : 0x8u, 0xffffffff},
            {DXSPV_DESCRIPTOR_RANGE_TYPE_UAV, 0xffffffff, 0, 3, v10 ? 0u : 0x1u, 4},
            {DXSPV_DESCRIPTOR_RANGE_TYPE_SAMPLER, 2, 5, 1, 0, 0},
        };
        parameters.resize(6);
        parameters[0].parameter_type = DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        parameters[0].u.descriptor_table = {2, ranges.data()};
        parameters[0].shader_visibility = 0;
        parameters[1].parameter_type = DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
        parameters[1].u.constants = {2, 1, 16};
        parameters[1].shader_visibility = 5;
        parameters[2].parameter_type = DXSPV_ROOT_PARAMETER_TYPE_CBV;
        parameters[2].u.descriptor = {0, 0, v10 ? 0u : 0x4u};
        parameters[3].parameter_type = DXSPV_ROOT_PARAMETER_TYPE_SRV;
        parameters[3].u.descriptor = {7, 2, 0};
        parameters[3].shader_visibility = 1;
        parameters[4].parameter_type = DXSPV_ROOT_PARAMETER_TYPE_UAV;
        parameters[4].u.descriptor = {1, 9, v10 ? 0u : 0x2u};
        parameters[4].shader_visibility = 7;
        parameters[5].parameter_type = DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        parameters[5].u.descriptor_table = {1, ranges.data() + 2};
        parameters[5].shader_visibility = 5;
        dxspv_static_sampler s{};
        s.filter = 0x15;
        s.address_u = 1;
        s.address_v = 3;
        s.address_w = 4;
        s.mip_lod_bias = -0.5f;
        s.max_anisotropy = 16;
        s.comparison_func = 4;
        s.border_color = 2;
        s.min_lod = 0.0f;
        s.max_lod = 1000.0f;
        s.shader_register = 3;
        s.register_space = 1;
        s.shader_visibility = 5;
        s.flags = version == DXSPV_ROOT_SIGNATURE_VERSION_1_2 ? 0x1u : 0u;
        samplers = {s, s};
        samplers[1].shader_register = 4;
        desc.version = version;
        desc.parameter_count = unsigned(parameters.size());
        desc.parameters = parameters.data();
        desc.static_sampler_count = unsigned(samplers.size());
        desc.static_samplers = samplers.data();
        desc.flags = 0x1;
    }
    SampleRootSignature(const SampleRootSignature&) = delete;
};

inline bool same_range(const dxspv_descriptor_range& a, const dxspv_descriptor_range& b)
{
    return a.range_type == b.range_type && a.descriptor_count == b.descriptor_count &&
           a.base_register == b.base_register && a.register_space == b.register_space && a.flags == b.flags &&
           a.descriptor_table_offset == b.descriptor_table_offset;
}

inline bool same_parameter(const dxspv_root_parameter& a, const dxspv_root_parameter& b)
{
    if (a.parameter_type != b.parameter_type || a.shader_visibility != b.shader_visibility)
        return false;
    switch (a.parameter_type) {
    case DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
        if (a.u.descriptor_table.range_count != b.u.descriptor_table.range_count)
            return false;
        for (unsigned i = 0; i < a.u.descriptor_table.range_count; ++i)
            if (!same_range(a.u.descriptor_table.ranges[i], b.u.descriptor_table.ranges[i]))
                return false;
        return true;
    case DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
        return a.u.constants.shader_register == b.u.constants.shader_register &&
               a.u.constants.register_space == b.u.constants.register_space &&
               a.u.constants.value_count == b.u.constants.value_count;
    default:
        return a.u.descriptor.shader_register == b.u.descriptor.shader_register &&
               a.u.descriptor.register_space == b.u.descriptor.register_space &&
               a.u.descriptor.flags == b.u.descriptor.flags;
    }
}

inline bool same_sampler(const dxspv_static_sampler& a, const dxspv_static_sampler& b)
{
    return a.filter == b.filter && a.address_u == b.address_u && a.address_v == b.address_v &&
           a.address_w == b.address_w && a.mip_lod_bias == b.mip_lod_bias && a.max_anisotropy == b.max_anisotropy &&
           a.comparison_func == b.comparison_func && a.border_color == b.border_color && a.min_lod == b.min_lod &&
           a.max_lod == b.max_lod && a.shader_register == b.shader_register &&
           a.register_space == b.register_space && a.shader_visibility == b.shader_visibility && a.flags == b.flags;
}

inline bool same_desc(const dxspv_root_signature_desc& a, const dxspv_root_signature_desc& b)
{
    if (a.version != b.version || a.parameter_count != b.parameter_count ||
        a.static_sampler_count != b.static_sampler_count || a.flags != b.flags)
        return false;
    for (unsigned i = 0; i < a.parameter_count; ++i)
        if (!same_parameter(a.parameters[i], b.parameters[i]))
            return false;
    for (unsigned i = 0; i < a.static_sampler_count; ++i)
        if (!same_sampler(a.static_samplers[i], b.static_samplers[i]))
            return false;
    return true;
}

} // namespace dxspv::container::test

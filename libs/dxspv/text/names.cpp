#include "text/names.h"

namespace dxspv::text {

namespace {

using vsir::DataType;

constexpr NameEntry dimensions[] = {
    {0, "unknown"},       {1, "buffer"},          {2, "texture1d"},         {3, "texture2d"},
    {4, "texture2dms"},   {5, "texture3d"},       {6, "texturecube"},       {7, "texture1darray"},
    {8, "texture2darray"}, {9, "texture2dmsarray"}, {10, "texturecubearray"}, {11, "raw_buffer"},
    {12, "structured_buffer"},
};

constexpr NameEntry return_types[] = {
    {uint32_t(DataType::f32), "float"},    {uint32_t(DataType::i32), "sint"},
    {uint32_t(DataType::u32), "uint"},     {uint32_t(DataType::unorm), "unorm"},
    {uint32_t(DataType::snorm), "snorm"},  {uint32_t(DataType::mixed), "mixed"},
    {uint32_t(DataType::f64), "double"},   {uint32_t(DataType::continued), "continued"},
    {uint32_t(DataType::none), "unused"},
};

constexpr NameEntry interpolations[] = {
    {1, "constant"},
    {2, "linear"},
    {3, "linear centroid"},
    {4, "linear noperspective"},
    {5, "linear noperspective centroid"},
    {6, "linear sample"},
    {7, "linear noperspective sample"},
};

constexpr NameEntry system_values[] = {
    {0, "undefined"},
    {1, "position"},
    {2, "clip_distance"},
    {3, "cull_distance"},
    {4, "rendertarget_array_index"},
    {5, "viewport_array_index"},
    {6, "vertex_id"},
    {7, "primitive_id"},
    {8, "instance_id"},
    {9, "is_front_face"},
    {10, "sampleIndex"},
    {11, "finalQuadUeq0EdgeTessFactor"},
    {12, "finalQuadVeq0EdgeTessFactor"},
    {13, "finalQuadUeq1EdgeTessFactor"},
    {14, "finalQuadVeq1EdgeTessFactor"},
    {15, "finalQuadUInsideTessFactor"},
    {16, "finalQuadVInsideTessFactor"},
    {17, "finalTriUeq0EdgeTessFactor"},
    {18, "finalTriVeq0EdgeTessFactor"},
    {19, "finalTriWeq0EdgeTessFactor"},
    {20, "finalTriInsideTessFactor"},
    {21, "finalLineDetailTessFactor"},
    {22, "finalLineDensityTessFactor"},
    {23, "barycentrics"},
    {24, "shading_rate"},
    {25, "cull_primitive"},
};

constexpr NameEntry global_flags[] = {
    {1u << 0, "refactoringAllowed"},
    {1u << 1, "enableDoublePrecisionFloatOps"},
    {1u << 2, "forceEarlyDepthStencil"},
    {1u << 3, "enableRawAndStructuredBuffers"},
    {1u << 4, "skipOptimization"},
    {1u << 5, "enableMinimumPrecision"},
    {1u << 6, "enable11_1DoubleExtensions"},
    {1u << 7, "enable11_1ShaderExtensions"},
};

constexpr NameEntry sampler_modes[] = {{0, "mode_default"}, {1, "mode_comparison"}, {2, "mode_mono"}};

constexpr NameEntry primitives[] = {
    {0, "undefined"}, {1, "point"}, {2, "line"}, {3, "triangle"}, {6, "lineadj"}, {7, "triangleadj"},
};

constexpr NameEntry topologies[] = {
    {0, "undefined"}, {1, "pointlist"}, {2, "linelist"}, {3, "linestrip"}, {4, "trianglelist"}, {5, "trianglestrip"},
};

constexpr NameEntry domains[] = {{0, "domain_undefined"}, {1, "domain_isoline"}, {2, "domain_tri"}, {3, "domain_quad"}};

constexpr NameEntry partitionings[] = {
    {0, "partitioning_undefined"},      {1, "partitioning_integer"},        {2, "partitioning_pow2"},
    {3, "partitioning_fractional_odd"}, {4, "partitioning_fractional_even"},
};

constexpr NameEntry output_primitives[] = {
    {0, "output_undefined"},    {1, "output_point"}, {2, "output_line"},
    {3, "output_triangle_cw"}, {4, "output_triangle_ccw"},
};

constexpr NameEntry min_precisions[] = {
    {uint32_t(MinPrecision::float16), "min16f"},
    {uint32_t(MinPrecision::float2_8), "min2_8f"},
    {uint32_t(MinPrecision::sint16), "min16i"},
    {uint32_t(MinPrecision::uint16), "min16u"},
};

template <size_t N>
constexpr NameTable table(const NameEntry (&entries)[N])
{
    return {entries, N};
}

} // namespace

const char* NameTable::name_of(uint32_t value) const
{
    for (size_t i = 0; i < count; ++i)
        if (entries[i].value == value)
            return entries[i].name;
    return nullptr;
}

bool NameTable::value_of(std::string_view name, uint32_t& out) const
{
    for (size_t i = 0; i < count; ++i)
        if (name == entries[i].name) {
            out = entries[i].value;
            return true;
        }
    return false;
}

const NameTable resource_dimension_names = table(dimensions);
const NameTable return_type_names = table(return_types);
const NameTable interpolation_names = table(interpolations);
const NameTable system_value_names = table(system_values);
const NameTable global_flag_names = table(global_flags);
const NameTable sampler_mode_names = table(sampler_modes);
const NameTable primitive_names = table(primitives);
const NameTable topology_names = table(topologies);
const NameTable domain_names = table(domains);
const NameTable partitioning_names = table(partitionings);
const NameTable output_primitive_names = table(output_primitives);
const NameTable min_precision_names = table(min_precisions);

bool system_value_of_name(uint32_t name, SystemValue& out)
{
    if (name <= 10) {
        out = SystemValue(name);
        return true;
    }
    switch (name) {
    case 11: case 12: case 13: case 14: out = SystemValue::final_quad_edge_tessfactor; return true;
    case 15: case 16: out = SystemValue::final_quad_inside_tessfactor; return true;
    case 17: case 18: case 19: out = SystemValue::final_tri_edge_tessfactor; return true;
    case 20: out = SystemValue::final_tri_inside_tessfactor; return true;
    case 21: out = SystemValue::final_line_detail_tessfactor; return true;
    case 22: out = SystemValue::final_line_density_tessfactor; return true;
    case 23: out = SystemValue::barycentrics; return true;
    case 24: out = SystemValue::shading_rate; return true;
    case 25: out = SystemValue::cull_primitive; return true;
    default: return false;
    }
}

} // namespace dxspv::text

// Version, source/target type names and lists, source detection, freeing.
#include <cstdlib>
#include <cstring>

#include "api/translate.h"
#include "dxspv/dxspv.h"

using namespace dxspv;

extern "C" DXSPV_API const char* dxspv_get_version(unsigned int* major, unsigned int* minor)
{
    if (major)
        *major = DXSPV_VERSION_MAJOR;
    if (minor)
        *minor = DXSPV_VERSION_MINOR;
    return DXSPV_VERSION_STRING;
}

extern "C" DXSPV_API void dxspv_free_code(struct dxspv_code* code)
{
    if (!code)
        return;
    std::free(const_cast<void*>(code->code));
    code->code = nullptr;
    code->size = 0;
}

extern "C" DXSPV_API void dxspv_free_messages(char* messages)
{
    std::free(messages);
}

extern "C" DXSPV_API const char* dxspv_source_type_name(enum dxspv_source_type type)
{
    switch (type) {
    case DXSPV_SOURCE_TYPE_DXBC_TPF: return "dxbc-tpf";
    case DXSPV_SOURCE_TYPE_DXBC_DXIL: return "dxbc-dxil";
    case DXSPV_SOURCE_TYPE_D3D_ASM: return "d3d-asm";
    case DXSPV_SOURCE_TYPE_DXIL_LL: return "dxil-ll";
    default: return nullptr;
    }
}

extern "C" DXSPV_API const char* dxspv_target_type_name(enum dxspv_target_type type)
{
    switch (type) {
    case DXSPV_TARGET_TYPE_SPIRV_BINARY: return "spirv-binary";
    case DXSPV_TARGET_TYPE_SPIRV_TEXT: return "spirv-text";
    case DXSPV_TARGET_TYPE_D3D_ASM: return "d3d-asm";
    case DXSPV_TARGET_TYPE_DXIL_LL: return "dxil-ll";
    case DXSPV_TARGET_TYPE_DXBC_TPF: return "dxbc-tpf";
    case DXSPV_TARGET_TYPE_DXBC_DXIL: return "dxbc-dxil";
    case DXSPV_TARGET_TYPE_VSIR_TEXT: return "vsir-text";
    case DXSPV_TARGET_TYPE_CFG_DOT: return "cfg-dot";
    default: return nullptr;
    }
}

extern "C" DXSPV_API const enum dxspv_source_type* dxspv_get_supported_source_types(unsigned int* count)
{
    std::span<const dxspv_source_type> types = api::supported_source_types();
    if (count)
        *count = unsigned(types.size());
    return types.data();
}

extern "C" DXSPV_API const enum dxspv_target_type* dxspv_get_supported_target_types(
    enum dxspv_source_type source_type, unsigned int* count)
{
    std::span<const dxspv_target_type> types = api::supported_target_types(source_type);
    if (count)
        *count = unsigned(types.size());
    return types.empty() ? nullptr : types.data();
}

extern "C" DXSPV_API enum dxspv_source_type dxspv_detect_source_type(const struct dxspv_code* code)
{
    if (!code || (!code->code && code->size))
        return DXSPV_SOURCE_TYPE_NONE;
    return api::detect_source_type({static_cast<const uint8_t*>(code->code), code->size});
}

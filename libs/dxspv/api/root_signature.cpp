// C API: root signatures (RTS0) parsed from and serialised to DXBC.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "api/c_strings.h"
#include "common/diagnostics.h"
#include "container/container.h"
#include "container/root_signature.h"
#include "dxspv/dxspv.h"

using namespace dxspv;

namespace {

/// Frees an output this file allocated (dxspv_free_code() is free() too).
void release_code(dxspv_code* code)
{
    if (!code)
        return;
    std::free(const_cast<void*>(code->code));
    *code = dxspv_code{nullptr, 0};
}

template <typename T> bool copy_array(const T* src, size_t count, T*& dst)
{
    dst = nullptr;
    if (!count)
        return true;
    dst = static_cast<T*>(std::malloc(count * sizeof(T)));
    if (!dst)
        return false;
    std::memcpy(dst, src, count * sizeof(T));
    return true;
}

/// Deep-copies `src` into malloc'd arrays that dxspv_free_root_signature() frees.
bool export_desc(const dxspv_root_signature_desc& src, dxspv_root_signature_desc& dst)
{
    dst = src;
    dst.parameters = nullptr;
    dst.static_samplers = nullptr;
    dxspv_static_sampler* samplers = nullptr;
    if (!copy_array(src.static_samplers, src.static_sampler_count, samplers))
        return false;
    dst.static_samplers = samplers;
    dxspv_root_parameter* parameters = nullptr;
    if (!copy_array(src.parameters, src.parameter_count, parameters))
        return false;
    // Tables point back at src's ranges until replaced by copies.
    for (unsigned i = 0; i < src.parameter_count; ++i)
        if (parameters[i].parameter_type == DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            parameters[i].u.descriptor_table.ranges = nullptr;
    dst.parameters = parameters;
    for (unsigned i = 0; i < src.parameter_count; ++i) {
        if (parameters[i].parameter_type != DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            continue;
        const dxspv_root_descriptor_table& table = src.parameters[i].u.descriptor_table;
        dxspv_descriptor_range* ranges = nullptr;
        if (!copy_array(table.ranges, table.range_count, ranges))
            return false;
        parameters[i].u.descriptor_table.ranges = ranges;
    }
    return true;
}

dxspv_result parse_root_signature(const dxspv_code& code, dxspv_root_signature_desc& desc, Diagnostics& diags)
{
    std::span<const uint8_t> bytes(static_cast<const uint8_t*>(code.code), code.size);
    std::span<const uint8_t> chunk_data = bytes;
    uint32_t base = 0;
    if (container::is_dxbc(bytes)) {
        container::Container c;
        if (!container::parse_container(bytes, c, diags))
            return DXSPV_ERROR_INVALID_SHADER;
        const container::Chunk* chunk = c.find(container::fourcc("RTS0"));
        if (!chunk) {
            diags.error(Code::rts0_missing, Location::none(), "the container holds no RTS0 chunk");
            return DXSPV_ERROR_INVALID_SHADER;
        }
        chunk_data = chunk->data;
        base = chunk->offset;
    }
    container::RootSignature rs;
    if (!container::parse_root_signature(chunk_data, base, rs, diags))
        return DXSPV_ERROR_INVALID_SHADER;
    if (!export_desc(rs.desc, desc)) {
        dxspv_free_root_signature(&desc);
        return DXSPV_ERROR_OUT_OF_MEMORY;
    }
    return DXSPV_OK;
}

dxspv_result serialize_root_signature(const dxspv_root_signature_desc& desc, dxspv_code& out, Diagnostics& diags)
{
    std::vector<uint8_t> chunk;
    std::vector<uint8_t> dxbc;
    if (!container::serialize_root_signature(desc, chunk, diags))
        return DXSPV_ERROR_INVALID_ARGUMENT;
    container::ChunkInput input{container::fourcc("RTS0"), chunk};
    if (!container::serialize_container({&input, 1}, dxbc, diags))
        return DXSPV_ERROR_INVALID_ARGUMENT;
    void* p = std::malloc(dxbc.size());
    if (!p)
        return DXSPV_ERROR_OUT_OF_MEMORY;
    std::memcpy(p, dxbc.data(), dxbc.size());
    out.code = p;
    out.size = dxbc.size();
    return DXSPV_OK;
}

} // namespace

extern "C" DXSPV_API dxspv_result dxspv_parse_root_signature(const dxspv_code* code, dxspv_root_signature_desc* desc,
                                                             char** messages)
{
    if (messages)
        *messages = nullptr;
    if (desc)
        std::memset(desc, 0, sizeof(*desc));
    try {
        Diagnostics diags;
        dxspv_result result;
        if (!code || !desc || (!code->code && code->size)) {
            diags.error(Code::api_invalid_argument, Location::none(),
                        "dxspv_parse_root_signature: null code, code bytes or desc");
            result = DXSPV_ERROR_INVALID_ARGUMENT;
        } else {
            result = parse_root_signature(*code, *desc, diags);
        }
        if (!api::store_messages(diags, messages)) {
            dxspv_free_root_signature(desc);
            return DXSPV_ERROR_OUT_OF_MEMORY;
        }
        return result;
    } catch (const std::bad_alloc&) {
        dxspv_free_root_signature(desc);
        return DXSPV_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        dxspv_free_root_signature(desc);
        return DXSPV_ERROR;
    }
}

extern "C" DXSPV_API dxspv_result dxspv_serialize_root_signature(const dxspv_root_signature_desc* desc,
                                                                 dxspv_code* dxbc, char** messages)
{
    if (messages)
        *messages = nullptr;
    if (dxbc)
        *dxbc = dxspv_code{nullptr, 0};
    try {
        Diagnostics diags;
        dxspv_result result;
        if (!desc || !dxbc) {
            diags.error(Code::api_invalid_argument, Location::none(),
                        "dxspv_serialize_root_signature: null desc or output");
            result = DXSPV_ERROR_INVALID_ARGUMENT;
        } else {
            result = serialize_root_signature(*desc, *dxbc, diags);
        }
        if (!api::store_messages(diags, messages)) {
            release_code(dxbc);
            return DXSPV_ERROR_OUT_OF_MEMORY;
        }
        return result;
    } catch (const std::bad_alloc&) {
        release_code(dxbc);
        return DXSPV_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        release_code(dxbc);
        return DXSPV_ERROR;
    }
}

extern "C" DXSPV_API void dxspv_free_root_signature(dxspv_root_signature_desc* desc)
{
    if (!desc)
        return;
    for (unsigned i = 0; desc->parameters && i < desc->parameter_count; ++i) {
        const dxspv_root_parameter& p = desc->parameters[i];
        if (p.parameter_type == DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE)
            std::free(const_cast<dxspv_descriptor_range*>(p.u.descriptor_table.ranges));
    }
    std::free(const_cast<dxspv_root_parameter*>(desc->parameters));
    std::free(const_cast<dxspv_static_sampler*>(desc->static_samplers));
    std::memset(desc, 0, sizeof(*desc));
}

// dxspv_describe_container(): the summary `shader-translate --info` prints.
#include <new>

#include "api/c_strings.h"
#include "container/describe.h"
#include "dxspv/dxspv.h"

using namespace dxspv;

extern "C" DXSPV_API enum dxspv_result dxspv_describe_container(const struct dxspv_code* dxbc, const char* source_name,
                                                                char** text, char** messages)
{
    if (messages)
        *messages = nullptr;
    if (!text)
        return DXSPV_ERROR_INVALID_ARGUMENT;
    *text = nullptr;
    if (!dxbc || (!dxbc->code && dxbc->size))
        return DXSPV_ERROR_INVALID_ARGUMENT;
    try {
        Diagnostics diags(source_name ? source_name : "");
        std::string s = container::describe_container({static_cast<const uint8_t*>(dxbc->code), dxbc->size}, diags);
        if (!api::store_messages(diags, messages))
            return DXSPV_ERROR_OUT_OF_MEMORY;
        // A malformed chunk in a sound container still gives the text, with
        // that section marked; the errors make the call fail all the same.
        if (!s.empty() && !(*text = api::copy_c_string(s)))
            return DXSPV_ERROR_OUT_OF_MEMORY;
        return diags.has_errors() ? DXSPV_ERROR_INVALID_SHADER : DXSPV_OK;
    } catch (const std::bad_alloc&) {
        return DXSPV_ERROR_OUT_OF_MEMORY;
    }
}

// dxspv_compile(): checks the arguments and the structure chain, then runs
// the pipeline in translate.cpp. Nothing throws past this function.
#include <cstdlib>
#include <cstring>
#include <new>

#include "api/c_strings.h"
#include "api/compile_info.h"
#include "api/translate.h"
#include "dxspv/dxspv.h"

using namespace dxspv;

namespace {

/// The largest SPIR-V array a thread keeps for its next translation (256 KiB).
constexpr size_t max_recycled_words = 64 * 1024;

dxspv_result finish(dxspv_result r, const Diagnostics& diags, char** messages)
{
    if (!api::store_messages(diags, messages))
        return DXSPV_ERROR_OUT_OF_MEMORY;
    return r;
}

} // namespace

extern "C" DXSPV_API enum dxspv_result dxspv_compile(const struct dxspv_compile_info* info, struct dxspv_code* out,
                                                     char** messages)
{
    if (messages)
        *messages = nullptr;
    if (!info || !out)
        return DXSPV_ERROR_INVALID_ARGUMENT;
    if (messages == reinterpret_cast<char**>(out) || static_cast<const void*>(out) == static_cast<const void*>(info))
        return DXSPV_ERROR_INVALID_ARGUMENT;
    out->code = nullptr;
    out->size = 0;

    try {
        Diagnostics diags(info->source_name ? info->source_name : "");
        diags.keep_texts(messages != nullptr);
        api::Request req;
        if (!api::read_compile_info(info, req, diags))
            return finish(DXSPV_ERROR_INVALID_ARGUMENT, diags, messages);

        std::vector<uint8_t> bytes;
        // A SPIR-V binary: copied once, into the caller's buffer. Its array
        // is this thread's from translation to translation (no allocation
        // per shader, and memory the thread used last), up to a bound.
        thread_local std::vector<uint32_t> recycled_words;
        std::vector<uint32_t> words = std::move(recycled_words);
        words.clear();
        dxspv_result r = api::translate(req, bytes, diags, &words);
        if (r == DXSPV_OK) {
            const void* from = words.empty() ? static_cast<const void*>(bytes.data()) : words.data();
            const size_t size = words.empty() ? bytes.size() : words.size() * sizeof(uint32_t);
            void* p = std::malloc(size ? size : 1);
            if (!p)
                return DXSPV_ERROR_OUT_OF_MEMORY;
            if (size)
                std::memcpy(p, from, size);
            out->code = p;
            out->size = size;
        }
        if (words.capacity() <= max_recycled_words)
            recycled_words = std::move(words);
        return finish(r, diags, messages);
    } catch (const std::bad_alloc&) {
        dxspv_free_code(out);
        return DXSPV_ERROR_OUT_OF_MEMORY;
    } catch (...) {
        dxspv_free_code(out);
        if (messages)
            *messages = api::copy_c_string("internal error: unexpected exception\n");
        return DXSPV_ERROR;
    }
}

// dxspv_compile(): checks the arguments and the structure chain, then runs
// the pipeline in translate.cpp. Nothing throws past this function.
#include <cstdlib>
#include <cstring>
#include <new>

#include "api/c_strings.h"
#include "api/translate.h"
#include "dxspv/dxspv.h"

using namespace dxspv;

namespace {

bool read_interface_info(const dxspv_interface_info& iface, api::Request& req, Diagnostics& diags)
{
    if ((iface.binding_count && !iface.bindings) || (iface.counter_binding_count && !iface.counter_bindings)) {
        diags.error(Code::api_invalid_argument, Location::none(), "dxspv_interface_info: NULL array with a count");
        return false;
    }
    for (unsigned i = 0; i < iface.binding_count; ++i) {
        const dxspv_descriptor_binding& b = iface.bindings[i];
        if (unsigned(b.type) > DXSPV_DESCRIPTOR_TYPE_SAMPLER || unsigned(b.visibility) > DXSPV_SHADER_VISIBILITY_MESH
            || b.register_count == 0
            || ((b.flags & DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT) && b.type != DXSPV_DESCRIPTOR_TYPE_CBV)
            || (b.flags & ~uint32_t(DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT))) {
            diags.error(Code::api_invalid_argument, Location::none(),
                        "dxspv_interface_info: binding %u is invalid (type %d, visibility %d, count %u, flags 0x%x)", i,
                        int(b.type), int(b.visibility), b.register_count, b.flags);
            return false;
        }
        spirv::DescriptorBinding d;
        d.type = spirv::DescriptorType(b.type);
        d.space = b.register_space;
        d.register_index = b.register_index;
        d.register_count = b.register_count;
        d.visibility = uint32_t(b.visibility);
        d.set = b.set;
        d.binding = b.binding;
        d.push_constant = b.flags & DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT;
        d.push_constant_offset = b.push_constant_offset;
        req.bindings.push_back(d);
    }
    for (unsigned i = 0; i < iface.counter_binding_count; ++i) {
        const dxspv_counter_binding& c = iface.counter_bindings[i];
        if (unsigned(c.visibility) > DXSPV_SHADER_VISIBILITY_MESH) {
            diags.error(Code::api_invalid_argument, Location::none(),
                        "dxspv_interface_info: counter binding %u has visibility %d", i, int(c.visibility));
            return false;
        }
        req.counter_bindings.push_back({c.register_space, c.register_index, uint32_t(c.visibility), c.set, c.binding});
    }
    if (iface.flags & ~uint32_t(DXSPV_INTERFACE_STRICT)) {
        diags.error(Code::api_invalid_argument, Location::none(), "dxspv_interface_info: unknown flags 0x%x",
                    iface.flags);
        return false;
    }
    req.strict_bindings = iface.flags & DXSPV_INTERFACE_STRICT;
    return true;
}

/// Reads the options and the chain into `req`; false on API misuse.
bool read_compile_info(const dxspv_compile_info* info, api::Request& req, Diagnostics& diags)
{
    if (info->type != DXSPV_STRUCTURE_TYPE_COMPILE_INFO) {
        diags.error(Code::api_unknown_structure, Location::none(),
                    "the chain must start with a dxspv_compile_info (type %d, got %d)",
                    int(DXSPV_STRUCTURE_TYPE_COMPILE_INFO), int(info->type));
        return false;
    }
    if (!info->source.code && info->source.size) {
        diags.error(Code::api_invalid_argument, Location::none(), "source.code is NULL but source.size is %zu",
                    info->source.size);
        return false;
    }
    if (info->option_count && !info->options) {
        diags.error(Code::api_invalid_argument, Location::none(), "options is NULL but option_count is %u",
                    info->option_count);
        return false;
    }
    req.source = {static_cast<const uint8_t*>(info->source.code), info->source.size};
    req.source_type = info->source_type;
    req.target_type = info->target_type;
    req.entry_point = info->entry_point;
    if (unsigned(info->source_type) > DXSPV_SOURCE_TYPE_DXIL_LL) {
        diags.error(Code::api_invalid_argument, Location::none(), "unknown source type %d", int(info->source_type));
        return false;
    }
    if (!dxspv_target_type_name(info->target_type)) {
        diags.error(Code::api_invalid_argument, Location::none(), "unknown target type %d", int(info->target_type));
        return false;
    }

    for (unsigned i = 0; i < info->option_count; ++i) {
        const dxspv_compile_option& opt = info->options[i];
        switch (opt.name) {
        case DXSPV_COMPILE_OPTION_VALIDATE_SPIRV: req.validate_spirv = opt.value != 0; break;
        case DXSPV_COMPILE_OPTION_EXPERIMENTAL_OPS: req.experimental_ops = opt.value != 0; break;
        case DXSPV_COMPILE_OPTION_OPTIMIZE: req.optimize = opt.value != 0; break;
        case DXSPV_COMPILE_OPTION_VALIDATE_IR: req.validate_ir = opt.value != 0; break;
        default:
            diags.error(Code::api_unknown_option, Location::none(), "unknown compile option %d", int(opt.name));
            return false;
        }
    }

    // Bounded walk of the chain: a cycle or an absurdly long chain is misuse.
    const void* next = info->next;
    for (unsigned depth = 0; next; ++depth) {
        if (depth >= 64) {
            diags.error(Code::api_invalid_argument, Location::none(), "structure chain longer than 64 (a cycle?)");
            return false;
        }
        auto type = *static_cast<const dxspv_structure_type*>(next);
        switch (type) {
        case DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO: {
            auto* spirv = static_cast<const dxspv_spirv_target_info*>(next);
            if (spirv->environment < DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_0
                || spirv->environment > DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_3) {
                diags.error(Code::api_invalid_argument, Location::none(), "unknown SPIR-V environment %d",
                            int(spirv->environment));
                return false;
            }
            req.environment = spirv->environment;
            next = spirv->next;
            break;
        }
        case DXSPV_STRUCTURE_TYPE_INTERFACE_INFO: {
            auto* iface = static_cast<const dxspv_interface_info*>(next);
            if (!read_interface_info(*iface, req, diags))
                return false;
            next = iface->next;
            break;
        }
        default:
            diags.error(Code::api_unknown_structure, Location::none(), "unknown structure type %d in the chain",
                        int(type));
            return false;
        }
    }
    return true;
}

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
        api::Request req;
        if (!read_compile_info(info, req, diags))
            return finish(DXSPV_ERROR_INVALID_ARGUMENT, diags, messages);

        std::vector<uint8_t> bytes;
        dxspv_result r = api::translate(req, bytes, diags);
        if (r == DXSPV_OK) {
            void* p = std::malloc(bytes.size() ? bytes.size() : 1);
            if (!p)
                return DXSPV_ERROR_OUT_OF_MEMORY;
            if (!bytes.empty())
                std::memcpy(p, bytes.data(), bytes.size());
            out->code = p;
            out->size = bytes.size();
        }
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

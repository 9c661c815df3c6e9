// Reading dxspv_compile_info and its chain into an api::Request; shared by
// dxspv_compile() and dxspv_reflect().
#include "api/compile_info.h"

namespace dxspv::api {

namespace {

bool read_interface_info(const dxspv_interface_info& iface, Request& req, Diagnostics& diags)
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
} // namespace

bool read_compile_info(const dxspv_compile_info* info, Request& req, Diagnostics& diags)
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
        case DXSPV_COMPILE_OPTION_STATS: req.stats = opt.value != 0; break;
        case DXSPV_COMPILE_OPTION_VERIFY_CHECKSUM: req.verify_checksum = opt.value != 0; break;
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

} // namespace dxspv::api

#include "api/dxil_source.h"

#include "api/dxil_target.h"
#include "api/translate.h"
#include "container/container.h"
#include "dxil/dxil.h"

namespace dxspv::api {

namespace {

constexpr dxspv_target_type dxil_targets[] = {DXSPV_TARGET_TYPE_SPIRV_BINARY, DXSPV_TARGET_TYPE_SPIRV_TEXT,
                                              DXSPV_TARGET_TYPE_VSIR_TEXT, DXSPV_TARGET_TYPE_DXIL_LL,
                                              DXSPV_TARGET_TYPE_DXBC_DXIL, DXSPV_TARGET_TYPE_CFG_DOT};

bool load_container(std::span<const uint8_t> bytes, dxil::Module& module, DxilSourceInfo& info, Diagnostics& diags,
                    dxil::ReadDepth depth)
{
    if (!open_dxbc_dxil(bytes, info.header, diags))
        return false;
    info.from_container = true;
    return dxil::read_module(info.header.bitcode, info.header.bitcode_offset, module, diags, depth);
}

} // namespace

bool open_dxbc_dxil(std::span<const uint8_t> bytes, container::ProgramHeader& header, Diagnostics& diags)
{
    container::Container c;
    if (!container::parse_container(bytes, c, diags))
        return false;
    const container::Chunk* chunk = c.find(container::fourcc("DXIL"));
    if (!chunk) {
        diags.error(Code::api_no_shader_chunk, Location::none(), "the container has no DXIL chunk%s",
                    c.find(container::fourcc("SHEX")) || c.find(container::fourcc("SHDR"))
                        ? " (it holds SM4/5 tokens: use source type dxbc-tpf)"
                        : "");
        return false;
    }
    return container::parse_dxil_header(*chunk, header, diags);
}

bool is_dxil_source(dxspv_source_type source)
{
    return source == DXSPV_SOURCE_TYPE_DXBC_DXIL || source == DXSPV_SOURCE_TYPE_DXIL_LL;
}

std::span<const dxspv_target_type> dxil_target_types() { return dxil_targets; }

bool is_dxil_module_target(dxspv_target_type target)
{
    return target == DXSPV_TARGET_TYPE_DXIL_LL || target == DXSPV_TARGET_TYPE_DXBC_DXIL;
}

bool load_dxil_module(dxspv_source_type source, std::span<const uint8_t> bytes, dxil::Module& module,
                      DxilSourceInfo& info, Diagnostics& diags, dxil::ReadDepth depth)
{
    info = DxilSourceInfo{};
    if (source == DXSPV_SOURCE_TYPE_DXBC_DXIL)
        return load_container(bytes, module, info, diags, depth);
    if (source != DXSPV_SOURCE_TYPE_DXIL_LL) {
        diags.error(Code::api_unsupported_source, Location::none(), "source type %s is not DXIL",
                    dxspv_source_type_name(source));
        return false;
    }
    std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (!text.empty() && text.back() == '\0')
        text.remove_suffix(1);
    return dxil::parse_module_text(text, module, diags);
}

dxspv_result translate_dxil(dxspv_source_type source, const Request& req, std::vector<uint8_t>& out,
                            Diagnostics& diags)
{
    dxil::Module module;
    DxilSourceInfo info;
    if (!load_dxil_module(source, req.source, module, info, diags))
        return result_from_diagnostics(diags);
    switch (req.target_type) {
    case DXSPV_TARGET_TYPE_DXBC_DXIL: {
        // Re-encoding a container keeps its other chunks.
        container::Container c;
        bool from_container = source == DXSPV_SOURCE_TYPE_DXBC_DXIL && container::parse_container(req.source, c, diags);
        return write_dxil_target(module, from_container ? &c : nullptr, req.target_type, out, diags);
    }
    case DXSPV_TARGET_TYPE_DXIL_LL: {
        std::string text = dxil::print_module(module);
        out.assign(text.begin(), text.end());
        out.push_back(0);
        return DXSPV_OK;
    }
    default:
        diags.error(Code::api_unsupported_target, Location::none(), "translating %s to %s is not implemented yet",
                    dxspv_source_type_name(source), dxspv_target_type_name(req.target_type));
        return DXSPV_ERROR_NOT_IMPLEMENTED;
    }
}

} // namespace dxspv::api

// Source type detection from the first bytes of the input.
#include <cctype>
#include <cstring>
#include <string_view>

#include "api/translate.h"
#include "container/container.h"

namespace dxspv::api {

static bool is_d3d_asm_profile(std::string_view s)
{
    // vs_4_0, ps_5_1, cs_4_1, ... at the start of the first non-comment line.
    static constexpr std::string_view stages[] = {"vs_", "ps_", "gs_", "hs_", "ds_", "cs_"};
    for (std::string_view stage : stages)
        if (s.size() >= 6 && s.substr(0, 3) == stage && (s[3] == '4' || s[3] == '5') && s[4] == '_'
            && (s[5] == '0' || s[5] == '1'))
            return true;
    return false;
}

static dxspv_source_type detect_text(std::string_view text)
{
    size_t pos = 0;
    while (pos < text.size()) {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
            ++pos;
        std::string_view rest = text.substr(pos);
        if (rest.empty())
            break;
        if (rest.starts_with("//") || rest.starts_with(";") || rest.starts_with("#")) {
            size_t nl = rest.find('\n');
            if (rest.starts_with("; ModuleID") || rest.starts_with("; Function Attrs"))
                return DXSPV_SOURCE_TYPE_DXIL_LL;
            if (nl == std::string_view::npos)
                break;
            pos += nl + 1;
            continue;
        }
        if (is_d3d_asm_profile(rest))
            return DXSPV_SOURCE_TYPE_D3D_ASM;
        static constexpr std::string_view ll_starts[] = {"target ", "define ", "declare ", "%", "@", "!", "source_filename", "attributes "};
        for (std::string_view s : ll_starts)
            if (rest.starts_with(s))
                return DXSPV_SOURCE_TYPE_DXIL_LL;
        break;
    }
    return DXSPV_SOURCE_TYPE_NONE;
}

dxspv_source_type detect_source_type(const container::Container& c)
{
    if (c.find(container::fourcc("DXIL")))
        return DXSPV_SOURCE_TYPE_DXBC_DXIL;
    if (c.find(container::fourcc("SHEX")) || c.find(container::fourcc("SHDR")))
        return DXSPV_SOURCE_TYPE_DXBC_TPF;
    return DXSPV_SOURCE_TYPE_NONE;
}

dxspv_source_type detect_source_type(std::span<const uint8_t> bytes)
{
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "DXBC", 4) == 0) {
        Diagnostics ignored;
        ignored.keep_texts(false);
        container::Container c;
        return container::parse_container(bytes, c, ignored) ? detect_source_type(c) : DXSPV_SOURCE_TYPE_NONE;
    }
    // Text: refuse embedded NULs except a terminating one.
    std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (!text.empty() && text.back() == '\0')
        text.remove_suffix(1);
    if (text.find('\0') != std::string_view::npos)
        return DXSPV_SOURCE_TYPE_NONE;
    return detect_text(text);
}

} // namespace dxspv::api

// The demos' use of the dxspv C API: see dxspv_helper.h.
#include "dxspv_helper.h"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "vulkan_helper.h"

namespace demo {

namespace {

/// Runs dxspv_compile; prints the messages; exits on failure.
std::vector<uint8_t> compile(const dxspv_compile_info& info, const char* what)
{
    dxspv_code out = {};
    char* messages = nullptr;
    dxspv_result result = dxspv_compile(&info, &out, &messages);
    if (messages)
        std::fprintf(stderr, "%s", messages);
    dxspv_free_messages(messages);
    if (result != DXSPV_OK)
        die("%s of %s failed (dxspv_result %d)", what, info.source_name, int(result));
    const uint8_t* bytes = static_cast<const uint8_t*>(out.code);
    std::vector<uint8_t> copy(bytes, bytes + out.size);
    dxspv_free_code(&out);
    return copy;
}

} // namespace

std::string read_file(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        die("cannot read %s", path.c_str());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Container assemble(const std::string& text, const std::string& name, dxspv_source_type text_type)
{
    const bool dxil = text_type == DXSPV_SOURCE_TYPE_DXIL_LL;
    dxspv_compile_info info = {DXSPV_STRUCTURE_TYPE_COMPILE_INFO, nullptr};
    info.source = {text.data(), text.size()};
    info.source_type = text_type;
    info.target_type = dxil ? DXSPV_TARGET_TYPE_DXBC_DXIL : DXSPV_TARGET_TYPE_DXBC_TPF;
    info.source_name = name.c_str();
    return {compile(info, "assembly"), dxil ? DXSPV_SOURCE_TYPE_DXBC_DXIL : DXSPV_SOURCE_TYPE_DXBC_TPF};
}

std::vector<uint32_t> translate(const Container& dxbc, const std::string& name, const dxspv_interface_info* interface)
{
    // The chain: compile info → SPIR-V target info → binding map.
    dxspv_spirv_target_info target = {DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO, interface,
                                      DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1};
    const dxspv_compile_option validate = {DXSPV_COMPILE_OPTION_VALIDATE_SPIRV, 1};
    dxspv_compile_info info = {DXSPV_STRUCTURE_TYPE_COMPILE_INFO, &target};
    info.source = {dxbc.bytes.data(), dxbc.bytes.size()};
    info.source_type = dxbc.type;
    info.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    info.options = &validate;
    info.option_count = 1;
    info.source_name = name.c_str();
    std::vector<uint8_t> bytes = compile(info, "translation");
    std::vector<uint32_t> words(bytes.size() / 4);
    for (size_t i = 0; i < words.size(); ++i)
        words[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16
                 | uint32_t(bytes[4 * i + 3]) << 24;
    return words;
}

dxspv_reflection reflect(const Container& dxbc, const std::string& name, const dxspv_interface_info* interface)
{
    dxspv_compile_info info = {DXSPV_STRUCTURE_TYPE_COMPILE_INFO, interface};
    info.source = {dxbc.bytes.data(), dxbc.bytes.size()};
    info.source_type = dxbc.type;
    info.source_name = name.c_str();
    dxspv_reflection reflection = {};
    char* messages = nullptr;
    dxspv_result result = dxspv_reflect(&info, &reflection, &messages);
    if (messages)
        std::fprintf(stderr, "%s", messages);
    dxspv_free_messages(messages);
    if (result != DXSPV_OK)
        die("reflection of %s failed (dxspv_result %d)", name.c_str(), int(result));
    return reflection;
}

Args parse_args(int argc, char** argv, const char* default_output, const char* default_shader_dir, bool has_dxil)
{
    Args args{default_output, default_shader_dir};
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if ((a == "-o" || a == "--output") && i + 1 < argc)
            args.output = argv[++i];
        else if (a == "--shaders" && i + 1 < argc)
            args.shader_dir = argv[++i];
        else if (a == "--dxil" && has_dxil)
            args.dxil = true;
        else
            die("usage: %s [-o OUTPUT] [--shaders DIR]%s", argv[0], has_dxil ? " [--dxil]" : "");
    }
    return args;
}

} // namespace demo

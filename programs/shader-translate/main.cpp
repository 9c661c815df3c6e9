// shader-translate: the command line front of dxspv.
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dxspv/dxspv.hpp"
#include "bindings_file.h"
#include "options.h"

using namespace shader_translate;

static bool read_input(const std::string& name, std::vector<std::byte>& data)
{
    FILE* f = name == "-" ? stdin : std::fopen(name.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "shader-translate: cannot open '%s': %s\n", name.c_str(), std::strerror(errno));
        return false;
    }
    std::byte buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
        data.insert(data.end(), buf, buf + n);
    bool ok = !std::ferror(f);
    if (!ok)
        std::fprintf(stderr, "shader-translate: cannot read '%s'\n", name.c_str());
    if (f != stdin)
        std::fclose(f);
    return ok;
}

static bool write_output(const std::string& name, std::span<const std::byte> data)
{
    FILE* f = name.empty() ? stdout : std::fopen(name.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "shader-translate: cannot open '%s' for writing: %s\n", name.c_str(), std::strerror(errno));
        return false;
    }
    bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
    ok = (f == stdout ? std::fflush(f) == 0 : std::fclose(f) == 0) && ok;
    if (!ok)
        std::fprintf(stderr, "shader-translate: cannot write '%s'\n", name.empty() ? "<stdout>" : name.c_str());
    return ok;
}

static void print_target_types(dxspv_source_type source)
{
    unsigned count = 0;
    const dxspv_target_type* types = dxspv_get_supported_target_types(source, &count);
    for (unsigned i = 0; i < count; ++i)
        std::printf("%s%s", i ? " " : "", dxspv_target_type_name(types[i]));
}

static int list_types(const Options& o)
{
    unsigned count = 0;
    const dxspv_source_type* sources = dxspv_get_supported_source_types(&count);
    if (o.action == Action::print_source_types) {
        for (unsigned i = 0; i < count; ++i)
            std::printf("%s\n", dxspv_source_type_name(sources[i]));
        return 0;
    }
    for (unsigned i = 0; i < count; ++i) {
        if (o.source_type != DXSPV_SOURCE_TYPE_NONE && sources[i] != o.source_type)
            continue;
        std::printf("%s: ", dxspv_source_type_name(sources[i]));
        print_target_types(sources[i]);
        std::printf("\n");
    }
    return 0;
}

static int info(const Options& o, std::span<const std::byte> data)
{
    dxspv::Text text, messages;
    dxspv_result r = dxspv::describe_container(data, text, messages, o.input == "-" ? "<stdin>" : o.input.c_str());
    std::fputs(std::string(messages.view()).c_str(), stderr);
    bool written = text.empty() || write_output(o.output, std::as_bytes(std::span<const char>(text.view())));
    return r == DXSPV_OK && written ? 0 : 1;
}

static int reflect(const dxspv::CompileOptions& co, std::span<const std::byte> data, const std::string& output)
{
    dxspv::Reflection reflection;
    dxspv::Text messages, json;
    dxspv_result r = dxspv::reflect(data, co, reflection, messages);
    std::fputs(std::string(messages.view()).c_str(), stderr);
    if (r != DXSPV_OK || dxspv_reflection_to_json(&*reflection, json.out()) != DXSPV_OK)
        return 1;
    return write_output(output, std::as_bytes(std::span<const char>(json.view()))) ? 0 : 1;
}

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv, argv + argc);
    Options o;
    std::string error;
    if (!parse_options(args, o, error)) {
        std::fprintf(stderr, "shader-translate: %s\n", error.c_str());
        return 2;
    }
    switch (o.action) {
    case Action::help: std::fputs(usage_text(), stdout); return 0;
    case Action::version: std::printf("shader-translate (dxspv) %s\n", dxspv_get_version(nullptr, nullptr)); return 0;
    case Action::print_source_types:
    case Action::print_target_types: return list_types(o);
    case Action::info:
    case Action::reflect:
    case Action::translate: break;
    }

    if (o.action == Action::translate && o.output.empty() && is_binary_target(o.target_type) && isatty(STDOUT_FILENO)) {
        std::fprintf(stderr, "shader-translate: refusing to write binary %s output to a terminal; use -o FILE or -b spirv-text\n",
                     dxspv_target_type_name(o.target_type));
        return 2;
    }

    std::vector<std::byte> data;
    if (!read_input(o.input, data))
        return 1;
    if (o.action == Action::info)
        return info(o, data);

    BindingFile bindings;
    dxspv_interface_info interface_info = {};
    if (!o.bindings_file.empty()) {
        std::vector<std::byte> text;
        std::string bad;
        if (!read_input(o.bindings_file, text))
            return 1;
        if (!parse_binding_file({reinterpret_cast<const char*>(text.data()), text.size()}, o.bindings_file, bindings, bad)) {
            std::fprintf(stderr, "shader-translate: %s\n", bad.c_str());
            return 1;
        }
        interface_info = bindings.interface_info();
    }

    dxspv::CompileOptions co;
    co.interface_info = o.bindings_file.empty() ? nullptr : &interface_info;
    co.source_type = o.source_type;
    co.target_type = o.target_type;
    co.environment = o.environment;
    co.validate = o.validate;
    co.experimental_ops = o.experimental_ops;
    co.optimize = o.optimize;
    co.stats = o.stats;
    co.verify_checksum = o.verify_checksum;
    co.source_name = o.input == "-" ? "<stdin>" : o.input.c_str();
    co.entry_point = o.entry_point.empty() ? nullptr : o.entry_point.c_str();

    if (o.action == Action::reflect)
        return reflect(co, data, o.output);
    dxspv::Result result = dxspv::compile(std::span<const std::byte>(data), co);
    std::fputs(std::string(result.messages.view()).c_str(), stderr);
    if (!result)
        return 1;
    bool written = is_binary_target(o.target_type)
        ? write_output(o.output, result.output.bytes())
        : write_output(o.output, std::as_bytes(std::span<const char>(result.output.text())));
    if (written && o.validate
        && (o.target_type == DXSPV_TARGET_TYPE_SPIRV_BINARY || o.target_type == DXSPV_TARGET_TYPE_SPIRV_TEXT))
        std::fprintf(stderr, "shader-translate: SPIR-V validation passed (spirv-val, %s)\n",
                     environment_name(o.environment));
    return written ? 0 : 1;
}

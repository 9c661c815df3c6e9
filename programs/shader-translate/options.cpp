#include "options.h"

#include <cstring>

namespace shader_translate {

const char* usage_text()
{
    return "Usage: shader-translate [options] [FILE]     (FILE or '-' reads stdin)\n"
           "Translates Direct3D shader bytecode (DXBC, DXIL) or its text forms to SPIR-V.\n"
           "\n"
           "  -x, --source-type T   dxbc-tpf | dxbc-dxil | d3d-asm | dxil-ll   (default: detected from the input)\n"
           "  -b, --target-type T   spirv-binary (default) | spirv-text | d3d-asm | dxil-ll | dxbc-tpf | dxbc-dxil | vsir-text\n"
           "                        | cfg-dot (DXIL: the control-flow graph as Graphviz dot)\n"
           "  -o, --output FILE     write the output to FILE (default or '-': stdout; binary output to a terminal is\n"
           "                        refused)\n"
           "  --env E               vulkan1.0 | vulkan1.1 (default) | vulkan1.2 | vulkan1.3\n"
           "  --entry NAME          entry point (DXIL libraries)\n"
           "  --experimental-ops    accept experimental DXIL opcodes\n"
           "  --validate            run spirv-val (SPIRV-Tools) on the result\n"
           "  --stats               print the structurizer's statistics (trampolines: N, ...) as warning W6010\n"
           "  --no-checksum         do not check the container's checksum (checked by default here, a mismatch is\n"
           "                        warning W0011; the library checks it only when asked)\n"
           "  --optimize            run spirv-opt -O (SPIRV-Tools) on the result\n"
           "  --bindings FILE       binding map: D3D registers to Vulkan set/binding/push constants (format in the README)\n"
           "  --reflect             print the shader's descriptors (with their bindings), signatures and thread group\n"
           "                        size as JSON\n"
           "  --info                print the container summary: chunks, shader stage and model, checksum status,\n"
           "                        signatures, resources, root signature\n"
           "  --print-source-types  list the supported source types\n"
           "  --print-target-types  list the supported target types (for -x T, or for every source type)\n"
           "  -h, --help            show this help\n"
           "  -V, --version         show the version\n"
           "\n"
           "Exit status: 0 on success, 1 when the input cannot be translated (diagnostics on stderr), 2 on a usage error.\n";
}

dxspv_source_type parse_source_type(const std::string& name)
{
    for (int t = DXSPV_SOURCE_TYPE_DXBC_TPF; t <= DXSPV_SOURCE_TYPE_DXIL_LL; ++t) {
        const char* n = dxspv_source_type_name(dxspv_source_type(t));
        if (n && name == n)
            return dxspv_source_type(t);
    }
    return DXSPV_SOURCE_TYPE_NONE;
}

dxspv_target_type parse_target_type(const std::string& name)
{
    for (int t = DXSPV_TARGET_TYPE_SPIRV_BINARY; t <= DXSPV_TARGET_TYPE_CFG_DOT; ++t) {
        const char* n = dxspv_target_type_name(dxspv_target_type(t));
        if (n && name == n)
            return dxspv_target_type(t);
    }
    return DXSPV_TARGET_TYPE_NONE;
}

static const struct {
    const char* name;
    dxspv_spirv_environment env;
} environments[] = {
    {"vulkan1.0", DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_0},
    {"vulkan1.1", DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1},
    {"vulkan1.2", DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_2},
    {"vulkan1.3", DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_3},
};

const char* environment_name(dxspv_spirv_environment env)
{
    for (const auto& e : environments)
        if (e.env == env)
            return e.name;
    return "unknown";
}

bool parse_environment(const std::string& name, dxspv_spirv_environment& env)
{
    for (const auto& e : environments)
        if (name == e.name) {
            env = e.env;
            return true;
        }
    return false;
}

bool is_binary_target(dxspv_target_type type)
{
    return type == DXSPV_TARGET_TYPE_SPIRV_BINARY || type == DXSPV_TARGET_TYPE_DXBC_TPF
        || type == DXSPV_TARGET_TYPE_DXBC_DXIL;
}

bool parse_options(const std::vector<std::string>& args, Options& o, std::string& error)
{
    bool have_input = false;
    bool options_done = false;
    for (size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        // Options taking a value accept "--opt value" and "--opt=value".
        auto value = [&](const char* long_name, const char* short_name, std::string& out) {
            size_t n = std::strlen(long_name);
            if (a.compare(0, n, long_name) == 0 && a.size() > n && a[n] == '=') {
                out = a.substr(n + 1);
                return 1;
            }
            if (a == long_name || (short_name && a == short_name)) {
                if (i + 1 >= args.size()) {
                    error = "option " + a + " needs a value";
                    return -1;
                }
                out = args[++i];
                return 1;
            }
            return 0;
        };
        std::string v;
        int r;
        if (options_done || a == "-" || a.empty() || a[0] != '-') {
            if (have_input) {
                error = "more than one input file: '" + o.input + "' and '" + a + "'";
                return false;
            }
            o.input = a;
            have_input = true;
        } else if (a == "--") {
            options_done = true;
        } else if ((r = value("--source-type", "-x", v))) {
            if (r < 0)
                return false;
            o.source_type = parse_source_type(v);
            if (o.source_type == DXSPV_SOURCE_TYPE_NONE) {
                error = "unknown source type '" + v + "' (see --print-source-types)";
                return false;
            }
        } else if ((r = value("--target-type", "-b", v))) {
            if (r < 0)
                return false;
            o.target_type = parse_target_type(v);
            if (o.target_type == DXSPV_TARGET_TYPE_NONE) {
                error = "unknown target type '" + v + "' (see --print-target-types)";
                return false;
            }
        } else if ((r = value("--output", "-o", v))) {
            if (r < 0)
                return false;
            if (v.empty()) {
                error = "empty output file name";
                return false;
            }
            o.output = v == "-" ? std::string() : v; // '-': standard output, as for the input
        } else if ((r = value("--env", nullptr, v))) {
            if (r < 0)
                return false;
            if (!parse_environment(v, o.environment)) {
                error = "unknown environment '" + v + "' (vulkan1.0, vulkan1.1, vulkan1.2, vulkan1.3)";
                return false;
            }
        } else if ((r = value("--bindings", nullptr, v))) {
            if (r < 0)
                return false;
            o.bindings_file = v;
        } else if ((r = value("--entry", nullptr, v))) {
            if (r < 0)
                return false;
            o.entry_point = v;
        } else if (a == "--experimental-ops") {
            o.experimental_ops = true;
        } else if (a == "--validate") {
            o.validate = true;
        } else if (a == "--stats") {
            o.stats = true;
        } else if (a == "--no-checksum") {
            o.verify_checksum = false;
        } else if (a == "--optimize") {
            o.optimize = true;
        } else if (a == "--reflect") {
            o.action = Action::reflect;
        } else if (a == "--info") {
            o.action = Action::info;
        } else if (a == "--print-source-types") {
            o.action = Action::print_source_types;
        } else if (a == "--print-target-types") {
            o.action = Action::print_target_types;
        } else if (a == "-h" || a == "--help") {
            o.action = Action::help;
        } else if (a == "-V" || a == "--version") {
            o.action = Action::version;
        } else {
            error = "unknown option '" + a + "' (see --help)";
            return false;
        }
    }
    return true;
}

} // namespace shader_translate

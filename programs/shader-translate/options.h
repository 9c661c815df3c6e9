// Command line parsing of shader-translate, separate from main() so the
// unit tests can exercise it.
#pragma once

#include <string>
#include <vector>

#include "dxspv/dxspv.h"

namespace shader_translate {

enum class Action { translate, info, reflect, help, version, print_source_types, print_target_types };

struct Options {
    Action action = Action::translate;
    std::string input = "-"; ///< file name, "-" for stdin
    std::string output;      ///< empty: stdout
    dxspv_source_type source_type = DXSPV_SOURCE_TYPE_NONE;
    dxspv_target_type target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    dxspv_spirv_environment environment = DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1;
    std::string entry_point;
    std::string bindings_file; ///< --bindings FILE (bindings_file.h)
    bool experimental_ops = false;
    bool validate = false;
    bool stats = false;
    bool verify_checksum = true; ///< a person at a terminal wants to hear of a damaged file
    bool optimize = false;
};

/// Parses argv (argv[0] is the program name). On a usage error returns
/// false with `error` set to a one-line message.
bool parse_options(const std::vector<std::string>& args, Options& options, std::string& error);

/// The --help text.
const char* usage_text();

/// Source/target type from a CLI name; NONE if unknown.
dxspv_source_type parse_source_type(const std::string& name);
dxspv_target_type parse_target_type(const std::string& name);
bool parse_environment(const std::string& name, dxspv_spirv_environment& env);
const char* environment_name(dxspv_spirv_environment env);

/// True for targets whose output is binary (refused on a terminal).
bool is_binary_target(dxspv_target_type type);

} // namespace shader_translate

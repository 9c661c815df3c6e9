// Runs one parsed .shader_test file on a device and says how it went.
#pragma once

#include "parser.h"
#include "runner.h"
#include "vulkan_device.h"

#include <string>

namespace runner {

struct FileOutcome {
    enum class Status { pass, fail, skip } status = Status::skip;
    std::string message; ///< why it failed or was skipped; notes (todo counts) for a pass
};

FileOutcome run_file(const TestFile& file, Device& device);

/// Translates one shader section with the runner's binding map, which has
/// no counter entry for the UAVs in the `implicit_counters` mask (bit N: uN).
/// Returns the library's result; `messages` holds its diagnostics (or a
/// runner error).
int compile_shader(const ShaderSection& shader, std::vector<uint32_t>& spirv, std::string& messages,
                   uint64_t implicit_counters = 0);

/// The mask of [uav N] sections marked `counter implicit` anywhere in the file.
uint64_t implicit_counters(const TestFile& file);

/// The input signature of a vertex shader (semantic name, index → register),
/// for matching [input layout] elements as a translation layer does. Empty
/// when the source has no signature (d3d-asm text).
bool reflect_vertex_inputs(const ShaderSection& shader, std::vector<VertexInput>& inputs, std::string& error);

/// The shader model a section declares (major * 10 + minor); 0 when unknown.
uint32_t shader_model_of(const ShaderSection& shader);

/// "4 8 15 16"-style hex words → little-endian bytes; false with `error` on a bad word.
bool hex_words_to_bytes(const std::string& text, std::vector<uint8_t>& bytes, std::string& error);

} // namespace runner

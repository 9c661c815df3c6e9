// The shader program chunk of a container: SHDR/SHEX (SM4/5 tokens) or DXIL
// (a program header followed by LLVM bitcode). Gives the stage and shader
// model, and the token or bitcode bytes for the front ends.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "common/shader_types.h"
#include "container/container.h"

namespace dxspv::container {

enum class ProgramFormat : uint8_t { tpf, dxil };

struct ProgramHeader {
    ProgramFormat format = ProgramFormat::tpf;
    ShaderModel model;
    Chunk chunk;                       ///< the SHDR, SHEX or DXIL chunk
    std::span<const uint8_t> tokens;   ///< TPF: the token stream (version and length tokens included)
    uint8_t dxil_major = 0;            ///< DXIL: the DXIL version
    uint8_t dxil_minor = 0;
    std::span<const uint8_t> bitcode;  ///< DXIL: the LLVM bitcode
    uint32_t bitcode_offset = 0;       ///< DXIL: offset of the bitcode in the container
};

/// The program chunk of a parsed container: DXIL if present, else SHEX,
/// else SHDR; nullptr if none.
const Chunk* find_program_chunk(const Container& container);

/// Reads an SHDR/SHEX version and length token.
bool parse_tpf_header(const Chunk& chunk, ProgramHeader& out, Diagnostics& diags);
/// Reads a DXIL program header.
bool parse_dxil_header(const Chunk& chunk, ProgramHeader& out, Diagnostics& diags);
/// Builds a DXIL chunk's data: the program header (program version from
/// `model`, size in dwords, "DXIL", DXIL version, bitcode offset and size)
/// followed by the bitcode, padded to 4 bytes. Fails past 4 GiB.
bool serialize_dxil_program(const ShaderModel& model, uint8_t dxil_major, uint8_t dxil_minor,
                            std::span<const uint8_t> bitcode, std::vector<uint8_t>& out, Diagnostics& diags);

/// Finds the program chunk and reads its header.
bool parse_program_header(const Container& container, ProgramHeader& out, Diagnostics& diags);

} // namespace dxspv::container

// Signature chunks: ISGN/OSGN/PCSG (24-byte elements), OSG5 (28 bytes, with
// a GS stream) and ISG1/OSG1/PSG1 (32 bytes, with stream and min precision).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "common/shader_types.h"
#include "container/container.h"

namespace dxspv::container {

enum class SignatureFormat : uint8_t {
    sgn,  ///< ISGN, OSGN, PCSG
    sg5,  ///< OSG5
    sg1,  ///< ISG1, OSG1, PSG1
};

/// The format of a signature chunk kind; false if `code` is not one.
bool signature_format_of(uint32_t code, SignatureFormat& out);

/// Size of one element in the chunk.
size_t signature_element_size(SignatureFormat format);

/// Parses a signature chunk; names are borrowed from the chunk.
bool parse_signature(const Chunk& chunk, std::vector<SignatureElement>& out, Diagnostics& diags);

/// Builds a signature chunk's data. Equal names are stored once; the name
/// table is padded to 4 bytes with `padding` (fxc uses 0xab, dxc 0, older
/// dxc releases do not pad: nullopt).
std::vector<uint8_t> serialize_signature(std::span<const SignatureElement> elements, SignatureFormat format,
                                         std::optional<uint8_t> padding = 0xab);

} // namespace dxspv::container

// SFI0: the 64-bit shader feature flags (D3D_SHADER_FEATURE_* and DXIL's
// ShaderFeatureInfo_* bits).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "container/container.h"

namespace dxspv::container {

/// Reads the flags; the chunk must hold at least 8 bytes.
bool parse_sfi0(const Chunk& chunk, uint64_t& flags, Diagnostics& diags);

/// The chunk data for `flags`.
std::vector<uint8_t> serialize_sfi0(uint64_t flags);

/// Name of feature bit `bit` (0-63), e.g. "Doubles"; nullptr if unknown.
const char* sfi0_flag_name(unsigned bit);

/// The set flags by name, separated by " | "; unknown bits as hex; "none"
/// for zero.
std::string sfi0_flags_string(uint64_t flags);

} // namespace dxspv::container

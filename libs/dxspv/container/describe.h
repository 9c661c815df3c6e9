// The text `shader-translate --info` prints for a DXBC container.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "common/diagnostics.h"

namespace dxspv::container {

/// Describes a container. The text starts with four lines tests parse:
///   stage: cs          (stage_short_name, or "none" without a program chunk)
///   model: 5.0         (major.minor, or "none")
///   checksum: ok       (ok | zero | mismatch; a mismatch is also a warning)
///   chunks: RDEF,ISGN  (fourccs in container order)
/// then a section per chunk. Returns "" when the container itself cannot be
/// parsed; a malformed chunk is reported as an error and marked in the text.
std::string describe_container(std::span<const uint8_t> bytes, Diagnostics& diags);

} // namespace dxspv::container

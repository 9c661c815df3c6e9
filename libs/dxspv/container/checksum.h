// The DXBC container checksum: MD5 over bytes [20, end) with Microsoft's
// own final-block layout (the bit count goes first in a short last block and
// a second value replaces the 64-bit length).
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace dxspv::container {

using Checksum = std::array<uint8_t, 16>;

/// The checksum of a whole container (header included; its first 20 bytes
/// are skipped). A span shorter than 20 bytes gives all zeros.
Checksum compute_checksum(std::span<const uint8_t> container);

/// Plain MD5 (RFC 1321) of `data`: the digest of the HASH chunk, which DXC
/// computes over the DXIL bitcode.
Checksum md5(std::span<const uint8_t> data);

enum class ChecksumStatus : uint8_t {
    ok,       ///< the stored checksum matches
    zero,     ///< the stored checksum is all zeros: the container is unsigned
    mismatch, ///< the stored checksum is wrong
};

/// Compares the checksum stored at bytes [4, 20) with the computed one.
/// A span shorter than 20 bytes is a mismatch.
ChecksumStatus verify_checksum(std::span<const uint8_t> container);

/// "ok", "zero" or "mismatch".
const char* checksum_status_name(ChecksumStatus status);

} // namespace dxspv::container

// A minimal PNG encoder (8-bit RGBA, filter "none", zlib-compressed), so the
// demos write pictures with nothing but zlib.
#pragma once

#include <cstdint>
#include <string>

namespace demo {

/// Writes `width` x `height` RGBA8 pixels (rows top to bottom, tightly
/// packed) to `path`; false when the file cannot be written.
bool write_png(const std::string& path, uint32_t width, uint32_t height, const uint8_t* rgba);

} // namespace demo

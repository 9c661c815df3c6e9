// printf-style formatting into a std::string for diagnostics, without
// vsnprintf for the conversions messages use most.
#pragma once

#include <cstdarg>
#include <string>

namespace dxspv {

/// Appends `fmt` formatted as vsnprintf would to `out`, for the conversions
/// %d %u %x %X %c %s and %% (with the length modifiers l, ll and z for the
/// numbers, a 0 flag and a width) and %.*s, and messages of up to 256
/// characters. False, with `args` partly consumed and `out` as it was, for
/// any other conversion or a longer message: the caller then formats with
/// vsnprintf from a copy of the arguments it kept.
bool format_common(std::string& out, const char* fmt, va_list args);

/// vsnprintf into a std::string: format_common() when it can, vsnprintf
/// otherwise.
std::string vformat(const char* fmt, va_list args);

} // namespace dxspv

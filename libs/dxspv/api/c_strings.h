// Strings handed across the C API: allocated with malloc, freed by
// dxspv_free_messages() / dxspv_free_code().
#pragma once

#include <string_view>

#include "common/diagnostics.h"

namespace dxspv::api {

/// malloc'ed NUL-terminated copy of `s`; nullptr when out of memory.
char* copy_c_string(std::string_view s);

/// Stores every message of `diags` in `*out` (nullptr when there are none).
/// `out` may be nullptr. Returns false when out of memory.
bool store_messages(const Diagnostics& diags, char** out);

} // namespace dxspv::api

// Reading dxspv_compile_info and its chain (options, SPIR-V target info,
// interface info) into an api::Request.
#pragma once

#include "api/translate.h"

namespace dxspv::api {

/// Checks `info` and its chain; false (with an error) on API misuse.
bool read_compile_info(const dxspv_compile_info* info, Request& req, Diagnostics& diags);

} // namespace dxspv::api

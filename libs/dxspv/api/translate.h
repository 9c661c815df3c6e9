// The translation pipeline behind dxspv_compile(): one readable function
// from input bytes to output bytes (translate.cpp).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "container/container.h"
#include "dxspv/dxspv.h"
#include "spirv/bindings.h"
#include "vsir/ir.h"

namespace dxspv::api {

struct Request {
    std::span<const uint8_t> source;
    dxspv_source_type source_type = DXSPV_SOURCE_TYPE_NONE;
    dxspv_target_type target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    dxspv_spirv_environment environment = DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1;
    bool validate_spirv = false;
    bool experimental_ops = false;
    bool optimize = false;
    bool validate_ir = false;
    bool stats = false; ///< report cfg::StructurizeStats as warning cfg_stats
    bool verify_checksum = false; ///< warn when a container's checksum does not match (warn_checksum_mismatch)
    const char* entry_point = nullptr;
    std::vector<spirv::DescriptorBinding> bindings; ///< from dxspv_interface_info
    std::vector<spirv::CounterBinding> counter_bindings;
    bool strict_bindings = false;
};

std::span<const dxspv_source_type> supported_source_types();
std::span<const dxspv_target_type> supported_target_types(dxspv_source_type source);
bool is_supported(dxspv_source_type source, dxspv_target_type target);

/// Guesses the source type from the bytes; DXSPV_SOURCE_TYPE_NONE if unknown.
dxspv_source_type detect_source_type(std::span<const uint8_t> bytes);

/// The source type of a parsed DXBC container, by its shader chunk;
/// DXSPV_SOURCE_TYPE_NONE if it has none.
dxspv_source_type detect_source_type(const container::Container& c);

/// The input once its type is known. A DXBC container is parsed once, for
/// detection, the checksum and the TPF reader.
struct Source {
    dxspv_source_type type = DXSPV_SOURCE_TYPE_NONE;
    container::Container container;
    bool parsed = false; ///< `container` holds the input
    bool quiet = false;  ///< and parsing it reported nothing (else the reader parses again, to report it)
};

/// Detects the source type when needed (into `source`) and checks that the
/// source/target pair is supported; with `verify_checksum`, checks a
/// container's checksum (warn_checksum_mismatch).
dxspv_result resolve_source(const Request& request, Source& source, Diagnostics& diags);

/// Detects the source type when needed, checks that the source/target pair
/// is supported and runs the front end: the program as VSIR.
dxspv_result load_program(const Request& request, vsir::Program& program, Diagnostics& diags);

/// Runs the pipeline. `out` receives the output (text targets include a
/// terminating NUL); with `spirv_words`, a SPIR-V binary goes there
/// instead, as the emitter made it (no copy). Returns the result code;
/// diagnostics say why.
dxspv_result translate(const Request& request, std::vector<uint8_t>& out, Diagnostics& diags,
                       std::vector<uint32_t>* spirv_words = nullptr);

/// Warns (api_checksum_mismatch) when `bytes` are a DXBC container whose
/// stored checksum does not match its contents; says nothing of a container
/// that does not parse (its reader reports that) or is unsigned (all zeros).
void warn_checksum_mismatch(std::span<const uint8_t> bytes, Diagnostics& diags);

/// warn_checksum_mismatch on a parsed container.
void warn_checksum_mismatch(const container::Container& c, Diagnostics& diags);

/// The result code matching the first error in `diags`.
dxspv_result result_from_diagnostics(const Diagnostics& diags);

} // namespace dxspv::api

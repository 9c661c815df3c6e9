// DXIL sources of the API: a DXBC container with a DXIL chunk (program
// header + LLVM bitcode) or dxil-ll text, loaded into a dxil::Module. Used
// by translate() for the DXIL targets and, later, by the DXIL front end.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "common/diagnostics.h"
#include "container/program_header.h"
#include "dxil/dxil.h"
#include "dxspv/dxspv.h"

namespace dxspv::api {

struct Request;

/// What the source said besides the module.
struct DxilSourceInfo {
    bool from_container = false;        ///< dxbc-dxil: `header` is set
    container::ProgramHeader header;    ///< stage, shader model, DXIL version, bitcode span (into the input bytes)
};

bool is_dxil_source(dxspv_source_type source);

/// The container step of a dxbc-dxil source: parses the container (its
/// checksum is checked apart, only when asked: warn_checksum_mismatch) and
/// reads the DXIL program header (`header` borrows `bytes`).
bool open_dxbc_dxil(std::span<const uint8_t> bytes, container::ProgramHeader& header, Diagnostics& diags);

/// Reads a dxbc-dxil container or dxil-ll text into `module`; a
/// container's bitcode to `depth` (text is always read whole).
bool load_dxil_module(dxspv_source_type source, std::span<const uint8_t> bytes, dxil::Module& module,
                      DxilSourceInfo& info, Diagnostics& diags, dxil::ReadDepth depth = dxil::ReadDepth::whole);

/// The targets a DXIL source translates to.
std::span<const dxspv_target_type> dxil_target_types();
/// Targets that re-encode the module itself (no lowering): dxil-ll text and
/// dxbc-dxil containers.
bool is_dxil_module_target(dxspv_target_type target);

/// Loads the module and writes `req.target_type` (dxil-ll text).
dxspv_result translate_dxil(dxspv_source_type source, const Request& req, std::vector<uint8_t>& out,
                            Diagnostics& diags);

} // namespace dxspv::api

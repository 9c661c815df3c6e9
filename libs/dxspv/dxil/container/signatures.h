// DXIL signature metadata → the elements of the container's ISG1, OSG1
// and PSG1 chunks, as DXC builds them: one element per semantic index,
// start row → register, start column and column count → mask, the usage
// mask → always-reads (inputs) or never-writes (outputs), elements the
// container does not list (system values read through dx.op calls) left
// out, sorted by stream, register, name order.
#pragma once

#include <vector>

#include "common/shader_types.h"
#include "dxil/metadata.h"

namespace dxspv::dxil {

enum class SignatureKind : uint8_t { input, output, patch_constant };

struct SignatureOptions {
    ShaderStage stage = ShaderStage::invalid;
    uint32_t tess_domain = 0;      ///< DXIL TessellatorDomain (HS/DS)
    bool min_precision = true;     ///< no native low precision: 16-bit types give a min precision
    bool validator_1_4 = false;    ///< validator < 1.5: no usage masks, i1 is "unknown"
};

/// The container elements of one signature. Names are borrowed from
/// `elements`.
std::vector<dxspv::SignatureElement> container_signature(std::span<const dxil::SignatureElement> elements,
                                                  SignatureKind kind, const SignatureOptions& options);

} // namespace dxspv::dxil

// DXIL module → DXBC container: the DXIL chunk (program header + bitcode
// from dxil::write_bitcode), ISG1/OSG1/PSG1 built from the entry point's
// signature metadata, and the checksum. When re-encoding a container, its
// other chunks are kept (SFI0, PSV0, RTS0, STAT, RDAT, VERS, ... describe
// what the program does, which re-encoding does not change) and a HASH of
// the bitcode is recomputed.
#include <cstring>

#include "container/checksum.h"
#include "container/container.h"
#include "container/program_header.h"
#include "container/signature.h"
#include "dxil/container/signatures.h"
#include "dxil/dxil.h"
#include "dxil/metadata.h"

namespace dxspv::dxil {

namespace {

constexpr uint32_t fourcc_dxil = container::fourcc("DXIL");
constexpr uint32_t fourcc_hash = container::fourcc("HASH");
constexpr uint32_t signature_fourccs[3] = {container::fourcc("ISG1"), container::fourcc("OSG1"),
                                           container::fourcc("PSG1")};

bool stage_of(std::string_view kind, ShaderStage& out)
{
    for (unsigned s = 0; s <= unsigned(ShaderStage::node); ++s) {
        if (kind == stage_short_name(ShaderStage(s))) {
            out = ShaderStage(s);
            return true;
        }
    }
    return false;
}

/// The signature chunks' data for the module's entry point (input, output,
/// patch constant); present[k] false for a chunk DXC does not write.
void build_signatures(const DxilMetadata& md, ShaderStage stage, std::vector<uint8_t> (&data)[3], bool (&present)[3])
{
    present[0] = present[1] = present[2] = false;
    if (uint32_t(stage) > uint32_t(ShaderStage::compute) && stage != ShaderStage::mesh &&
        stage != ShaderStage::amplification)
        return; // libraries, ray tracing and node shaders have no signature chunks
    const EntryPoint* entry = md.entry_points.empty() ? nullptr : &md.entry_points[0];
    SignatureOptions options;
    options.stage = stage;
    options.tess_domain = entry ? entry->tess_domain : 0;
    constexpr uint64_t native_low_precision = uint64_t(1) << 23;
    options.min_precision = !(entry && (entry->shader_flags & native_low_precision));
    bool before_1_5 = md.validator_major < 1 || (md.validator_major == 1 && md.validator_minor < 5);
    bool before_1_7 = md.validator_major < 1 || (md.validator_major == 1 && md.validator_minor < 7);
    options.validator_1_4 = before_1_5;
    static const dxil::SignatureList none;
    const dxil::SignatureList* lists[3] = {
        entry ? &entry->inputs : &none, entry ? &entry->outputs : &none, entry ? &entry->patch_constants : &none};
    // PSG1: patch constants of HS and DS; primitive outputs of a mesh shader that has any.
    bool patch = stage == ShaderStage::hull || stage == ShaderStage::domain ||
                 (stage == ShaderStage::mesh && !lists[2]->empty());
    for (unsigned k = 0; k < 3; ++k) {
        if (k == 2 && !patch)
            continue;
        auto elements = container_signature(*lists[k], SignatureKind(k), options);
        // Validators before 1.7 leave the name table unpadded.
        std::optional<uint8_t> padding;
        if (!before_1_7)
            padding = 0;
        data[k] = container::serialize_signature(elements, container::SignatureFormat::sg1, padding);
        present[k] = true;
    }
}

} // namespace

bool write_container(const Module& module, const container::Container* source, std::vector<uint8_t>& out,
                     Diagnostics& diags)
{
    out.clear();
    DxilMetadata md;
    if (!read_dxil_metadata(module, md, diags))
        return false;
    ShaderModel model;
    if (!stage_of(md.shader_kind, model.stage) || md.sm_major > 15 || md.sm_minor > 15) {
        diags.error(Code::dxil_container_metadata, Location::none(),
                    "!dx.shaderModel ('%s' %u.%u) names no shader kind the program header can hold",
                    md.shader_kind.c_str(), md.sm_major, md.sm_minor);
        return false;
    }
    model.major = uint8_t(md.sm_major);
    model.minor = uint8_t(md.sm_minor);
    if (md.dxil_major == 0 || md.dxil_major > 255 || md.dxil_minor > 255) {
        diags.error(Code::dxil_container_metadata, Location::none(), "!dx.version (%u.%u) is missing or out of range",
                    md.dxil_major, md.dxil_minor);
        return false;
    }
    std::vector<uint8_t> bitcode, program;
    if (!write_bitcode(module, bitcode, diags) ||
        !container::serialize_dxil_program(model, uint8_t(md.dxil_major), uint8_t(md.dxil_minor), bitcode, program,
                                           diags))
        return false;
    std::vector<uint8_t> signatures[3];
    bool present[3];
    build_signatures(md, model.stage, signatures, present);
    container::Checksum digest = container::md5(bitcode);
    std::vector<uint8_t> hash;

    std::vector<container::ChunkInput> chunks;
    bool placed[3] = {false, false, false};
    auto add_missing_signatures = [&] {
        for (unsigned k = 0; k < 3; ++k)
            if (present[k] && !placed[k]) {
                chunks.push_back({signature_fourccs[k], signatures[k]});
                placed[k] = true;
            }
    };
    if (source) {
        for (const container::Chunk& c : source->chunks) {
            if (c.fourcc == fourcc_dxil) {
                add_missing_signatures();
                chunks.push_back({fourcc_dxil, program});
                continue;
            }
            bool signature = false;
            for (unsigned k = 0; k < 3; ++k) {
                if (c.fourcc == signature_fourccs[k] && present[k]) {
                    chunks.push_back({c.fourcc, signatures[k]});
                    placed[k] = signature = true;
                }
            }
            if (signature)
                continue;
            if (c.fourcc == fourcc_hash && c.data.size() >= 20 && (c.data[0] & 1) == 0) {
                // A retail hash is the MD5 of the bitcode; a source hash (flag 1) stays valid.
                hash.assign(c.data.begin(), c.data.end());
                std::memcpy(hash.data() + 4, digest.data(), digest.size());
                chunks.push_back({c.fourcc, hash});
                continue;
            }
            chunks.push_back({c.fourcc, c.data});
        }
    }
    if (!source || !source->find(fourcc_dxil)) {
        add_missing_signatures();
        chunks.push_back({fourcc_dxil, program});
    }
    return container::serialize_container(chunks, out, diags);
}

} // namespace dxspv::dxil

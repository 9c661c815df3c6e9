#include "container/sfi0.h"

#include "common/byte_writer.h"
#include "container/chunk_util.h"

namespace dxspv::container {

bool parse_sfi0(const Chunk& chunk, uint64_t& flags, Diagnostics& diags)
{
    flags = 0;
    if (chunk.data.size() < 8) {
        diags.error(Code::sfi0_bad_size, Location::offset(chunk.offset), "the SFI0 chunk is %zu bytes, expected 8",
                    chunk.data.size());
        return false;
    }
    flags = load_le64(chunk.data.data());
    return true;
}

std::vector<uint8_t> serialize_sfi0(uint64_t flags)
{
    ByteWriter w;
    w.u64(flags);
    return std::move(w.bytes());
}

const char* sfi0_flag_name(unsigned bit)
{
    static const char* const names[] = {
        "Doubles",                                    // 0x1
        "ComputeShadersPlusRawAndStructuredBuffers",  // 0x2
        "UAVsAtEveryStage",                           // 0x4
        "64UAVs",                                     // 0x8
        "MinimumPrecision",                           // 0x10
        "11_1_DoubleExtensions",                      // 0x20
        "11_1_ShaderExtensions",                      // 0x40
        "Level9ComparisonFiltering",                  // 0x80
        "TiledResources",                             // 0x100
        "StencilRef",                                 // 0x200
        "InnerCoverage",                              // 0x400
        "TypedUAVLoadAdditionalFormats",              // 0x800
        "ROVs",                                       // 0x1000
        "ViewportAndRTArrayIndexFromAnyShader",       // 0x2000
        "WaveOps",                                    // 0x4000
        "Int64Ops",                                   // 0x8000
        "ViewID",                                     // 0x10000
        "Barycentrics",                               // 0x20000
        "NativeLowPrecision",                         // 0x40000
        "ShadingRate",                                // 0x80000
        "Raytracing_Tier_1_1",                        // 0x100000
        "SamplerFeedback",                            // 0x200000
        "AtomicInt64OnTypedResource",                 // 0x400000
        "AtomicInt64OnGroupShared",                   // 0x800000
        "DerivativesInMeshAndAmpShaders",             // 0x1000000
        "ResourceDescriptorHeapIndexing",             // 0x2000000
        "SamplerDescriptorHeapIndexing",              // 0x4000000
        "WaveMMA",                                    // 0x8000000
        "AtomicInt64OnHeapResource",                  // 0x10000000
        "AdvancedTextureOps",                         // 0x20000000
        "WriteableMSAATextures",                      // 0x40000000
        "SampleCmpGradientOrBias",                    // 0x80000000
        "ExtendedCommandInfo",                        // 0x100000000
    };
    if (bit < std::size(names))
        return names[bit];
    switch (bit) {
    case 40: return "UsesDerivatives";
    case 41: return "RequiresGroup";
    default: return nullptr;
    }
}

std::string sfi0_flags_string(uint64_t flags)
{
    if (!flags)
        return "none";
    std::string out;
    uint64_t unknown = 0;
    for (unsigned bit = 0; bit < 64; ++bit) {
        uint64_t mask = uint64_t(1) << bit;
        if (!(flags & mask))
            continue;
        const char* name = sfi0_flag_name(bit);
        if (!name) {
            unknown |= mask;
            continue;
        }
        if (!out.empty())
            out += " | ";
        out += name;
    }
    if (unknown) {
        if (!out.empty())
            out += " | ";
        out += strformat("0x%llx", static_cast<unsigned long long>(unknown));
    }
    return out;
}

} // namespace dxspv::container

// DXBC sources with SM4/5 tokens into VSIR: container → signatures →
// TPF reader.
#include "api/tpf_program.h"

#include "container/signature.h"
#include "tpf/reader.h"

namespace dxspv::api {

namespace {

using container::fourcc;

/// The chunks open_dxbc_tpf reads, by preference within each kind.
enum Wanted : unsigned { shex, shdr, dxil, isg1, isgn, osg1, osg5, osgn, psg1, pcsg, wanted_count };
constexpr uint32_t wanted_codes[wanted_count] = {fourcc("SHEX"), fourcc("SHDR"), fourcc("DXIL"), fourcc("ISG1"),
                                                 fourcc("ISGN"), fourcc("OSG1"), fourcc("OSG5"), fourcc("OSGN"),
                                                 fourcc("PSG1"), fourcc("PCSG")};

/// The first chunk of each wanted fourcc (as Container::find), in one pass
/// over the chunk table instead of a find per fourcc.
struct WantedChunks {
    const container::Chunk* chunk[wanted_count] = {};

    explicit WantedChunks(const container::Container& c)
    {
        for (const container::Chunk& ch : c.chunks)
            for (unsigned w = 0; w < wanted_count; ++w)
                if (ch.fourcc == wanted_codes[w]) {
                    if (!chunk[w])
                        chunk[w] = &ch;
                    break;
                }
    }
};

/// Signatures of the container into the program (the *1 forms preferred);
/// records which chunk kinds were read and whether their name tables were
/// padded, so write_dxbc_tpf can rebuild the same chunks.
bool read_signatures(const WantedChunks& found, vsir::Program& program, Diagnostics& diags)
{
    struct {
        Wanted kinds[3];
        std::vector<SignatureElement>* out;
    } kinds[] = {
        {{isg1, isgn, wanted_count}, &program.inputs},
        {{osg1, osg5, osgn}, &program.outputs},
        {{psg1, pcsg, wanted_count}, &program.patch_constants},
    };
    for (unsigned k = 0; k < 3; ++k) {
        for (Wanted w : kinds[k].kinds) {
            if (w == wanted_count)
                break;
            const container::Chunk* chunk = found.chunk[w];
            if (!chunk)
                continue;
            if (!container::parse_signature(*chunk, *kinds[k].out, diags))
                return false;
            program.signature_chunks[k] = wanted_codes[w];
            if (chunk->data.size() % 4)
                program.signature_unpadded |= uint8_t(1u << k);
            break;
        }
    }
    return true;
}

} // namespace

bool open_dxbc_tpf(std::span<const uint8_t> bytes, container::Chunk& shader, vsir::Program& program,
                   Diagnostics& diags)
{
    container::Container c;
    return container::parse_container(bytes, c, diags) && open_dxbc_tpf(c, shader, program, diags);
}

bool open_dxbc_tpf(const container::Container& c, container::Chunk& shader, vsir::Program& program,
                   Diagnostics& diags)
{
    const WantedChunks found(c);
    const container::Chunk* chunk = found.chunk[shex] ? found.chunk[shex] : found.chunk[shdr];
    if (!chunk) {
        diags.error(Code::api_no_shader_chunk, Location::none(), "the container has no SHDR/SHEX chunk%s",
                    found.chunk[dxil] ? " (it holds DXIL: use source type dxbc-dxil)" : "");
        return false;
    }
    shader = *chunk;
    return read_signatures(found, program, diags);
}

bool read_dxbc_tpf(std::span<const uint8_t> bytes, vsir::Program& program, Diagnostics& diags)
{
    container::Container c;
    return container::parse_container(bytes, c, diags) && read_dxbc_tpf(c, program, diags);
}

bool read_dxbc_tpf(const container::Container& c, vsir::Program& program, Diagnostics& diags)
{
    container::Chunk shader;
    return open_dxbc_tpf(c, shader, program, diags) && tpf::read_program(shader.data, shader.offset, program, diags);
}

} // namespace dxspv::api

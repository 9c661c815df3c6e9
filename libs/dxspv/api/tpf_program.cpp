// DXBC sources with SM4/5 tokens into VSIR: container → signatures →
// TPF reader.
#include "api/tpf_program.h"

#include "container/signature.h"
#include "tpf/reader.h"

namespace dxspv::api {

namespace {

/// Signatures of the container into the program (the *1 forms preferred);
/// records which chunk kinds were read and whether their name tables were
/// padded, so write_dxbc_tpf can rebuild the same chunks.
bool read_signatures(const container::Container& c, vsir::Program& program, Diagnostics& diags)
{
    struct {
        const char* names[3];
        std::vector<SignatureElement>* out;
    } kinds[] = {
        {{"ISG1", "ISGN", nullptr}, &program.inputs},
        {{"OSG1", "OSG5", "OSGN"}, &program.outputs},
        {{"PSG1", "PCSG", nullptr}, &program.patch_constants},
    };
    for (unsigned k = 0; k < 3; ++k) {
        for (const char* name : kinds[k].names) {
            if (!name)
                break;
            const container::Chunk* chunk = c.find(container::fourcc(name));
            if (!chunk)
                continue;
            if (!container::parse_signature(*chunk, *kinds[k].out, diags))
                return false;
            program.signature_chunks[k] = container::fourcc(name);
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
    if (!container::parse_container(bytes, c, diags))
        return false;
    const container::Chunk* chunk = c.find(container::fourcc("SHEX"));
    if (!chunk)
        chunk = c.find(container::fourcc("SHDR"));
    if (!chunk) {
        diags.error(Code::api_no_shader_chunk, Location::none(), "the container has no SHDR/SHEX chunk%s",
                    c.find(container::fourcc("DXIL")) ? " (it holds DXIL: use source type dxbc-dxil)" : "");
        return false;
    }
    shader = *chunk;
    return read_signatures(c, program, diags);
}

bool read_dxbc_tpf(std::span<const uint8_t> bytes, vsir::Program& program, Diagnostics& diags)
{
    container::Chunk shader;
    return open_dxbc_tpf(bytes, shader, program, diags) &&
           tpf::read_program(shader.data, shader.offset, program, diags);
}

} // namespace dxspv::api

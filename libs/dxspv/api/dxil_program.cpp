// DXIL sources into VSIR: container → program header → bitcode module →
// DXIL metadata → lowering (dxil/lower). The structurizer runs later, in
// the pipeline, like every pass.
#include "api/dxil_program.h"

#include "container/checksum.h"
#include "container/container.h"
#include "container/program_header.h"
#include "dxil/dxil.h"
#include "dxil/lower/lower.h"

namespace dxspv::api {

bool lower_dxil_module(const dxil::Module& module, const Request& req, vsir::Program& program, Diagnostics& diags)
{
    dxil::DxilMetadata metadata;
    if (!dxil::read_dxil_metadata(module, metadata, diags))
        return false;
    dxil::LowerOptions options;
    options.experimental_ops = req.experimental_ops;
    if (req.entry_point)
        options.entry = req.entry_point;
    return dxil::lower_module(module, metadata, options, program, diags);
}

bool open_dxbc_dxil(std::span<const uint8_t> bytes, container::ProgramHeader& header, Diagnostics& diags)
{
    container::Container c;
    if (!container::parse_container(bytes, c, diags))
        return false;
    if (container::verify_checksum(c.bytes) == container::ChecksumStatus::mismatch)
        diags.warning(Code::api_checksum_mismatch, Location::offset(container::checksum_offset),
                      "the container checksum does not match its contents");
    const container::Chunk* chunk = c.find(container::fourcc("DXIL"));
    if (!chunk) {
        diags.error(Code::api_no_shader_chunk, Location::none(), "the container has no DXIL chunk");
        return false;
    }
    return container::parse_dxil_header(*chunk, header, diags);
}

bool read_dxil_bitcode(const container::ProgramHeader& header, const Request& req, vsir::Program& program,
                       Diagnostics& diags)
{
    dxil::Module module;
    if (!dxil::read_module(header.bitcode, header.bitcode_offset, module, diags))
        return false;
    return lower_dxil_module(module, req, program, diags);
}

bool read_dxbc_dxil(const Request& req, vsir::Program& program, Diagnostics& diags)
{
    container::ProgramHeader header;
    return open_dxbc_dxil(req.source, header, diags) && read_dxil_bitcode(header, req, program, diags);
}

} // namespace dxspv::api

// DXIL sources into VSIR: the module (api/dxil_source.h: container or
// dxil-ll text), its DXIL metadata, then the lowering (dxil/lower). The
// structurizer runs later, in the pipeline, like every pass.
#include "api/dxil_program.h"

#include "common/scratch.h"
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

bool read_dxil_bitcode(const container::ProgramHeader& header, const Request& req, vsir::Program& program,
                       Diagnostics& diags)
{
    ScratchScope scratch; // the reader's and the lowering's containers (common/scratch.h); the program is the caller's
    dxil::Module module;
    if (!dxil::read_module(header.bitcode, header.bitcode_offset, module, diags, dxil::ReadDepth::lowering))
        return false;
    return lower_dxil_module(module, req, program, diags);
}

bool read_dxil(dxspv_source_type source, const Request& req, vsir::Program& program, Diagnostics& diags)
{
    ScratchScope scratch; // as in read_dxil_bitcode
    dxil::Module module;
    DxilSourceInfo info;
    if (!load_dxil_module(source, req.source, module, info, diags, dxil::ReadDepth::lowering))
        return false;
    return lower_dxil_module(module, req, program, diags);
}

} // namespace dxspv::api

// dxil::Module → dxbc-dxil container. The module is written back as it was
// read (no VSIR, no passes), so this is the path that turns DXIL tests
// written as .ll text into real containers, and re-encodes DXIL containers.
#include "api/dxil_target.h"

#include "dxil/dxil.h"

namespace dxspv::api {

dxspv_result write_dxil_target(const dxil::Module& module, const container::Container* source,
                               dxspv_target_type target, std::vector<uint8_t>& out, Diagnostics& diags)
{
    if (target != DXSPV_TARGET_TYPE_DXBC_DXIL) {
        diags.error(Code::api_unsupported_target, Location::none(), "a DXIL module cannot be written as %s",
                    dxspv_target_type_name(target));
        return DXSPV_ERROR_NOT_IMPLEMENTED;
    }
    return dxil::write_container(module, source, out, diags) ? DXSPV_OK : result_from_diagnostics(diags);
}

} // namespace dxspv::api

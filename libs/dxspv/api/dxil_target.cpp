// bytes → dxil::Module → dxbc-dxil container. The module is written back as
// it was read (no VSIR, no passes), so this is the path that turns DXIL
// tests written as .ll text into real containers, and re-encodes DXIL
// containers.
#include "api/dxil_target.h"

#include "container/checksum.h"
#include "container/program_header.h"
#include "dxil/dxil.h"

namespace dxspv::api {

namespace {

constexpr dxspv_target_type targets[] = {DXSPV_TARGET_TYPE_DXBC_DXIL};

/// A DXBC container with DXIL → its module (borrowing from the bytes).
bool read_dxbc_dxil(std::span<const uint8_t> bytes, container::Container& c, dxil::Module& module,
                    Diagnostics& diags)
{
    if (!container::parse_container(bytes, c, diags))
        return false;
    if (container::verify_checksum(c.bytes) == container::ChecksumStatus::mismatch)
        diags.warning(Code::api_checksum_mismatch, Location::offset(container::checksum_offset),
                      "the container checksum does not match its contents");
    const container::Chunk* chunk = c.find(container::fourcc("DXIL"));
    if (!chunk) {
        diags.error(Code::api_no_shader_chunk, Location::none(), "the container has no DXIL chunk%s",
                    c.find(container::fourcc("SHEX")) || c.find(container::fourcc("SHDR"))
                        ? " (it holds SM4/5 tokens: use source type dxbc-tpf)"
                        : "");
        return false;
    }
    container::ProgramHeader header;
    return container::parse_dxil_header(*chunk, header, diags) &&
           dxil::read_module(header.bitcode, header.bitcode_offset, module, diags);
}

} // namespace

std::span<const dxspv_target_type> dxil_module_targets() { return targets; }

bool is_dxil_module_target(dxspv_target_type target)
{
    for (dxspv_target_type t : targets)
        if (t == target)
            return true;
    return false;
}

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

dxspv_result translate_dxil_module(const Request& req, dxspv_source_type source, std::vector<uint8_t>& out,
                                   Diagnostics& diags)
{
    if (source != DXSPV_SOURCE_TYPE_DXBC_DXIL) {
        diags.error(Code::api_unsupported_source, Location::none(), "source type %s is not implemented yet for %s",
                    dxspv_source_type_name(source), dxspv_target_type_name(req.target_type));
        return DXSPV_ERROR_NOT_IMPLEMENTED;
    }
    container::Container c;
    dxil::Module module;
    if (!read_dxbc_dxil(req.source, c, module, diags))
        return result_from_diagnostics(diags);
    return write_dxil_target(module, &c, req.target_type, out, diags);
}

} // namespace dxspv::api

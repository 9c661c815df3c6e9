// Public entry points of the DXIL front end's module layer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnostics.h"
#include "dxil/module/module.h"

namespace dxspv::container {
struct Container;
}

namespace dxspv::dxil {

/// What read_module() keeps of a module.
enum class ReadDepth : uint8_t {
    /// Everything: what printing or writing the module back needs.
    whole,
    /// What lowering to VSIR needs: the parameter attribute blocks and the
    /// functions' metadata attachment blocks are skipped without being
    /// decoded (their bytes unchecked), and so are the operands of the
    /// target triple, data layout and struct name records. Every function
    /// and call then has no attributes, no instruction an attachment, the
    /// module no triple or data layout and no struct a name.
    lowering,
};

/// Reads LLVM bitcode (the DXIL chunk's bitcode span) into `module`.
/// `bitcode_offset_in_container` is added to diagnostic offsets.
bool read_module(std::span<const uint8_t> bitcode, uint32_t bitcode_offset_in_container, Module& module,
                 Diagnostics& diags, ReadDepth depth = ReadDepth::whole);

/// Reads LLVM 3.7 IR text (as `dxc -dumpbin` and print_module write it) into
/// `module`, numbering values as read_module does. Diagnostics carry
/// line:column locations. False on any error.
bool parse_module_text(std::string_view text, Module& module, Diagnostics& diags);
/// Writes `module` as LLVM 3.7 bitcode (relative value ids, the record
/// layout and abbreviations of DXC's writer). Errors (8019, 8020) name what
/// cannot be encoded; `out` is then empty.
bool write_bitcode(const Module& module, std::vector<uint8_t>& out, Diagnostics& diags);

/// Writes `module` as a DXBC container: the DXIL chunk (program header
/// from !dx.shaderModel and !dx.version, the bitcode), ISG1/OSG1/PSG1 from
/// the entry point's signature metadata, the checksum. With `source` (the
/// container the module was read from) its other chunks are kept in their
/// order, a retail HASH recomputed. Missing metadata gives 8021.
bool write_container(const Module& module, const container::Container* source, std::vector<uint8_t>& out,
                     Diagnostics& diags);

/// Prints `module` as LLVM 3.7 IR text, as DXC's disassembler does.
std::string print_module(const Module& module);

} // namespace dxspv::dxil

// Public entry points of the DXIL front end's module layer.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/diagnostics.h"
#include "dxil/module/module.h"

namespace dxspv::dxil {

/// Reads LLVM bitcode (the DXIL chunk's bitcode span) into `module`.
/// `bitcode_offset_in_container` is added to diagnostic offsets.
bool read_module(std::span<const uint8_t> bitcode, uint32_t bitcode_offset_in_container, Module& module,
                 Diagnostics& diags);

/// Reads LLVM 3.7 IR text (as `dxc -dumpbin` and print_module write it) into
/// `module`, numbering values as read_module does. Diagnostics carry
/// line:column locations. False on any error.
bool parse_module_text(std::string_view text, Module& module, Diagnostics& diags);

/// Prints `module` as LLVM 3.7 IR text, as DXC's disassembler does.
std::string print_module(const Module& module);

} // namespace dxspv::dxil

// Shared helpers of the text/writer unit tests: token bytes, read back,
// print for comparison.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/diagnostics.h"
#include "tpf/reader.h"
#include "tpf/writer.h"
#include "vsir/printer.h"

namespace text_test {

inline std::vector<uint8_t> to_bytes(const std::vector<uint32_t>& tokens)
{
    std::vector<uint8_t> bytes(tokens.size() * 4);
    for (size_t i = 0; i < tokens.size(); ++i)
        for (unsigned b = 0; b < 4; ++b)
            bytes[4 * i + b] = uint8_t(tokens[i] >> (8 * b));
    return bytes;
}

inline std::string print(const dxspv::vsir::Program& p)
{
    dxspv::vsir::PrintOptions options;
    options.show_types = true;
    return dxspv::vsir::print_program(p, options);
}

/// write -> read; returns the printed result ("" and messages in `diags` on failure).
inline std::string write_and_read(const dxspv::vsir::Program& p, dxspv::Diagnostics& diags)
{
    std::vector<uint32_t> tokens;
    if (!dxspv::tpf::write_program(p, tokens, diags))
        return "";
    std::vector<uint8_t> bytes = to_bytes(tokens);
    dxspv::vsir::Program back;
    if (!dxspv::tpf::read_program(bytes, 0, back, diags))
        return "";
    return print(back);
}

} // namespace text_test

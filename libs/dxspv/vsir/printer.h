// vsir-text: a readable, stable, line-per-instruction dump of a VSIR
// program, close to d3d-asm. The syntax is specified in VSIR.md
// ("vsir-text"). The printer never reads outside the program's pools, so it
// can print the invalid programs the validator reports on.
#pragma once

#include <cstdint>
#include <string>

#include "vsir/ir.h"

namespace dxspv::vsir {

struct PrintOptions {
    /// Append `:type` to every non-immediate register (immediates always
    /// show their type; see VSIR.md).
    bool show_types = false;
};

/// The whole program: header line, signature comment block, then one line
/// per instruction indented by structured nesting. Ends with a newline.
std::string print_program(const Program& program, const PrintOptions& options = {});

/// One instruction, without indentation or newline; "<invalid instruction N>"
/// when `index` is out of range.
std::string print_instruction(const Program& program, uint32_t index, const PrintOptions& options = {});

} // namespace dxspv::vsir

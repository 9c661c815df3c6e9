// The signature comment blocks of d3d-asm text: the input, output and patch
// constant signatures printed as fxc prints them (`// Input signature:` and a
// Name / Index / Mask / Register / SysValue / Format / Used table), plus a
// compact `// dxspv-signature:` line for what the table cannot show (the
// chunk kind, an unpadded name table, streams, minimum precision, and any
// field the table would read back differently). Private to text/.
#pragma once

#include <string>
#include <string_view>

#include "common/diagnostics.h"
#include "vsir/ir.h"

namespace dxspv::text {

/// Appends the signature blocks of `program` (those it has elements or a
/// recorded chunk for) to `out`, every line a `//` comment.
void print_signatures(const vsir::Program& program, std::string& out);

/// Reads the signature blocks among the comment lines of `text` into
/// program.inputs / outputs / patch_constants and signature_chunks (names
/// interned in program.arena). Text without blocks leaves them untouched.
/// Returns false after reporting a malformed block.
bool parse_signatures(std::string_view text, vsir::Program& program, Diagnostics& diags);

} // namespace dxspv::text

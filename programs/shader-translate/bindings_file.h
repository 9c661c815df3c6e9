// The binding-map file of `shader-translate --bindings FILE`: one entry per
// line, `key=value` words after the kind, `#` comments:
//
//   srv|uav|cbv|sampler space=S register=R[..L|..*] [visibility=V] set=N binding=M
//   cbv space=S register=R [visibility=V] push_constant=OFFSET
//   counter space=S register=R [visibility=V] set=N binding=M
//   strict
//
// V is all (default), vs, hs, ds, gs, ps, as or ms. `R..L` covers registers
// R to L, `R..*` to the end of the space. `strict` makes a descriptor no
// entry covers an error instead of using the default mapping.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dxspv/dxspv.h"

namespace shader_translate {

struct BindingFile {
    std::vector<dxspv_descriptor_binding> bindings;
    std::vector<dxspv_counter_binding> counters;
    uint32_t flags = 0; ///< dxspv_interface_flags

    /// The interface info pointing into this object.
    dxspv_interface_info interface_info(const void* next = nullptr) const;
};

/// Parses the text of a binding file; on error returns false with `error`
/// as `name:line: message`.
bool parse_binding_file(std::string_view text, std::string_view name, BindingFile& out, std::string& error);

} // namespace shader_translate

// Prints a dxil::Module as LLVM 3.7 IR text, in the form DXC's
// disassembler (`dxc -dumpbin`) prints: typed pointers, attribute groups,
// metadata numbered in the order LLVM's slot tracker gives them.
#pragma once

#include <string>

#include "dxil/module/module.h"

namespace dxspv::dxil {

/// The whole module as text. Deterministic.
std::string print_module(const Module& module);

/// Text of one type (`i32`, `%dx.types.Handle*`, `[4 x float]`, ...).
std::string print_type(const Module& module, TypeId type);

} // namespace dxspv::dxil

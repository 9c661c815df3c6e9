// remove_nops: drop nop instructions in one compacting walk. Nops own no
// parameters (opcodes.def: 0 dsts, 0 srcs) and are never jump targets, so
// nothing else needs renumbering.
#include "vsir/passes/passes.h"

namespace dxspv::vsir {

bool remove_nops(Program& program, Diagnostics&)
{
    auto& instructions = program.instructions;
    size_t kept = 0; // instructions before the first nop stay where they are, unwritten
    while (kept < instructions.size() && instructions[kept].opcode != Opcode::nop)
        ++kept;
    for (size_t i = kept; i < instructions.size(); ++i)
        if (instructions[i].opcode != Opcode::nop)
            instructions[kept++] = instructions[i];
    instructions.resize(kept);
    return true;
}

} // namespace dxspv::vsir

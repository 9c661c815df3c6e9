// Which specialization constants a program's SPIR-V declares, without
// emitting it (for reflection; the emitter creates them in images.cpp).
#include "spirv/emit.h"
#include "vsir/ir.h"

namespace dxspv::spirv {

uint32_t specialization_constants_used(const vsir::Program& program)
{
    uint32_t used = 0;
    for (const vsir::Instruction& ins : program.instructions) {
        if (ins.opcode != vsir::Opcode::sampleinfo && ins.opcode != vsir::Opcode::samplepos)
            continue;
        if (ins.src_count >= 1 && ins.src_first < program.srcs.size()
            && program.src(ins, 0).reg.file == vsir::RegisterFile::rasterizer)
            used |= 1u << spec_id_rasterizer_sample_count;
    }
    return used;
}

} // namespace dxspv::spirv

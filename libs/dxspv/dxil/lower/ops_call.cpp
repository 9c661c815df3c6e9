// DXIL lowering: calls. A `dx.op.*` call is looked up in the op table (which
// also enforces the experimental-op rules) and dispatched to its family; a
// call of a function defined in the module is inlined (inline.cpp); anything
// else is an unsupported call.
#include "dxil/lower/context.h"

namespace dxspv::dxil::lower {

void Lowerer::lower_call(const Instruction& inst)
{
    if (inst.operands.empty())
        return;
    const Function* callee = function_of(inst.operands[0]);
    if (!callee) {
        unsupported("call through", "a function pointer");
        return;
    }
    std::string_view name = callee->name;
    if (name.substr(0, 14) == "llvm.lifetime.")
        return; // lifetime markers of allocas: nothing to do
    if (name.substr(0, 6) != "dx.op.") {
        if (!callee->is_declaration) {
            inline_call(*callee, inst);
            return;
        }
        std::string n(name);
        unsupported("call of function", n.c_str(), "it is declared but not defined in the module");
        return;
    }
    uint32_t opcode = 0;
    if (!constant_u32(arg(inst, 0), opcode)) {
        error(Code::dxil_lower_bad_operand, "a dx.op call whose opcode is not a constant");
        return;
    }
    size_t before = diags_.error_count();
    const ops::OpInfo* info = ops::lookup(opcode, options_.experimental_ops, diags_, Location::instruction(inst_index_));
    if (!info) {
        errors_ += uint32_t(diags_.error_count() - before);
        return;
    }
    ops::OpId op = info->id();
    if (lower_io_op(op, inst) || lower_math_op(op, inst) || lower_wave_op(op, inst) || lower_handle_op(op, inst) ||
        lower_resource_op(op, inst) || lower_vector_op(op, inst) || lower_vector_buffer_op(op, inst))
        return;
    switch (op) {
    case ops::OpId::WriteSamplerFeedback:
    case ops::OpId::WriteSamplerFeedbackBias:
    case ops::OpId::WriteSamplerFeedbackLevel:
    case ops::OpId::WriteSamplerFeedbackGrad:
        unsupported("DXIL op", info->name,
            "sampler feedback has no Vulkan or SPIR-V equivalent (no feedback map resource to write)");
        return;
    default: unsupported("DXIL op", info->name);
    }
}

} // namespace dxspv::dxil::lower

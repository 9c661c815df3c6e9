// lower_phis: replaces every `phi sr#, [v0, l0], ...` of an unstructured
// program by a fresh temp r# (one per phi, same data type; .x for 32-bit
// and narrower values, .xy for 64-bit ones): `mov r#, v` at the end of each
// predecessor block (before its terminator) and `mov sr#, r#` where the phi
// was, at the start of its block.
//
// Each phi has its own temp, written only just before the edges into its
// block and read only at the block's start, so the copies of one block
// never clobber another's, the "swap" and "lost copy" problems cannot
// arise, and an edge never needs splitting: a predecessor reaching the
// block through several edges (a switch with two cases to it, a branch with
// equal targets) carries one value (SSA requires it; a phi listing one
// predecessor twice with different values is refused), and the copies a
// block with several successors makes for one successor are dead on its
// other edges. Structured programs are left alone.
#include <algorithm>
#include <cstring>

#include "common/scratch.h"
#include "common/stable_sort.h"

#include "vsir/passes/passes.h"

namespace dxspv::vsir {

namespace {

bool is_64bit(DataType type)
{
    return type == DataType::f64 || type == DataType::i64 || type == DataType::u64;
}

/// Whether terminator `term` jumps to label `to`.
bool jumps_to(const Program& program, const Instruction& term, uint32_t to)
{
    auto is = [&](uint32_t k) {
        const Register& reg = program.src(term, k).reg;
        return reg.file == RegisterFile::label && reg.index_count >= 1 && reg.idx[0].offset == to;
    };
    if (term.opcode == Opcode::branch)
        return term.src_count == 1 ? is(0) : term.src_count == 3 && (is(1) || is(2));
    if (term.opcode != Opcode::switch_monolithic || term.src_count < 2)
        return false;
    if (is(1))
        return true;
    for (uint32_t k = 3; k < term.src_count; k += 2)
        if (is(k))
            return true;
    return false;
}

bool operands_in_pools(const Program& program, const Instruction& ins)
{
    return uint64_t(ins.src_first) + ins.src_count <= program.srcs.size() &&
           uint64_t(ins.dst_first) + ins.dst_count <= program.dsts.size();
}

bool same_source(const SrcParam& a, const SrcParam& b)
{
    return std::memcmp(&a, &b, sizeof(SrcParam)) == 0;
}

/// A copy into a phi's temp, made before terminator `at`.
struct Copy {
    uint32_t at;
    uint32_t temp;
    DataType type;
    uint32_t value; ///< index into Program::srcs
};

Register temp_register(uint32_t index, DataType type)
{
    const uint32_t idx[] = {index};
    return make_register(RegisterFile::temp, type, Dimension::vec4, idx);
}

} // namespace

bool lower_phis(Program& program, Diagnostics& diags)
{
    if (program.control_flow != ControlFlow::unstructured)
        return true;
    const uint32_t count = uint32_t(program.instructions.size());
    bool any_phi = false;
    for (uint32_t i = 0; i < count; ++i) {
        const Instruction& ins = program.instructions[i];
        if (!operands_in_pools(program, ins)) {
            diags.error(Code::vsir_operand_range, Location::instruction(i), "operands outside the parameter pools");
            return false;
        }
        any_phi |= ins.opcode == Opcode::phi;
    }
    if (!any_phi)
        return true; // the operands were not read
    ScratchScope scratch; // the tables and the new code (common/scratch.h); the program is the caller's
    // Terminator of each label's block.
    ScratchVector<uint32_t> terminator(program.label_count, invalid_index);
    uint32_t block = invalid_index;
    for (uint32_t i = 0; i < count; ++i) {
        const Instruction& ins = program.instructions[i];
        if (ins.opcode == Opcode::label && ins.src_count == 1)
            block = program.src(ins, 0).reg.idx[0].offset;
        else if ((ins.opcode == Opcode::branch || ins.opcode == Opcode::switch_monolithic || ins.opcode == Opcode::ret) &&
                 block < terminator.size())
            terminator[block] = i;
    }

    ScratchVector<Copy> copies;
    ScratchVector<uint32_t> phi_temp(count, invalid_index);
    ScratchVector<uint32_t> copy_phi(count, invalid_index), copy_index(count, 0); // per terminator
    bool ok = true;
    for (uint32_t i = 0; i < count; ++i) {
        const Instruction& ins = program.instructions[i];
        if (ins.opcode == Opcode::label && ins.src_count == 1)
            block = program.src(ins, 0).reg.idx[0].offset;
        if (ins.opcode != Opcode::phi || ins.dst_count != 1)
            continue;
        const DataType type = program.dst(ins, 0).reg.type;
        const uint32_t temp = program.temp_count++;
        phi_temp[i] = temp;
        for (uint32_t k = 0; k + 1 < ins.src_count; k += 2) {
            const Register& pred = program.src(ins, k + 1).reg;
            const uint32_t id = pred.index_count >= 1 ? pred.idx[0].offset : invalid_index;
            const uint32_t at = id < terminator.size() ? terminator[id] : invalid_index;
            if (at == invalid_index || !jumps_to(program, program.instructions[at], block)) {
                diags.error(Code::cfg_phi_predecessor, Location::instruction(i),
                    "phi in block l%u names l%u, which does not jump to l%u", block, id, block);
                ok = false;
                continue;
            }
            if (copy_phi[at] != i) { // first time this phi names the predecessor
                copy_phi[at] = i;
                copy_index[at] = uint32_t(copies.size());
                copies.push_back({at, temp, type, ins.src_first + k});
            } else if (!same_source(program.srcs[copies[copy_index[at]].value], program.src(ins, k))) {
                diags.error(Code::cfg_phi_conflict, Location::instruction(i),
                    "phi in block l%u lists predecessor l%u twice with different values", block, id);
                ok = false;
            }
        }
    }
    if (!ok)
        return false;

    stable_sort_short(copies.begin(), copies.end(), [](const Copy& a, const Copy& b) { return a.at < b.at; });
    ScratchVector<Instruction> out;
    out.reserve(count + copies.size());
    size_t next = 0;
    for (uint32_t i = 0; i < count; ++i) {
        Instruction ins = program.instructions[i];
        for (; next < copies.size() && copies[next].at == i; ++next) {
            const Copy& c = copies[next];
            Instruction mov;
            mov.opcode = Opcode::mov;
            mov.location = ins.location;
            mov.dst_count = mov.src_count = 1;
            mov.dst_first = uint32_t(program.dsts.size());
            mov.src_first = c.value;
            DstParam& d = program.dsts.emplace_back();
            d.reg = temp_register(c.temp, c.type);
            d.write_mask = is_64bit(c.type) ? 0x3 : 0x1;
            out.push_back(mov);
        }
        if (ins.opcode == Opcode::phi && phi_temp[i] != invalid_index) {
            // mov sr#, r# (the phi's destination stays in place).
            const DataType type = program.dst(ins, 0).reg.type;
            SrcParam& s = program.srcs.emplace_back();
            s.reg = temp_register(phi_temp[i], type);
            s.swizzle = is_64bit(type) ? make_swizzle(0, 1, 0, 1) : make_swizzle(0, 0, 0, 0);
            ins.opcode = Opcode::mov;
            ins.src_first = uint32_t(program.srcs.size() - 1);
            ins.src_count = 1;
        }
        out.push_back(ins);
    }
    // Into the program's array (recycled from program to program), not in
    // its place.
    program.instructions.assign(out.begin(), out.end());
    return true;
}

} // namespace dxspv::vsir

// Unstructured VSIR generators for the scaling mode (scaling.h): the shape
// of what the DXIL front end gives (label / branch / switch_monolithic /
// ret), built directly, so the structurizer and emitter can be measured on
// sizes no corpus file has. Temps only: r0 is worked on, r1.x decides the
// branches.
#include "scaling.h"

#include <algorithm>

#include "vsir/ir.h"

namespace bench {

namespace {

using namespace dxspv::vsir;

SrcParam temp_x(uint32_t index)
{
    SrcParam s;
    const uint32_t idx[] = {index};
    s.reg = make_register(RegisterFile::temp, DataType::u32, Dimension::vec4, idx);
    s.swizzle = make_swizzle(0, 0, 0, 0);
    return s;
}

SrcParam imm(uint32_t value)
{
    SrcParam s;
    s.reg = make_immediate(DataType::u32, value);
    s.swizzle = make_swizzle(0, 0, 0, 0);
    return s;
}

SrcParam label(uint32_t id)
{
    SrcParam s;
    const uint32_t idx[] = {id};
    s.reg = make_register(RegisterFile::label, DataType::opaque, Dimension::none, idx);
    return s;
}

class CfgWriter {
public:
    explicit CfgWriter(Program& p) : p_(p)
    {
        p_.model = {dxspv::ShaderStage::compute, 6, 0};
        p_.control_flow = ControlFlow::unstructured;
        p_.temp_count = 2;
        Declaration& d = p_.add_declaration(p_.add_instruction(Opcode::dcl_thread_group, 0, 0));
        d.thread_group[0] = d.thread_group[1] = d.thread_group[2] = 1;
    }

    /// Starts block `id` with `work` instructions (iadd r0.x, r0.x, l(id)).
    void block(uint32_t id, uint32_t work = 1)
    {
        use(id);
        add(Opcode::label, false, {label(id)});
        for (uint32_t i = 0; i < work; ++i)
            add(Opcode::iadd, true, {temp_x(0), imm(id + i)});
    }
    void jump(uint32_t target)
    {
        use(target);
        add(Opcode::branch, false, {label(target)});
    }
    void branch(uint32_t on_true, uint32_t on_false)
    {
        use(on_true);
        use(on_false);
        add(Opcode::branch, false, {temp_x(1), label(on_true), label(on_false)}, flag_test_nonzero);
    }
    /// switch r1.x over `cases` (case value i -> first + i), default -> d.
    void switch_n(uint32_t first, uint32_t cases, uint32_t d)
    {
        use(d);
        if (cases)
            use(first + cases - 1);
        const uint32_t i = p_.add_instruction(Opcode::switch_monolithic, 0, 2 + 2 * cases);
        Instruction& ins = p_.instructions[i];
        p_.src(ins, 0) = temp_x(1);
        p_.src(ins, 1) = label(d);
        for (uint32_t k = 0; k < cases; ++k) {
            p_.src(ins, 2 + 2 * k) = imm(k);
            p_.src(ins, 3 + 2 * k) = label(first + k);
        }
    }
    void ret() { add(Opcode::ret, false, {}); }

private:
    void use(uint32_t id)
    {
        if (p_.label_count <= id)
            p_.label_count = id + 1;
    }
    void add(Opcode op, bool writes_r0, std::initializer_list<SrcParam> srcs, uint32_t flags = 0)
    {
        const uint32_t i = p_.add_instruction(op, writes_r0 ? 1 : 0, uint32_t(srcs.size()));
        Instruction& ins = p_.instructions[i];
        ins.flags = flags;
        if (writes_r0) {
            DstParam& d = p_.dst(ins, 0);
            const uint32_t idx[] = {0};
            d.reg = make_register(RegisterFile::temp, DataType::u32, Dimension::vec4, idx);
            d.write_mask = 1;
        }
        uint32_t k = 0;
        for (const SrcParam& s : srcs)
            p_.src(ins, k++) = s;
    }

    Program& p_;
};

} // namespace

void generate_cfg_blocks(uint32_t blocks, Program& program)
{
    CfgWriter w(program);
    const uint32_t last = blocks - 1;
    uint32_t b = 0;
    for (uint32_t k = 0; b + 4 < last; ++k) {
        switch (k % 4) {
        case 0: // diamond
            w.block(b), w.branch(b + 1, b + 2);
            w.block(b + 1), w.jump(b + 3);
            w.block(b + 2), w.jump(b + 3);
            b += 3;
            break;
        case 1: // while loop with a break to the end
            w.block(b), w.jump(b + 1);
            w.block(b + 1), w.branch(b + 2, b + 3);
            w.block(b + 2), w.branch(b + 1, last);
            b += 3;
            break;
        case 2: // switch whose case 0 falls into case 1, both meeting the default
            w.block(b), w.switch_n(b + 1, 2, b + 3); // 0 -> b+1, 1 -> b+2
            w.block(b + 1), w.jump(b + 2);
            w.block(b + 2), w.jump(b + 3);
            b += 3;
            break;
        default: // early exit
            w.block(b), w.branch(last, b + 1);
            b += 1;
            break;
        }
    }
    for (; b < last; ++b)
        w.block(b), w.jump(b + 1);
    w.block(last), w.ret();
}

void generate_cfg_switch(uint32_t cases, Program& program)
{
    // Block 0 switches to case blocks 1..cases; an odd case falls into the
    // next one, a case divisible by 8 returns early, the others break to
    // the merge block cases+1 (also the default).
    cases = std::min(cases, (max_src_count - 2) / 2); // the switch's sources: selector, default, 2 per case
    CfgWriter w(program);
    const uint32_t merge = cases + 1;
    w.block(0), w.switch_n(1, cases, merge);
    for (uint32_t k = 1; k <= cases; ++k) {
        w.block(k);
        if (k % 8 == 0)
            w.ret();
        else
            w.jump(k % 2 == 1 && k < cases ? k + 1 : merge);
    }
    w.block(merge), w.ret();
}

void generate_cfg_instructions(uint32_t n, Program& program)
{
    CfgWriter w(program);
    w.block(0, n > 2 ? n - 2 : 0);
    w.ret();
}

void generate_cfg_nesting(uint32_t depth, Program& program)
{
    // Blocks 0..depth-1 are the loop headers, depth the innermost body,
    // depth+1 the exit, depth+1+i the latch that continues loop i-1.
    CfgWriter w(program);
    w.block(2 * depth + 1), w.jump(0);
    for (uint32_t i = 0; i < depth; ++i)
        w.block(i), w.branch(i + 1, depth + 1 + i);
    w.block(depth), w.jump(depth - 1);
    w.block(depth + 1), w.ret();
    for (uint32_t i = 1; i < depth; ++i)
        w.block(depth + 1 + i), w.jump(i - 1);
}

} // namespace bench

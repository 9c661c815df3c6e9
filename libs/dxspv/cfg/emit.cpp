// Emits the structure tree as structured VSIR.
//
// loop -> `loop ... endloop`; scope -> `switch l(0) default ... endswitch`
// (breakable, but transparent to `continue`, so a continue of an enclosing
// loop crosses it directly); switch_ -> `switch sel case ... endswitch`;
// if_ -> `if ... [else ...] endif`; a block's instructions are copied
// without its label and terminator (operands stay where they are in the
// pools; only new instructions add operands).
//
// A jump is direct when `break` / `continue` reaches its target: the target
// is the innermost breakable construct (break), or no loop lies between the
// jump and its target loop (continue). Otherwise it is a multilevel jump:
// `mov jt, code; break` with code = (target id << 1) | is_continue, target
// id = tree node + 1 (0 means no jump in flight). The constructs it leaves
// get trampolines after their end, in this order:
//   ieq t, jt, l(continue code); if_nz t; mov jt, l(0); continue; endif
//   ieq t, jt, l(break code);    if_nz t; mov jt, l(0); break; endif
//   ine t, jt, l(0); breakc_nz t            (keep leaving)
// the first two where the jump arrives, the last where it passes through.
#include "cfg/stages.h"

namespace dxspv::cfg {

namespace {

using vsir::DataType;
using vsir::Opcode;

class TreeEmitter {
public:
    TreeEmitter(vsir::Program& p, const Graph& g, const Tree& t, uint32_t reg, InstructionList& out,
        StructurizeStats& stats)
        : p_(p), g_(g), t_(t), reg_(reg), out_(out), stats_(stats)
    {
    }

    bool run()
    {
        push_children(0);
        while (!work_.empty()) {
            Item item = work_.back();
            work_.pop_back();
            switch (item.action) {
            case Action::node: visit(item.node); break;
            case Action::else_: add(Opcode::else_); break;
            case Action::close_if: add(Opcode::endif); break;
            case Action::arm_labels: arm_labels(item.node); break;
            case Action::close: close(item.node); break;
            }
        }
        return used_;
    }

private:
    enum class Action : uint8_t { node, else_, close_if, arm_labels, close };
    struct Item {
        Action action;
        uint32_t node;
    };
    /// An open breakable construct and the trampoline it needs.
    struct Open {
        uint32_t node;
        bool loop;
        bool propagate = false;
        bool arrive_break = false, arrive_continue = false;
        uint32_t break_code = 0, continue_code = 0;
    };

    void push_children(uint32_t list)
    {
        for (uint32_t n = t_.nodes[list].last; n != none; n = t_.nodes[n].prev)
            work_.push_back({Action::node, n});
    }

    vsir::Instruction& add(Opcode op, uint32_t flags = 0)
    {
        vsir::Instruction& ins = out_.emplace_back();
        ins.opcode = op;
        ins.flags = flags;
        return ins;
    }
    /// An instruction reading one existing source of the pool.
    void add_reading(Opcode op, uint32_t src, uint32_t flags = 0)
    {
        vsir::Instruction& ins = add(op, flags);
        ins.src_first = src;
        ins.src_count = 1;
    }
    vsir::Instruction& add_with(Opcode op, uint32_t dsts, uint32_t srcs, uint32_t flags = 0)
    {
        vsir::Instruction& ins = add(op, flags);
        ins.dst_first = uint32_t(p_.dsts.size());
        ins.dst_count = uint8_t(dsts);
        ins.src_first = uint32_t(p_.srcs.size());
        ins.src_count = uint16_t(srcs);
        p_.dsts.resize(p_.dsts.size() + dsts);
        p_.srcs.resize(p_.srcs.size() + srcs);
        return ins;
    }

    vsir::Register temp(DataType type) const
    {
        const uint32_t index[] = {reg_};
        return vsir::make_register(vsir::RegisterFile::temp, type, vsir::Dimension::vec4, index);
    }
    vsir::SrcParam temp_src(DataType type, unsigned component) const
    {
        vsir::SrcParam s;
        s.reg = temp(type);
        s.swizzle = vsir::make_swizzle(component, component, component, component);
        return s;
    }
    static vsir::SrcParam immediate(DataType type, uint32_t value)
    {
        vsir::SrcParam s;
        s.reg = vsir::make_immediate(type, value);
        s.swizzle = vsir::make_swizzle(0, 0, 0, 0);
        return s;
    }

    /// mov jt, l(value)
    void set_jump_target(uint32_t value)
    {
        vsir::Instruction& ins = add_with(Opcode::mov, 1, 1);
        p_.dsts[ins.dst_first].reg = temp(DataType::u32);
        p_.dsts[ins.dst_first].write_mask = 1;
        p_.srcs[ins.src_first] = immediate(DataType::u32, value);
        used_ = true;
    }
    /// ieq / ine t, jt, l(value)
    void compare_jump_target(Opcode op, uint32_t value)
    {
        vsir::Instruction& ins = add_with(op, 1, 2);
        p_.dsts[ins.dst_first].reg = temp(DataType::u32);
        p_.dsts[ins.dst_first].write_mask = 2;
        p_.srcs[ins.src_first] = temp_src(DataType::i32, 0);
        p_.srcs[ins.src_first + 1] = immediate(DataType::i32, value);
    }
    void test(Opcode op)
    {
        vsir::Instruction& ins = add_with(op, 0, 1, vsir::flag_test_nonzero);
        p_.srcs[ins.src_first] = temp_src(DataType::u32, 1);
    }

    void visit(uint32_t n)
    {
        const Node& node = t_.nodes[n];
        switch (node.kind) {
        case NodeKind::block: {
            const Block& b = g_.blocks[node.block];
            if (node.is_copy)
                copy_block(b);
            else
                out_.insert(out_.end(), p_.instructions.begin() + b.first + 1, p_.instructions.begin() + b.terminator);
            break;
        }
        case NodeKind::jump: jump(node); break;
        case NodeKind::if_: {
            ++stats_.selections;
            add_reading(Opcode::if_, node.cond, node.test_nonzero ? uint32_t(vsir::flag_test_nonzero) : 0u);
            work_.push_back({Action::close_if, n});
            uint32_t else_arm = t_.else_arm(n);
            if (t_.nodes[else_arm].first != none) {
                push_children(else_arm);
                work_.push_back({Action::else_, n});
            }
            push_children(t_.then_arm(n));
            break;
        }
        case NodeKind::switch_:
            ++stats_.switches;
            add_reading(Opcode::switch_, node.cond);
            open(n, false);
            for (uint32_t arm = node.last; arm != none; arm = t_.nodes[arm].prev) {
                push_children(arm);
                work_.push_back({Action::arm_labels, arm});
            }
            break;
        case NodeKind::loop:
            ++stats_.loops;
            add(Opcode::loop);
            open(n, true);
            push_children(n);
            break;
        case NodeKind::scope: {
            ++stats_.scopes;
            vsir::Instruction& sw = add_with(Opcode::switch_, 0, 1);
            p_.srcs[sw.src_first] = immediate(DataType::u32, 0);
            add(Opcode::default_);
            open(n, false);
            push_children(n);
            break;
        }
        default: break;
        }
    }

    /// A second copy of a block's code, with its own operands (so later
    /// passes may edit either copy).
    void copy_block(const Block& b)
    {
        for (uint32_t i = b.first + 1; i < b.terminator; ++i) {
            vsir::Instruction ins = p_.instructions[i];
            const uint32_t dst_first = uint32_t(p_.dsts.size()), src_first = uint32_t(p_.srcs.size());
            for (uint32_t k = 0; k < ins.dst_count; ++k)
                p_.dsts.push_back(p_.dsts[ins.dst_first + k]);
            for (uint32_t k = 0; k < ins.src_count; ++k)
                p_.srcs.push_back(p_.srcs[ins.src_first + k]);
            ins.dst_first = dst_first;
            ins.src_first = src_first;
            out_.push_back(ins);
        }
    }

    void open(uint32_t n, bool loop)
    {
        open_.push_back({n, loop});
        work_.push_back({Action::close, n});
    }

    void arm_labels(uint32_t arm)
    {
        const Node& a = t_.nodes[arm];
        for (uint32_t k = 1; k <= t_.cases[a.cases]; ++k)
            add_reading(Opcode::case_, t_.cases[a.cases + k]);
        if (a.is_default)
            add(Opcode::default_);
    }

    /// `op`, or `conditional_op` reading the jump's condition.
    void direct(const Node& j, Opcode op, Opcode conditional_op)
    {
        if (j.cond == none) {
            add(op);
            return;
        }
        ++stats_.conditional_jumps;
        add_reading(conditional_op, j.cond, j.test_nonzero ? uint32_t(vsir::flag_test_nonzero) : 0u);
    }

    /// The first open construct a jump to `target` must leave: the one just
    /// inside the target (break), or the outermost loop inside the target
    /// loop (continue; switches and scopes do not stop it); none when the
    /// jump is direct.
    uint32_t first_to_leave(uint32_t target, bool is_continue) const
    {
        uint32_t at = uint32_t(open_.size());
        while (at > 0 && open_[at - 1].node != target)
            --at;
        for (uint32_t k = at; k < open_.size(); ++k)
            if (!is_continue || open_[k].loop)
                return k;
        return none;
    }

    void jump(const Node& j)
    {
        if (j.jump == JumpKind::ret)
            return direct(j, Opcode::ret, Opcode::retc);
        const bool is_continue = j.jump == JumpKind::continue_;
        const uint32_t first = first_to_leave(j.target, is_continue);
        if (first == none)
            return is_continue ? direct(j, Opcode::continue_, Opcode::continuec)
                               : direct(j, Opcode::break_, Opcode::breakc);
        ++stats_.multilevel_jumps;
        const uint32_t code = (j.target + 1) << 1 | (is_continue ? 1 : 0);
        Open& arrive = open_[first];
        (is_continue ? arrive.arrive_continue : arrive.arrive_break) = true;
        (is_continue ? arrive.continue_code : arrive.break_code) = code;
        for (uint32_t k = first + 1; k < open_.size(); ++k)
            open_[k].propagate = true;
        if (j.cond != none)
            add_reading(Opcode::if_, j.cond, j.test_nonzero ? uint32_t(vsir::flag_test_nonzero) : 0u);
        set_jump_target(code);
        add(Opcode::break_);
        if (j.cond != none)
            add(Opcode::endif);
    }

    void close(uint32_t n)
    {
        add(t_.nodes[n].kind == NodeKind::loop ? Opcode::endloop : Opcode::endswitch);
        Open e = open_.back();
        open_.pop_back();
        if (e.arrive_continue)
            arrive(e.continue_code, Opcode::continue_);
        if (e.arrive_break)
            arrive(e.break_code, Opcode::break_);
        if (e.propagate) {
            compare_jump_target(Opcode::ine, 0);
            test(Opcode::breakc);
        }
        stats_.trampolines += e.arrive_continue || e.arrive_break || e.propagate;
    }

    void arrive(uint32_t code, Opcode jump)
    {
        compare_jump_target(Opcode::ieq, code);
        test(Opcode::if_);
        set_jump_target(0);
        add(jump);
        add(Opcode::endif);
    }

    vsir::Program& p_;
    const Graph& g_;
    const Tree& t_;
    const uint32_t reg_;
    InstructionList& out_;
    StructurizeStats& stats_;
    ScratchVector<Open> open_;
    ScratchVector<Item> work_;
    bool used_ = false;
};

} // namespace

bool emit_tree(vsir::Program& program, const Graph& graph, const Tree& tree, uint32_t jump_reg,
    InstructionList& out, StructurizeStats& stats)
{
    return TreeEmitter(program, graph, tree, jump_reg, out, stats).run();
}

} // namespace dxspv::cfg

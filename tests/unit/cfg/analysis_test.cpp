// CFG construction, dominators, loops, reducibility, unreachable blocks,
// hull shader regions and the dot writer.
#include <doctest/doctest.h>

#include "cfg/dominators.h"
#include "cfg/graph.h"
#include "cfg/loops.h"
#include "cfg/structurize.h"
#include "random_cfg.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

using namespace cfg_test;
using namespace dxspv::cfg;

namespace {

struct Analysed {
    Graph graph;
    DominatorTree dom;
    LoopForest loops;
    bool reducible = false;
    dxspv::Diagnostics diags{"test"};
};

void analyse(const TestCfg& cfg, Analysed& a)
{
    auto regions = find_regions(cfg.program);
    REQUIRE(regions.size() == 1);
    dxspv::ScratchVector<uint32_t> label_map(cfg.program.label_count, none);
    REQUIRE(build_graph(cfg.program, regions[0], label_map, a.graph, a.diags));
    a.dom = build_dominator_tree(a.graph);
    a.reducible = find_loops(a.graph, a.dom, a.loops, a.diags);
}

/// Label of each block's immediate dominator, "-" for the entry, in block order.
std::string idoms(const Analysed& a)
{
    std::string s;
    for (uint32_t b = 0; b < a.graph.size(); ++b) {
        s.append("l").append(std::to_string(a.graph.blocks[b].label)).append(":");
        if (a.dom.idom[b] == none)
            s += "-";
        else
            s.append("l").append(std::to_string(a.graph.blocks[a.dom.idom[b]].label));
        s += " ";
    }
    return s;
}

} // namespace

TEST_CASE("cfg: reverse postorder, dominators and loops")
{
    TestCfg cfg = make_cfg("0: jmp 1\n1: br 2 5\n2: br 3 4\n3: jmp 2\n4: br 1 6\n5: jmp 6\n6: ret\n");
    Analysed a;
    analyse(cfg, a);
    REQUIRE(a.reducible);
    CHECK(a.graph.size() == 7);
    CHECK(idoms(a) == "l0:- l1:l0 l5:l1 l2:l1 l4:l2 l6:l1 l3:l2 ");
    CHECK(a.loops.loop_count == 2);
    auto block = [&](uint32_t label) {
        for (uint32_t b = 0; b < a.graph.size(); ++b)
            if (a.graph.blocks[b].label == label)
                return b;
        return none;
    };
    CHECK(a.loops.is_header[block(1)]);
    CHECK(a.loops.is_header[block(2)]);
    CHECK(a.loops.parent[block(2)] == block(1));
    CHECK(a.loops.depth[block(2)] == 2);
    CHECK(a.loops.innermost[block(3)] == block(2));
    CHECK(a.loops.innermost[block(4)] == block(1));
    CHECK(a.loops.innermost[block(5)] == none);
    CHECK(a.loops.contains(block(1), block(3)));
    CHECK_FALSE(a.loops.contains(block(2), block(4)));
    CHECK(a.dom.dominates(block(1), block(6)));
    CHECK_FALSE(a.dom.dominates(block(5), block(6)));
}

TEST_CASE("cfg: irreducible control flow is refused naming the blocks")
{
    // 0 branches into both 1 and 2, which form a cycle with two entries.
    TestCfg cfg = make_cfg("0: br 1 2\n1: br 2 3\n2: jmp 1\n3: ret\n");
    Analysed a;
    analyse(cfg, a);
    CHECK_FALSE(a.reducible);
    REQUIRE(a.diags.messages().size() == 1);
    CHECK(a.diags.messages()[0].code == dxspv::Code::cfg_irreducible);
    CHECK(a.diags.messages()[0].text ==
          "irreducible control flow: the edge l2 -> l1 closes a cycle that l1 does not dominate (the cycle can "
          "be entered without passing through l1)");

    TestCfg again = make_cfg("0: br 1 2\n1: br 2 3\n2: jmp 1\n3: ret\n");
    dxspv::Diagnostics diags("test");
    CHECK_FALSE(structurize(again.program, diags));
    CHECK(diags.has_code(dxspv::Code::cfg_irreducible));
}

TEST_CASE("cfg: unreachable blocks are dropped")
{
    TestCfg cfg = make_cfg("0: jmp 2\n1: jmp 2\n2: ret\n3: jmp 3\n");
    dxspv::Diagnostics diags("test");
    StructurizeStats stats;
    REQUIRE(structurize(cfg.program, diags, stats));
    CHECK(stats.blocks == 2);
    CHECK(stats.unreachable_blocks == 2);
    CHECK(print_program(cfg.program) == R"(cs_6_0 structured
; temps=2 ssa=0 labels=4
dcl_thread_group 1, 1, 1
mov r0.x, l(0)
mov r0.x, l(2)
ret
)");
}

TEST_CASE("cfg: malformed blocks")
{
    TestCfg cfg = make_cfg("0: jmp 7\n");
    cfg.program.label_count = 8;
    dxspv::Diagnostics diags("test");
    CHECK_FALSE(structurize(cfg.program, diags));
    CHECK(diags.has_code(dxspv::Code::cfg_bad_target));

    TestCfg open = make_cfg("0: ret\n");
    open.program.instructions.pop_back(); // no terminator
    dxspv::Diagnostics d2("test");
    CHECK_FALSE(structurize(open.program, d2));
    CHECK(d2.has_code(dxspv::Code::cfg_missing_terminator));
}

TEST_CASE("cfg: each hull shader phase is its own region")
{
    TestCfg cfg = make_cfg("cp_phase\n0: br 1 2\n1: jmp 2\n2: ret\nphase\n3: jmp 4\n4: br 4 5\n5: ret\n",
        dxspv::ShaderStage::hull);
    CHECK(find_regions(cfg.program).size() == 2);
    std::string dot;
    dxspv::Diagnostics diags("test");
    REQUIRE(write_dot(cfg.program, dot, diags));
    CHECK(dot == R"(digraph cfg {
  subgraph cluster_0 {
    label="region 0";
    l0 [shape=box];
    l0 -> l1 [label="T"];
    l0 -> l2 [label="F"];
    l1;
    l1 -> l2;
    l2;
  }
  subgraph cluster_1 {
    label="region 1";
    l3 [shape=box];
    l3 -> l4;
    l4;
    l4 -> l4 [label="T", style=dashed];
    l4 -> l5 [label="F"];
    l5;
  }
}
)");
    StructurizeStats stats;
    REQUIRE(structurize(cfg.program, diags, stats));
    CHECK(stats.regions == 2);
    CHECK(print_program(cfg.program) == R"(hs_6_0 structured
; temps=2 ssa=0 labels=6
hs_control_point_phase
mov r0.x, l(0)
if_nz r1.x
  mov r0.x, l(1)
endif
mov r0.x, l(2)
ret
hs_fork_phase
mov r0.x, l(3)
loop
  mov r0.x, l(4)
  if_z r1.x
    mov r0.x, l(5)
    ret
  endif
endloop
)");
}

TEST_CASE("cfg: write_dot shows switches, back edges and unreachable blocks")
{
    TestCfg cfg = make_cfg("0: jmp 1\n1: switch 3 4=1 9=2\n2: ret\n3: ret\n5: jmp 2\n");
    std::string dot;
    dxspv::Diagnostics diags("test");
    REQUIRE(write_dot(cfg.program, dot, diags));
    CHECK(dot == R"(digraph cfg {
  subgraph cluster_0 {
    label="region 0";
    l0 [shape=box];
    l0 -> l1;
    l1;
    l1 -> l3 [label="default"];
    l1 -> l1 [label="4", style=dashed];
    l1 -> l2 [label="9"];
    l2;
    l3;
    l5 [color=grey, fontcolor=grey];
  }
}
)");
}

TEST_CASE("cfg: mutated programs give errors, never crashes")
{
    uint32_t refused = 0;
    for (uint32_t seed = 0; seed < 2000; ++seed) {
        TestCfg cfg = random_cfg(seed, 24);
        Program& p = cfg.program;
        Rng rng{seed};
        for (uint32_t k = 0; k < 3; ++k) {
            Instruction& ins = p.instructions[1 + rng.next(uint32_t(p.instructions.size()) - 1)];
            switch (rng.next(4)) {
            case 0: ins.opcode = Opcode::nop; break;
            case 1: ins.opcode = rng.chance(50) ? Opcode::label : Opcode::ret; break;
            case 2:
                if (ins.src_count)
                    p.srcs[ins.src_first + rng.next(ins.src_count)].reg.idx[0].offset = rng.next(p.label_count + 3);
                break;
            default: ins.src_count = uint8_t(rng.next(4)); break;
            }
        }
        dxspv::Diagnostics diags("mutated");
        dxspv::Diagnostics input("mutated");
        const bool valid_input = validate_program(p, input, "input");
        if (dxspv::cfg::structurize(p, diags)) {
            // Valid input gives valid output; invalid input only must not crash.
            dxspv::Diagnostics check("mutated");
            CHECK_MESSAGE((!valid_input || validate_program(p, check, "structurize")), check.to_string());
        } else {
            CHECK(diags.has_errors());
            ++refused;
        }
    }
    MESSAGE(refused << " of 2000 mutated programs refused");
}

// Hand-written unstructured CFGs structurized and printed as vsir-text.
#include <doctest/doctest.h>

#include "cfg/structurize.h"
#include "cfg_builder.h"
#include "interpreter.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

using namespace cfg_test;

namespace {

struct Result {
    std::string text;
    dxspv::cfg::StructurizeStats stats;
};

/// Structurizes `cfg_text`; checks it validates and, on a few decision
/// streams, runs like the original. Returns the program text without the
/// header lines.
Result structurized(const std::string& cfg_text)
{
    TestCfg cfg = make_cfg(cfg_text);
    const uint32_t entry = cfg.program.srcs[cfg.program.instructions[1].src_first].reg.idx[0].offset;
    Result r;
    dxspv::Diagnostics diags("test");
    REQUIRE_MESSAGE(dxspv::cfg::structurize(cfg.program, diags, r.stats), diags.to_string());
    r.text = print_program(cfg.program);
    INFO(r.text);
    REQUIRE_MESSAGE(validate_program(cfg.program, diags, "structurize"), diags.to_string());
    for (uint64_t seed = 0; seed < 16; ++seed) {
        Decisions d{seed, &cfg.blocks};
        std::string error;
        CHECK(run_structured(cfg.program, d, 100, error) == run_unstructured(cfg, entry, d, 100));
        CHECK(error.empty());
    }
    // Drop the header line, the temps comment and dcl_thread_group.
    for (int k = 0; k < 3; ++k)
        r.text.erase(0, r.text.find('\n') + 1);
    r.text = "\n" + r.text;
    return r;
}

} // namespace

TEST_CASE("structurize: if/else diamond")
{
    Result r = structurized(R"(
0: br 1 2
1: jmp 3
2: jmp 3
3: ret
)");
    CHECK(r.text == R"(
mov r0.x, l(0)
if_nz r1.x
  mov r0.x, l(1)
else
  mov r0.x, l(2)
endif
mov r0.x, l(3)
ret
)");
}

TEST_CASE("structurize: one block ending in ret is its code and ret; an unreachable block after it goes")
{
    // The first takes the one-block shortcut (structurize.cpp), the second
    // the general path: both give what a tree of the block and a return
    // gives, and count the same.
    Result one = structurized(R"(
0: ret
)");
    CHECK(one.text == R"(
mov r0.x, l(0)
ret
)");
    CHECK(one.stats.regions == 1);
    CHECK(one.stats.blocks == 1);
    CHECK(one.stats.max_depth == 0);
    Result two = structurized(R"(
0: ret
1: ret
)");
    CHECK(two.text == one.text);
    CHECK(two.stats.regions == 1);
    CHECK(two.stats.blocks == 1);
    CHECK(two.stats.unreachable_blocks == 1);
    CHECK(two.stats.max_depth == 0);
}

TEST_CASE("structurize: if without else, early return")
{
    CHECK(structurized("0: br 1 2\n1: jmp 2\n2: ret\n").text == R"(
mov r0.x, l(0)
if_nz r1.x
  mov r0.x, l(1)
endif
mov r0.x, l(2)
ret
)");
    CHECK(structurized("0: br 1 2\n1: ret\n2: br 3 4\n3: ret\n4: jmp 5\n5: ret\n").text == R"(
mov r0.x, l(0)
if_nz r1.x
  mov r0.x, l(1)
  ret
endif
mov r0.x, l(2)
if_nz r1.x
  mov r0.x, l(3)
  ret
endif
mov r0.x, l(4)
mov r0.x, l(5)
ret
)");
}

TEST_CASE("structurize: loops")
{
    // while loop
    CHECK(structurized("0: jmp 1\n1: br 2 3\n2: jmp 1\n3: ret\n").text == R"(
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  if_z r1.x
    mov r0.x, l(3)
    ret
  endif
  mov r0.x, l(2)
endloop
)");
    // do-while with a self loop
    CHECK(structurized("0: jmp 1\n1: br 1 2\n2: ret\n").text == R"(
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  if_z r1.x
    mov r0.x, l(2)
    ret
  endif
endloop
)");
    // nested loops
    CHECK(structurized("0: jmp 1\n1: br 2 5\n2: br 3 4\n3: jmp 2\n4: jmp 1\n5: ret\n").text == R"(
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  if_z r1.x
    mov r0.x, l(5)
    ret
  endif
  loop
    mov r0.x, l(2)
    breakc_z r1.x
    mov r0.x, l(3)
  endloop
  mov r0.x, l(4)
endloop
)");
    // several exits: break, return
    CHECK(structurized("0: jmp 1\n1: br 2 4\n2: br 3 5\n3: jmp 1\n4: ret\n5: jmp 6\n6: ret\n").text == R"(
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  if_z r1.x
    mov r0.x, l(4)
    ret
  endif
  mov r0.x, l(2)
  breakc_z r1.x
  mov r0.x, l(3)
endloop
mov r0.x, l(5)
mov r0.x, l(6)
ret
)");
}

TEST_CASE("structurize: multilevel break and continue")
{
    // Inner loop 2..3 breaks out of outer loop 1..4 (to 5) and continues it (to 1).
    Result r = structurized("0: jmp 1\n1: jmp 2\n2: br 3 5\n3: br 2 4\n4: br 1 5\n5: jmp 6\n6: ret\n");
    CHECK(r.text == R"(
mov r2.x, l(0)
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  loop
    mov r0.x, l(2)
    if_z r1.x
      mov r2.x, l(6)
      break
    endif
    mov r0.x, l(3)
    breakc_z r1.x
  endloop
  ieq r2.y, r2.x, l(6):i32
  if_nz r2.y
    mov r2.x, l(0)
    break
  endif
  mov r0.x, l(4)
  breakc_z r1.x
endloop
mov r0.x, l(5)
mov r0.x, l(6)
ret
)");
    CHECK(r.stats.multilevel_jumps == 1);
    CHECK(r.stats.trampolines == 1);
    // The same through a switch: leaving the switch is one more level.
    Result c = structurized("0: jmp 1\n1: jmp 2\n2: switch 3 0=1 1=5 2=4\n3: jmp 2\n4: br 1 5\n5: jmp 6\n6: ret\n");
    CHECK(c.text == R"(
mov r2.x, l(0)
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  loop
    mov r0.x, l(2)
    switch r1.x
      default
        mov r0.x, l(3)
        continue
      case l(0)
        mov r2.x, l(7)
        break
      case l(1)
        mov r2.x, l(6)
        break
      case l(2)
        mov r2.x, l(10)
        break
    endswitch
    ieq r2.y, r2.x, l(10):i32
    if_nz r2.y
      mov r2.x, l(0)
      break
    endif
    ine r2.y, r2.x, l(0):i32
    breakc_nz r2.y
  endloop
  ieq r2.y, r2.x, l(7):i32
  if_nz r2.y
    mov r2.x, l(0)
    continue
  endif
  ieq r2.y, r2.x, l(6):i32
  if_nz r2.y
    mov r2.x, l(0)
    break
  endif
  mov r0.x, l(4)
  breakc_z r1.x
endloop
mov r0.x, l(5)
mov r0.x, l(6)
ret
)");
    CHECK(c.stats.trampolines == 2);
}

TEST_CASE("structurize: a continue of the outer loop from the inner loop's exit is a break")
{
    Result r = structurized("0: jmp 1\n1: br 2 5\n2: jmp 3\n3: br 3 1\n5: ret\n");
    CHECK(r.text == R"(
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  if_z r1.x
    mov r0.x, l(5)
    ret
  endif
  mov r0.x, l(2)
  loop
    mov r0.x, l(3)
    breakc_z r1.x
  endloop
endloop
)");
    CHECK(r.stats.multilevel_jumps == 0);
}

TEST_CASE("structurize: early returns from nested loops copy the return block")
{
    Result r = structurized("0: jmp 1\n1: jmp 2\n2: br 3 5\n3: br 2 4\n4: br 1 5\n5: ret\n");
    CHECK(r.text == R"(
mov r0.x, l(0)
loop
  mov r0.x, l(1)
  loop
    mov r0.x, l(2)
    if_z r1.x
      mov r0.x, l(5)
      ret
    endif
    mov r0.x, l(3)
    breakc_z r1.x
  endloop
  mov r0.x, l(4)
  breakc_z r1.x
endloop
mov r0.x, l(5)
ret
)");
    CHECK(r.stats.duplicated_returns == 1);
    CHECK(r.stats.trampolines == 0);
}

TEST_CASE("structurize: switch with fall-through and shared targets")
{
    // Case 0's block jumps to the target of cases 1 and 2: it falls through
    // into their arm.
    Result r = structurized("0: switch 4 0=1 1=2 2=2 3=3\n1: jmp 2\n2: jmp 4\n3: jmp 4\n4: ret\n");
    CHECK(r.text == R"(
mov r0.x, l(0)
switch r1.x
  default
    break
  case l(0)
    mov r0.x, l(1)
  case l(1)
  case l(2)
    mov r0.x, l(2)
    break
  case l(3)
    mov r0.x, l(3)
endswitch
mov r0.x, l(4)
ret
)");
    CHECK(r.stats.duplicated_returns == 0);
}

TEST_CASE("structurize: a chain of cases falling through stays one switch deep")
{
    // Every odd case falls into the next one, every fourth returns; the
    // fallen-into arms follow the arms falling into them whatever the case
    // values' order. Without fallthrough arms each fallen-into block was a
    // scope around the switch: 3 levels and 2 trampolines here, a level per
    // two cases in general.
    Result r = structurized(
        "0: switch 9 5=7 0=1 1=2 2=3 3=4 4=5 6=8 7=6\n1: jmp 2\n2: jmp 9\n3: jmp 4\n4: ret\n5: jmp 6\n6: jmp 9\n"
        "7: jmp 8\n8: jmp 9\n9: ret\n");
    CHECK(r.text == R"(
mov r0.x, l(0)
switch r1.x
  default
    break
  case l(5)
    mov r0.x, l(7)
  case l(6)
    mov r0.x, l(8)
    break
  case l(0)
    mov r0.x, l(1)
  case l(1)
    mov r0.x, l(2)
    break
  case l(2)
    mov r0.x, l(3)
  case l(3)
    mov r0.x, l(4)
    ret
  case l(4)
    mov r0.x, l(5)
  case l(7)
    mov r0.x, l(6)
endswitch
mov r0.x, l(9)
ret
)");
    CHECK(r.stats.max_depth == 1);
    CHECK(r.stats.trampolines == 0);
    CHECK(r.stats.multilevel_jumps == 0);
}

TEST_CASE("structurize: the block every case of a switch reaches stays after it")
{
    // Block 3, where the first switch's cases meet, dominates the rest: it
    // stays after that switch instead of nesting the second switch in the
    // first one's default arm; block 6 dominates nothing and is the second
    // switch's last arm, fallen into like blocks 2 and 5.
    Result r = structurized("0: switch 3 0=1 1=2\n1: jmp 2\n2: jmp 3\n3: switch 6 0=4 1=5\n4: jmp 5\n5: jmp 6\n6: ret\n");
    CHECK(r.text == R"(
mov r0.x, l(0)
switch r1.x
  default
    break
  case l(0)
    mov r0.x, l(1)
  case l(1)
    mov r0.x, l(2)
endswitch
mov r0.x, l(3)
switch r1.x
  case l(0)
    mov r0.x, l(4)
  case l(1)
    mov r0.x, l(5)
  default
    mov r0.x, l(6)
    ret
endswitch
)");
    CHECK(r.stats.max_depth == 1);
    CHECK(r.stats.trampolines == 0);
}

TEST_CASE("structurize: the n1..n6 example")
{
    // digraph { n1 -> n2 -> n4; n1 -> n3 -> n5; n2 -> n5 -> n6; n3 -> n4 -> n6; }
    CHECK(structurized("1: br 2 3\n2: br 4 5\n3: br 5 4\n4: jmp 6\n5: jmp 6\n6: ret\n").text == R"(
switch l(0)
  default
    mov r0.x, l(1)
    if_nz r1.x
      mov r0.x, l(2)
      breakc_nz r1.x
    else
      mov r0.x, l(3)
      breakc_z r1.x
    endif
    mov r0.x, l(5)
    mov r0.x, l(6)
    ret
endswitch
mov r0.x, l(4)
mov r0.x, l(6)
ret
)");
}

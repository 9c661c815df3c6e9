// Scaling: a 100,000-block CFG and deeply nested loops structurize in
// near-linear time (the times are printed; the bound asserted is generous)
// and still run like the original.
#include <doctest/doctest.h>

#include <chrono>

#include "cfg/structurize.h"
#include "interpreter.h"
#include "vsir/validator.h"

using namespace cfg_test;

namespace {

using Clock = std::chrono::steady_clock;

Terminator jmp(uint32_t t) { return {Terminator::jmp, {t}, {}}; }
Terminator br(uint32_t t, uint32_t f) { return {Terminator::br, {t, f}, {}}; }

/// Diamonds, while loops, switches (one with a case falling into another)
/// and early exits to the last block, in sequence, until `blocks` blocks.
TestCfg long_cfg(uint32_t blocks)
{
    TestCfg cfg = empty_cfg();
    const uint32_t last = blocks - 1;
    uint32_t b = 0;
    for (uint32_t k = 0; b + 4 < last; ++k) {
        switch (k % 6) {
        case 0: // diamond
            add_block(cfg, b, br(b + 1, b + 2));
            add_block(cfg, b + 1, jmp(b + 3));
            add_block(cfg, b + 2, jmp(b + 3));
            b += 3;
            break;
        case 1: // while loop with a break to the end
            add_block(cfg, b, jmp(b + 1));
            add_block(cfg, b + 1, br(b + 2, b + 3));
            add_block(cfg, b + 2, br(b + 1, last));
            b += 3;
            break;
        case 2: // switch with a shared target
            add_block(cfg, b, {Terminator::sw, {b + 3, b + 1, b + 2, b + 2}, {0, 1, 2}});
            add_block(cfg, b + 1, jmp(b + 3));
            add_block(cfg, b + 2, jmp(b + 3));
            b += 3;
            break;
        case 3: // switch whose case 0 falls into case 1 (the next block continues the program)
            add_block(cfg, b, {Terminator::sw, {b + 3, b + 1, b + 2}, {0, 1}});
            add_block(cfg, b + 1, jmp(b + 2));
            add_block(cfg, b + 2, jmp(b + 3));
            b += 3;
            break;
        default: // early exit
            add_block(cfg, b, br(last, b + 1));
            b += 1;
            break;
        }
    }
    while (b < last) {
        add_block(cfg, b, jmp(b + 1));
        ++b;
    }
    add_block(cfg, last, {Terminator::ret, {}, {}});
    return cfg;
}

/// `depth` nested while loops; the exit of loop i continues loop i - 1.
TestCfg nested_loops(uint32_t depth)
{
    TestCfg cfg = empty_cfg();
    const uint32_t entry = 2 * depth + 1;
    add_block(cfg, entry, jmp(0));
    for (uint32_t i = 0; i < depth; ++i)
        add_block(cfg, i, br(i + 1, depth + 1 + i));
    add_block(cfg, depth, jmp(depth - 1));
    add_block(cfg, depth + 1, {Terminator::ret, {}, {}});
    for (uint32_t i = 1; i < depth; ++i)
        add_block(cfg, depth + 1 + i, jmp(i - 1));
    return cfg;
}

double structurize_ms(TestCfg& cfg, dxspv::cfg::StructurizeStats& stats, dxspv::Diagnostics& diags, bool& ok)
{
    auto start = Clock::now();
    ok = dxspv::cfg::structurize(cfg.program, diags, stats);
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

void check_runs_alike(TestCfg& cfg, uint32_t entry)
{
    dxspv::Diagnostics diags("scaling");
    REQUIRE_MESSAGE(validate_program(cfg.program, diags, "structurize"), diags.to_string());
    for (uint64_t seed = 0; seed < 3; ++seed) {
        Decisions d{seed, &cfg.blocks};
        std::string error;
        CHECK(run_structured(cfg.program, d, 20000, error) == run_unstructured(cfg, entry, d, 20000));
        CHECK(error.empty());
    }
}

} // namespace

TEST_CASE("structurize: 100,000 blocks")
{
    TestCfg cfg = long_cfg(100000);
    dxspv::cfg::StructurizeStats stats;
    dxspv::Diagnostics diags("scaling");
    bool ok = false;
    double ms = structurize_ms(cfg, stats, diags, ok);
    REQUIRE_MESSAGE(ok, diags.to_string());
    MESSAGE("100,000 blocks: " << ms << " ms, " << stats.blocks << " reachable, " << stats.loops << " loops, "
                               << stats.scopes << " scopes, depth " << stats.max_depth << ", "
                               << stats.trampolines << " trampolines");
    CHECK(stats.blocks == 100000);
    // Bounded (early exits flattened at about a dozen levels), not growing
    // with the sequence: a switch's continuation nested in its last arm
    // reached thousands of levels (E6005).
    CHECK(stats.max_depth <= 16);
    CHECK(ms < 10000);
    check_runs_alike(cfg, 0);
}

TEST_CASE("structurize: deeply nested loops")
{
    TestCfg cfg = nested_loops(1000);
    dxspv::cfg::StructurizeStats stats;
    dxspv::Diagnostics diags("scaling");
    bool ok = false;
    double ms = structurize_ms(cfg, stats, diags, ok);
    REQUIRE_MESSAGE(ok, diags.to_string());
    MESSAGE("1000 nested loops: " << ms << " ms, depth " << stats.max_depth << ", " << stats.trampolines
                                  << " trampolines");
    CHECK(stats.loops == 1000);
    CHECK(ms < 10000);
    check_runs_alike(cfg, 2001);

    TestCfg deeper = nested_loops(20000);
    dxspv::Diagnostics refused("scaling");
    ms = structurize_ms(deeper, stats, refused, ok);
    MESSAGE("20000 nested loops refused in " << ms << " ms");
    CHECK_FALSE(ok);
    CHECK(refused.has_code(dxspv::Code::cfg_too_deep));
    CHECK(ms < 10000);
}

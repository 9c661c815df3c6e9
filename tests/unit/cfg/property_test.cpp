// Property test: random reducible CFGs (random_cfg.h) are structurized, the
// result validated, and both programs run on the same branch decisions must
// visit the same blocks in the same order. DXSPV_CFG_RANDOM_COUNT sets the
// number of CFGs (default 10000).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>

#include "cfg/structurize.h"
#include "random_cfg.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

using namespace cfg_test;

TEST_CASE("structurize: random reducible CFGs visit the same blocks as the original")
{
    const uint32_t count = random_count();
    dxspv::cfg::StructurizeStats total;
    auto start = std::chrono::steady_clock::now();
    for (uint32_t seed = 0; seed < count; ++seed) {
        TestCfg cfg = random_cfg(seed, seed % 4 == 0 ? 60 : 16);
        const std::string before = print_program(cfg.program);
        dxspv::Diagnostics diags("random");
        dxspv::cfg::StructurizeStats stats;
        bool ok = dxspv::cfg::structurize(cfg.program, diags, stats);
        INFO("seed " << seed << "\n" << before);
        REQUIRE_MESSAGE(ok, diags.to_string());
        INFO("structured:\n" << print_program(cfg.program));
        REQUIRE_MESSAGE(validate_program(cfg.program, diags, "structurize"), diags.to_string());
        for (uint32_t trial = 0; trial < 4; ++trial) {
            Decisions d{seed * 31 + trial, &cfg.blocks};
            std::string error;
            std::vector<uint32_t> expected = run_unstructured(cfg, 0, d, 300);
            std::vector<uint32_t> got = run_structured(cfg.program, d, 300, error);
            REQUIRE_MESSAGE(error.empty(), error);
            REQUIRE(got == expected);
        }
        total.blocks += stats.blocks;
        total.loops += stats.loops;
        total.scopes += stats.scopes;
        total.multilevel_jumps += stats.multilevel_jumps;
        total.trampolines += stats.trampolines;
    }
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    MESSAGE(count << " random CFGs, " << total.blocks << " reachable blocks, " << total.loops << " loops, "
                  << total.scopes << " scopes, " << total.multilevel_jumps << " multilevel jumps, "
                  << total.trampolines << " trampolines; " << ms << " ms");
}

TEST_CASE("structurize: arbitrary CFGs are structurized correctly or refused as irreducible")
{
    const uint32_t count = std::max(1u, random_count() / 5);
    uint32_t irreducible = 0;
    for (uint32_t seed = 0; seed < count; ++seed) {
        Rng rng{seed ^ 0x5eed};
        const uint32_t n = 1 + rng.next(12);
        TestCfg cfg = empty_cfg();
        for (uint32_t b = 0; b < n; ++b) {
            Terminator term;
            const uint32_t targets = rng.next(4);
            for (uint32_t k = 0; k < targets; ++k)
                term.targets.push_back(rng.next(n));
            term.kind = targets == 0 ? Terminator::ret : targets == 1 ? Terminator::jmp
                      : targets == 2 ? Terminator::br : Terminator::sw;
            for (uint32_t k = 1; term.kind == Terminator::sw && k < targets; ++k)
                term.values.push_back(k);
            add_block(cfg, b, term);
        }
        INFO("seed " << seed << "\n" << print_program(cfg.program));
        dxspv::Diagnostics diags("arbitrary");
        if (!dxspv::cfg::structurize(cfg.program, diags)) {
            REQUIRE_MESSAGE(diags.has_code(dxspv::Code::cfg_irreducible), diags.to_string());
            ++irreducible;
            continue;
        }
        REQUIRE_MESSAGE(validate_program(cfg.program, diags, "structurize"), diags.to_string());
        for (uint32_t trial = 0; trial < 3; ++trial) {
            Decisions d{seed * 7 + trial, &cfg.blocks};
            std::string error;
            REQUIRE(run_structured(cfg.program, d, 200, error) == run_unstructured(cfg, 0, d, 200));
            REQUIRE(error.empty());
        }
    }
    MESSAGE(count << " arbitrary CFGs, " << irreducible << " irreducible");
}

// Random reducible CFGs for the property test. Blocks 0..n-1 get properly
// nested loop intervals (a header first); a block may jump forward to any
// block whose enclosing intervals (except the one it heads) all contain
// it, and back to the header of any interval containing it. So every cycle
// is entered through its header: the graph is reducible. Exits from nested
// loops, switches with shared targets and unreachable blocks all occur.
#pragma once

#include <cstdlib>

#include "cfg_builder.h"
#include "interpreter.h"

namespace cfg_test {

/// Number of random CFGs of the property test: DXSPV_CFG_RANDOM_COUNT, or
/// 10000.
inline uint32_t random_count()
{
    const char* env = std::getenv("DXSPV_CFG_RANDOM_COUNT");
    return env ? uint32_t(std::strtoul(env, nullptr, 10)) : 10000;
}

struct Rng {
    uint64_t state;
    uint32_t next(uint32_t bound) { return uint32_t(mix(state++) % bound); }
    bool chance(uint32_t percent) { return next(100) < percent; }
};

inline TestCfg random_cfg(uint64_t seed, uint32_t max_blocks)
{
    Rng rng{seed * 0x100000001b3ull + 17};
    const uint32_t n = 2 + rng.next(max_blocks - 1);
    // Loop intervals: innermost interval containing each block, parents.
    std::vector<uint32_t> inner(n, ~0u), end(n, 0), parent(n, ~0u);
    std::vector<uint32_t> open;
    for (uint32_t i = 0; i < n; ++i) {
        while (!open.empty() && end[open.back()] < i)
            open.pop_back();
        if (open.size() < 6 && rng.chance(30)) {
            uint32_t limit = open.empty() ? n - 1 : end[open.back()];
            end[i] = i + rng.next(limit - i + 1);
            parent[i] = open.empty() ? ~0u : open.back();
            open.push_back(i);
        }
        inner[i] = open.empty() ? ~0u : open.back();
    }
    auto contains = [&](uint32_t h, uint32_t b) { return h <= b && b <= end[h]; }; // h is a header
    auto is_header = [&](uint32_t b) { return inner[b] == b; };
    auto forward_ok = [&](uint32_t from, uint32_t to) {
        uint32_t l = is_header(to) ? parent[to] : inner[to];
        return l == ~0u || contains(l, from);
    };
    auto pick_target = [&](uint32_t from) -> uint32_t {
        for (int attempt = 0; attempt < 8; ++attempt) {
            if (from + 1 < n && rng.chance(45) && forward_ok(from, from + 1))
                return from + 1;
            if (inner[from] != ~0u && rng.chance(25)) { // back to an enclosing header
                uint32_t h = inner[from];
                while (parent[h] != ~0u && rng.chance(40))
                    h = parent[h];
                return h;
            }
            if (from + 1 < n) {
                uint32_t to = from + 1 + rng.next(std::min<uint32_t>(n - from - 1, rng.chance(70) ? 4 : n));
                if (forward_ok(from, to))
                    return to;
            }
        }
        return ~0u;
    };
    TestCfg cfg = empty_cfg();
    for (uint32_t i = 0; i < n; ++i) {
        Terminator term;
        uint32_t kind = rng.next(100);
        uint32_t count = kind < 8 ? 0 : kind < 40 ? 1 : kind < 85 ? 2 : 2 + rng.next(4);
        for (uint32_t k = 0; k < count; ++k) {
            uint32_t t = pick_target(i);
            if (t != ~0u)
                term.targets.push_back(t);
        }
        if (term.targets.empty()) {
            term.kind = Terminator::ret;
        } else if (term.targets.size() == 1) {
            term.kind = Terminator::jmp;
        } else if (count == 2) {
            term.kind = Terminator::br;
        } else {
            term.kind = Terminator::sw;
            for (uint32_t k = 1; k < term.targets.size(); ++k)
                term.values.push_back(k * 3 + rng.next(3));
        }
        add_block(cfg, i, term);
    }
    return cfg;
}

} // namespace cfg_test

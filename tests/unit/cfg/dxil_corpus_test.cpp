// Real DXIL control flow: the CFG of every function of every DXIL module in
// the shared corpus (read with the DXIL module reader) becomes a test CFG
// (cfg_builder.h: one marker per block, the same edges), is structurized,
// validated, run against the original on several decision streams, and
// emitted as SPIR-V for spirv-val. Skipped when the corpus is absent.
// Prints the structurizer's figures: trampolines on real DXC output.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "cfg/structurize.h"
#include "container/container.h"
#include "container/program_header.h"
#include "dxil/dxil.h"
#include "interpreter.h"
#include "spirv/emit.h"
#include "spirv/tools.h"
#include "vsir/printer.h"
#include "vsir/validator.h"

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR ""
#endif

namespace fs = std::filesystem;
using namespace cfg_test;

namespace {

bool bitcode_of(const std::vector<uint8_t>& file, dxspv::container::ProgramHeader& header)
{
    dxspv::Diagnostics diags;
    dxspv::container::Container c;
    return dxspv::container::parse_container(file, c, diags) &&
           dxspv::container::parse_program_header(c, header, diags) &&
           header.format == dxspv::container::ProgramFormat::dxil;
}

/// The function's CFG as a test CFG; false if a terminator is not one the
/// lowering produces (br, switch, ret, unreachable).
bool cfg_of(const dxspv::dxil::Function& f, TestCfg& cfg)
{
    using dxspv::dxil::Opcode;
    cfg = empty_cfg();
    for (uint32_t b = 0; b < f.blocks.size(); ++b) {
        const dxspv::dxil::BasicBlock& block = f.blocks[b];
        if (block.count == 0)
            return false;
        const dxspv::dxil::Instruction& term = f.instructions[block.first + block.count - 1];
        Terminator t;
        auto ops = term.operands;
        if (term.op == Opcode::ret || term.op == Opcode::unreachable) {
            t.kind = Terminator::ret;
        } else if (term.op == Opcode::br && ops.size() == 1) {
            t = {Terminator::jmp, {ops[0]}, {}};
        } else if (term.op == Opcode::br && ops.size() == 3) {
            t = {Terminator::br, {ops[0], ops[1]}, {}};
        } else if (term.op == Opcode::switch_ && ops.size() >= 2 && ops.size() % 2 == 0) {
            t = {Terminator::sw, {ops[1]}, {}};
            for (uint32_t k = 2; k < ops.size(); k += 2) {
                t.values.push_back(k / 2);
                t.targets.push_back(ops[k + 1]);
            }
        } else {
            return false;
        }
        for (uint32_t target : t.targets)
            if (target >= f.blocks.size())
                return false;
        add_block(cfg, b, t);
    }
    cfg.program.label_count = std::max<uint32_t>(cfg.program.label_count, uint32_t(f.blocks.size()));
    return true;
}

} // namespace

TEST_CASE("corpus: DXIL functions' CFGs structurize, run alike and emit valid SPIR-V")
{
    const fs::path dir = fs::path(DXSPV_CORPUS_DIR) / "dxil";
    if (!fs::is_directory(dir)) {
        MESSAGE("corpus not found, skipped");
        return;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".dxil")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    dxspv::cfg::StructurizeStats total;
    uint32_t functions = 0, irreducible = 0, with_trampolines = 0, largest = 0;
    double ms = 0;
    for (const fs::path& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        dxspv::container::ProgramHeader header;
        dxspv::dxil::Module module;
        dxspv::Diagnostics read("read");
        if (!bitcode_of(bytes, header) || !dxspv::dxil::read_module(header.bitcode, header.bitcode_offset, module, read))
            continue;
        for (const dxspv::dxil::Function& f : module.functions) {
            TestCfg cfg;
            if (f.is_declaration || f.blocks.empty() || !cfg_of(f, cfg))
                continue;
            ++functions;
            INFO(path.filename().string() << " " << std::string(f.name) << "\n" << print_program(cfg.program));
            dxspv::Diagnostics diags(path.filename().string());
            dxspv::cfg::StructurizeStats stats;
            auto start = std::chrono::steady_clock::now();
            bool ok = dxspv::cfg::structurize(cfg.program, diags, stats);
            ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            if (!ok && diags.has_code(dxspv::Code::cfg_irreducible)) {
                ++irreducible;
                continue;
            }
            REQUIRE_MESSAGE(ok, diags.to_string());
            INFO("structured:\n" << print_program(cfg.program));
            REQUIRE_MESSAGE(validate_program(cfg.program, diags, "structurize"), diags.to_string());
            for (uint64_t seed = 0; seed < 8; ++seed) {
                Decisions d{seed, &cfg.blocks};
                std::string error;
                CHECK(run_structured(cfg.program, d, 2000, error) == run_unstructured(cfg, 0, d, 2000));
                CHECK(error.empty());
            }
            std::vector<uint32_t> words;
            dxspv::spirv::EmitOptions emit;
            REQUIRE_MESSAGE(dxspv::spirv::emit_spirv(cfg.program, emit, words, diags), diags.to_string());
            CHECK_MESSAGE(dxspv::spirv::validate_spirv(words, emit.target_env, diags), diags.to_string());
            largest = std::max(largest, stats.blocks);
            with_trampolines += stats.trampolines != 0;
            total.blocks += stats.blocks;
            total.loops += stats.loops;
            total.selections += stats.selections;
            total.switches += stats.switches;
            total.scopes += stats.scopes;
            total.multilevel_jumps += stats.multilevel_jumps;
            total.trampolines += stats.trampolines;
            total.duplicated_returns += stats.duplicated_returns;
            total.max_depth = std::max(total.max_depth, stats.max_depth);
        }
    }
    MESSAGE(functions << " functions (" << irreducible << " irreducible), " << total.blocks << " blocks (largest "
                      << largest << "), " << total.loops << " loops, " << total.selections << " selections, "
                      << total.switches << " switches, " << total.scopes << " scopes, " << total.multilevel_jumps
                      << " multilevel jumps, " << total.trampolines << " trampolines in " << with_trampolines
                      << " functions, " << total.duplicated_returns << " copied return blocks, max depth "
                      << total.max_depth << "; structurize " << ms << " ms");
}

// Real control flow: every DXBC shader of the shared corpus is read, its
// structured control flow rewritten in unstructured form (destructure.h,
// the shape DXIL gives), structurized again, and emitted as SPIR-V that
// spirv-val must accept. Skipped when the corpus is absent. Prints the
// structurizer's figures (trampolines among them).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "api/translate.h"
#include "cfg/structurize.h"
#include "destructure.h"
#include "spirv/emit.h"
#include "spirv/tools.h"
#include "vsir/pass.h"
#include "vsir/printer.h"

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR ""
#endif

namespace fs = std::filesystem;

TEST_CASE("corpus: DXBC control flow destructured and structurized again emits valid SPIR-V")
{
    const fs::path dir = fs::path(DXSPV_CORPUS_DIR) / "dxbc";
    if (!fs::is_directory(dir)) {
        MESSAGE("corpus not found, skipped");
        return;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    dxspv::cfg::StructurizeStats total;
    uint32_t shaders = 0, emitted = 0, with_jumps = 0, failed = 0;
    double ms = 0;
    for (const fs::path& path : files) {
        std::ifstream in(path, std::ios::binary);
        std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        dxspv::api::Request request;
        request.source = bytes;
        dxspv::vsir::Program program;
        dxspv::Diagnostics diags(path.filename().string());
        if (dxspv::api::load_program(request, program, diags) != DXSPV_OK || !cfg_test::destructure(program))
            continue;
        ++shaders;
        INFO(path.filename().string() << "\n" << dxspv::vsir::print_program(program));
        dxspv::cfg::StructurizeStats stats;
        auto start = std::chrono::steady_clock::now();
        bool ok = dxspv::cfg::structurize(program, diags, stats);
        ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        CHECK_MESSAGE(ok, diags.to_string());
        dxspv::vsir::PipelineOptions options;
        options.validate = true;
        if (!ok || !dxspv::vsir::run_pipeline(program, diags, options)) {
            CHECK_MESSAGE(false, diags.to_string());
            ++failed;
            continue;
        }
        INFO("structured:\n" << dxspv::vsir::print_program(program));
        std::vector<uint32_t> words;
        dxspv::spirv::EmitOptions emit;
        if (!dxspv::spirv::emit_spirv(program, emit, words, diags))
            continue; // the emitter refuses the original too (not a structurizer matter)
        ++emitted;
        bool valid = dxspv::spirv::validate_spirv(words, emit.target_env, diags);
        CHECK_MESSAGE(valid, diags.to_string());
        failed += !valid;
        with_jumps += stats.multilevel_jumps != 0;
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
    MESSAGE(shaders << " shaders, " << emitted << " emitted, " << failed << " failed; " << total.blocks << " blocks, " << total.loops
                    << " loops, " << total.selections << " selections, " << total.switches << " switches, "
                    << total.scopes << " scopes, " << total.multilevel_jumps << " multilevel jumps in "
                    << with_jumps << " shaders, " << total.trampolines << " trampolines, "
                    << total.duplicated_returns << " copied return blocks, max depth " << total.max_depth
                    << "; structurize " << ms << " ms");
}

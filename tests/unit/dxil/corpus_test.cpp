// Reads the DXIL bitcode of every container in the shared corpus and prints
// it as .ll text: zero errors. Then mutates a few files (bit flips,
// truncations) and checks the reader never crashes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "container/container.h"
#include "container/program_header.h"
#include "corpus_files.h"
#include "dxil/dxil.h"
#include "dxil/metadata.h"

namespace {

namespace fs = std::filesystem;
using dxil_test::corpus_files;
using dxil_test::load;

/// The bitcode span of a container, or false.
bool bitcode_of(const std::vector<uint8_t>& file, dxspv::container::ProgramHeader& header)
{
    dxspv::Diagnostics diags;
    dxspv::container::Container c;
    if (!dxspv::container::parse_container(file, c, diags))
        return false;
    return dxspv::container::parse_program_header(c, header, diags) &&
           header.format == dxspv::container::ProgramFormat::dxil;
}

} // namespace

TEST_CASE("dxil corpus: every module reads and prints without errors")
{
    auto files = corpus_files();
    if (files.empty()) {
        MESSAGE("dxil corpus not found; skipped (set DXSPV_CORPUS)");
        std::printf("dxil corpus: not found; skipped\n");
        return;
    }
    size_t ok = 0, no_program = 0, text_bytes = 0, metadata_ok = 0, entry_points = 0, resources = 0;
    std::map<unsigned, size_t> errors_by_code;
    for (const auto& path : files) {
        auto file = load(path);
        dxspv::container::ProgramHeader header;
        if (!bitcode_of(file, header)) {
            ++no_program;
            continue;
        }
        dxspv::Diagnostics diags(path.filename().string());
        dxspv::dxil::Module module;
        bool read = dxspv::dxil::read_module(header.bitcode, header.bitcode_offset, module, diags);
        if (!read || diags.has_errors()) {
            for (const auto& m : diags.messages())
                errors_by_code[unsigned(m.code)]++;
            if (errors_by_code.size() < 20)
                MESSAGE(diags.to_string());
            continue;
        }
        dxspv::dxil::DxilMetadata md;
        bool md_ok = dxspv::dxil::read_dxil_metadata(module, md, diags);
        CHECK_MESSAGE(md_ok, diags.to_string());
        if (md_ok) {
            ++metadata_ok;
            entry_points += md.entry_points.size();
            resources += md.resources.size();
            CHECK(md.sm_major == 6);
            CHECK(md.sm_minor == header.model.minor);
        }
        std::string text = dxspv::dxil::print_module(module);
        text_bytes += text.size();
        CHECK(text.find("<bad") == std::string::npos);
        if (std::getenv("DXSPV_DUMP_LL"))
            std::ofstream(fs::path(std::getenv("DXSPV_DUMP_LL")) / (path.stem().string() + ".ll")) << text;
        ++ok;
    }
    std::printf("dxil corpus: %zu of %zu modules read and printed (%zu without a DXIL program), %zu bytes of text\n",
                ok, files.size(), no_program, text_bytes);
    std::printf("dxil corpus: DXIL metadata read for %zu modules: %zu entry points, %zu resources\n", metadata_ok,
                entry_points, resources);
    CHECK(metadata_ok == ok);
    for (auto [code, n] : errors_by_code)
        std::printf("  E%04u: %zu\n", code, n);
    CHECK(ok + no_program == files.size());
    CHECK(no_program == 0);
}

TEST_CASE("dxil corpus: mutated modules never crash the reader")
{
    auto files = corpus_files();
    if (files.empty()) {
        MESSAGE("dxil corpus not found; skipped");
        return;
    }
    size_t runs = 0, rejected = 0;
    uint64_t seed = 0x9E3779B97F4A7C15ull;
    auto rnd = [&] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        return seed;
    };
    // DXSPV_MUTATION_ROUNDS and DXSPV_MUTATION_FILES make the loop longer (fuzzing by hand).
    const char* rounds_env = std::getenv("DXSPV_MUTATION_ROUNDS");
    const char* files_env = std::getenv("DXSPV_MUTATION_FILES");
    int rounds = rounds_env ? std::atoi(rounds_env) : 300;
    size_t file_count = files_env ? size_t(std::atoi(files_env)) : 6;
    if (const char* s = std::getenv("DXSPV_MUTATION_SEED"))
        seed = std::strtoull(s, nullptr, 0) | 1;
    for (size_t f = 0; f < files.size(); f += files.size() / (file_count ? file_count : 1) + 1) {
        auto file = load(files[f]);
        dxspv::container::ProgramHeader header;
        if (!bitcode_of(file, header))
            continue;
        std::vector<uint8_t> original(header.bitcode.begin(), header.bitcode.end());
        for (int round = 0; round < rounds; ++round) {
            std::vector<uint8_t> bytes = original;
            if (round % 10 == 9) {
                bytes.resize(rnd() % bytes.size());
            } else {
                int flips = 1 + int(rnd() % 4);
                for (int k = 0; k < flips; ++k)
                    bytes[rnd() % bytes.size()] ^= uint8_t(1u << (rnd() % 8));
            }
            dxspv::Diagnostics diags;
            dxspv::dxil::Module module;
            bool read = dxspv::dxil::read_module(bytes, 0, module, diags);
            if (read) {
                (void)dxspv::dxil::print_module(module);
                dxspv::dxil::DxilMetadata md;
                (void)dxspv::dxil::read_dxil_metadata(module, md, diags);
            }
            else
                CHECK(diags.has_errors());
            rejected += !read;
            ++runs;
        }
    }
    std::printf("dxil mutation: %zu runs, %zu rejected with a diagnostic, no crash\n", runs, rejected);
}

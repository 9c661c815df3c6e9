// Reads the SHDR/SHEX chunk of every DXBC container of the shared corpus:
// zero errors, except shaders with class linkage (an IFCE chunk), which
// must fail with tpf_interfaces_unsupported.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "common/byte_reader.h"
#include "tpf/reader.h"
#if __has_include("vsir/validator.h")
#include "vsir/validator.h"
#define HAVE_VALIDATOR 1
#endif

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR ""
#endif

namespace {

namespace fs = std::filesystem;

struct Chunk {
    uint32_t offset = 0;
    uint32_t size = 0;
};

/// Minimal DXBC chunk finder (the container library is separate).
bool find_chunk(const std::vector<uint8_t>& file, const char* fourcc, Chunk& out)
{
    if (file.size() < 32 || std::memcmp(file.data(), "DXBC", 4) != 0)
        return false;
    uint32_t count = dxspv::load_le32(file.data() + 28);
    for (uint32_t i = 0; i < count && 32 + 4 * size_t(i) + 4 <= file.size(); ++i) {
        uint32_t at = dxspv::load_le32(file.data() + 32 + 4 * size_t(i));
        if (size_t(at) + 8 > file.size())
            continue;
        uint32_t size = dxspv::load_le32(file.data() + at + 4);
        if (std::memcmp(file.data() + at, fourcc, 4) != 0 || size > file.size() - at - 8)
            continue;
        out = {at + 8, size};
        return true;
    }
    return false;
}

std::vector<uint8_t> load(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

TEST_CASE("tpf corpus: every DXBC shader reads without errors")
{
    const char* env = std::getenv("DXSPV_CORPUS");
    fs::path dir = fs::path(env && *env ? env : DXSPV_CORPUS_DIR) / "dxbc";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        MESSAGE("corpus not found at " << dir.string() << "; skipped");
        std::printf("tpf corpus: not found at %s; skipped\n", dir.string().c_str());
        return;
    }
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".dxbc")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());

    size_t read = 0, refused = 0, no_chunk = 0, instructions = 0;
    std::map<unsigned, size_t> errors_by_code;
    for (const fs::path& path : files) {
        std::vector<uint8_t> file = load(path);
        Chunk chunk;
        if (!find_chunk(file, "SHEX", chunk) && !find_chunk(file, "SHDR", chunk)) {
            ++no_chunk;
            continue;
        }
        Chunk ifce;
        bool uses_interfaces = find_chunk(file, "IFCE", ifce);
        dxspv::vsir::Program program;
        dxspv::Diagnostics diags(path.filename().string());
        bool ok = dxspv::tpf::read_program({file.data() + chunk.offset, chunk.size}, chunk.offset, program, diags);
        ++read;
        instructions += program.instructions.size();
#ifdef HAVE_VALIDATOR
        // Informational: VSIR invariants broken by the input itself (e.g. a
        // `break` outside a loop) show up in the counts.
        if (ok)
            dxspv::vsir::validate_program(program, diags, "tpf");
#endif
        for (const auto& m : diags.messages())
            ++errors_by_code[unsigned(m.code)];
        if (uses_interfaces) {
            ++refused;
            CHECK_FALSE(ok);
            CHECK(diags.has_code(dxspv::Code::tpf_interfaces_unsupported));
        } else {
            INFO(diags.to_string());
            CHECK(ok);
            CHECK_FALSE(program.instructions.empty());
        }
    }
    std::string summary = std::to_string(read) + " DXBC shaders read (" + std::to_string(instructions) +
                          " instructions), " + std::to_string(refused) + " with class linkage, " +
                          std::to_string(no_chunk) + " without a SHDR/SHEX chunk";
    summary += "; messages (tpf 1xxx, VSIR validator 9xxx):";
    for (const auto& [code, count] : errors_by_code)
        summary += " E" + std::to_string(code) + " x" + std::to_string(count);
    std::printf("tpf corpus: %s\n", summary.c_str());
    CHECK(read > 0);
}

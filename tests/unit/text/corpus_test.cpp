// Corpus round trips: every DXBC shader of the shared corpus read, written
// back (tpf::write_program) and read again gives the same VSIR; and
// disassembled, assembled (text::assemble) gives the same VSIR.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "container/container.h"
#include "helpers.h"
#include "text/assembler.h"
#include "text/disassembler.h"

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR ""
#endif

namespace {

namespace fs = std::filesystem;
using namespace dxspv;

std::vector<uint8_t> load(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<fs::path> corpus_files()
{
    const char* env = std::getenv("DXSPV_CORPUS");
    fs::path dir = fs::path(env && *env ? env : DXSPV_CORPUS_DIR) / "dxbc";
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".dxbc")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

/// Reads the SHEX/SHDR chunk of a corpus file; false when it has none or it does not read.
bool read_corpus(const std::vector<uint8_t>& file, vsir::Program& program)
{
    Diagnostics diags;
    container::Container c;
    if (!container::parse_container(file, c, diags))
        return false;
    const container::Chunk* chunk = c.find(container::fourcc("SHEX"));
    if (!chunk)
        chunk = c.find(container::fourcc("SHDR"));
    return chunk && tpf::read_program(chunk->data, chunk->offset, program, diags);
}

} // namespace

TEST_CASE("corpus: read -> write -> read and read -> disassemble -> assemble give equal VSIR")
{
    std::vector<fs::path> files = corpus_files();
    if (files.empty()) {
        MESSAGE("corpus not found (set DXSPV_CORPUS); skipped");
        return;
    }
    size_t readable = 0, writer_ok = 0, assembler_ok = 0;
    std::string first_writer_failure, first_assembler_failure;
    for (const fs::path& path : files) {
        vsir::Program program;
        if (!read_corpus(load(path), program))
            continue;
        ++readable;
        std::string expected = text_test::print(program);
        Diagnostics diags(path.filename().string());
        std::string written = text_test::write_and_read(program, diags);
        if (written == expected)
            ++writer_ok;
        else if (first_writer_failure.empty())
            first_writer_failure = path.filename().string() + "\n" + diags.to_string() + "\nexpected:\n" + expected +
                                   "\ngot:\n" + written;
        std::string text = text::disassemble(program);
        vsir::Program assembled;
        Diagnostics adiags(path.filename().string());
        bool ok = text::assemble(text, assembled, adiags);
        if (ok && text_test::print(assembled) == expected)
            ++assembler_ok;
        else if (first_assembler_failure.empty())
            first_assembler_failure = path.filename().string() + "\n" + adiags.to_string() + "\ntext:\n" + text +
                                      "\nexpected:\n" + expected + "\ngot:\n" + text_test::print(assembled);
    }
    std::printf("text corpus: %zu readable shaders; writer round trip %zu/%zu; assembler round trip %zu/%zu\n",
                readable, writer_ok, readable, assembler_ok, readable);
    INFO(first_writer_failure);
    CHECK(writer_ok == readable);
    INFO(first_assembler_failure);
    CHECK(assembler_ok == readable);
    CHECK(readable > 0);
}

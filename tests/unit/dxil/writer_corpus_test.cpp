// The bitcode writer on the shared corpus: for every DXIL container, read
// the module, write it as bitcode, read that again: the printed .ll text
// must be identical. Skipped when the corpus folder is missing.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "container/container.h"
#include "container/program_header.h"
#include "dxil/dxil.h"

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR ""
#endif

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> load(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<fs::path> corpus_files()
{
    const char* env = std::getenv("DXSPV_CORPUS");
    fs::path dir = fs::path(env && *env ? env : DXSPV_CORPUS_DIR) / "dxil";
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".dxil")
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

} // namespace

TEST_CASE("dxil corpus: read, write bitcode, read again gives the same text")
{
    auto files = corpus_files();
    if (files.empty()) {
        MESSAGE("dxil corpus not found; skipped (set DXSPV_CORPUS)");
        std::printf("dxil writer corpus: not found; skipped\n");
        return;
    }
    size_t read = 0, same = 0, identical_bytes = 0, in_bytes = 0, out_bytes = 0;
    double largest_ms = 0;
    size_t largest = 0;
    std::string largest_name;
    for (const auto& path : files) {
        auto file = load(path);
        dxspv::Diagnostics diags(path.filename().string());
        dxspv::container::Container c;
        dxspv::container::ProgramHeader header;
        if (!dxspv::container::parse_container(file, c, diags) ||
            !dxspv::container::parse_program_header(c, header, diags) ||
            header.format != dxspv::container::ProgramFormat::dxil)
            continue;
        dxspv::dxil::Module first;
        if (!dxspv::dxil::read_module(header.bitcode, header.bitcode_offset, first, diags))
            continue;
        ++read;
        std::vector<uint8_t> bitcode;
        auto t0 = std::chrono::steady_clock::now();
        bool written = dxspv::dxil::write_bitcode(first, bitcode, diags);
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        CHECK_MESSAGE(written, path.filename().string() << ": " << diags.to_string());
        if (!written)
            continue;
        if (header.bitcode.size() > largest) {
            largest = header.bitcode.size();
            largest_ms = ms;
            largest_name = path.filename().string();
        }
        in_bytes += header.bitcode.size();
        identical_bytes += std::equal(bitcode.begin(), bitcode.end(), header.bitcode.begin(), header.bitcode.end());
        out_bytes += bitcode.size();
        dxspv::dxil::Module second;
        bool reread = dxspv::dxil::read_module(bitcode, 0, second, diags);
        CHECK_MESSAGE(reread, path.filename().string() << ": " << diags.to_string());
        if (!reread)
            continue;
        std::string a = dxspv::dxil::print_module(first), b = dxspv::dxil::print_module(second);
        CHECK_MESSAGE(a == b, path.filename().string() << ": the text differs after writing");
        if (a == b)
            ++same;
        else if (const char* dump = std::getenv("DXSPV_DUMP_LL")) {
            std::ofstream(fs::path(dump) / (path.stem().string() + ".a.ll")) << a;
            std::ofstream(fs::path(dump) / (path.stem().string() + ".b.ll")) << b;
        }
    }
    std::printf("dxil writer corpus: %zu of %zu modules read, %zu written and read back with identical text\n", read,
                files.size(), same);
    std::printf("dxil writer corpus: %zu of them byte-identical to the input bitcode\n", identical_bytes);
    std::printf("dxil writer corpus: %zu bitcode bytes in, %zu written (%.1f%%); largest module %s (%zu bytes) "
                "written in %.3f ms\n",
                in_bytes, out_bytes, in_bytes ? 100.0 * double(out_bytes) / double(in_bytes) : 0.0,
                largest_name.c_str(), largest, largest_ms);
    CHECK(read == files.size());
    CHECK(same == read);
}

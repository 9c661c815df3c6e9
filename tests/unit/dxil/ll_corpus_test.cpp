// The .ll reader against the shared corpus:
// - every DXIL container's module printed as text reads back and prints the
//   same text, byte for byte;
// - every .ll file of corpus/dxil-ll reads, or fails with a numbered
//   diagnostic (never a crash); the valid ones (not bad_input) must read.
// Skipped when the corpus folder is missing.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
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

fs::path corpus_dir()
{
    const char* env = std::getenv("DXSPV_CORPUS");
    return fs::path(env && *env ? env : DXSPV_CORPUS_DIR);
}

std::vector<fs::path> files_with(const fs::path& dir, const char* extension)
{
    std::vector<fs::path> files;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == extension)
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

std::string load(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The first line where two texts differ, for the failure message.
std::string first_difference(const std::string& a, const std::string& b)
{
    size_t i = 0, line = 1;
    while (i < a.size() && i < b.size() && a[i] == b[i])
        line += a[i++] == '\n';
    auto line_at = [](const std::string& s, size_t at) {
        size_t start = s.rfind('\n', at ? at - 1 : 0);
        start = start == std::string::npos ? 0 : start + 1;
        return s.substr(start, s.find('\n', at) - start);
    };
    return "line " + std::to_string(line) + ":\n  printed: " + line_at(a, i) + "\n  re-read: " + line_at(b, i);
}

/// Where the module read from text differs in shape from the bitcode's: the
/// same values (globals, functions, module constants), types, attribute
/// groups and lists, and per function the same arguments, constants,
/// instructions and results. Empty if none. (The orders of types and
/// constants, metadata kinds nobody uses and fast-math bits the text cannot
/// show are not compared.)
std::string shape_difference(const dxspv::dxil::Module& a, const dxspv::dxil::Module& b)
{
    using namespace dxspv::dxil;
    if (a.globals.size() != b.globals.size() || a.functions.size() != b.functions.size() ||
        a.values.size() != b.values.size() || a.constants.size() != b.constants.size())
        return "module values";
    if (a.types.size() != b.types.size())
        return "types";
    if (a.attribute_groups.size() != b.attribute_groups.size() || a.attribute_lists.size() != b.attribute_lists.size())
        return "attribute groups or lists";
    for (size_t i = 0; i < a.attribute_lists.size(); ++i) {
        auto x = a.attribute_lists[i].groups, y = b.attribute_lists[i].groups;
        if (!std::equal(x.begin(), x.end(), y.begin(), y.end()))
            return "attribute list " + std::to_string(i);
    }
    for (size_t i = 0; i < a.functions.size(); ++i) {
        const Function& f = a.functions[i];
        const Function& g = b.functions[i];
        if (f.attributes != g.attributes || f.values.size() != g.values.size() ||
            f.constants.size() != g.constants.size() || f.instructions.size() != g.instructions.size() ||
            f.blocks.size() != g.blocks.size() || f.attachments.size() != g.attachments.size())
            return "function " + std::string(f.name);
        for (size_t k = 0; k < f.instructions.size(); ++k) {
            const Instruction& x = f.instructions[k];
            const Instruction& y = g.instructions[k];
            if (x.op != y.op || x.sub != y.sub || x.extra != y.extra || x.operands.size() != y.operands.size() ||
                (x.result == no_id) != (y.result == no_id))
                return "function " + std::string(f.name) + " instruction " + std::to_string(k);
        }
    }
    return {};
}

/// file name → manifest columns bad_input and ir.
std::map<std::string, std::pair<std::string, std::string>> ll_manifest(const fs::path& dir)
{
    std::map<std::string, std::pair<std::string, std::string>> out;
    std::ifstream in(dir / "manifest.tsv");
    std::string line;
    std::vector<std::string> header;
    while (std::getline(in, line)) {
        std::vector<std::string> cols;
        std::stringstream s(line);
        std::string col;
        while (std::getline(s, col, '\t'))
            cols.push_back(col);
        if (header.empty()) {
            header = cols;
            continue;
        }
        auto column = [&](const char* name) -> std::string {
            for (size_t i = 0; i < header.size() && i < cols.size(); ++i)
                if (header[i] == name)
                    return cols[i];
            return {};
        };
        std::string file = column("file");
        if (file.starts_with("dxil-ll/"))
            out[file.substr(8)] = {column("bad_input"), column("ir")};
    }
    return out;
}

} // namespace

TEST_CASE("dxil-ll corpus: every DXIL module prints, reads back and prints identically")
{
    auto files = files_with(corpus_dir() / "dxil", ".dxil");
    if (files.empty()) {
        MESSAGE("dxil corpus not found; skipped (set DXSPV_CORPUS)");
        std::printf("dxil-ll round trip: corpus not found; skipped\n");
        return;
    }
    size_t modules = 0, identical = 0, same_shape = 0, bytes = 0;
    double seconds = 0;
    for (const auto& path : files) {
        std::string file = load(path);
        std::span<const uint8_t> bytes_in(reinterpret_cast<const uint8_t*>(file.data()), file.size());
        dxspv::Diagnostics diags(path.filename().string());
        dxspv::container::Container c;
        dxspv::container::ProgramHeader header;
        if (!dxspv::container::parse_container(bytes_in, c, diags) ||
            !dxspv::container::parse_program_header(c, header, diags) ||
            header.format != dxspv::container::ProgramFormat::dxil)
            continue;
        dxspv::dxil::Module module;
        if (!dxspv::dxil::read_module(header.bitcode, header.bitcode_offset, module, diags))
            continue;
        ++modules;
        std::string text = dxspv::dxil::print_module(module);
        bytes += text.size();
        dxspv::dxil::Module reread;
        dxspv::Diagnostics ll_diags(path.stem().string() + ".ll");
        auto start = std::chrono::steady_clock::now();
        bool ok = dxspv::dxil::parse_module_text(text, reread, ll_diags);
        seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!ok) {
            FAIL_CHECK(ll_diags.to_string());
            continue;
        }
        std::string again = dxspv::dxil::print_module(reread);
        if (again == text)
            ++identical;
        else
            FAIL_CHECK(path.filename().string() << ": " << first_difference(text, again));
        std::string shape = shape_difference(module, reread);
        same_shape += shape.empty();
        if (!shape.empty())
            FAIL_CHECK(path.filename().string() << ": the module read from text differs in its " << shape);
    }
    std::printf("dxil-ll round trip: %zu of %zu modules print, read back and print identically, %zu with the bitcode "
                "module's shape (%zu bytes of text read in %.3f s)\n",
                identical, modules, same_shape, bytes, seconds);
    CHECK(identical == modules);
    CHECK(same_shape == modules);
    CHECK(modules > 0);
}

TEST_CASE("dxil-ll corpus: every .ll file reads or fails with a numbered diagnostic")
{
    fs::path dir = corpus_dir();
    auto files = files_with(dir / "dxil-ll", ".ll");
    if (files.empty()) {
        MESSAGE("dxil-ll corpus not found; skipped (set DXSPV_CORPUS)");
        std::printf("dxil-ll corpus: not found; skipped\n");
        return;
    }
    auto manifest = ll_manifest(dir);
    size_t read = 0, valid = 0, valid_read = 0, bad = 0, bad_read = 0, hl = 0, hl_read = 0;
    std::map<unsigned, size_t> errors_by_code;
    for (const auto& path : files) {
        std::string text = load(path);
        auto [bad_input, ir] = manifest[path.filename().string()];
        dxspv::Diagnostics diags(path.filename().string());
        dxspv::dxil::Module module;
        bool ok = dxspv::dxil::parse_module_text(text, module, diags);
        CHECK((ok || diags.has_errors()));
        if (ok) {
            ++read;
            (void)dxspv::dxil::print_module(module);
        } else {
            errors_by_code[unsigned(diags.messages()[0].code)]++;
        }
        if (bad_input == "yes") {
            ++bad;
            bad_read += ok;
        } else if (ir == "hl") {
            ++hl;
            hl_read += ok;
        } else {
            ++valid;
            valid_read += ok;
            if (!ok)
                FAIL_CHECK(diags.to_string());
        }
    }
    std::printf("dxil-ll corpus: %zu of %zu files read: %zu of %zu valid DXIL, %zu of %zu high-level (dx.hl), "
                "%zu of %zu bad_input\n",
                read, files.size(), valid_read, valid, hl_read, hl, bad_read, bad);
    for (auto [code, n] : errors_by_code)
        std::printf("  E%04u: %zu\n", code, n);
    CHECK(valid_read == valid);
}

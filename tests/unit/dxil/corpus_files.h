// The DXIL containers of the shared corpus ($DXSPV_CORPUS, else the
// DXSPV_CORPUS_DIR the build passes), for the corpus test cases of this
// folder; empty when there is no corpus (the cases then skip).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR ""
#endif

namespace dxil_test {

namespace fs = std::filesystem;

inline std::vector<uint8_t> load(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::vector<fs::path> corpus_files()
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

} // namespace dxil_test

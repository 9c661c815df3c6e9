// The instruction-family sources of the text tests: tests/unit/text/families/
// NN-name.asm, d3d-asm text whose first line "// <family>" names it. Each
// family has its expected VSIR dump beside it (NN-name.vsir).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace text_test {

struct Family {
    std::string name; ///< from the first line
    std::string path; ///< of the .asm file
    std::string text;
};

inline std::string read_text_file(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Every family, in file name order (empty when the folder is missing: the
/// tests using it then fail on the count).
inline std::vector<Family> load_families()
{
    std::vector<Family> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(DXSPV_TEXT_FAMILIES_DIR, ec))
        if (entry.path().extension() == ".asm") {
            Family f;
            f.path = entry.path().string();
            f.text = read_text_file(f.path);
            size_t eol = f.text.find('\n');
            f.name = f.text.rfind("// ", 0) == 0 ? f.text.substr(3, eol - 3) : entry.path().filename().string();
            out.push_back(std::move(f));
        }
    std::sort(out.begin(), out.end(), [](const Family& a, const Family& b) { return a.path < b.path; });
    return out;
}

} // namespace text_test

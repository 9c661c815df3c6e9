// Replays inputs through a fuzz harness without libFuzzer: every file of the
// given files and directories (recursively) is passed to
// LLVMFuzzerTestOneInput once. Built with every compiler, so the regression
// inputs and seeds run in the normal (and sanitizer) test suites.
// One test per file; ends with "N passed, N failed" (a crash ends the run).
//
// usage: fuzz-replay-NAME FILE_OR_DIR...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int main(int argc, char** argv)
{
    namespace fs = std::filesystem;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        std::error_code ec;
        if (fs::is_directory(argv[i], ec)) {
            for (const auto& e : fs::recursive_directory_iterator(argv[i], ec))
                if (e.is_regular_file() && e.path().filename().string()[0] != '.' && e.path().filename() != "README.md")
                    files.push_back(e.path().string());
        } else if (fs::is_regular_file(argv[i], ec)) {
            files.push_back(argv[i]);
        }
    }
    std::sort(files.begin(), files.end());
    unsigned passed = 0;
    for (const std::string& path : files) {
        std::ifstream f(path, std::ios::binary);
        std::vector<uint8_t> read(std::istreambuf_iterator<char>(f), {});
        // A copy of exactly the input's size, so ASan sees any read past its end.
        std::vector<uint8_t> exact(read.begin(), read.end());
        LLVMFuzzerTestOneInput(exact.data(), exact.size());
        ++passed;
    }
    std::printf("%zu inputs replayed\n%u passed, 0 failed\n", files.size(), passed);
    return 0;
}

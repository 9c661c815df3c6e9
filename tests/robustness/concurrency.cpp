// Concurrency test: the library is reentrant. Every input file is translated
// once on one thread (the reference), then THREADS threads translate all of
// them at once, each in its own order, several rounds. Every result code,
// output and message text must be byte-identical to the reference.
// Run under ThreadSanitizer it also shows the absence of data races.
// Ends with "N passed, N failed" (one test per input file).
//
// usage: concurrency [--threads N] [--rounds N] [--target T] FILE_OR_DIR...
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dxspv/dxspv.h"

namespace fs = std::filesystem;

namespace {

struct Outcome {
    dxspv_result result = DXSPV_OK;
    std::string output;
    std::string messages;
    bool operator==(const Outcome&) const = default;
};

struct Input {
    std::string path;
    std::vector<char> bytes;
    Outcome reference;
    std::atomic<unsigned> mismatches{0};
};

Outcome translate(const Input& in, dxspv_target_type target)
{
    dxspv_compile_info info = {}; // default environment: vulkan1.1

    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {in.bytes.data(), in.bytes.size()};
    info.target_type = target;
    info.source_name = in.path.c_str();
    dxspv_code out = {};
    char* messages = nullptr;
    Outcome o;
    o.result = dxspv_compile(&info, &out, &messages);
    o.output.assign(static_cast<const char*>(out.code), out.size);
    if (messages)
        o.messages = messages;
    dxspv_free_code(&out);
    dxspv_free_messages(messages);
    return o;
}

void collect(const fs::path& p, std::vector<std::string>& files)
{
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
        for (const auto& e : fs::recursive_directory_iterator(p, ec))
            if (e.is_regular_file() && (e.path().extension() == ".dxbc" || e.path().extension() == ".dxil" ||
                                        e.path().extension() == ".ll"))
                files.push_back(e.path().string());
    } else if (fs::is_regular_file(p, ec)) {
        files.push_back(p.string());
    }
}

} // namespace

int main(int argc, char** argv)
{
    unsigned threads = 8, rounds = 2;
    dxspv_target_type target = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc)
            threads = unsigned(std::max(1, std::atoi(argv[++i])));
        else if (a == "--rounds" && i + 1 < argc)
            rounds = unsigned(std::max(1, std::atoi(argv[++i])));
        else if (a == "--target" && i + 1 < argc) {
            const char* name = argv[++i];
            bool found = false;
            for (int t = 1; t < 64 && !found; ++t)
                if (const char* n = dxspv_target_type_name(dxspv_target_type(t)); n && !std::strcmp(n, name)) {
                    target = dxspv_target_type(t);
                    found = true;
                }
            if (!found) {
                std::fprintf(stderr, "concurrency: unknown target type %s\n", name);
                return 2;
            }
        } else
            collect(a, files);
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::printf("no input files: skipped\n");
        return 77;
    }

    std::vector<Input> inputs(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        std::ifstream f(files[i], std::ios::binary);
        inputs[i].path = files[i];
        inputs[i].bytes.assign(std::istreambuf_iterator<char>(f), {});
        inputs[i].reference = translate(inputs[i], target);
    }

    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            std::vector<size_t> order(inputs.size());
            for (size_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::mt19937 rng(t + 1);
            for (unsigned r = 0; r < rounds; ++r) {
                std::shuffle(order.begin(), order.end(), rng);
                for (size_t i : order)
                    if (!(translate(inputs[i], target) == inputs[i].reference))
                        inputs[i].mismatches.fetch_add(1, std::memory_order_relaxed);
            }
        });
    for (auto& t : pool)
        t.join();

    unsigned passed = 0, failed = 0, translated = 0;
    for (const Input& in : inputs) {
        translated += in.reference.result == DXSPV_OK;
        if (unsigned m = in.mismatches.load()) {
            ++failed;
            std::printf("FAIL %s: %u of %u concurrent results differ from the single-threaded one\n", in.path.c_str(),
                        m, threads * rounds);
        } else {
            ++passed;
        }
    }
    std::printf("%zu files (%u translated, the rest refused with diagnostics), %u threads x %u rounds\n",
                inputs.size(), translated, threads, rounds);
    std::printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

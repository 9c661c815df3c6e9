// Robustness test: every corpus container (and the bundled shaders) mutated
// many times — bit flips, truncations, header/chunk size and offset edits,
// token overwrites, insertions and deletions — then described and
// translated. Each mutated input must either succeed or fail with a result
// code and a numbered message; a crash or sanitizer report fails the run.
// One test per input file; ends with "N passed, N failed".
// --bitcode: only flip bits inside a DXIL part's bitcode (the container and
// program headers stay intact, so every mutation reaches the DXIL reader and
// lowering). --timeout: a single input taking longer than S seconds is a hang
// and fails the run. --save: every input is written to PATH before it is
// translated, so after a crash or a hang PATH holds the input that caused it.
// --seed: varies the mutations (default 0: the same every run).
//
// usage: mutate [--mutations N] [--seconds S] [--bitcode] [--timeout S] [--save PATH] [--seed N] FILE_OR_DIR...
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include "dxspv/dxspv.h"

namespace fs = std::filesystem;

namespace {

using Bytes = std::vector<uint8_t>;

uint32_t get32(const Bytes& b, size_t off) { return off + 4 <= b.size() ? b[off] | b[off + 1] << 8 | b[off + 2] << 16 | uint32_t(b[off + 3]) << 24 : 0; }
void put32(Bytes& b, size_t off, uint32_t v)
{
    if (off + 4 <= b.size())
        for (int i = 0; i < 4; ++i)
            b[off + size_t(i)] = uint8_t(v >> (8 * i));
}

uint32_t interesting(std::mt19937& rng, uint32_t near)
{
    static const uint32_t values[] = {0, 1, 2, 3, 4, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff};
    switch (rng() % 4) {
    case 0: return values[rng() % (sizeof(values) / sizeof(values[0]))];
    case 1: return near + (rng() % 17) - 8;
    case 2: return near * 2;
    default: return rng();
    }
}

/// Applies one random mutation to a container.
void mutate(Bytes& b, std::mt19937& rng)
{
    if (b.empty()) {
        b.push_back(uint8_t(rng()));
        return;
    }
    uint32_t chunk_count = get32(b, 28);
    size_t table_entries = chunk_count < 64 ? chunk_count : 0;
    switch (rng() % 8) {
    case 0: // bit flips
        for (unsigned i = 0, n = 1 + rng() % 8; i < n; ++i)
            b[rng() % b.size()] ^= uint8_t(1u << (rng() % 8));
        break;
    case 1: // truncation
        b.resize(rng() % b.size());
        break;
    case 2: // container header: total size or chunk count
        put32(b, rng() % 2 ? 24 : 28, interesting(rng, rng() % 2 ? uint32_t(b.size()) : chunk_count));
        break;
    case 3: // a chunk offset
        if (table_entries) {
            size_t at = 32 + 4 * (rng() % table_entries);
            put32(b, at, interesting(rng, get32(b, at)));
        }
        break;
    case 4: // a chunk's size field
        if (table_entries) {
            size_t at = size_t(get32(b, 32 + 4 * (rng() % table_entries))) + 4;
            put32(b, at, interesting(rng, get32(b, at)));
        }
        break;
    case 5: // overwrite a dword inside a chunk (tokens, bitcode, tables)
        if (b.size() >= 8) {
            size_t at = (rng() % (b.size() / 4)) * 4;
            put32(b, at, interesting(rng, get32(b, at)));
        }
        break;
    case 6: { // insert bytes
        size_t at = rng() % (b.size() + 1);
        unsigned n = 1 + rng() % 8;
        for (unsigned i = 0; i < n; ++i)
            b.insert(b.begin() + long(at), uint8_t(rng()));
        break;
    }
    default: { // delete bytes
        size_t at = rng() % b.size();
        size_t n = 1 + rng() % 8;
        b.erase(b.begin() + long(at), b.begin() + long(std::min(b.size(), at + n)));
        break;
    }
    }
}

/// The bitcode of a container's DXIL part: [begin, end), or {0, 0}.
std::pair<size_t, size_t> bitcode_range(const Bytes& b)
{
    uint32_t count = get32(b, 28);
    for (uint32_t i = 0; i < count && i < 64; ++i) {
        size_t chunk = get32(b, 32 + 4 * size_t(i));
        if (chunk + 32 > b.size() || std::memcmp(&b[chunk], "DXIL", 4) != 0)
            continue;
        size_t body = chunk + 8, end = body + get32(b, chunk + 4);
        size_t begin = body + 8 + get32(b, body + 16);
        end = std::min({end, b.size(), begin + get32(b, body + 20)});
        if (begin < end)
            return {begin, end};
    }
    return {0, 0};
}

/// Flips 1 to 8 random bits inside [begin, end).
void flip_bits(Bytes& b, std::pair<size_t, size_t> range, std::mt19937& rng)
{
    for (unsigned i = 0, n = 1 + rng() % 8; i < n; ++i)
        b[range.first + rng() % (range.second - range.first)] ^= uint8_t(1u << (rng() % 8));
}

extern "C" void on_timeout(int)
{
    static const char message[] = "FAIL: an input took longer than the time limit (a hang)\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(1);
}

unsigned long translated = 0, rejected = 0;

/// Runs the library on one input; returns an empty string or what went wrong.
std::string check(const Bytes& b)
{
    dxspv_code code = {b.data(), b.size()};
    char* text = nullptr;
    char* messages = nullptr;
    dxspv_result r = dxspv_describe_container(&code, "mutated", &text, &messages);
    std::string problem;
    if (r != DXSPV_OK && (!messages || !std::strstr(messages, ": E")))
        problem = "describe failed (" + std::to_string(r) + ") without a numbered error";
    dxspv_free_messages(text);
    dxspv_free_messages(messages);
    if (!problem.empty())
        return problem;

    for (dxspv_target_type target : {DXSPV_TARGET_TYPE_SPIRV_BINARY, DXSPV_TARGET_TYPE_VSIR_TEXT}) {
        dxspv_compile_info info = {};
        info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
        info.source = code;
        info.target_type = target;
        info.source_name = "mutated";
        dxspv_code out = {};
        messages = nullptr;
        r = dxspv_compile(&info, &out, &messages);
        if (r != DXSPV_OK && (!messages || !std::strstr(messages, ": E")))
            problem = std::string("compile to ") + dxspv_target_type_name(target) + " failed (" + std::to_string(r)
                + ") without a numbered error";
        ++(r == DXSPV_OK ? translated : rejected);
        if (r == DXSPV_OK && !out.code)
            problem = "compile succeeded without output";
        dxspv_free_code(&out);
        dxspv_free_messages(messages);
        if (!problem.empty())
            return problem;
    }
    return {};
}

Bytes read_file(const fs::path& p)
{
    std::ifstream f(p, std::ios::binary);
    return Bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

} // namespace

int main(int argc, char** argv)
{
    unsigned mutations = 200, timeout = 0, seed = 0;
    double seconds = 120;
    bool bitcode_only = false;
    const char* save_path = nullptr;
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--mutations" && i + 1 < argc)
            mutations = unsigned(std::strtoul(argv[++i], nullptr, 10));
        else if (a == "--seconds" && i + 1 < argc)
            seconds = std::strtod(argv[++i], nullptr);
        else if (a == "--bitcode")
            bitcode_only = true;
        else if (a == "--timeout" && i + 1 < argc)
            timeout = unsigned(std::strtoul(argv[++i], nullptr, 10));
        else if (a == "--save" && i + 1 < argc)
            save_path = argv[++i];
        else if (a == "--seed" && i + 1 < argc)
            seed = unsigned(std::strtoul(argv[++i], nullptr, 10));
        else if (fs::is_directory(a)) {
            for (const auto& e : fs::recursive_directory_iterator(a))
                if (e.is_regular_file() && (e.path().extension() == ".dxbc" || e.path().extension() == ".dxil"))
                    files.push_back(e.path());
        } else if (fs::is_regular_file(a))
            files.push_back(a);
        else
            std::printf("note: %s not found, skipped\n", a.c_str());
    }
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::printf("no input files\n");
        return 77;
    }

    if (timeout)
        signal(SIGALRM, on_timeout);
    auto checked = [&](const Bytes& b) {
        if (save_path)
            std::ofstream(save_path, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), long(b.size()));
        alarm(timeout);
        std::string problem = check(b);
        alarm(0);
        return problem;
    };

    // Spread the time budget over the files; every file gets at least a few mutations.
    auto start = std::chrono::steady_clock::now();
    unsigned passed = 0, failed = 0;
    unsigned long total_mutations = 0;
    for (size_t fi = 0; fi < files.size(); ++fi) {
        Bytes original = read_file(files[fi]);
        auto range = bitcode_range(original);
        if (bitcode_only && range.first == range.second)
            continue;
        std::string problem = checked(original);
        if (!problem.empty())
            problem += " (unmutated input)";
        double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        double budget_left = seconds - elapsed;
        unsigned n = budget_left > 0 ? mutations : 4;
        std::mt19937 rng(uint32_t(0x9e3779b9u * (fi + 1)) ^ seed);
        for (unsigned m = 0; m < n && problem.empty(); ++m) {
            Bytes b = original;
            if (bitcode_only)
                flip_bits(b, range, rng);
            else
                for (unsigned k = 0, edits = 1 + rng() % 3; k < edits; ++k)
                    mutate(b, rng);
            problem = checked(b);
            ++total_mutations;
            if (!problem.empty())
                problem += " (mutation " + std::to_string(m) + ")";
        }
        if (problem.empty())
            ++passed;
        else {
            ++failed;
            std::printf("FAIL %s: %s\n", files[fi].c_str(), problem.c_str());
            std::fflush(stdout);
        }
    }
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("mutated %lu inputs from %zu files in %.1f s; %lu translations succeeded, %lu were refused\n",
                total_mutations, files.size(), elapsed, translated, rejected);
    std::printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}

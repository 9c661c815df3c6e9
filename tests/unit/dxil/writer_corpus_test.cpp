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

#include "container/checksum.h"
#include "container/container.h"
#include "container/program_header.h"
#include "container/signature.h"
#include "corpus_files.h"
#include "dxil/dxil.h"

namespace {

namespace fs = std::filesystem;
using dxil_test::corpus_files;
using dxil_test::load;

/// The elements of chunk `code` in `c` ("" when equal to `want`'s, else
/// what differs first).
std::string compare_signature(const dxspv::container::Container& want, const dxspv::container::Container& got,
                              uint32_t code)
{
    const dxspv::container::Chunk* a = want.find(code);
    const dxspv::container::Chunk* b = got.find(code);
    if (!a && !b)
        return {};
    if (!a || !b)
        return dxspv::container::fourcc_name(code) + (a ? " missing" : " not in the source");
    dxspv::Diagnostics diags;
    std::vector<dxspv::SignatureElement> x, y;
    if (!dxspv::container::parse_signature(*a, x, diags) || !dxspv::container::parse_signature(*b, y, diags))
        return dxspv::container::fourcc_name(code) + " does not parse";
    if (x.size() != y.size())
        return dxspv::container::fourcc_name(code) + " element count " + std::to_string(y.size()) + " want " +
               std::to_string(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const auto &p = x[i], &q = y[i];
        if (p.semantic_name != q.semantic_name || p.semantic_index != q.semantic_index || p.stream != q.stream ||
            p.register_index != q.register_index || p.system_value != q.system_value ||
            p.component_type != q.component_type || p.min_precision != q.min_precision || p.mask != q.mask ||
            p.used_mask != q.used_mask) {
            char buf[400];
            std::snprintf(buf, sizeof buf,
                          "%s element %zu: got %.*s%u reg %u sv %u ct %u mp %u mask %x used %x stream %u, want %.*s%u "
                          "reg %u sv %u ct %u mp %u mask %x used %x stream %u",
                          dxspv::container::fourcc_name(code).c_str(), i, int(q.semantic_name.size()),
                          q.semantic_name.data(), q.semantic_index, q.register_index, unsigned(q.system_value),
                          unsigned(q.component_type), unsigned(q.min_precision), q.mask, q.used_mask, q.stream,
                          int(p.semantic_name.size()), p.semantic_name.data(), p.semantic_index, p.register_index,
                          unsigned(p.system_value), unsigned(p.component_type), unsigned(p.min_precision), p.mask,
                          p.used_mask, p.stream);
            return buf;
        }
    }
    return {};
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

TEST_CASE("dxil corpus: re-encoded containers parse, verify and keep their signatures")
{
    auto files = corpus_files();
    if (files.empty()) {
        MESSAGE("dxil corpus not found; skipped (set DXSPV_CORPUS)");
        return;
    }
    size_t read = 0, written = 0, checksum_ok = 0, same_text = 0, same_signatures = 0, same_chunks = 0,
           fresh_signatures = 0;
    size_t reported = 0;
    for (const auto& path : files) {
        auto file = load(path);
        std::string name = path.filename().string();
        dxspv::Diagnostics diags(name);
        dxspv::container::Container source;
        dxspv::container::ProgramHeader header;
        dxspv::dxil::Module module;
        if (!dxspv::container::parse_container(file, source, diags) ||
            !dxspv::container::parse_program_header(source, header, diags) ||
            !dxspv::dxil::read_module(header.bitcode, header.bitcode_offset, module, diags))
            continue;
        ++read;
        std::vector<uint8_t> out, fresh;
        bool ok = dxspv::dxil::write_container(module, &source, out, diags);
        CHECK_MESSAGE(ok, name << ": " << diags.to_string());
        if (!ok)
            continue;
        ++written;
        dxspv::container::Container c;
        dxspv::container::ProgramHeader h;
        REQUIRE_MESSAGE(dxspv::container::parse_container(out, c, diags), name << ": " << diags.to_string());
        checksum_ok += dxspv::container::verify_checksum(c.bytes) == dxspv::container::ChecksumStatus::ok;
        REQUIRE(dxspv::container::parse_program_header(c, h, diags));
        CHECK(h.model.stage == header.model.stage);
        CHECK(h.model.major == header.model.major);
        CHECK(h.model.minor == header.model.minor);
        CHECK(h.dxil_major == header.dxil_major);
        CHECK(h.dxil_minor == header.dxil_minor);
        dxspv::dxil::Module again;
        if (dxspv::dxil::read_module(h.bitcode, h.bitcode_offset, again, diags) &&
            dxspv::dxil::print_module(again) == dxspv::dxil::print_module(module))
            ++same_text;
        // Same chunks in the same order, the HASH the MD5 of the new bitcode.
        bool chunks_same = c.chunks.size() == source.chunks.size();
        for (size_t i = 0; chunks_same && i < c.chunks.size(); ++i)
            chunks_same = c.chunks[i].fourcc == source.chunks[i].fourcc;
        if (const dxspv::container::Chunk* hash = c.find(dxspv::container::fourcc("HASH"))) {
            auto digest = dxspv::container::md5(h.bitcode);
            chunks_same = chunks_same && hash->data.size() >= 20 &&
                          (hash->data[0] & 1 || std::equal(digest.begin(), digest.end(), hash->data.begin() + 4));
        }
        same_chunks += chunks_same;
        std::string diff;
        for (const char* sig : {"ISG1", "OSG1", "PSG1"})
            if (diff.empty())
                diff = compare_signature(source, c, dxspv::container::fourcc(sig));
        if (diff.empty())
            ++same_signatures;
        else if (reported++ < 10)
            MESSAGE(name << ": " << diff);
        // Without the source container: the signatures alone, equal to the source's.
        REQUIRE(dxspv::dxil::write_container(module, nullptr, fresh, diags));
        dxspv::container::Container f;
        REQUIRE(dxspv::container::parse_container(fresh, f, diags));
        std::string fresh_diff;
        for (const char* sig : {"ISG1", "OSG1", "PSG1"})
            if (fresh_diff.empty())
                fresh_diff = compare_signature(source, f, dxspv::container::fourcc(sig));
        fresh_signatures += fresh_diff.empty();
    }
    std::printf("dxil container corpus: %zu read, %zu re-encoded, %zu with a valid checksum, %zu re-read with the "
                "same text, %zu with the same chunks (HASH recomputed)\n",
                read, written, checksum_ok, same_text, same_chunks);
    std::printf("dxil container corpus: ISG1/OSG1/PSG1 from metadata equal to DXC's in %zu of %zu containers "
                "(%zu when written without the source container)\n",
                same_signatures, written, fresh_signatures);
    CHECK(written == read);
    CHECK(read == files.size());
    CHECK(checksum_ok == written);
    CHECK(same_text == written);
    CHECK(same_chunks == written);
    CHECK(same_signatures == written);
    CHECK(fresh_signatures == written);
}

TEST_CASE("dxil corpus: every mutated module the reader accepts writes back to the same text")
{
    auto files = corpus_files();
    if (files.empty()) {
        MESSAGE("dxil corpus not found; skipped");
        return;
    }
    uint64_t seed = 0x2545F4914F6CDD1Dull;
    auto rnd = [&] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        return seed;
    };
    const char* rounds_env = std::getenv("DXSPV_MUTATION_ROUNDS");
    int rounds = rounds_env ? std::atoi(rounds_env) : 200;
    size_t runs = 0, accepted = 0, refused = 0;
    for (size_t f = 0; f < files.size(); f += files.size() / 8 + 1) {
        auto file = load(files[f]);
        dxspv::Diagnostics diags;
        dxspv::container::Container c;
        dxspv::container::ProgramHeader header;
        if (!dxspv::container::parse_container(file, c, diags) ||
            !dxspv::container::parse_program_header(c, header, diags))
            continue;
        std::vector<uint8_t> original(header.bitcode.begin(), header.bitcode.end());
        for (int round = 0; round < rounds; ++round) {
            std::vector<uint8_t> bytes = original;
            int flips = 1 + int(rnd() % 3);
            for (int k = 0; k < flips; ++k)
                bytes[rnd() % bytes.size()] ^= uint8_t(1u << (rnd() % 8));
            ++runs;
            dxspv::Diagnostics d;
            dxspv::dxil::Module first;
            if (!dxspv::dxil::read_module(bytes, 0, first, d))
                continue;
            ++accepted;
            std::vector<uint8_t> written;
            bool ok = dxspv::dxil::write_bitcode(first, written, d);
            // The writer checks more than the reader (section ids, bodies of
            // defined functions, opaque debug records): it may refuse, with
            // its own diagnostic, never a crash or a wrong module.
            if (!ok) {
                CHECK_MESSAGE((d.has_code(dxspv::Code::dxil_write_unsupported) ||
                               d.has_code(dxspv::Code::dxil_write_inconsistent)),
                              d.to_string());
                ++refused;
                if (std::getenv("DXSPV_WRITER_REFUSALS"))
                    std::printf("%s\n", d.to_string().c_str());
                continue;
            }
            dxspv::dxil::Module second;
            REQUIRE_MESSAGE(dxspv::dxil::read_module(written, 0, second, d), files[f].filename().string() << " round "
                                                                                       << round << ": " << d.to_string());
            CHECK(dxspv::dxil::print_module(first) == dxspv::dxil::print_module(second));
        }
    }
    std::printf("dxil writer mutation: %zu mutated modules, %zu read, %zu written back with the same text, %zu refused "
                "with a writer diagnostic\n",
                runs, accepted, accepted - refused, refused);
}

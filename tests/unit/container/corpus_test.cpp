// Runs the container parsers over the shader corpus (../shared/corpus, or
// $DXSPV_CORPUS) and checks them against its manifest. Skipped when the
// corpus is absent.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>

#include "container/checksum.h"
#include "container/describe.h"
#include "container/program_header.h"
#include "container/rdef.h"
#include "container/root_signature.h"
#include "container/sfi0.h"
#include "container/signature.h"
#include "test_helpers.h"

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR "../shared/corpus"
#endif

using namespace dxspv;
using namespace dxspv::container;
using namespace dxspv::container::test;

namespace {

std::filesystem::path corpus_dir()
{
    const char* env = std::getenv("DXSPV_CORPUS");
    return env && *env ? std::filesystem::path(env) : std::filesystem::path(DXSPV_CORPUS_DIR);
}

std::vector<std::string> split(const std::string& line, char sep)
{
    std::vector<std::string> out;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, sep))
        out.push_back(field);
    return out;
}

Bytes read_file(const std::filesystem::path& path)
{
    std::ifstream f(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

struct Counts {
    size_t files = 0, checksum_ok = 0, checksum_zero = 0, checksum_mismatch = 0;
    size_t signatures = 0, signatures_identical = 0, rdefs = 0, root_signatures = 0;
};

/// Parses every chunk dxspv knows and checks the serialisable ones round trip.
void check_chunks(const Container& c, Counts& counts)
{
    for (const Chunk& chunk : c.chunks) {
        Diagnostics diags;
        SignatureFormat format;
        if (signature_format_of(chunk.fourcc, format)) {
            std::vector<SignatureElement> elements;
            CHECK(parse_signature(chunk, elements, diags));
            ++counts.signatures;
            Bytes data(chunk.data.begin(), chunk.data.end());
            for (std::optional<uint8_t> padding : {std::optional<uint8_t>(0xab), std::optional<uint8_t>(0),
                                                   std::optional<uint8_t>()})
                if (serialize_signature(elements, format, padding) == data) {
                    ++counts.signatures_identical;
                    break;
                }
        } else if (chunk.fourcc == fourcc("RDEF")) {
            Rdef rdef;
            CHECK(parse_rdef(chunk, rdef, diags));
            ++counts.rdefs;
        } else if (chunk.fourcc == fourcc("SFI0")) {
            uint64_t flags;
            CHECK(parse_sfi0(chunk, flags, diags));
        } else if (chunk.fourcc == fourcc("RTS0")) {
            RootSignature rs;
            REQUIRE(parse_root_signature(chunk, rs, diags));
            Bytes again;
            REQUIRE(serialize_root_signature(rs.desc, again, diags));
            CHECK(again == Bytes(chunk.data.begin(), chunk.data.end()));
            ++counts.root_signatures;
        }
        CHECK_MESSAGE(!diags.has_errors(), diags.to_string());
    }
}

void check_file(const std::filesystem::path& root, const std::vector<std::string>& row, Counts& counts)
{
    // Columns: file kind stage sm dxil_version size sha256 ... checksum(12) chunks(13).
    const std::string& file = row[0];
    INFO(file);
    Bytes bytes = read_file(root / file);
    REQUIRE(!bytes.empty());

    Container c;
    Diagnostics diags(file);
    REQUIRE_MESSAGE(parse_container(bytes, c, diags), diags.to_string());
    std::string chunks;
    for (const Chunk& chunk : c.chunks)
        chunks.append(chunks.empty() ? "" : ",").append(fourcc_name(chunk.fourcc));
    CHECK(chunks == row[13]);

    ChecksumStatus status = verify_checksum(c.bytes);
    CHECK(checksum_status_name(status) == row[12]);
    counts.checksum_ok += status == ChecksumStatus::ok;
    counts.checksum_zero += status == ChecksumStatus::zero;
    counts.checksum_mismatch += status == ChecksumStatus::mismatch;

    ProgramHeader program;
    REQUIRE_MESSAGE(parse_program_header(c, program, diags), diags.to_string());
    CHECK(stage_short_name(program.model.stage) == row[2]);
    CHECK(strformat("%u.%u", unsigned(program.model.major), unsigned(program.model.minor)) == row[3]);
    CHECK((program.format == ProgramFormat::dxil) == (row[1] == "dxil"));

    std::string text = describe_container(bytes, diags);
    CHECK_MESSAGE(!diags.has_errors(), diags.to_string());
    CHECK(text.find("stage: " + row[2] + "\nmodel: " + row[3] + "\nchecksum: " + row[12] + "\nchunks: " + row[13] +
                    "\n") == 0);

    check_chunks(c, counts);
    ++counts.files;
}

} // namespace

TEST_CASE("corpus: every container parses and matches the manifest")
{
    std::filesystem::path root = corpus_dir();
    std::ifstream manifest(root / "manifest.tsv");
    if (!manifest) {
        MESSAGE("corpus not found at ", root.string(), ": skipped (set DXSPV_CORPUS)");
        return;
    }
    std::string line;
    REQUIRE(std::getline(manifest, line));
    std::vector<std::string> header = split(line, '\t');
    REQUIRE(header.size() > 13);
    REQUIRE(header[12] == "checksum");
    REQUIRE(header[13] == "chunks");

    Counts counts;
    size_t rows = 0;
    while (std::getline(manifest, line)) {
        std::vector<std::string> row = split(line, '\t');
        if (row.size() <= 13 || (row[1] != "dxbc" && row[1] != "dxil"))
            continue;
        ++rows;
        check_file(root, row, counts);
    }
    CHECK(rows > 0);
    CHECK(counts.files == rows);
    MESSAGE("corpus: ", counts.files, " containers parsed; checksums ", counts.checksum_ok, " ok, ",
            counts.checksum_zero, " zero, ", counts.checksum_mismatch, " mismatch; ", counts.signatures,
            " signatures (", counts.signatures_identical, " re-serialised byte-identically), ", counts.rdefs,
            " RDEF, ", counts.root_signatures, " RTS0 round trips");
}

TEST_CASE("corpus: damaged containers are reported, never crash")
{
    std::filesystem::path root = corpus_dir();
    if (!std::filesystem::is_directory(root / "dxbc")) {
        MESSAGE("corpus not found at ", root.string(), ": skipped (set DXSPV_CORPUS)");
        return;
    }
    std::vector<std::filesystem::path> files;
    for (const char* kind : {"dxbc", "dxil"})
        for (const auto& entry : std::filesystem::directory_iterator(root / kind))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    REQUIRE(!files.empty());

    uint32_t state = 12345; // a fixed xorshift sequence keeps failures reproducible
    auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        return state;
    };
    size_t runs = 0;
    for (size_t f = 0; f < files.size(); f += 7) {
        INFO(files[f].string());
        const Bytes good = read_file(files[f]);
        for (int round = 0; round < 40 && !good.empty(); ++round) {
            Bytes b = good;
            for (int flips = 1 + int(next() % 4); flips > 0; --flips)
                b[next() % b.size()] = uint8_t(next());
            if (round % 8 == 7)
                b.resize(next() % b.size());
            Diagnostics diags;
            std::string text = describe_container(b, diags);
            CHECK((text.empty() ? diags.has_errors() : text.rfind("stage: ", 0) == 0));
            ++runs;
        }
    }
    MESSAGE("corpus: ", runs, " damaged containers described");
}

// The DXIL container writer on a vertex shader module built in code: the
// DXIL chunk's header from !dx.shaderModel and !dx.version, ISG1/OSG1 from
// the signature metadata (rows → registers, columns → masks, usage masks),
// the checksum, the chunks of a source container kept, and diagnostics when
// the metadata lacks what the container needs.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <vector>

#include "container/checksum.h"
#include "container/container.h"
#include "container/program_header.h"
#include "container/signature.h"
#include "dxil/dxil.h"
#include "module_builder.h"

using dxspv::Code;
using dxspv::Diagnostics;
using dxspv::ShaderStage;
using dxspv::SystemValue;
using namespace dxspv::dxil;
namespace container = dxspv::container;
using dxspv_test::BodyBuilder;
using dxspv_test::ModuleBuilder;

namespace {

struct VertexShader {
    ModuleBuilder b;
    TypeId i8, i32;
    MetadataId version = 0;

    MetadataId u32(uint32_t v) { return b.md_value(b.int_constant(i32, v)); }
    MetadataId u8(uint32_t v) { return b.md_value(b.int_constant(i8, v)); }
    MetadataId element(uint32_t id, const char* name, uint32_t ct, uint32_t kind, std::initializer_list<uint32_t> indices,
                       uint32_t rows, uint32_t cols, int32_t row, int32_t col, uint32_t usage)
    {
        std::vector<uint32_t> idx;
        for (uint32_t i : indices)
            idx.push_back(u32(i) + 1);
        Metadata list;
        list.kind = MetadataKind::node;
        list.operands = b.copy(idx);
        MetadataId index_list = b.md(list);
        MetadataId ext = b.md_node({u32(3), u32(usage)});
        return b.md_node({u32(id), b.md_string(name), u8(ct), u8(kind), index_list, u8(0), u32(rows), u8(cols),
                          u32(uint32_t(row)), u8(uint32_t(col)), ext});
    }

    VertexShader(bool with_version = true)
    {
        TypeId void_t = b.basic(TypeKind::void_);
        i8 = b.integer(8);
        i32 = b.integer(32);
        ValueId main_fn = b.function("main", b.function_type(void_t, {}), false);
        // Constants first (module values), then the body.
        MetadataId ver = b.md_node({u32(1), u32(6)});
        MetadataId valver = b.md_node({u32(1), u32(8)});
        MetadataId sm = b.md_node({b.md_string("vs"), u32(6), u32(6)});
        // in: POSITION float3 at row 0; out: SV_Position at row 0, TEXCOORD0..1 (2 rows, 2 columns from column 2).
        MetadataId in = b.md_node({element(0, "POSITION", 9, 0, {0}, 1, 3, 0, 0, 7)});
        MetadataId out = b.md_node({element(0, "SV_Position", 9, 3, {0}, 1, 4, 0, 0, 0xF),
                                    element(1, "TEXCOORD", 8, 0, {0, 1}, 2, 2, 1, 2, 1)});
        MetadataId sigs = b.md_node({in, out, no_id});
        MetadataId fn = b.md_value(main_fn);
        MetadataId entry = b.md_node({fn, b.md_string("main"), sigs, no_id, no_id});
        if (with_version)
            b.named("dx.version", {ver});
        b.named("dx.valver", {valver});
        b.named("dx.shaderModel", {sm});
        b.named("dx.entryPoints", {entry});
        BodyBuilder body(b, main_fn);
        body.block();
        body.inst(Opcode::ret, no_id, {});
    }
};

std::vector<dxspv::SignatureElement> signature_of(const container::Container& c, const char* name)
{
    const container::Chunk* chunk = c.find(container::fourcc(name));
    REQUIRE(chunk);
    Diagnostics diags;
    std::vector<dxspv::SignatureElement> out;
    REQUIRE(container::parse_signature(*chunk, out, diags));
    return out;
}

} // namespace

TEST_CASE("DXIL container writer: program header, signatures and checksum from the module")
{
    VertexShader vs;
    Diagnostics diags;
    std::vector<uint8_t> out;
    REQUIRE_MESSAGE(write_container(vs.b.m, nullptr, out, diags), diags.to_string());
    container::Container c;
    REQUIRE(container::parse_container(out, c, diags));
    CHECK(container::verify_checksum(c.bytes) == container::ChecksumStatus::ok);
    REQUIRE(c.chunks.size() == 3);
    CHECK(c.chunks[0].fourcc == container::fourcc("ISG1"));
    CHECK(c.chunks[1].fourcc == container::fourcc("OSG1"));
    CHECK(c.chunks[2].fourcc == container::fourcc("DXIL"));
    container::ProgramHeader h;
    REQUIRE(container::parse_program_header(c, h, diags));
    CHECK(h.model.stage == ShaderStage::vertex);
    CHECK(h.model.major == 6);
    CHECK(h.model.minor == 6);
    CHECK(h.dxil_major == 1);
    CHECK(h.dxil_minor == 6);
    Module back;
    REQUIRE_MESSAGE(read_module(h.bitcode, h.bitcode_offset, back, diags), diags.to_string());
    CHECK(print_module(back) == print_module(vs.b.m));
    // tests/cli/data/vs_passthrough.dxil is this container:
    // DXSPV_WRITE_CLI_FIXTURE=tests/cli/data/vs_passthrough.dxil unit-dxil -tc="DXIL container writer*"
    if (const char* path = std::getenv("DXSPV_WRITE_CLI_FIXTURE"))
        std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(out.data()), std::streamsize(out.size()));

    auto in = signature_of(c, "ISG1");
    REQUIRE(in.size() == 1);
    CHECK(in[0].semantic_name == "POSITION");
    CHECK(in[0].register_index == 0);
    CHECK(in[0].mask == 0x7);
    CHECK(in[0].used_mask == 0x7); // always reads
    CHECK(in[0].component_type == dxspv::ComponentType::float32);
    auto outs = signature_of(c, "OSG1");
    REQUIRE(outs.size() == 3);
    CHECK(outs[0].semantic_name == "SV_Position");
    CHECK(outs[0].system_value == SystemValue::position);
    CHECK(outs[0].mask == 0xF);
    CHECK(outs[0].used_mask == 0); // never-writes: none
    for (uint32_t i = 0; i < 2; ++i) {
        CHECK(outs[1 + i].semantic_name == "TEXCOORD");
        CHECK(outs[1 + i].semantic_index == i);
        CHECK(outs[1 + i].register_index == 1 + i);
        CHECK(outs[1 + i].mask == 0xC);
        CHECK(outs[1 + i].used_mask == 0x3 + 0x8); // only z written: x, y (not in the mask) and w never
        CHECK(outs[1 + i].component_type == dxspv::ComponentType::float16);
        CHECK(outs[1 + i].min_precision == dxspv::MinPrecision::float16);
    }
}

TEST_CASE("DXIL container writer: a source container's chunks are kept, the DXIL and signatures replaced")
{
    VertexShader vs;
    Diagnostics diags;
    const uint8_t sfi0[8] = {1, 0, 0, 0, 0, 0, 0, 0};
    const uint8_t stale_dxil[24] = {};
    const uint8_t stale_sig[8] = {0, 0, 0, 0, 8, 0, 0, 0};
    uint8_t hash[20] = {};
    const container::ChunkInput chunks[] = {{container::fourcc("SFI0"), sfi0},
                                            {container::fourcc("OSG1"), stale_sig},
                                            {container::fourcc("HASH"), hash},
                                            {container::fourcc("DXIL"), stale_dxil}};
    std::vector<uint8_t> source_bytes, out;
    REQUIRE(container::serialize_container(chunks, source_bytes, diags));
    container::Container source;
    REQUIRE(container::parse_container(source_bytes, source, diags));
    REQUIRE_MESSAGE(write_container(vs.b.m, &source, out, diags), diags.to_string());
    container::Container c;
    REQUIRE(container::parse_container(out, c, diags));
    CHECK(container::verify_checksum(c.bytes) == container::ChecksumStatus::ok);
    std::vector<std::string> names;
    for (const container::Chunk& chunk : c.chunks)
        names.push_back(container::fourcc_name(chunk.fourcc));
    CHECK(names == std::vector<std::string>{"SFI0", "OSG1", "HASH", "ISG1", "DXIL"});
    CHECK(signature_of(c, "OSG1").size() == 3);
    container::ProgramHeader h;
    REQUIRE(container::parse_program_header(c, h, diags));
    auto digest = container::md5(h.bitcode);
    const container::Chunk* hash_chunk = c.find(container::fourcc("HASH"));
    REQUIRE(hash_chunk);
    CHECK(std::equal(digest.begin(), digest.end(), hash_chunk->data.begin() + 4));
    CHECK(std::equal(std::begin(sfi0), std::end(sfi0), c.find(container::fourcc("SFI0"))->data.begin()));
}

TEST_CASE("DXIL container writer: metadata the container needs")
{
    SUBCASE("no !dx.version")
    {
        VertexShader vs(false);
        Diagnostics diags;
        std::vector<uint8_t> out;
        CHECK_FALSE(write_container(vs.b.m, nullptr, out, diags));
        CHECK(diags.has_code(Code::dxil_container_metadata));
        CHECK(out.empty());
    }
    SUBCASE("an unknown shader kind")
    {
        VertexShader vs;
        for (Metadata& md : vs.b.m.metadata)
            if (md.kind == MetadataKind::string && md.string == "vs")
                md.string = "xs";
        Diagnostics diags;
        std::vector<uint8_t> out;
        CHECK_FALSE(write_container(vs.b.m, nullptr, out, diags));
        CHECK(diags.has_code(Code::dxil_container_metadata));
    }
    SUBCASE("no DXIL metadata at all")
    {
        ModuleBuilder b;
        Diagnostics diags;
        std::vector<uint8_t> out;
        CHECK_FALSE(write_container(b.m, nullptr, out, diags));
        CHECK(diags.has_errors());
    }
}

// DXIL metadata read into structs, checked on two corpus shaders whose
// metadata is known (skipped when the corpus is absent).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "container/container.h"
#include "container/program_header.h"
#include "dxil/dxil.h"
#include "dxil/metadata.h"

#ifndef DXSPV_CORPUS_DIR
#define DXSPV_CORPUS_DIR ""
#endif

namespace {

namespace fs = std::filesystem;

/// Reads a corpus file's module and metadata; false when the file is absent.
bool load_metadata(const char* name, dxspv::dxil::DxilMetadata& md)
{
    const char* env = std::getenv("DXSPV_CORPUS");
    fs::path path = fs::path(env && *env ? env : DXSPV_CORPUS_DIR) / "dxil" / name;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::vector<uint8_t> file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    dxspv::Diagnostics diags;
    dxspv::container::Container c;
    dxspv::container::ProgramHeader header;
    REQUIRE(dxspv::container::parse_container(file, c, diags));
    REQUIRE(dxspv::container::parse_program_header(c, header, diags));
    dxspv::dxil::Module module;
    REQUIRE_MESSAGE(dxspv::dxil::read_module(header.bitcode, header.bitcode_offset, module, diags), diags.to_string());
    REQUIRE_MESSAGE(dxspv::dxil::read_dxil_metadata(module, md, diags), diags.to_string());
    return true;
}

} // namespace

TEST_CASE("dxil metadata: pixel shader with SRV, CBV, sampler and signatures")
{
    dxspv::dxil::DxilMetadata md;
    if (!load_metadata("HansKristian-Work_vkd3d-proton__tests_d3d12.c_000674b932__ps_gather_po_dxil.dxil", md)) {
        MESSAGE("corpus file not found; skipped");
        return;
    }
    CHECK(md.dxil_major == 1);
    CHECK(md.dxil_minor == 0);
    CHECK(md.validator_minor == 4);
    CHECK(md.shader_kind == "ps");
    CHECK(md.sm_major == 6);
    CHECK(md.sm_minor == 0);
    REQUIRE(md.resources.size() == 3);
    using dxspv::dxil::ResourceClass;
    CHECK(md.resources[0].resource_class == ResourceClass::srv);
    CHECK(md.resources[0].name == "tex");
    CHECK(md.resources[0].kind == 2);
    CHECK(md.resources[0].element_type == 9);
    CHECK(md.resources[0].range_size == 1);
    CHECK(md.resources[1].resource_class == ResourceClass::cbv);
    CHECK(md.resources[1].cbuffer_size == 8);
    CHECK(md.resources[2].resource_class == ResourceClass::sampler);
    CHECK(md.resources[2].name == "samp");
    REQUIRE(md.entry_points.size() == 1);
    const auto& e = md.entry_points[0];
    CHECK(e.name == "main");
    REQUIRE(e.inputs.size() == 2);
    CHECK(e.inputs[0].name == "SV_Position");
    CHECK(e.inputs[0].semantic_kind == 3);
    CHECK(e.inputs[0].cols == 4);
    CHECK(e.inputs[1].name == "UV_TEXCOORD");
    CHECK(e.inputs[1].cols == 2);
    CHECK(e.inputs[1].start_row == 1);
    REQUIRE(e.outputs.size() == 2);
    CHECK(e.outputs[0].name == "SV_Target");
    CHECK(e.outputs[0].semantic_kind == 16);
    CHECK(e.resources.size() == 3);
}

TEST_CASE("dxil metadata: compute shader with thread group size and UAVs")
{
    dxspv::dxil::DxilMetadata md;
    if (!load_metadata("HansKristian-Work_vkd3d-proton__tests_d3d12.c_000674b932__cs_code_dxil_L40399.dxil", md)) {
        MESSAGE("corpus file not found; skipped");
        return;
    }
    CHECK(md.shader_kind == "cs");
    REQUIRE(md.entry_points.size() == 1);
    const auto& e = md.entry_points[0];
    CHECK(e.num_threads[0] == 64);
    CHECK(e.num_threads[1] == 1);
    CHECK(e.num_threads[2] == 1);
    CHECK(e.shader_flags == 16);
    REQUIRE(md.resources.size() == 2);
    CHECK(md.resources[0].resource_class == dxspv::dxil::ResourceClass::uav);
    CHECK(md.resources[0].kind == 12);
    CHECK(md.resources[0].stride == 4);
    CHECK(md.resources[0].range_size == 0xFFFFFFFFu);
    CHECK(md.resources[0].lower_bound == 2);
    CHECK_FALSE(md.resources[0].has_counter);
    CHECK(md.resources[1].kind == 2);
    CHECK(md.resources[1].element_type == 5);
}

// DXIL sources through the public API: dxil-ll text to the dxil-ll target
// (detected or given), its errors, and a DXIL container whose bitcode is bad.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "dxspv/dxspv.hpp"

namespace {

const char* const module_text = R"(target triple = "dxil-ms-dx"

define void @main() {
  %1 = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  ret void
}

; Function Attrs: nounwind readnone
declare i32 @dx.op.threadId.i32(i32, i32) #0

attributes #0 = { nounwind readnone }

!dx.entryPoints = !{!0}

!0 = !{void ()* @main, !"main", null, null, null}
)";

std::string output_text(const dxspv::Result& r)
{
    auto bytes = r.output.bytes();
    std::string s(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

/// A DXBC container with one DXIL part holding `bitcode` (checksum left zero).
std::vector<uint8_t> dxil_container(const std::vector<uint8_t>& bitcode)
{
    std::vector<uint8_t> program;
    auto u32 = [](std::vector<uint8_t>& v, uint32_t x) {
        for (int i = 0; i < 4; ++i)
            v.push_back(uint8_t(x >> (8 * i)));
    };
    u32(program, 0x60);                                        // pixel shader 6.0
    u32(program, uint32_t((24 + bitcode.size() + 3) / 4));     // size in dwords
    program.insert(program.end(), {'D', 'X', 'I', 'L'});
    u32(program, 0x100);                                       // DXIL 1.0
    u32(program, 16);                                          // bitcode offset from 'DXIL'
    u32(program, uint32_t(bitcode.size()));
    program.insert(program.end(), bitcode.begin(), bitcode.end());
    program.resize((program.size() + 3) & ~size_t(3));
    std::vector<uint8_t> out{'D', 'X', 'B', 'C'};
    out.resize(20);
    u32(out, 1);
    u32(out, uint32_t(36 + 8 + program.size()));
    u32(out, 1);
    u32(out, 36);
    out.insert(out.end(), {'D', 'X', 'I', 'L'});
    u32(out, uint32_t(program.size()));
    out.insert(out.end(), program.begin(), program.end());
    return out;
}

} // namespace

TEST_CASE("dxil-ll text translates to dxil-ll, detected or given")
{
    dxspv::CompileOptions options;
    options.target_type = DXSPV_TARGET_TYPE_DXIL_LL;
    dxspv::Result detected = dxspv::compile(std::string_view(module_text), options);
    REQUIRE_MESSAGE(detected.code == DXSPV_OK, detected.messages.view());
    CHECK(output_text(detected) == module_text);
    options.source_type = DXSPV_SOURCE_TYPE_DXIL_LL;
    dxspv::Result given = dxspv::compile(std::string_view(module_text), options);
    CHECK(given.code == DXSPV_OK);
    CHECK(output_text(given) == module_text);
}

TEST_CASE("dxil-ll errors carry the source name, line, column and code")
{
    dxspv::CompileOptions options;
    options.source_type = DXSPV_SOURCE_TYPE_DXIL_LL;
    options.target_type = DXSPV_TARGET_TYPE_DXIL_LL;
    options.source_name = "bad.ll";
    dxspv::Result r = dxspv::compile(std::string_view("define void @main() {\n  ret i32 %x\n}\n"), options);
    CHECK(r.code == DXSPV_ERROR_INVALID_SHADER);
    CHECK(r.output.bytes().empty());
    CHECK(r.messages.view().find("bad.ll:2:") != std::string_view::npos);
    CHECK(r.messages.view().find("E5011") != std::string_view::npos);
}

TEST_CASE("dxbc-dxil: a DXIL part with bad bitcode fails in the bitcode reader")
{
    std::vector<uint8_t> container = dxil_container({'B', 'C', 0xC0, 0xDE, 0, 0, 0, 0});
    dxspv::CompileOptions options;
    options.target_type = DXSPV_TARGET_TYPE_DXIL_LL;
    dxspv::Result r = dxspv::compile(std::as_bytes(std::span(container)), options);
    CHECK(r.code == DXSPV_ERROR_INVALID_SHADER);
    CHECK(r.messages.view().find(": E7") != std::string_view::npos);
    // Translating to SPIR-V reads the module first: the same bitcode error.
    options.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    r = dxspv::compile(std::as_bytes(std::span(container)), options);
    CHECK(r.code == DXSPV_ERROR_INVALID_SHADER);
    CHECK(r.messages.view().find(": E7") != std::string_view::npos);
}

TEST_CASE("dxbc-dxil: the container checksum is checked only when asked")
{
    // The container writer needs the shader model and the DXIL version.
    const std::string text = std::string(module_text)
                             + "!dx.version = !{!1}\n!dx.shaderModel = !{!2}\n!1 = !{i32 1, i32 0}\n"
                               "!2 = !{!\"cs\", i32 6, i32 0}\n";
    dxspv::CompileOptions options;
    options.target_type = DXSPV_TARGET_TYPE_DXBC_DXIL;
    dxspv::Result written = dxspv::compile(std::string_view(text), options);
    REQUIRE_MESSAGE(written.code == DXSPV_OK, written.messages.view());
    std::vector<std::byte> container(written.output.bytes().begin(), written.output.bytes().end());
    REQUIRE(container.size() > 20);
    options.target_type = DXSPV_TARGET_TYPE_DXIL_LL;
    options.verify_checksum = true;
    dxspv::Result intact = dxspv::compile(std::span<const std::byte>(container), options);
    REQUIRE(intact.code == DXSPV_OK);
    CHECK(intact.messages.view().find("W0011") == std::string_view::npos);

    container[7] ^= std::byte{1}; // a byte of the stored checksum
    dxspv::Result checked = dxspv::compile(std::span<const std::byte>(container), options);
    CHECK(checked.code == DXSPV_OK); // a warning
    CHECK(output_text(checked) == output_text(intact));
    CHECK(checked.messages.view().find("W0011") != std::string_view::npos);
    options.verify_checksum = false; // the default
    dxspv::Result unchecked = dxspv::compile(std::span<const std::byte>(container), options);
    CHECK(unchecked.code == DXSPV_OK);
    CHECK(unchecked.messages.view().find("W0011") == std::string_view::npos);
}

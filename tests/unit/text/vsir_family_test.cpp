// Decoding per instruction family: each families/NN-name.asm is assembled,
// written as TPF tokens, decoded by the TPF reader into VSIR and printed with
// the operand types; the dump must equal families/NN-name.vsir. A missing
// .vsir file fails. After an intended change of the reader or the printer,
// regenerate with DXSPV_UPDATE_EXPECTED=1 build/tests/unit/unit-text
// -tc="*expected VSIR*" and review the diff.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "families.h"
#include "helpers.h"
#include "text/assembler.h"

using namespace dxspv;

TEST_CASE("TPF reader: every instruction family decodes into the expected VSIR")
{
    bool update = std::getenv("DXSPV_UPDATE_EXPECTED") != nullptr;
    std::vector<text_test::Family> families = text_test::load_families();
    REQUIRE(families.size() >= 13);
    for (const text_test::Family& f : families) {
        INFO(f.path);
        vsir::Program assembled;
        Diagnostics diags;
        REQUIRE(text::assemble(f.text, assembled, diags));
        std::string got = text_test::write_and_read(assembled, diags);
        INFO(diags.to_string());
        REQUIRE(!got.empty());
        std::string expected_path = f.path.substr(0, f.path.size() - 4) + ".vsir";
        if (update) {
            std::ofstream(expected_path, std::ios::binary) << got;
            MESSAGE("wrote " << expected_path);
            continue;
        }
        std::ifstream expected_file(expected_path, std::ios::binary);
        REQUIRE_MESSAGE(expected_file.good(), "missing " << expected_path);
        CHECK(got == text_test::read_text_file(expected_path));
    }
}

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "vsir/ir.h"

using namespace dxspv::vsir;

TEST_CASE("VSIR.md documents every opcode")
{
    std::ifstream file(DXSPV_VSIR_MD);
    REQUIRE(file.good());
    std::stringstream text;
    text << file.rdbuf();
    const std::string md = text.str();
    for (size_t i = 0; i < size_t(Opcode::count); ++i) {
        const std::string row = std::string("| `") + opcode_info(Opcode(i)).name + "` |";
        INFO("missing opcode table row: ", row);
        CHECK(md.find(row) != std::string::npos);
    }
}

#include <doctest/doctest.h>

#include <string_view>

#include "dxspv/dxspv.h"

static dxspv_source_type detect(std::string_view s)
{
    dxspv_code c = {s.data(), s.size()};
    return dxspv_detect_source_type(&c);
}

TEST_CASE("detect text sources")
{
    CHECK(detect("cs_5_0\ndcl_thread_group 1, 1, 1\nret\n") == DXSPV_SOURCE_TYPE_D3D_ASM);
    CHECK(detect("// comment\n  // another\n\nps_4_1\n") == DXSPV_SOURCE_TYPE_D3D_ASM);
    CHECK(detect("target datalayout = \"e-m:e\"\n") == DXSPV_SOURCE_TYPE_DXIL_LL);
    CHECK(detect("; ModuleID = 'x'\n") == DXSPV_SOURCE_TYPE_DXIL_LL);
    CHECK(detect("; a comment\ndefine void @main() {\n") == DXSPV_SOURCE_TYPE_DXIL_LL);
    CHECK(detect("") == DXSPV_SOURCE_TYPE_NONE);
    CHECK(detect("   \n// only comments") == DXSPV_SOURCE_TYPE_NONE);
    CHECK(detect("ps_6_0\n") == DXSPV_SOURCE_TYPE_NONE);
    CHECK(detect(std::string_view("cs_5_0\0x", 8)) == DXSPV_SOURCE_TYPE_NONE);
    CHECK(detect("DXBC") == DXSPV_SOURCE_TYPE_NONE);
    CHECK(dxspv_detect_source_type(nullptr) == DXSPV_SOURCE_TYPE_NONE);
}

#include <doctest/doctest.h>

#include "bindings_file.h"

using namespace shader_translate;

TEST_CASE("binding file: every entry kind")
{
    BindingFile f;
    std::string e;
    REQUIRE(parse_binding_file("# a comment\n"
                               "srv space=1 register=3..10 visibility=ps set=2 binding=5   # trailing comment\n"
                               "uav space=0 register=0..* set=0 binding=100\n"
                               "cbv space=0 register=0 push_constant=16\n"
                               "sampler space=0 register=2 set=3 binding=0\n"
                               "counter space=0 register=1 visibility=cs_is_all_so_no set=0 binding=9\n",
                               "b.txt", f, e) == false);
    CHECK(e == "b.txt:6: bad value for visibility: 'cs_is_all_so_no'");

    BindingFile g;
    REQUIRE(parse_binding_file("srv space=1 register=3..10 visibility=ps set=2 binding=5\n"
                               "uav space=0 register=0..* set=0 binding=100\n"
                               "\n"
                               "cbv space=0 register=0 push_constant=16\r\n"
                               "counter space=0 register=1 set=0 binding=9\n"
                               "strict\n",
                               "b.txt", g, e));
    REQUIRE(g.bindings.size() == 3);
    CHECK(g.bindings[0].type == DXSPV_DESCRIPTOR_TYPE_SRV);
    CHECK(g.bindings[0].register_space == 1);
    CHECK(g.bindings[0].register_index == 3);
    CHECK(g.bindings[0].register_count == 8);
    CHECK(g.bindings[0].visibility == DXSPV_SHADER_VISIBILITY_PIXEL);
    CHECK(g.bindings[0].set == 2);
    CHECK(g.bindings[0].binding == 5);
    CHECK(g.bindings[1].register_count == 0xffffffffu);
    CHECK(g.bindings[2].flags == DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT);
    CHECK(g.bindings[2].push_constant_offset == 16);
    REQUIRE(g.counters.size() == 1);
    CHECK(g.counters[0].binding == 9);
    CHECK(g.flags == DXSPV_INTERFACE_STRICT);
    dxspv_interface_info info = g.interface_info();
    CHECK(info.type == DXSPV_STRUCTURE_TYPE_INTERFACE_INFO);
    CHECK(info.binding_count == 3);
    CHECK(info.counter_binding_count == 1);
}

TEST_CASE("binding file: errors name the line")
{
    struct {
        const char* text;
        const char* error;
    } cases[] = {
        {"texture space=0 register=0 set=0 binding=0", "f:1: unknown entry kind 'texture' (srv, uav, cbv, sampler, counter, strict)"},
        {"\nsrv register=0 set=0 binding=0", "f:2: space= and register= are required"},
        {"srv space=0 register=0 set=0", "f:1: set= and binding= are required"},
        {"srv space=0 register=4..2 set=0 binding=0", "f:1: bad value for register: '4..2'"},
        {"srv space=0 register=0 set=0 binding=0 colour=red", "f:1: unknown key 'colour'"},
        {"srv space=0 register=0 set=0 binding", "f:1: expected key=value, got 'binding'"},
        {"srv space=0 register=0 push_constant=0", "f:1: push_constant= is for cbv entries only"},
        {"counter space=0 register=0..3 set=0 binding=0", "f:1: a counter maps one register and needs set= and binding="},
        {"strict now", "f:1: 'strict' takes no values"},
        {"srv space=-1 register=0 set=0 binding=0", "f:1: bad value for space: '-1'"},
    };
    for (auto& c : cases) {
        BindingFile f;
        std::string e;
        CHECK_FALSE(parse_binding_file(c.text, "f", f, e));
        CHECK(e == c.error);
    }
}

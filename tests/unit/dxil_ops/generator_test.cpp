// gen_dxil_ops.py rejects malformed data with a clear message and a
// failing exit status (which fails the build).
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

const char* const good_table = R"(
[classes]
Unary = unary
Reserved = reserved

[table CoreOps]
feature = 0x0000

[op 0]
name       = Sin
class      = Unary
overloads  = 6.0: half,float
overloads  = 6.9: half,float,vec(half,float)
attributes = readnone
stages     = all
min_sm     = 6.0
flags      = -

[table ExperimentalOps]
feature      = 0x8000
experimental = yes

[op 0]
name       = FooV1
class      = Unary
overloads  = 6.10: float
attributes = -
stages     = compute,node
min_sm     = 6.10
flags      = wave

[op 1]
name       = FooV2
class      = Unary
overloads  = 6.10: float
attributes = -
stages     = compute
min_sm     = 6.10
flags      = -
version_of = FooV1
)";

struct Result {
    int status;
    std::string output;
};

Result run_generator(const std::string& name, const std::string& text)
{
    std::string dir = DXSPV_TEST_TMPDIR;
    std::string data = dir + "/" + name + ".txt";
    std::string log = dir + "/" + name + ".log";
    std::ofstream(data) << text;
    std::string cmd = std::string("\"") + DXSPV_PYTHON + "\" \"" + DXSPV_DXIL_OPS_GENERATOR + "\" \"" + data +
                      "\" \"" + dir + "/" + name + ".h\" \"" + dir + "/" + name + ".cpp\" > \"" + log + "\" 2>&1";
    int status = std::system(cmd.c_str());
    std::stringstream ss;
    ss << std::ifstream(log).rdbuf();
    return {status, ss.str()};
}

std::string replace(std::string s, const std::string& from, const std::string& to)
{
    size_t at = s.find(from);
    REQUIRE(at != std::string::npos);
    return s.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("generator accepts a good table")
{
    Result r = run_generator("gen_good", good_table);
    INFO(r.output);
    CHECK(r.status == 0);
    std::stringstream h;
    h << std::ifstream(std::string(DXSPV_TEST_TMPDIR) + "/gen_good.h").rdbuf();
    CHECK(h.str().find("FooV2 = 0x80000001u") != std::string::npos);
}

TEST_CASE("generator rejects bad data")
{
    struct Case {
        const char* name;
        std::string text;
        const char* message;
    };
    const Case cases[] = {
        {"gen_dup_id", replace(good_table, "[op 1]", "[op 0]"), "op index 0 given twice"},
        {"gen_gap", replace(good_table, "[op 1]", "[op 2]"), "gap before op index 2"},
        {"gen_class", replace(good_table, "class      = Unary\noverloads  = 6.10: float\nattributes = -\nstages     = compute\n",
                              "class      = Unry\noverloads  = 6.10: float\nattributes = -\nstages     = compute\n"),
         "unknown op class 'Unry'"},
        {"gen_stage", replace(good_table, "compute,node", "compute,nod"), "unknown shader stage 'nod'"},
        {"gen_overload", replace(good_table, "6.0: half,float", "6.0: half,flaot"), "unknown overload type 'flaot'"},
        {"gen_name", replace(good_table, "name       = FooV2", "name       = FooV1"), "op name 'FooV1' used twice"},
        {"gen_attr", replace(good_table, "readnone", "readnothing"), "unknown attribute 'readnothing'"},
        {"gen_flag", replace(good_table, "flags      = wave", "flags      = wavy"), "unknown flag 'wavy'"},
        {"gen_version", replace(good_table, "version_of = FooV1", "version_of = FooV9"), "version_of 'FooV9'"},
        {"gen_sm_order", replace(good_table, "6.9: half", "5.9: half"), "bad shader model"},
    };
    for (const Case& c : cases) {
        Result r = run_generator(c.name, c.text);
        INFO(c.name << ": " << r.output);
        CHECK(r.status != 0);
        CHECK(r.output.find(c.message) != std::string::npos);
        CHECK(r.output.find("no tables generated") != std::string::npos);
    }
}

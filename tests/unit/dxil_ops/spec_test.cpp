// The generated table agrees with ../shared/specs/dxil_ops.tsv (DXC's op
// database). The file is read at run time: a check, not a copy. Skipped
// with a message when the file is absent.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dxil/ops/ops.h"

using namespace dxspv;
using namespace dxspv::dxil::ops;

namespace {

std::vector<std::string> split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : s) {
        if (c == '(')
            ++depth;
        if (c == ')')
            --depth;
        if (c == sep && depth == 0) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

int scalar_bit(const std::string& t)
{
    static const char* const names[] = {"void", "half", "float", "double", "i1", "i8", "i16", "i32", "i64", "udt", "object"};
    for (int i = 0; i < 11; ++i)
        if (t == names[i])
            return i;
    return -1;
}

/// "half,float,vec(half,float);object" -> one OverloadDim per dimension.
std::vector<OverloadDim> parse_overloads(const std::string& text)
{
    std::vector<OverloadDim> dims;
    for (const std::string& d : split(text, ';')) {
        OverloadDim od{0, 0};
        for (const std::string& item : split(d, ',')) {
            if (item.starts_with("vec(")) {
                for (const std::string& v : split(item.substr(4, item.size() - 5), ','))
                    od.vectors |= uint16_t(1u << scalar_bit(v));
            } else {
                int b = scalar_bit(item);
                CHECK_MESSAGE(b >= 0, "unknown overload type " << item);
                if (b >= 0)
                    od.scalars |= uint16_t(1u << b);
            }
        }
        dims.push_back(od);
    }
    return dims;
}

uint32_t stage_mask(const std::string& text)
{
    static const char* const names[] = {"pixel", "vertex", "geometry", "hull", "domain", "compute", "library",
                                        "raygeneration", "intersection", "anyhit", "closesthit", "miss",
                                        "callable", "mesh", "amplification", "node"};
    if (text == "all")
        return 0xffff;
    uint32_t m = 0;
    for (const std::string& s : split(text, ','))
        for (unsigned i = 0; i < 16; ++i)
            if (s == names[i])
                m |= 1u << i;
    return m;
}

} // namespace

TEST_CASE("the table agrees with shared/specs/dxil_ops.tsv")
{
    std::ifstream in(DXSPV_DXIL_OPS_TSV);
    if (!in) {
        MESSAGE("skipped: " DXSPV_DXIL_OPS_TSV " not found");
        return;
    }
    std::string line;
    REQUIRE(std::getline(in, line));
    std::vector<std::string> header = split(line, '\t');
    REQUIRE(header.size() >= 16);
    REQUIRE(header[0] == "opcode");
    size_t rows = 0;
    size_t seen[2] = {0, 0};
    while (std::getline(in, line)) {
        if (line.empty())
            continue;
        std::vector<std::string> f = split(line, '\t');
        REQUIRE(f.size() >= 16);
        ++rows;
        uint32_t opcode = uint32_t(std::stoul(f[0], nullptr, 0));
        INFO("tsv opcode " << f[0] << " " << f[1]);
        Diagnostics d;
        const TableInfo* t = find_table(uint16_t(opcode >> 16));
        REQUIRE(t);
        REQUIRE((opcode & 0xffff) < t->ops.size());
        ++seen[t->experimental ? 1 : 0];
        const OpInfo& op = t->ops[opcode & 0xffff];
        CHECK(op.opcode == opcode);
        CHECK(std::string(op.name) == f[1]);
        CHECK(std::string(class_info(op.op_class).name) == f[2]);
        CHECK((std::string(t->name) == f[12]));
        // The overloads allowed at the newest shader model are the tsv's.
        const OverloadStep& last = op.overloads().back();
        std::vector<OverloadDim> dims = parse_overloads(f[3]);
        REQUIRE(last.dim_count == dims.size());
        for (size_t i = 0; i < dims.size(); ++i) {
            CHECK(last.dims[i].scalars == dims[i].scalars);
            CHECK(last.dims[i].vectors == dims[i].vectors);
        }
        uint8_t attrs = 0;
        if (f[4] != "-")
            for (const std::string& a : split(f[4], ','))
                attrs |= a == "readnone" ? 1 : a == "readonly" ? 2 : a == "argmemonly" ? 4 : a == "noduplicate" ? 8
                       : a == "noreturn" ? 16 : 0x80;
        CHECK(op.attributes == attrs);
        CHECK(f[5] == std::to_string(op.min_sm_major) + "." + std::to_string(op.min_sm_minor));
        CHECK(op.stages == stage_mask(f[6]));
        CHECK(op.has(Flag::wave) == (f[7] == "1"));
        CHECK(op.has(Flag::barrier) == (f[8] == "1"));
        CHECK(op.has(Flag::derivative) == (f[9] == "1"));
        CHECK(op.has(Flag::gradient) == (f[10] == "1"));
        CHECK(op.has(Flag::feedback) == (f[11] == "1"));
        CHECK(op.has(Flag::convergent) == (f[14] == "1"));
        CHECK(op.has(Flag::uniform_inputs) == (f[15] == "1"));
        CHECK(op.has(Flag::reserved) == (f[2] == "Reserved"));
    }
    // Every op of ours is in the tsv, and the other way round.
    CHECK(seen[0] == CoreOps_count);
    CHECK(seen[1] == ExperimentalOps_count);
    CHECK(rows == CoreOps_count + ExperimentalOps_count);
}

// d3d-asm text generators for the scaling mode (scaling.h).
#include <string>

#include "scaling.h"

namespace bench {

namespace {

constexpr const char* header = "cs_5_0\n"
                               "dcl_globalFlags refactoringAllowed\n"
                               "dcl_uav_raw u0\n"
                               "dcl_input vThreadID.xyz\n"
                               "dcl_temps 4\n"
                               "dcl_thread_group 64, 1, 1\n"
                               "utof r0.xyzw, vThreadID.xyzx\n"
                               "mov r1.xyzw, l(0, 0, 0, 0)\n"
                               "ftou r3.xyzw, r0.xyzw\n";
constexpr uint32_t header_instructions = 7;
constexpr const char* footer = "store_raw u0.x, l(0), r0.x\n"
                               "ret\n";
constexpr uint32_t footer_instructions = 2;

constexpr const char* arithmetic[] = {
    "mad r1.xyzw, r0.xyzw, l(1.5, 2.0, 0.5, 1.0), r1.xyzw\n",
    "add r2.xyzw, r1.xyzw, r0.wzyx\n",
    "mul r0.xyzw, r2.xyzw, l(0.25, 0.25, 0.25, 0.25)\n",
    "dp4 r2.x, r0.xyzw, r1.xyzw\n",
    "max r0.xy, r2.xxxx, r0.xyxx\n",
    "ftou r3.y, r0.x\n",
    "iadd r3.z, r3.y, l(1)\n",
    "utof r0.z, r3.z\n",
};

/// One construct of the block series and the blocks it adds to the SPIR-V
/// (an estimate: the emitted blocks are counted afterwards).
struct Construct {
    const char* text;
    uint32_t blocks;
};

constexpr Construct constructs[] = {
    {"if_nz r3.x\n"
     "add r0.x, r0.x, l(1.0)\n"
     "else\n"
     "mul r0.x, r0.x, l(0.5)\n"
     "endif\n",
     3},
    {"loop\n"
     "iadd r3.w, r3.w, l(1)\n"
     "uge r3.y, r3.w, l(4)\n"
     "breakc_nz r3.y\n"
     "add r0.y, r0.y, l(1.0)\n"
     "endloop\n",
     5},
    {"switch r3.z\n"
     "case l(0)\n"
     "add r0.z, r0.z, l(1.0)\n"
     "break\n"
     "case l(1)\n"
     "add r0.z, r0.z, l(2.0)\n"
     "break\n"
     "default\n"
     "break\n"
     "endswitch\n",
     4},
};

} // namespace

std::string generate_instructions_asm(uint32_t n)
{
    std::string text = header;
    const uint32_t body = n > header_instructions + footer_instructions ? n - header_instructions - footer_instructions : 0;
    text.reserve(text.size() + body * 40 + 64);
    for (uint32_t i = 0; i < body; ++i)
        text += arithmetic[i % std::size(arithmetic)];
    text += footer;
    return text;
}

std::string generate_blocks_asm(uint32_t blocks)
{
    std::string text = header;
    text.reserve(text.size() + blocks * 40 + 64);
    for (uint32_t b = 1, i = 0; b < blocks; ++i) {
        const Construct& c = constructs[i % std::size(constructs)];
        text += c.text;
        b += c.blocks;
    }
    text += footer;
    return text;
}

std::string generate_nesting_asm(uint32_t depth)
{
    std::string text = header;
    text.reserve(text.size() + depth * 80 + 64);
    for (uint32_t level = 0; level < depth; ++level) {
        text += level % 2 ? "loop\nbreakc_nz r3.y\n" : "if_nz r3.x\n";
        text += "add r0.x, r0.x, l(1.0)\n";
    }
    for (uint32_t level = depth; level-- > 0;)
        text += level % 2 ? "endloop\n" : "endif\n";
    text += footer;
    return text;
}

} // namespace bench

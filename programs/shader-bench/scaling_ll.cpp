// DXIL generator for the scaling mode (scaling.h): LLVM 3.7 IR text that
// the project's `.ll` reader and bitcode writer turn into a DXIL container,
// so that the bitcode reader, the module reader and the lowering are timed
// at growing sizes like the other front end.
#include <string>

#include "scaling.h"

namespace bench {

namespace {

constexpr const char* module_header = "target datalayout = \"e-m:e-p:32:32-i1:32-i8:32-i16:32-i32:32-i64:64-"
                                      "f16:32-f32:32-f64:64-n8:16:32:64\"\n"
                                      "target triple = \"dxil-ms-dx\"\n\n"
                                      "%dx.types.Handle = type { i8* }\n"
                                      "%struct.RWByteAddressBuffer = type { i32 }\n";
constexpr const char* entry = "\ndefine void @main() {\n"
                              "entry:\n"
                              "  %out = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)\n"
                              "  %a0 = call i32 @dx.op.threadId.i32(i32 93, i32 0)\n";
constexpr uint32_t header_instructions = 2;
constexpr uint32_t footer_instructions = 2;
constexpr const char* footer_declarations =
    "declare %dx.types.Handle @dx.op.createHandle(i32, i8, i32, i32, i1)\n"
    "declare i32 @dx.op.threadId.i32(i32, i32)\n"
    "declare float @dx.op.unary.f32(i32, float)\n"
    "declare void @dx.op.bufferStore.i32(i32, %dx.types.Handle, i32, i32, i32, i32, i32, i32, i8)\n\n"
    "!dx.version = !{!0}\n"
    "!dx.shaderModel = !{!1}\n"
    "!dx.resources = !{!2}\n"
    "!dx.entryPoints = !{!7}\n\n"
    "!0 = !{i32 1, i32 0}\n"
    "!1 = !{!\"cs\", i32 6, i32 0}\n"
    "!2 = !{null, !3, null, null}\n"
    "!3 = !{!4}\n"
    "!4 = !{i32 0, %struct.RWByteAddressBuffer* undef, !\"out\", i32 0, i32 0, i32 1, i32 11, i1 false, i1 false, "
    "i1 false, null}\n"
    "!5 = !{i32 64, i32 1, i32 1}\n"
    "!6 = !{i32 4, !5}\n"
    "!7 = !{void ()* @main, !\"main\", null, !2, !6}\n";
constexpr uint32_t group_instructions = 8;

/// The store of %a`last`, the end of @main, the declarations and the
/// metadata.
void finish_module(std::string& text, uint32_t last)
{
    text += "  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %out, i32 0, i32 undef, i32 %a" +
            std::to_string(last) + ", i32 undef, i32 undef, i32 undef, i8 1)\n"
            "  ret void\n}\n\n";
    text += footer_declarations;
}

} // namespace

std::string generate_instructions_ll(uint32_t n)
{
    const uint32_t fixed = header_instructions + footer_instructions;
    const uint32_t groups = n > fixed + group_instructions ? (n - fixed) / group_instructions : 1;
    std::string text = module_header;
    text += entry;
    text.reserve(text.size() + size_t(groups) * 400 + 1200);
    // Integer and float arithmetic, a compare, a dx.op call and a select
    // per group, each group reading the previous one's result.
    for (uint32_t k = 0; k < groups; ++k) {
        const std::string a = "%a" + std::to_string(k), s = std::to_string(k);
        text += "  %m" + s + " = mul i32 " + a + ", 3\n";
        text += "  %s" + s + " = add i32 %m" + s + ", " + s + "\n";
        text += "  %c" + s + " = icmp ult i32 %s" + s + ", 100000\n";
        text += "  %f" + s + " = uitofp i32 %s" + s + " to float\n";
        text += "  %g" + s + " = call float @dx.op.unary.f32(i32 7, float %f" + s + ")\n";
        text += "  %h" + s + " = fmul fast float %g" + s + ", 2.500000e+01\n";
        text += "  %i" + s + " = fptoui float %h" + s + " to i32\n";
        text += "  %a" + std::to_string(k + 1) + " = select i1 %c" + s + ", i32 %i" + s + ", i32 %m" + s + "\n";
    }
    finish_module(text, groups);
    return text;
}

std::string generate_types_ll(uint32_t n)
{
    // The struct types come before i1 in the type table (i1 is first used
    // by the createHandle call), so the compares' result type is found
    // after all of them.
    std::string text = module_header;
    text.reserve(text.size() + size_t(n) * 120 + 1200);
    for (uint32_t k = 0; k < n; ++k)
        text += "%struct.S" + std::to_string(k) + " = type { i32, float, i" + std::to_string(8 + k % 50) + " }\n";
    text += entry;
    for (uint32_t k = 0; k < n; ++k) {
        const std::string s = std::to_string(k);
        text += "  %c" + s + " = icmp ult i32 %a" + s + ", " + std::to_string(k + 5) + "\n";
        text += "  %a" + std::to_string(k + 1) + " = select i1 %c" + s + ", i32 %a" + s + ", i32 7\n";
    }
    finish_module(text, n);
    return text;
}

} // namespace bench

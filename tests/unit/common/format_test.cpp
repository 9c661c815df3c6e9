// format_common() against snprintf, and vformat() for the conversions it
// leaves to vsnprintf.
#include <doctest/doctest.h>

#include <climits>
#include <cstdarg>
#include <cstdint>
#include <cstdio>

#include "common/format.h"

namespace {

/// `fmt` through format_common(), or "(refused)" when it leaves the
/// conversion to vsnprintf.
std::string common(const char* fmt, ...)
{
    std::string out;
    va_list args;
    va_start(args, fmt);
    const bool done = dxspv::format_common(out, fmt, args);
    va_end(args);
    return done ? out : "(refused)";
}

std::string reference(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string reference(const char* fmt, ...)
{
    char buf[1024];
    va_list args;
    va_start(args, fmt);
    const int n = vsnprintf(buf, sizeof(buf), fmt, args);
    va_end(args);
    return std::string(buf, size_t(n));
}

std::string through_vformat(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    std::string s = dxspv::vformat(fmt, args);
    va_end(args);
    return s;
}

} // namespace

TEST_CASE("format_common: numbers, characters and strings as snprintf writes them")
{
    for (unsigned u : {0u, 1u, 9u, 10u, 255u, 0x8eu, 4096u, UINT_MAX}) {
        CHECK(common("chunk %u at 0x%x, %X", u, u, u) == reference("chunk %u at 0x%x, %X", u, u, u));
        CHECK(common("[%5u|%05u|%08x|%02X|%1u]", u, u, u, u, u) == reference("[%5u|%05u|%08x|%02X|%1u]", u, u, u, u, u));
    }
    for (int d : {0, 1, -1, 42, -42, INT_MAX, INT_MIN}) {
        CHECK(common("%d", d) == reference("%d", d));
        CHECK(common("[%6d|%06d|%1d]", d, d, d) == reference("[%6d|%06d|%1d]", d, d, d));
    }
    for (long long v : {0ll, -7ll, LLONG_MAX, LLONG_MIN}) {
        CHECK(common("%lld %llu %llx %016llx", v, (unsigned long long)v, (unsigned long long)v, (unsigned long long)v) ==
              reference("%lld %llu %llx %016llx", v, (unsigned long long)v, (unsigned long long)v, (unsigned long long)v));
        CHECK(common("%ld %lu %lx", long(v), (unsigned long)v, (unsigned long)v) ==
              reference("%ld %lu %lx", long(v), (unsigned long)v, (unsigned long)v));
    }
    for (size_t z : {size_t(0), size_t(12345), SIZE_MAX})
        CHECK(common("%zu %zx", z, z) == reference("%zu %zx", z, z));
    CHECK(common("%c%c|%3c", 'a', 'Z', 'q') == reference("%c%c|%3c", 'a', 'Z', 'q'));
    CHECK(common("%s, %8s, %2s, %s", "name", "pad", "long", "") == reference("%s, %8s, %2s, %s", "name", "pad", "long", ""));
    CHECK(common("%.*s|%.*s|%.*s", 3, "abcdef", 0, "xyz", 10, "ab") ==
          reference("%.*s|%.*s|%.*s", 3, "abcdef", 0, "xyz", 10, "ab"));
    CHECK(common("100%% of %u%%", 7u) == reference("100%% of %u%%", 7u));
    CHECK(common("") == "");
    CHECK(common("no conversion") == "no conversion");
}

TEST_CASE("format_common refuses the conversions it does not write; vformat writes them with vsnprintf")
{
    CHECK(common("%g", 1.5) == "(refused)");
    CHECK(common("%-20.*s|", 3, "abcdef") == "(refused)");
    CHECK(common("%.9g", 0.1) == "(refused)");
    CHECK(common("%s", static_cast<const char*>(nullptr)) == "(refused)");
    CHECK(through_vformat("%u: %g and %-6.*s| %e", 3u, 1.5, 2, "xyz", 2.0) ==
          reference("%u: %g and %-6.*s| %e", 3u, 1.5, 2, "xyz", 2.0));
    const std::string long_text(600, 'y');
    CHECK(through_vformat("%s %f", long_text.c_str(), 0.25) == reference("%s %f", long_text.c_str(), 0.25));
    CHECK(through_vformat("%s %u", long_text.c_str(), 5u) == long_text + " 5");
}

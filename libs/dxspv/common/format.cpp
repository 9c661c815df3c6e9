#include "common/format.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace dxspv {

namespace {

/// A message being written into a fixed buffer; `full` once something did
/// not fit (the message is then written by vsnprintf).
struct Sink {
    char buffer[256];
    size_t size = 0;
    bool full = false;

    void put(const char* s, size_t n)
    {
        if (n > sizeof(buffer) - size) {
            full = true;
            return;
        }
        std::memcpy(buffer + size, s, n);
        size += n;
    }
    void repeat(char c, size_t n)
    {
        if (n > sizeof(buffer) - size) {
            full = true;
            return;
        }
        std::memset(buffer + size, c, n);
        size += n;
    }
};

/// `text` (of a number: its digits; `negative` adds the sign) padded to
/// `width` with zeros after the sign or with spaces before it.
void put_padded(Sink& out, bool negative, const char* text, size_t count, unsigned width, bool zero)
{
    const size_t length = count + (negative ? 1 : 0);
    const size_t pad = width > length ? width - length : 0;
    if (!zero)
        out.repeat(' ', pad);
    if (negative)
        out.put("-", 1);
    if (zero)
        out.repeat('0', pad);
    out.put(text, count);
}

void put_number(Sink& out, uint64_t value, bool negative, bool hex, bool upper, unsigned width, bool zero)
{
    char digits[24];
    const char* end = std::to_chars(digits, digits + sizeof(digits), value, hex ? 16 : 10).ptr;
    if (upper)
        for (char* p = digits; p != end; ++p)
            *p = *p >= 'a' ? char(*p - 'a' + 'A') : *p;
    put_padded(out, negative, digits, size_t(end - digits), width, zero);
}

} // namespace

bool format_common(std::string& result, const char* fmt, va_list args)
{
    Sink out;
    for (const char* p = fmt; !out.full;) {
        const char* percent = std::strchr(p, '%');
        if (!percent) {
            out.put(p, std::strlen(p));
            break;
        }
        out.put(p, size_t(percent - p));
        p = percent + 1;
        if (*p == '%') {
            out.put("%", 1);
            ++p;
            continue;
        }
        if (p[0] == '.' && p[1] == '*' && p[2] == 's') {
            const int precision = va_arg(args, int);
            const char* s = va_arg(args, const char*);
            if (!s)
                return false;
            out.put(s, precision < 0 ? std::strlen(s) : strnlen(s, size_t(precision)));
            p += 3;
            continue;
        }
        const bool zero = *p == '0';
        if (zero)
            ++p;
        unsigned width = 0;
        while (*p >= '0' && *p <= '9' && width < 1000)
            width = width * 10 + unsigned(*p++ - '0');
        enum { plain, long_, long_long, size } length = plain;
        if (p[0] == 'l' && p[1] == 'l') {
            length = long_long;
            p += 2;
        } else if (*p == 'l') {
            length = long_;
            ++p;
        } else if (*p == 'z') {
            length = size;
            ++p;
        }
        const char conversion = *p++;
        switch (conversion) {
        case 'u':
        case 'x':
        case 'X': {
            const uint64_t v = length == plain       ? va_arg(args, unsigned)
                               : length == long_     ? va_arg(args, unsigned long)
                               : length == long_long ? va_arg(args, unsigned long long)
                                                     : va_arg(args, size_t);
            put_number(out, v, false, conversion != 'u', conversion == 'X', width, zero);
            break;
        }
        case 'd': {
            if (length == size)
                return false;
            const int64_t v = length == plain   ? va_arg(args, int)
                              : length == long_ ? va_arg(args, long)
                                                : va_arg(args, long long);
            // The magnitude in unsigned arithmetic: -INT64_MIN overflows.
            const uint64_t magnitude = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
            put_number(out, magnitude, v < 0, false, false, width, zero);
            break;
        }
        case 'c': {
            if (length != plain || zero)
                return false;
            const char c = char(va_arg(args, int));
            put_padded(out, false, &c, 1, width, false);
            break;
        }
        case 's': {
            if (length != plain || zero)
                return false;
            const char* s = va_arg(args, const char*);
            if (!s)
                return false;
            put_padded(out, false, s, std::strlen(s), width, false);
            break;
        }
        default: return false;
        }
    }
    if (out.full)
        return false;
    result.append(out.buffer, out.size);
    return true;
}

std::string vformat(const char* fmt, va_list args)
{
    std::string s;
    {
        va_list copy;
        va_copy(copy, args);
        const bool done = format_common(s, fmt, copy);
        va_end(copy);
        if (done)
            return s;
    }
    va_list copy;
    va_copy(copy, args);
    char buf[256];
    int n = vsnprintf(buf, sizeof(buf), fmt, copy);
    va_end(copy);
    if (n < 0)
        return std::string(fmt);
    if (size_t(n) < sizeof(buf))
        return std::string(buf, size_t(n));
    s.assign(size_t(n), '\0');
    vsnprintf(s.data(), size_t(n) + 1, fmt, args);
    return s;
}

} // namespace dxspv

// Text helpers shared by the .shader_test parser files.
#pragma once

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace runner::detail {

// ---- small text helpers --------------------------------------------------

inline std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

/// Removes a `%` comment and surrounding blanks.
inline std::string_view strip_comment(std::string_view line)
{
    size_t pos = line.find('%');
    if (pos != std::string_view::npos)
        line = line.substr(0, pos);
    return trim(line);
}

/// If `s` starts with the word `word` (followed by a non-identifier char),
/// consumes it and the blanks after it.
inline bool match_word(std::string_view& s, std::string_view word)
{
    if (s.substr(0, word.size()) != word)
        return false;
    if (s.size() > word.size()) {
        char c = s[word.size()];
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')
            return false;
    }
    s = trim(s.substr(word.size()));
    return true;
}

/// Reads one identifier-like token ([A-Za-z0-9_.-]+).
inline std::string_view read_token(std::string_view& s)
{
    size_t n = 0;
    while (n < s.size() && (std::isalnum(static_cast<unsigned char>(s[n])) || s[n] == '_' || s[n] == '-' || s[n] == '.'))
        ++n;
    std::string_view token = s.substr(0, n);
    s = trim(s.substr(n));
    return token;
}

inline bool read_uint(std::string_view& s, uint32_t& value)
{
    std::string tmp(s);
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(tmp.c_str(), &end, 0);
    if (end == tmp.c_str() || errno || v > 0xffffffffull || tmp[0] == '-')
        return false;
    value = static_cast<uint32_t>(v);
    s = trim(s.substr(end - tmp.c_str()));
    if (!s.empty() && s.front() == ',')
        s = trim(s.substr(1));
    return true;
}

/// A number for a typed slot: float (as double), or a 64-bit integer.
inline bool read_number(std::string_view& s, bool is_float, bool is_signed, double& f, uint64_t& u)
{
    std::string tmp(s);
    char* end = nullptr;
    errno = 0;
    if (is_float) {
        f = std::strtod(tmp.c_str(), &end);
        if (end != tmp.c_str() && *end == 'f')
            ++end;
    } else if (is_signed) {
        u = static_cast<uint64_t>(std::strtoll(tmp.c_str(), &end, 0));
    } else {
        if (trim(s).substr(0, 1) == "-")
            u = static_cast<uint64_t>(std::strtoll(tmp.c_str(), &end, 0));
        else
            u = std::strtoull(tmp.c_str(), &end, 0);
    }
    if (end == tmp.c_str() || (errno == ERANGE && !is_float))
        return false;
    s = trim(s.substr(end - tmp.c_str()));
    if (!s.empty() && s.front() == ',')
        s = trim(s.substr(1));
    return true;
}

} // namespace runner::detail

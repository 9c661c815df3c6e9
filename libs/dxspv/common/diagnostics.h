// Diagnostics: numbered error/warning codes with a location, collected in a
// sink the caller reads after the call. The library never prints anything.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dxspv {

/// Every diagnostic code. Numbers are grouped by component (see diag/*.def):
/// 0xxx api, 1xxx tpf, 2xxx spirv, 3xxx container, 4xxx d3d-asm text,
/// 5xxx dxil-ll text, 6xxx cfg, 7xxx bitstream, 8xxx dxil, 9xxx vsir.
enum class Code : uint16_t {
#define DXSPV_DIAG(name, number, summary) name = number,
#include "common/diag/all.def"
#undef DXSPV_DIAG
};

/// One-line summary of a code (from its .def entry), for documentation.
const char* code_summary(Code code);

enum class Severity : uint8_t { error, warning };

/// Where a diagnostic points: a byte offset in the input, an instruction
/// index, or a line:column in text input.
struct Location {
    enum class Kind : uint8_t { none, offset, instruction, text };
    Kind kind = Kind::none;
    uint32_t a = 0; ///< offset, instruction index or line
    uint32_t b = 0; ///< column for text locations

    static Location none() { return {}; }
    static Location offset(uint64_t off) { return {Kind::offset, uint32_t(off), 0}; }
    static Location instruction(uint32_t index) { return {Kind::instruction, index, 0}; }
    static Location text(uint32_t line, uint32_t column) { return {Kind::text, line, column}; }
};

struct Message {
    Severity severity;
    Code code;
    Location location;
    std::string text;
};

/// Collects messages. Formatting follows `name:location: E1003: text`.
class Diagnostics {
public:
    /// Messages past this count are dropped (one note says how many).
    static constexpr size_t max_messages = 1000;

    explicit Diagnostics(std::string_view source_name = {}) : source_name_(source_name) {}

    /// Cold: the compiler moves the paths that report an error out of the
    /// code that translates (fewer instruction-cache lines per translation).
    [[gnu::cold]] void error(Code code, Location loc, const char* fmt, ...) __attribute__((format(printf, 4, 5)));
    void warning(Code code, Location loc, const char* fmt, ...) __attribute__((format(printf, 4, 5)));

    bool has_errors() const { return error_count_ != 0; }
    size_t error_count() const { return error_count_; }
    size_t warning_count() const { return warning_count_; }
    std::span<const Message> messages() const { return messages_; }
    bool has_code(Code code) const;

    const std::string& source_name() const { return source_name_; }
    void set_source_name(std::string_view name) { source_name_ = name; }

    /// Formats one message as `source:location: E1234: text`.
    std::string format(const Message& m) const;
    /// Every message, one per line, in the order they were reported.
    std::string to_string() const;

    void clear();

    /// Whether messages keep their text (the default). Without, they keep
    /// their severity, code and location only: for a caller that reads no
    /// text (dxspv_compile without `messages`), no formatting per warning.
    void keep_texts(bool keep) { keep_texts_ = keep; }

private:
    void add(Severity severity, Code code, Location loc, const char* fmt, va_list args);

    std::string source_name_;
    std::vector<Message> messages_;
    size_t error_count_ = 0;
    size_t warning_count_ = 0;
    size_t dropped_ = 0;
    bool keep_texts_ = true;
};

/// printf into a std::string.
std::string strformat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace dxspv

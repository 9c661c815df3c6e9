#include "common/diagnostics.h"

#include "common/format.h"

#include <cstdarg>
#include <cstdio>

namespace dxspv {

const char* code_summary(Code code)
{
    switch (code) {
#define DXSPV_DIAG(name, number, summary) \
    case Code::name: return summary;
#include "common/diag/all.def"
#undef DXSPV_DIAG
    }
    return "unknown diagnostic";
}

std::string strformat(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    std::string s = vformat(fmt, args);
    va_end(args);
    return s;
}

void Diagnostics::add(Severity severity, Code code, Location loc, const char* fmt, va_list args)
{
    if (severity == Severity::error)
        ++error_count_;
    else
        ++warning_count_;
    if (messages_.size() >= max_messages) {
        ++dropped_;
        return;
    }
    if (messages_.empty())
        messages_.reserve(8); // a few warnings are common (one allocation, not one per doubling)
    messages_.push_back({severity, code, loc, keep_texts_ ? vformat(fmt, args) : std::string()});
}

void Diagnostics::error(Code code, Location loc, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    add(Severity::error, code, loc, fmt, args);
    va_end(args);
}

void Diagnostics::warning(Code code, Location loc, const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    add(Severity::warning, code, loc, fmt, args);
    va_end(args);
}

bool Diagnostics::has_code(Code code) const
{
    for (const Message& m : messages_)
        if (m.code == code)
            return true;
    return false;
}

std::string Diagnostics::format(const Message& m) const
{
    std::string out = source_name_.empty() ? std::string("<input>") : source_name_;
    switch (m.location.kind) {
    case Location::Kind::none: break;
    case Location::Kind::offset: out += strformat(":0x%x", m.location.a); break;
    case Location::Kind::instruction: out += strformat(":instruction %u", m.location.a); break;
    case Location::Kind::text: out += strformat(":%u:%u", m.location.a, m.location.b); break;
    }
    out += strformat(": %c%04u: ", m.severity == Severity::error ? 'E' : 'W', unsigned(m.code));
    out += m.text;
    return out;
}

std::string Diagnostics::to_string() const
{
    std::string out;
    for (const Message& m : messages_) {
        out += format(m);
        out += '\n';
    }
    if (dropped_)
        out += strformat("%s: %zu further messages not shown\n",
                         source_name_.empty() ? "<input>" : source_name_.c_str(), dropped_);
    return out;
}

void Diagnostics::clear()
{
    messages_.clear();
    error_count_ = warning_count_ = dropped_ = 0;
}

} // namespace dxspv

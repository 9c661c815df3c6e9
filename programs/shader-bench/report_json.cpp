// The JSON report: the same figures as the text one, for machines.
// Times in microseconds, sizes in bytes and SPIR-V words.
#include <cmath>
#include <cstdio>
#include <string>

#include "report.h"

namespace bench {

namespace {

/// Appends JSON text; commas between members and elements are automatic.
class Json {
public:
    void open(char c)
    {
        separate();
        out_ += c;
        first_ = true;
    }
    void close(char c)
    {
        out_ += c;
        first_ = false;
    }
    void key(const char* k)
    {
        separate();
        string(k);
        out_ += ':';
        first_ = true;
    }
    void value(const std::string& s)
    {
        separate();
        string(s);
    }
    void value(double d)
    {
        separate();
        char buf[32];
        std::snprintf(buf, sizeof(buf), "%.3f", std::isfinite(d) ? d : 0.0);
        out_ += buf;
    }
    void value(uint64_t n)
    {
        separate();
        out_ += std::to_string(n);
    }
    void value(uint32_t n) { value(uint64_t(n)); }
    void value(bool b)
    {
        separate();
        out_ += b ? "true" : "false";
    }
    template <typename T> void member(const char* k, const T& v)
    {
        key(k);
        value(v);
    }
    void member(const char* k, const char* v) { member(k, std::string(v)); }
    const std::string& text() const { return out_; }

private:
    void separate()
    {
        if (!first_)
            out_ += ',';
        first_ = false;
    }
    void string(const std::string& s)
    {
        out_ += '"';
        for (unsigned char c : s) {
            if (c == '"' || c == '\\') {
                out_ += '\\';
                out_ += char(c);
            } else if (c < 0x20) {
                char buf[8];
                std::snprintf(buf, sizeof(buf), "\\u%04x", c);
                out_ += buf;
            } else {
                out_ += char(c);
            }
        }
        out_ += '"';
    }

    std::string out_;
    bool first_ = true;
};

void phases(Json& j, const char* k, const PhaseTimes& p)
{
    j.key(k);
    j.open('{');
    for (size_t i = 0; i < phase_count; ++i)
        j.member(phase_names[i], p[i]);
    j.close('}');
}

void file(Json& j, const FileResult& r)
{
    j.open('{');
    j.member("path", r.path);
    j.member("kind", kind_name(r.kind));
    j.member("bytes", r.bytes);
    j.member("ok", r.outcome.ok);
    if (!r.outcome.ok) {
        j.member("error", r.outcome.error);
    } else {
        j.member("median_us", r.timing.median_us);
        j.member("min_us", r.timing.min_us);
        j.member("mb_per_s", r.timing.median_us > 0 ? double(r.bytes) / r.timing.median_us : 0.0);
        phases(j, "phases_us", r.timing.phases_us);
        j.member("spirv_words", r.outcome.spirv_words);
        j.member("trampolines", r.outcome.trampolines);
        j.member("peak_heap_bytes", r.peak_heap);
    }
    j.close('}');
}

void aggregate(Json& j, const char* k, const Aggregate& a)
{
    j.key(k);
    j.open('{');
    j.member("files", a.files);
    j.member("translated", a.translated);
    j.member("failed", a.files - a.translated);
    j.member("median_us", a.median_us);
    j.member("min_us", a.min_us);
    j.member("mean_us", a.mean_us);
    j.member("total_us", a.total_us);
    j.member("bytes", a.bytes);
    j.member("mb_per_s", a.mb_per_s());
    phases(j, "phases_us", a.phases_us);
    j.member("spirv_words", a.spirv_words);
    j.member("spirv_words_per_shader", a.translated ? double(a.spirv_words) / a.translated : 0.0);
    j.member("trampolines", a.trampolines);
    j.member("peak_heap_bytes", a.peak_heap);
    j.close('}');
}

void series(Json& j, const ScalingSeries& s)
{
    j.open('{');
    j.member("name", s.name);
    j.member("unit", s.unit);
    if (!s.skipped.empty()) {
        j.member("skipped", s.skipped);
        j.close('}');
        return;
    }
    j.key("points");
    j.open('[');
    for (const ScalingPoint& p : s.points) {
        j.open('{');
        j.member("size", p.size);
        j.member("ok", p.outcome.ok);
        if (!p.outcome.ok) {
            j.member("error", p.outcome.error);
        } else {
            j.member("units", p.units);
            j.member("median_us", p.timing.median_us);
            j.member("min_us", p.timing.min_us);
            j.member("ns_per_unit", p.ns_per_unit);
            if (p.assemble_ns_per_unit > 0)
                j.member("assemble_ns_per_unit", p.assemble_ns_per_unit);
            phases(j, "phases_us", p.timing.phases_us);
            j.member("spirv_words", p.outcome.spirv_words);
            j.member("trampolines", p.outcome.trampolines);
        }
        j.close('}');
    }
    j.close(']');
    j.member("ratio", s.ratio);
    if (s.assemble_ratio > 0)
        j.member("assemble_ratio", s.assemble_ratio);
    j.member("flat", s.flat());
    j.close('}');
}

} // namespace

void print_json(const Report& report)
{
    Json j;
    j.open('{');
    j.key("config");
    j.open('{');
    j.member("runs", report.settings.runs);
    j.member("validate", report.settings.validate);
    j.member("verify_checksum", report.settings.verify_checksum);
    j.member("target_env", dxspv::spirv::target_env_name(report.settings.env));
    j.member("release_build", release_build());
    j.member("profile_guided_build", profile_guided_build());
    j.close('}');
    j.key("machine");
    j.open('{');
    j.member("cpu", cpu_model());
    j.member("processors", processor_count());
    j.close('}');
    j.key("files");
    j.open('[');
    for (const FileResult& r : report.files)
        file(j, r);
    j.close(']');
    j.key("aggregate");
    j.open('{');
    aggregate(j, "dxbc", bench::aggregate(report.files, SourceKind::dxbc, false));
    aggregate(j, "dxil", bench::aggregate(report.files, SourceKind::dxil, false));
    aggregate(j, "all", bench::aggregate(report.files, SourceKind::dxbc, true));
    j.close('}');
    if (report.scaling_ran) {
        j.key("scaling");
        j.open('[');
        for (const ScalingSeries& s : report.scaling)
            series(j, s);
        j.close(']');
    }
    j.member("peak_rss_kib", report.peak_rss_kib);
    j.close('}');
    std::printf("%s\n", j.text().c_str());
}

} // namespace bench

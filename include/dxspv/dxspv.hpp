// dxspv C++ API: a thin RAII layer over the C API in dxspv.h.
// Nothing here throws or allocates: outputs and messages stay in the
// buffers the library allocated and are freed by their destructors.
//
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <utility>

#include "dxspv/dxspv.h"

namespace dxspv {

/// Text allocated by the library (messages, descriptions); freed on destruction.
class Text {
public:
    Text() = default;
    explicit Text(char* text) noexcept : text_(text) {}
    Text(Text&& o) noexcept : text_(std::exchange(o.text_, nullptr)) {}
    Text& operator=(Text&& o) noexcept
    {
        std::swap(text_, o.text_);
        return *this;
    }
    Text(const Text&) = delete;
    Text& operator=(const Text&) = delete;
    ~Text() { dxspv_free_messages(text_); }

    /// The text, or an empty view when there is none.
    std::string_view view() const noexcept { return text_ ? std::string_view(text_) : std::string_view(); }
    bool empty() const noexcept { return !text_ || !*text_; }
    /// Releases the current text and returns the slot for an output parameter.
    char** out() noexcept
    {
        dxspv_free_messages(std::exchange(text_, nullptr));
        return &text_;
    }

private:
    char* text_ = nullptr;
};

/// An output buffer of the library; freed on destruction.
class Code {
public:
    Code() = default;
    Code(Code&& o) noexcept : code_(std::exchange(o.code_, {})) {}
    Code& operator=(Code&& o) noexcept
    {
        std::swap(code_, o.code_);
        return *this;
    }
    Code(const Code&) = delete;
    Code& operator=(const Code&) = delete;
    ~Code() { dxspv_free_code(&code_); }

    std::span<const std::byte> bytes() const noexcept
    {
        return {static_cast<const std::byte*>(code_.code), code_.size};
    }
    /// SPIR-V targets: the output as 32-bit words.
    std::span<const uint32_t> words() const noexcept
    {
        return {static_cast<const uint32_t*>(code_.code), code_.size / sizeof(uint32_t)};
    }
    /// Text targets: the output as text (without the terminating NUL).
    std::string_view text() const noexcept
    {
        std::string_view s(static_cast<const char*>(code_.code), code_.size);
        return !s.empty() && s.back() == '\0' ? s.substr(0, s.size() - 1) : s;
    }
    /// Releases the current buffer and returns the slot for an output parameter.
    dxspv_code* out() noexcept
    {
        dxspv_free_code(&code_);
        return &code_;
    }

private:
    dxspv_code code_ = {};
};

/// What to translate and how.
struct CompileOptions {
    dxspv_source_type source_type = DXSPV_SOURCE_TYPE_NONE; ///< NONE: detect
    dxspv_target_type target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    dxspv_spirv_environment environment = DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1;
    bool validate = false;         ///< run the SPIR-V validator on the output
    bool experimental_ops = false; ///< accept experimental DXIL opcodes
    bool optimize = false;         ///< run the SPIR-V optimiser
    bool stats = false;            ///< report the structurizer's statistics (warning W6010)
    bool verify_checksum = false;  ///< warn (W0011) when a container's checksum does not match
    const char* source_name = nullptr; ///< used in messages
    const char* entry_point = nullptr; ///< DXIL libraries
    const dxspv_interface_info* interface_info = nullptr; ///< binding map (its `next` must be NULL)
};

/// The outcome of compile(): result code, output and messages.
struct Result {
    dxspv_result code = DXSPV_ERROR;
    Code output;
    Text messages;

    explicit operator bool() const noexcept { return code == DXSPV_OK; }
};

/// Translates `source` as `options` say. Never throws.
inline Result compile(std::span<const std::byte> source, const CompileOptions& options = {}) noexcept
{
    dxspv_spirv_target_info spirv = {};
    spirv.type = DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    spirv.environment = options.environment;
    if (options.interface_info)
        spirv.next = options.interface_info;

    const dxspv_compile_option opts[] = {
        {DXSPV_COMPILE_OPTION_VALIDATE_SPIRV, options.validate ? 1u : 0u},
        {DXSPV_COMPILE_OPTION_EXPERIMENTAL_OPS, options.experimental_ops ? 1u : 0u},
        {DXSPV_COMPILE_OPTION_OPTIMIZE, options.optimize ? 1u : 0u},
        {DXSPV_COMPILE_OPTION_STATS, options.stats ? 1u : 0u},
        {DXSPV_COMPILE_OPTION_VERIFY_CHECKSUM, options.verify_checksum ? 1u : 0u},
    };

    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &spirv;
    info.source = {source.data(), source.size()};
    info.source_type = options.source_type;
    info.target_type = options.target_type;
    info.options = opts;
    info.option_count = sizeof(opts) / sizeof(opts[0]);
    info.source_name = options.source_name;
    info.entry_point = options.entry_point;

    Result result;
    result.code = dxspv_compile(&info, result.output.out(), result.messages.out());
    return result;
}

/// Same as above for text input.
inline Result compile(std::string_view source, const CompileOptions& options = {}) noexcept
{
    return compile(std::as_bytes(std::span<const char>(source.data(), source.size())), options);
}

/// The container summary `shader-translate --info` prints.
inline dxspv_result describe_container(std::span<const std::byte> dxbc, Text& text, Text& messages,
                                       const char* source_name = nullptr) noexcept
{
    dxspv_code code = {dxbc.data(), dxbc.size()};
    return dxspv_describe_container(&code, source_name, text.out(), messages.out());
}

/// Reflection of a shader; freed on destruction.
class Reflection {
public:
    Reflection() = default;
    Reflection(const Reflection&) = delete;
    Reflection& operator=(const Reflection&) = delete;
    ~Reflection() { dxspv_free_reflection(&r_); }
    const dxspv_reflection& operator*() const noexcept { return r_; }
    const dxspv_reflection* operator->() const noexcept { return &r_; }
    /// Releases the current reflection and returns the slot for an output parameter.
    dxspv_reflection* out() noexcept
    {
        dxspv_free_reflection(&r_);
        return &r_;
    }

private:
    dxspv_reflection r_ = {};
};

/// Reflects `source` (descriptors with their bindings, signatures, thread
/// group size); `options.target_type` is ignored.
inline dxspv_result reflect(std::span<const std::byte> source, const CompileOptions& options, Reflection& out,
                            Text& messages) noexcept
{
    dxspv_spirv_target_info spirv = {};
    spirv.type = DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    spirv.environment = options.environment;
    spirv.next = options.interface_info;
    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.next = &spirv;
    info.source = {source.data(), source.size()};
    info.source_type = options.source_type;
    info.source_name = options.source_name;
    info.entry_point = options.entry_point;
    return dxspv_reflect(&info, out.out(), messages.out());
}

/// The library version ("major.minor.patch").
inline std::string_view version() noexcept { return dxspv_get_version(nullptr, nullptr); }

} // namespace dxspv

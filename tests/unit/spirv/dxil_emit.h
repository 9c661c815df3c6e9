// Helpers for the emitter tests of the DXIL conventions (VSIR.md "DXIL
// conventions"): SSA programs built in code are checked by the VSIR
// validator, emitted for Vulkan 1.1 and 1.3, validated with spirv-val and
// optimised with spirv-opt (whose output must validate too).
#pragma once

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "spirv/emit.h"
#include "spirv/tools.h"
#include "vsir/printer.h"
#include "vsir/validator.h"
#include "vsir_builder.h"

namespace spirv_test {

inline constexpr dxspv::spirv::TargetEnv dxil_envs[] = {dxspv::spirv::TargetEnv::vulkan1_1,
    dxspv::spirv::TargetEnv::vulkan1_3};

inline std::string typed_text(const Program& p)
{
    dxspv::vsir::PrintOptions options;
    options.show_types = true;
    return dxspv::vsir::print_program(p, options);
}

/// Emits `p` for Vulkan 1.1 and 1.3 (every check must pass); returns the
/// Vulkan 1.1 disassembly.
inline std::string emit_dxil(const Program& p)
{
    INFO("VSIR:\n" << typed_text(p));
    dxspv::Diagnostics vsir_diags("vsir");
    CHECK_MESSAGE(dxspv::vsir::validate_program(p, vsir_diags, nullptr), vsir_diags.to_string());
    std::string text;
    for (dxspv::spirv::TargetEnv env : dxil_envs) {
        INFO("target " << std::string(dxspv::spirv::target_env_name(env)));
        dxspv::spirv::EmitOptions options;
        options.target_env = env;
        std::vector<uint32_t> words;
        dxspv::Diagnostics diags("emit");
        REQUIRE_MESSAGE(dxspv::spirv::emit_spirv(p, options, words, diags), diags.to_string());
        std::string disassembly = dxspv::spirv::disassemble_spirv(words);
        dxspv::Diagnostics val("spirv-val");
        CHECK_MESSAGE(dxspv::spirv::validate_spirv(words, env, val), val.to_string() << "\n" << disassembly);
        dxspv::Diagnostics opt("spirv-opt"), val_opt("spirv-val");
        CHECK_MESSAGE(dxspv::spirv::optimize_spirv(words, env, opt), opt.to_string());
        CHECK_MESSAGE(dxspv::spirv::validate_spirv(words, env, val_opt), val_opt.to_string());
        if (env == dxspv::spirv::TargetEnv::vulkan1_1)
            text = disassembly;
    }
    return text;
}

/// A compute shader (SM 6.0) with u0 raw, 64×1×1 threads and sr0 = the
/// thread id's x (u32).
inline VsirBuilder dxil_compute()
{
    VsirBuilder b;
    b.p.model.major = 6;
    b.p.model.minor = 0;
    b.dcl_uav_raw(0);
    b.dcl_thread_group(64, 1, 1);
    b.dcl_input(RegisterFile::thread_id, "x");
    b.op(Opcode::mov, {sd(0, DataType::u32)}, {tid("x")});
    return b;
}

/// store_raw u0.x, l(offset), value (a u32 scalar).
inline void store_word(VsirBuilder& b, uint32_t offset, SrcParam value)
{
    b.op(Opcode::store_raw, {dst(uav(0), "x")}, {lu(offset), value});
}

} // namespace spirv_test

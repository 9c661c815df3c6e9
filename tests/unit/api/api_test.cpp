#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <vector>

#include "dxspv/dxspv.hpp"

static std::vector<std::byte> read_file(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::memcpy(bytes.data(), chars.data(), chars.size());
    return bytes;
}

static const std::string demo_shader = std::string(DXSPV_SOURCE_ROOT) + "/demos/shaders/increment_cs.dxbc";

static dxspv_compile_info basic_info(const void* code, size_t size)
{
    dxspv_compile_info info = {};
    info.type = DXSPV_STRUCTURE_TYPE_COMPILE_INFO;
    info.source = {code, size};
    info.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    return info;
}

TEST_CASE("version")
{
    unsigned major = 99, minor = 99;
    const char* v = dxspv_get_version(&major, &minor);
    CHECK(major == DXSPV_VERSION_MAJOR);
    CHECK(minor == DXSPV_VERSION_MINOR);
    CHECK(std::string(v).rfind(std::to_string(major) + "." + std::to_string(minor) + ".", 0) == 0);
    CHECK(dxspv::version() == v);
}

TEST_CASE("supported types are named and consistent")
{
    unsigned count = 0;
    const dxspv_source_type* sources = dxspv_get_supported_source_types(&count);
    REQUIRE(count > 0);
    bool has_tpf = false;
    for (unsigned i = 0; i < count; ++i) {
        CHECK(dxspv_source_type_name(sources[i]) != nullptr);
        has_tpf |= sources[i] == DXSPV_SOURCE_TYPE_DXBC_TPF;
        unsigned n = 0;
        const dxspv_target_type* targets = dxspv_get_supported_target_types(sources[i], &n);
        CHECK(n > 0);
        for (unsigned j = 0; j < n; ++j)
            CHECK(dxspv_target_type_name(targets[j]) != nullptr);
    }
    CHECK(has_tpf);
    unsigned n = 7;
    CHECK(dxspv_get_supported_target_types(dxspv_source_type(1234), &n) == nullptr);
    CHECK(n == 0);
    CHECK(dxspv_source_type_name(dxspv_source_type(99)) == nullptr);
    CHECK(dxspv_target_type_name(dxspv_target_type(99)) == nullptr);
}

TEST_CASE("API misuse returns an error code")
{
    const char text[] = "cs_5_0\n";
    dxspv_code out = {};
    char* messages = nullptr;

    CHECK(dxspv_compile(nullptr, &out, &messages) == DXSPV_ERROR_INVALID_ARGUMENT);
    dxspv_compile_info info = basic_info(text, sizeof(text));
    CHECK(dxspv_compile(&info, nullptr, &messages) == DXSPV_ERROR_INVALID_ARGUMENT);
    // Output and messages aliasing each other.
    CHECK(dxspv_compile(&info, &out, reinterpret_cast<char**>(&out)) == DXSPV_ERROR_INVALID_ARGUMENT);

    auto expect = [&](dxspv_compile_info i, dxspv_result want, const char* code) {
        char* m = nullptr;
        dxspv_code o = {};
        CHECK(dxspv_compile(&i, &o, &m) == want);
        CHECK(o.code == nullptr);
        REQUIRE(m != nullptr);
        CHECK_MESSAGE(std::strstr(m, code) != nullptr, m);
        dxspv_free_messages(m);
    };
    dxspv_compile_info wrong_type = info;
    wrong_type.type = DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
    expect(wrong_type, DXSPV_ERROR_INVALID_ARGUMENT, "E0004");

    dxspv_compile_info bad_source = info;
    bad_source.source_type = dxspv_source_type(77);
    expect(bad_source, DXSPV_ERROR_INVALID_ARGUMENT, "unknown source type 77");

    dxspv_compile_info bad_target = info;
    bad_target.target_type = dxspv_target_type(77);
    expect(bad_target, DXSPV_ERROR_INVALID_ARGUMENT, "unknown target type 77");

    dxspv_compile_info null_code = info;
    null_code.source.code = nullptr;
    expect(null_code, DXSPV_ERROR_INVALID_ARGUMENT, "source.code is NULL");

    dxspv_compile_option bogus = {dxspv_compile_option_name(4242), 1};
    dxspv_compile_info bad_option = info;
    bad_option.options = &bogus;
    bad_option.option_count = 1;
    expect(bad_option, DXSPV_ERROR_INVALID_ARGUMENT, "E0005");

    dxspv_compile_info null_options = info;
    null_options.option_count = 2;
    expect(null_options, DXSPV_ERROR_INVALID_ARGUMENT, "options is NULL");

    struct {
        dxspv_structure_type type;
        const void* next;
    } unknown = {dxspv_structure_type(555), nullptr};
    dxspv_compile_info bad_chain = info;
    bad_chain.next = &unknown;
    expect(bad_chain, DXSPV_ERROR_INVALID_ARGUMENT, "unknown structure type 555");

    dxspv_spirv_target_info cyclic = {DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO, nullptr, DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1};
    cyclic.next = &cyclic;
    dxspv_compile_info cycle = info;
    cycle.next = &cyclic;
    expect(cycle, DXSPV_ERROR_INVALID_ARGUMENT, "a cycle");

    dxspv_spirv_target_info bad_env = {DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO, nullptr, dxspv_spirv_environment(9)};
    dxspv_compile_info env = info;
    env.next = &bad_env;
    expect(env, DXSPV_ERROR_INVALID_ARGUMENT, "unknown SPIR-V environment 9");

    // Freeing nothing is fine.
    dxspv_free_code(nullptr);
    dxspv_free_code(&out);
    dxspv_free_messages(nullptr);
}

TEST_CASE("undetectable input gives E0006 and no output")
{
    const char junk[] = "\x01\x02\x03 not a shader";
    dxspv::Result r = dxspv::compile(std::as_bytes(std::span(junk)));
    CHECK(r.code == DXSPV_ERROR_INVALID_SHADER);
    CHECK(r.output.bytes().empty());
    CHECK(r.messages.view().find("E0006") != std::string_view::npos);
}

TEST_CASE("C and C++ APIs translate the bundled compute shader")
{
    std::vector<std::byte> shader = read_file(demo_shader);
    REQUIRE(!shader.empty());

    dxspv::CompileOptions o;
    o.validate = true;
    o.source_name = "increment_cs.dxbc";
    for (auto env : {DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_0, DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1,
                     DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_2, DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_3}) {
        o.environment = env;
        dxspv::Result r = dxspv::compile(std::span<const std::byte>(shader), o);
        CHECK_MESSAGE(r.code == DXSPV_OK, r.messages.view());
        REQUIRE(r.output.words().size() > 5);
        CHECK(r.output.words()[0] == 0x07230203u);
    }

    o.target_type = DXSPV_TARGET_TYPE_SPIRV_TEXT;
    dxspv::Result text = dxspv::compile(std::span<const std::byte>(shader), o);
    REQUIRE(text.code == DXSPV_OK);
    CHECK(text.output.text().find("OpEntryPoint GLCompute") != std::string_view::npos);

    o.target_type = DXSPV_TARGET_TYPE_VSIR_TEXT;
    dxspv::Result vsir = dxspv::compile(std::span<const std::byte>(shader), o);
    REQUIRE(vsir.code == DXSPV_OK);
    CHECK(vsir.output.text().find("dcl_thread_group") != std::string_view::npos);

    // A pair that is not implemented yet is a clear error, not a crash.
    o.target_type = DXSPV_TARGET_TYPE_DXIL_LL;
    dxspv::Result dxil = dxspv::compile(std::span<const std::byte>(shader), o);
    CHECK(dxil.code == DXSPV_ERROR_NOT_IMPLEMENTED);
    CHECK(dxil.messages.view().find("E0003") != std::string_view::npos);

    // Declaring the wrong source type is an error naming the problem.
    o.target_type = DXSPV_TARGET_TYPE_SPIRV_BINARY;
    o.source_type = DXSPV_SOURCE_TYPE_DXBC_DXIL;
    dxspv::Result wrong = dxspv::compile(std::span<const std::byte>(shader), o);
    CHECK(wrong.code != DXSPV_OK);
    CHECK_FALSE(wrong.messages.empty());
}

TEST_CASE("the container checksum is checked only when asked (DXSPV_COMPILE_OPTION_VERIFY_CHECKSUM)")
{
    std::vector<std::byte> shader = read_file(demo_shader);
    REQUIRE(shader.size() > 20);
    shader[4] ^= std::byte{0x80}; // the stored checksum's first byte
    dxspv::CompileOptions o;
    dxspv::Result unchecked = dxspv::compile(std::span<const std::byte>(shader), o);
    CHECK_MESSAGE(unchecked.code == DXSPV_OK, unchecked.messages.view());
    CHECK(unchecked.messages.view().find("W0011") == std::string_view::npos);
    o.verify_checksum = true;
    dxspv::Result checked = dxspv::compile(std::span<const std::byte>(shader), o);
    CHECK(checked.code == DXSPV_OK); // a warning: the output is the same
    CHECK(checked.output.words().size() == unchecked.output.words().size());
    CHECK(checked.messages.view().find("W0011") != std::string_view::npos);
    shader[4] ^= std::byte{0x80};
    dxspv::Result intact = dxspv::compile(std::span<const std::byte>(shader), o);
    CHECK(intact.messages.view().find("W0011") == std::string_view::npos);
}

TEST_CASE("without messages asked for, dxspv_compile gives the same results (warnings are not formatted)")
{
    std::vector<std::byte> shader = read_file(demo_shader);
    REQUIRE(shader.size() > 20);
    shader[4] ^= std::byte{0x80}; // a checksum mismatch: warning W0011 when checked
    const dxspv_compile_option verify = {DXSPV_COMPILE_OPTION_VERIFY_CHECKSUM, 1};
    dxspv_compile_info info = basic_info(shader.data(), shader.size());
    info.options = &verify;
    info.option_count = 1;
    dxspv_code with = {}, without = {};
    char* messages = nullptr;
    REQUIRE(dxspv_compile(&info, &with, &messages) == DXSPV_OK);
    REQUIRE(messages != nullptr);
    CHECK(std::strstr(messages, "W0011: ") != nullptr);
    CHECK(std::strstr(messages, "checksum") != nullptr); // the text, when asked for
    dxspv_free_messages(messages);
    REQUIRE(dxspv_compile(&info, &without, nullptr) == DXSPV_OK);
    REQUIRE(with.size == without.size);
    CHECK(std::memcmp(with.code, without.code, with.size) == 0);
    dxspv_free_code(&with);
    dxspv_free_code(&without);
    // An error gives its code either way.
    info.source.size = 40;
    CHECK(dxspv_compile(&info, &without, nullptr) == DXSPV_ERROR_INVALID_SHADER);
    CHECK(without.code == nullptr);
}

TEST_CASE("one thread's translations to SPIR-V and to text in turn each give their own output")
{
    std::vector<std::byte> shader = read_file(demo_shader);
    REQUIRE(shader.size() > 20);
    dxspv_compile_info info = basic_info(shader.data(), shader.size());
    auto compile = [&](dxspv_target_type target) {
        info.target_type = target;
        dxspv_code out = {};
        REQUIRE(dxspv_compile(&info, &out, nullptr) == DXSPV_OK);
        std::string bytes(static_cast<const char*>(out.code), out.size);
        dxspv_free_code(&out);
        return bytes;
    };
    const std::string spirv = compile(DXSPV_TARGET_TYPE_SPIRV_BINARY);
    const std::string vsir = compile(DXSPV_TARGET_TYPE_VSIR_TEXT);
    const std::string spirv_text = compile(DXSPV_TARGET_TYPE_SPIRV_TEXT);
    CHECK(spirv.size() % 4 == 0);
    CHECK(vsir.find("ret") != std::string::npos);
    CHECK(spirv_text.find("OpFunction") != std::string::npos);
    CHECK(compile(DXSPV_TARGET_TYPE_SPIRV_BINARY) == spirv);
    CHECK(compile(DXSPV_TARGET_TYPE_VSIR_TEXT) == vsir);
}

TEST_CASE("describe_container")
{
    std::vector<std::byte> shader = read_file(demo_shader);
    dxspv::Text text, messages;
    REQUIRE(dxspv::describe_container(shader, text, messages) == DXSPV_OK);
    CHECK(text.view().find("stage: cs\n") != std::string_view::npos);
    CHECK(text.view().find("model: 5.0\n") != std::string_view::npos);
    CHECK(text.view().find("checksum: ok\n") != std::string_view::npos);

    dxspv::Text t2, m2;
    CHECK(dxspv::describe_container(std::span<const std::byte>(shader).first(20), t2, m2) == DXSPV_ERROR_INVALID_SHADER);
    CHECK(t2.empty());
    CHECK(m2.view().find(": E3") != std::string_view::npos);

    char* t = nullptr;
    CHECK(dxspv_describe_container(nullptr, nullptr, &t, nullptr) == DXSPV_ERROR_INVALID_ARGUMENT);
    dxspv_code c = {shader.data(), shader.size()};
    CHECK(dxspv_describe_container(&c, nullptr, nullptr, nullptr) == DXSPV_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("reflection and the binding map")
{
    std::vector<std::byte> shader = read_file(demo_shader);
    dxspv::CompileOptions o;
    dxspv::Reflection r;
    dxspv::Text messages;
    REQUIRE(dxspv::reflect(shader, o, r, messages) == DXSPV_OK);
    CHECK(r->shader_stage == 5);
    CHECK(r->model_major == 5);
    CHECK(r->thread_group_size[0] == 64);
    REQUIRE(r->descriptor_count == 1);
    CHECK(r->descriptors[0].type == DXSPV_DESCRIPTOR_TYPE_UAV);
    CHECK(r->descriptors[0].flags == (DXSPV_DESCRIPTOR_INFO_UAV_READ | DXSPV_DESCRIPTOR_INFO_RAW_BUFFER));
    CHECK(r->descriptors[0].set == 0);
    CHECK(r->descriptors[0].binding == 2000); // the default mapping

    dxspv_descriptor_binding b = {DXSPV_DESCRIPTOR_TYPE_UAV, 0, 0, 4, DXSPV_SHADER_VISIBILITY_ALL, 3, 11, 0, 0};
    dxspv_interface_info iface = {DXSPV_STRUCTURE_TYPE_INTERFACE_INFO, nullptr, &b, 1, nullptr, 0, 0};
    o.interface_info = &iface;
    dxspv::Reflection mapped;
    REQUIRE(dxspv::reflect(shader, o, mapped, messages) == DXSPV_OK);
    CHECK(mapped->descriptors[0].set == 3);
    CHECK(mapped->descriptors[0].binding == 11);

    char* json = nullptr;
    REQUIRE(dxspv_reflection_to_json(&*mapped, &json) == DXSPV_OK);
    CHECK(std::strstr(json, "\"type\": \"uav\", \"space\": 0, \"register\": 0") != nullptr);
    CHECK(std::strstr(json, "\"thread_group_size\": [64, 1, 1]") != nullptr);
    dxspv_free_messages(json);

    // A visibility that excludes compute: the default mapping applies.
    b.visibility = DXSPV_SHADER_VISIBILITY_PIXEL;
    dxspv::Reflection invisible;
    REQUIRE(dxspv::reflect(shader, o, invisible, messages) == DXSPV_OK);
    CHECK(invisible->descriptors[0].binding == 2000);

    // Misuse of the interface info.
    b.visibility = dxspv_shader_visibility(42);
    dxspv::Reflection bad;
    dxspv::Text bad_messages;
    CHECK(dxspv::reflect(shader, o, bad, bad_messages) == DXSPV_ERROR_INVALID_ARGUMENT);
    CHECK(bad_messages.view().find("binding 0 is invalid") != std::string_view::npos);
    CHECK(bad->descriptor_count == 0);
    iface.bindings = nullptr;
    CHECK(dxspv::reflect(shader, o, bad, bad_messages) == DXSPV_ERROR_INVALID_ARGUMENT);
    CHECK(dxspv_reflect(nullptr, nullptr, nullptr) == DXSPV_ERROR_INVALID_ARGUMENT);
    dxspv_free_reflection(nullptr);
}

TEST_CASE("reflection lists the specialization constants the SPIR-V declares")
{
    auto reflect_text = [](const char* text, dxspv::Reflection& r) {
        dxspv::CompileOptions o;
        o.source_type = DXSPV_SOURCE_TYPE_D3D_ASM;
        dxspv::Text messages;
        auto bytes = std::as_bytes(std::span(text, std::strlen(text)));
        REQUIRE_MESSAGE(dxspv::reflect(bytes, o, r, messages) == DXSPV_OK, messages.view());
    };
    dxspv::Reflection r;
    reflect_text("ps_5_0\ndcl_output o0.xyzw\nsampleinfo o0.x, rasterizer.x\nmov o0.yzw, l(0, 0, 0, 0)\nret\n", r);
    CHECK(r->specialization_constants == 1u << DXSPV_SPEC_CONSTANT_RASTERIZER_SAMPLE_COUNT);
    char* json = nullptr;
    REQUIRE(dxspv_reflection_to_json(&*r, &json) == DXSPV_OK);
    CHECK(std::strstr(json, "\"specialization_constants\": [0]") != nullptr);
    dxspv_free_messages(json);

    dxspv::Reflection none;
    reflect_text("ps_5_0\ndcl_output o0.xyzw\nmov o0.xyzw, l(0, 0, 0, 0)\nret\n", none);
    CHECK(none->specialization_constants == 0);
    REQUIRE(dxspv_reflection_to_json(&*none, &json) == DXSPV_OK);
    CHECK(std::strstr(json, "\"specialization_constants\": []") != nullptr);
    dxspv_free_messages(json);
}

TEST_CASE("reflection reports the counter of a UAV used by imm_atomic_alloc/consume without the counter flag")
{
    // fxc declares an AppendStructuredBuffer as plain dcl_uav_structured; the
    // SPIR-V still needs (and declares) its counter, so reflection must report it.
    auto reflect_text = [](const char* text, dxspv::Reflection& r) {
        dxspv::CompileOptions o;
        o.source_type = DXSPV_SOURCE_TYPE_D3D_ASM;
        dxspv::Text messages;
        auto bytes = std::as_bytes(std::span(text, std::strlen(text)));
        REQUIRE_MESSAGE(dxspv::reflect(bytes, o, r, messages) == DXSPV_OK, messages.view());
    };
    const char* append = "cs_5_0\ndcl_uav_structured u0, 4\ndcl_uav_structured u1, 4\ndcl_temps 1\n"
                         "dcl_thread_group 1, 1, 1\nimm_atomic_alloc r0.x, u0\nimm_atomic_consume r0.x, u1\nret\n";
    dxspv::Reflection r;
    reflect_text(append, r);
    REQUIRE(r->descriptor_count == 2);
    for (unsigned i = 0; i < 2; ++i) {
        CHECK((r->descriptors[i].flags & DXSPV_DESCRIPTOR_INFO_UAV_COUNTER) != 0);
        CHECK(r->descriptors[i].counter_binding == 4000 + i); // the default counter mapping
    }
    dxspv::Reflection plain;
    reflect_text("cs_5_0\ndcl_uav_structured u0, 4\ndcl_thread_group 1, 1, 1\n"
                 "store_structured u0.x, l(0), l(0), l(1)\nret\n", plain);
    REQUIRE(plain->descriptor_count == 1);
    CHECK(plain->descriptors[0].flags == DXSPV_DESCRIPTOR_INFO_STRUCTURED_BUFFER);
}

TEST_CASE("reflection reports the implicit counter bindings the SPIR-V has")
{
    // u0's counter has no map entry: bound after every binding of set 1; u1's
    // counter is explicit.
    const char* shader = "cs_5_0\ndcl_uav_structured_opc u0, 4\ndcl_uav_structured_opc u1, 4\n"
                         "dcl_resource_raw t3\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n"
                         "imm_atomic_alloc r0.x, u0\nimm_atomic_consume r0.y, u1\nld_raw r0.z, l(0), t3.xxxx\n"
                         "store_structured u0.xyz, r0.x, l(0), r0.xyzx\nret\n";
    const dxspv_descriptor_binding bindings[] = {
        {DXSPV_DESCRIPTOR_TYPE_UAV, 0, 0, 8, DXSPV_SHADER_VISIBILITY_ALL, 1, 10, 0, 0},
        {DXSPV_DESCRIPTOR_TYPE_SRV, 0, 0, 8, DXSPV_SHADER_VISIBILITY_ALL, 1, 20, 0, 0},
    };
    const dxspv_counter_binding counters[] = {{0, 1, DXSPV_SHADER_VISIBILITY_ALL, 1, 40}};
    dxspv_interface_info iface = {DXSPV_STRUCTURE_TYPE_INTERFACE_INFO, nullptr, bindings, 2, counters, 1, 0};
    dxspv::CompileOptions o;
    o.source_type = DXSPV_SOURCE_TYPE_D3D_ASM;
    o.interface_info = &iface;
    o.validate = true;
    o.target_type = DXSPV_TARGET_TYPE_SPIRV_TEXT;
    dxspv::Result text = dxspv::compile(shader, o);
    REQUIRE_MESSAGE(text.code == DXSPV_OK, text.messages.view());
    std::string_view t = text.output.text();
    CHECK(t.find("OpDecorate %u0_counter Binding 41\n") != std::string_view::npos); // after u1's counter at 40
    CHECK(t.find("OpDecorate %u1_counter Binding 40\n") != std::string_view::npos);

    dxspv::Reflection r;
    dxspv::Text messages;
    REQUIRE_MESSAGE(dxspv::reflect(std::as_bytes(std::span(shader, std::strlen(shader))), o, r, messages) == DXSPV_OK,
                    messages.view());
    REQUIRE(r->descriptor_count == 3);
    CHECK(r->descriptors[0].counter_set == 1);
    CHECK(r->descriptors[0].counter_binding == 41);
    CHECK(r->descriptors[1].counter_binding == 40);
}

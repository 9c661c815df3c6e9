/*
 * dxspv: Direct3D shader bytecode (DXBC, DXIL) to SPIR-V.
 *
 * The C API. Stable ABI: every structure passed in starts with a `type` and
 * a `next` pointer, so later versions extend calls by chaining new
 * structures instead of changing existing ones. No call throws, prints or
 * aborts; each returns a dxspv_result and, where it takes `messages`, a
 * newline-separated list of every diagnostic (`name:location: E1234: text`),
 * which the caller frees with dxspv_free_messages().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef DXSPV_H
#define DXSPV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define DXSPV_API __declspec(dllexport)
#else
#define DXSPV_API __attribute__((visibility("default")))
#endif

/** Version of this header; dxspv_get_version() reports the library's. */
#define DXSPV_VERSION_MAJOR 0
#define DXSPV_VERSION_MINOR 1

/** Identifies a structure in a `next` chain. */
enum dxspv_structure_type {
    DXSPV_STRUCTURE_TYPE_COMPILE_INFO = 0,      /**< struct dxspv_compile_info */
    DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO = 1, /**< struct dxspv_spirv_target_info */
    DXSPV_STRUCTURE_TYPE_INTERFACE_INFO = 2,    /**< struct dxspv_interface_info */
    DXSPV_STRUCTURE_TYPE_FORCE_32BIT = 0x7fffffff,
};

/** Result of every call. Negative values are failures. */
enum dxspv_result {
    DXSPV_OK = 0,
    DXSPV_ERROR = -1,                  /**< unspecified failure */
    DXSPV_ERROR_INVALID_ARGUMENT = -2, /**< API misuse: null pointer, bad enum, bad chain */
    DXSPV_ERROR_INVALID_SHADER = -3,   /**< the input is malformed; see the messages */
    DXSPV_ERROR_NOT_IMPLEMENTED = -4,  /**< valid input dxspv cannot translate yet */
    DXSPV_ERROR_OUT_OF_MEMORY = -5,
    DXSPV_ERROR_UNSUPPORTED = -6,      /**< valid input using a feature dxspv refuses */
    DXSPV_RESULT_FORCE_32BIT = 0x7fffffff,
};

/** What the source bytes are. */
enum dxspv_source_type {
    DXSPV_SOURCE_TYPE_NONE = 0,     /**< detect from the bytes */
    DXSPV_SOURCE_TYPE_DXBC_TPF = 1, /**< DXBC container with SHDR/SHEX (SM 4.0-5.1) */
    DXSPV_SOURCE_TYPE_DXBC_DXIL = 2,/**< DXBC container with DXIL (SM 6.x) */
    DXSPV_SOURCE_TYPE_D3D_ASM = 3,  /**< SM4/5 assembly text */
    DXSPV_SOURCE_TYPE_DXIL_LL = 4,  /**< DXIL as LLVM 3.7 IR text */
    DXSPV_SOURCE_TYPE_FORCE_32BIT = 0x7fffffff,
};

/** What to produce. */
enum dxspv_target_type {
    DXSPV_TARGET_TYPE_NONE = 0,
    DXSPV_TARGET_TYPE_SPIRV_BINARY = 1, /**< SPIR-V words */
    DXSPV_TARGET_TYPE_SPIRV_TEXT = 2,   /**< SPIRV-Tools disassembly */
    DXSPV_TARGET_TYPE_D3D_ASM = 3,      /**< SM4/5 assembly text */
    DXSPV_TARGET_TYPE_DXIL_LL = 4,      /**< DXIL as LLVM IR text */
    DXSPV_TARGET_TYPE_DXBC_TPF = 5,     /**< DXBC container with SHEX */
    DXSPV_TARGET_TYPE_DXBC_DXIL = 6,    /**< DXBC container with DXIL */
    DXSPV_TARGET_TYPE_VSIR_TEXT = 7,    /**< dump of the internal IR (structured, after the passes) */
    DXSPV_TARGET_TYPE_CFG_DOT = 8,      /**< Graphviz dot of the control-flow graph (DXIL sources), for debugging */
    DXSPV_TARGET_TYPE_FORCE_32BIT = 0x7fffffff,
};

/** A byte buffer. Outputs are allocated by dxspv; free with dxspv_free_code(). */
struct dxspv_code {
    const void *code;
    size_t size;
};

/** Names of the compile options. Unknown names are an error. */
enum dxspv_compile_option_name {
    DXSPV_COMPILE_OPTION_VALIDATE_SPIRV = 1,   /**< 1: run the SPIR-V validator on the output */
    DXSPV_COMPILE_OPTION_EXPERIMENTAL_OPS = 2, /**< 1: accept experimental DXIL opcodes */
    DXSPV_COMPILE_OPTION_OPTIMIZE = 3,         /**< 1: run the SPIR-V optimiser on the output */
    DXSPV_COMPILE_OPTION_VALIDATE_IR = 4,      /**< 1: validate VSIR after every pass (default in debug builds) */
    DXSPV_COMPILE_OPTION_STATS = 5,            /**< 1: report the structurizer's statistics as warning W6010 */
    /** 1: check a DXBC container's checksum (MD5 over the whole container)
     * and warn (W0011) when it does not match. Off by default: the D3D
     * runtime above a translation layer hands over the shaders it was given,
     * re-hashing each costs as much as a small shader's translation, and a
     * damaged container is still refused by the parsers' own checks. */
    DXSPV_COMPILE_OPTION_VERIFY_CHECKSUM = 6,
    DXSPV_COMPILE_OPTION_NAME_FORCE_32BIT = 0x7fffffff,
};

/** One option and its value. */
struct dxspv_compile_option {
    enum dxspv_compile_option_name name;
    uint32_t value;
};

/** The head of the chain passed to dxspv_compile(). */
struct dxspv_compile_info {
    enum dxspv_structure_type type; /**< DXSPV_STRUCTURE_TYPE_COMPILE_INFO */
    const void *next;               /**< further structures, or NULL */
    struct dxspv_code source;       /**< the input bytes (borrowed) */
    enum dxspv_source_type source_type;
    enum dxspv_target_type target_type;
    const struct dxspv_compile_option *options;
    unsigned int option_count;
    const char *source_name;        /**< name used in messages, or NULL */
    const char *entry_point;        /**< DXIL libraries: entry to translate, or NULL */
};

/** SPIR-V target environment. */
enum dxspv_spirv_environment {
    DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_0 = 1,
    DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_1 = 2, /**< the default */
    DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_2 = 3,
    DXSPV_SPIRV_ENVIRONMENT_VULKAN_1_3 = 4,
    DXSPV_SPIRV_ENVIRONMENT_FORCE_32BIT = 0x7fffffff,
};

/** Chained after dxspv_compile_info for SPIR-V targets. */
struct dxspv_spirv_target_info {
    enum dxspv_structure_type type; /**< DXSPV_STRUCTURE_TYPE_SPIRV_TARGET_INFO */
    const void *next;
    enum dxspv_spirv_environment environment;
};

/** D3D descriptor type, numbered as D3D12_DESCRIPTOR_RANGE_TYPE. */
enum dxspv_descriptor_type {
    DXSPV_DESCRIPTOR_TYPE_SRV = 0,
    DXSPV_DESCRIPTOR_TYPE_UAV = 1,
    DXSPV_DESCRIPTOR_TYPE_CBV = 2,
    DXSPV_DESCRIPTOR_TYPE_SAMPLER = 3,
    DXSPV_DESCRIPTOR_TYPE_FORCE_32BIT = 0x7fffffff,
};

/** Shader visibility, numbered as D3D12_SHADER_VISIBILITY. */
enum dxspv_shader_visibility {
    DXSPV_SHADER_VISIBILITY_ALL = 0,
    DXSPV_SHADER_VISIBILITY_VERTEX = 1,
    DXSPV_SHADER_VISIBILITY_HULL = 2,
    DXSPV_SHADER_VISIBILITY_DOMAIN = 3,
    DXSPV_SHADER_VISIBILITY_GEOMETRY = 4,
    DXSPV_SHADER_VISIBILITY_PIXEL = 5,
    DXSPV_SHADER_VISIBILITY_AMPLIFICATION = 6,
    DXSPV_SHADER_VISIBILITY_MESH = 7,
    DXSPV_SHADER_VISIBILITY_FORCE_32BIT = 0x7fffffff,
};

/** dxspv_descriptor_binding flags. */
enum dxspv_descriptor_binding_flags {
    /** CBV only: the constant buffer lives in the push-constant block at
     *  `push_constant_offset` bytes instead of a uniform buffer. */
    DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT = 0x1,
};

/**
 * Maps D3D registers [register_index, register_index + register_count) of
 * one type and space, visible to `visibility`, to Vulkan descriptors: a
 * declaration at register r (an SM5.1 range starting at r) gets binding
 * `binding + (r - register_index)` in `set`; an SM5.1 range of n registers
 * is a descriptor array of n elements at that binding.
 */
struct dxspv_descriptor_binding {
    enum dxspv_descriptor_type type;
    uint32_t register_space;
    uint32_t register_index;
    uint32_t register_count;         /**< 0xffffffff: to the end of the space */
    enum dxspv_shader_visibility visibility;
    uint32_t set;
    uint32_t binding;
    uint32_t flags;                  /**< dxspv_descriptor_binding_flags */
    uint32_t push_constant_offset;   /**< with DXSPV_DESCRIPTOR_BINDING_PUSH_CONSTANT */
};

/**
 * SM 6.6 descriptor heaps (ResourceDescriptorHeap[i], SamplerDescriptorHeap[i]):
 * every resource type a shader reads through a heap is an unbounded range at
 * register 0 of one of these register spaces, indexed by the heap index. Map
 * them like any range (type, space, register 0, count 0xffffffff); the default
 * mapping puts them in set DXSPV_HEAP_DEFAULT_SET (resources) and
 * DXSPV_HEAP_DEFAULT_SET + 1 (samplers), binding = the type's base (1000 SRV,
 * 2000 UAV, 0 CBV, 3000 sampler).
 */
#define DXSPV_RESOURCE_HEAP_SPACE 0xfffffff0u
#define DXSPV_SAMPLER_HEAP_SPACE 0xfffffff1u
#define DXSPV_HEAP_DEFAULT_SET 32u

/** Where the counter of the UAV at (space, register) goes (like [[vk::counter_binding]]). */
struct dxspv_counter_binding {
    uint32_t register_space;
    uint32_t register_index;
    enum dxspv_shader_visibility visibility;
    uint32_t set;
    uint32_t binding;
};

/** dxspv_interface_info flags. */
enum dxspv_interface_flags {
    /** Fail (E2012) when a descriptor matches no entry, instead of using the
     *  default mapping (a UAV counter without an entry is still bound
     *  implicitly, see dxspv_interface_info). */
    DXSPV_INTERFACE_STRICT = 0x1,
};

/**
 * Chained after dxspv_compile_info: the binding map. Without it, or for a
 * descriptor no entry covers, the default mapping applies: set = register
 * space, binding = register + 0 (CBV), 1000 (SRV), 2000 (UAV), 3000
 * (sampler); a UAV counter gets binding register + 4000. The counter of a
 * UAV the map places, without a counter entry, gets an implicit binding in
 * the UAV's set, after every binding the shader uses there (in declaration
 * order; reflection reports it). The UAV's variable carries the
 * CounterBuffer decoration pointing at its counter's; before SPIR-V 1.4
 * (Vulkan 1.0 and 1.1 targets) through SPV_GOOGLE_hlsl_functionality1, for
 * which the device needs VK_GOOGLE_hlsl_functionality1 enabled.
 */
struct dxspv_interface_info {
    enum dxspv_structure_type type; /**< DXSPV_STRUCTURE_TYPE_INTERFACE_INFO */
    const void *next;
    const struct dxspv_descriptor_binding *bindings;
    unsigned int binding_count;
    const struct dxspv_counter_binding *counter_bindings;
    unsigned int counter_binding_count;
    uint32_t flags; /**< dxspv_interface_flags */
};

/**
 * Translates `info->source` into `info->target_type`.
 * On success `*out` holds the output (free with dxspv_free_code()). `messages`
 * may be NULL; otherwise it receives every diagnostic as text, or NULL if
 * there were none (free with dxspv_free_messages()). Warnings do not fail the
 * call.
 */
DXSPV_API enum dxspv_result dxspv_compile(const struct dxspv_compile_info *info,
        struct dxspv_code *out, char **messages);

/** Frees an output of dxspv and clears it. NULL and empty codes are fine. */
DXSPV_API void dxspv_free_code(struct dxspv_code *code);

/** Frees a message list. NULL is fine. */
DXSPV_API void dxspv_free_messages(char *messages);

/** The library version as "major.minor.patch"; `major`/`minor` may be NULL. */
DXSPV_API const char *dxspv_get_version(unsigned int *major, unsigned int *minor);

/** The source types dxspv_compile() accepts; `count` receives their number. */
DXSPV_API const enum dxspv_source_type *dxspv_get_supported_source_types(unsigned int *count);

/** The target types supported for `source_type`; `count` receives their number. */
DXSPV_API const enum dxspv_target_type *dxspv_get_supported_target_types(
        enum dxspv_source_type source_type, unsigned int *count);

/** Short names as used by the CLI ("dxbc-tpf", "spirv-binary", ...); NULL if unknown. */
DXSPV_API const char *dxspv_source_type_name(enum dxspv_source_type type);
DXSPV_API const char *dxspv_target_type_name(enum dxspv_target_type type);

/** Guesses the source type of `code`; DXSPV_SOURCE_TYPE_NONE if unknown. */
DXSPV_API enum dxspv_source_type dxspv_detect_source_type(const struct dxspv_code *code);

/**
 * Describes a DXBC container as text: chunks, shader stage and model,
 * checksum status, signatures, resources and root signature (what
 * `shader-translate --info` prints). `*text` is freed with dxspv_free_messages().
 */
DXSPV_API enum dxspv_result dxspv_describe_container(const struct dxspv_code *dxbc,
        const char *source_name, char **text, char **messages);

/* ---- Reflection ------------------------------------------------------- */

/** dxspv_descriptor_info flags. */
enum dxspv_descriptor_info_flags {
    DXSPV_DESCRIPTOR_INFO_UAV_READ = 0x1,          /**< the shader reads the UAV (loads, atomics) */
    DXSPV_DESCRIPTOR_INFO_UAV_COUNTER = 0x2,       /**< the UAV has a counter */
    DXSPV_DESCRIPTOR_INFO_RAW_BUFFER = 0x4,        /**< byte-address buffer */
    DXSPV_DESCRIPTOR_INFO_STRUCTURED_BUFFER = 0x8, /**< structured buffer (see structure_stride) */
    DXSPV_DESCRIPTOR_INFO_COMPARISON_SAMPLER = 0x10,
    DXSPV_DESCRIPTOR_INFO_GLOBALLY_COHERENT = 0x20,
    DXSPV_DESCRIPTOR_INFO_RASTERIZER_ORDERED = 0x40,
    DXSPV_DESCRIPTOR_INFO_PUSH_CONSTANT = 0x80,    /**< mapped to the push-constant block */
};

/** Resource data type of a typed SRV/UAV (per component; the first is reported). */
enum dxspv_resource_data_type {
    DXSPV_RESOURCE_DATA_NONE = 0,
    DXSPV_RESOURCE_DATA_FLOAT = 1, /**< float, unorm, snorm */
    DXSPV_RESOURCE_DATA_INT = 2,
    DXSPV_RESOURCE_DATA_UINT = 3,
    DXSPV_RESOURCE_DATA_DOUBLE = 4,
    DXSPV_RESOURCE_DATA_MIXED = 5,
    DXSPV_RESOURCE_DATA_FORCE_32BIT = 0x7fffffff,
};

/** One descriptor (range) the shader declares, and where the map put it. */
struct dxspv_descriptor_info {
    enum dxspv_descriptor_type type;
    uint32_t register_space;
    uint32_t register_index;   /**< first register */
    uint32_t register_count;   /**< 0xffffffff: unbounded */
    uint32_t resource_dimension; /**< DXBC numbering: 1 buffer, 2 tex1d, 3 tex2d, ... 11 raw, 12 structured; 0 n/a */
    enum dxspv_resource_data_type data_type;
    uint32_t structure_stride; /**< structured buffers, in bytes */
    uint32_t flags;            /**< dxspv_descriptor_info_flags */
    uint32_t set;              /**< after mapping */
    uint32_t binding;          /**< after mapping */
    uint32_t push_constant_offset; /**< with DXSPV_DESCRIPTOR_INFO_PUSH_CONSTANT */
    uint32_t counter_set;      /**< with DXSPV_DESCRIPTOR_INFO_UAV_COUNTER */
    uint32_t counter_binding;
};

/** One signature element. The name stays valid until dxspv_free_reflection(). */
struct dxspv_signature_element_info {
    const char *semantic_name;
    uint32_t semantic_index;
    uint32_t stream;
    uint32_t register_index;
    uint32_t system_value;     /**< D3D_NAME */
    uint32_t component_type;   /**< D3D_REGISTER_COMPONENT_TYPE (+ 16/64-bit types) */
    uint32_t min_precision;    /**< D3D_MIN_PRECISION */
    uint32_t mask;
    uint32_t used_mask;
};

struct dxspv_signature_info {
    unsigned int element_count;
    const struct dxspv_signature_element_info *elements;
};

/**
 * SpecIds of the specialization constants the SPIR-V may declare (set them
 * with VkSpecializationInfo; dxspv_reflection::specialization_constants
 * tells which ones a shader declares).
 *
 * DXSPV_SPEC_CONSTANT_RASTERIZER_SAMPLE_COUNT, uint32, default 1: the sample
 * count that sampleinfo / samplepos on the rasterizer read (HLSL
 * GetRenderTargetSampleCount / GetRenderTargetSamplePosition); set it to the
 * pipeline's rasterizationSamples. samplepos returns the standard D3D sample
 * positions for 1, 2, 4, 8 and 16 samples, (0, 0) for other counts.
 */
#define DXSPV_SPEC_CONSTANT_RASTERIZER_SAMPLE_COUNT 0

/** What dxspv_reflect() reports. */
struct dxspv_reflection {
    uint32_t shader_stage;      /**< DXIL shader kind numbering: 0 ps, 1 vs, 2 gs, 3 hs, 4 ds, 5 cs, ... */
    uint32_t model_major, model_minor;
    uint32_t thread_group_size[3]; /**< compute; 0 otherwise */
    unsigned int descriptor_count;
    const struct dxspv_descriptor_info *descriptors;
    struct dxspv_signature_info input_signature;
    struct dxspv_signature_info output_signature;
    struct dxspv_signature_info patch_constant_signature;
    /** Bit n set: the SPIR-V declares the specialization constant with SpecId n (DXSPV_SPEC_CONSTANT_*). */
    uint32_t specialization_constants;
};

/**
 * Reflects the shader `info->source` (its target type is ignored): the
 * descriptors it declares with the bindings the chained interface info (or
 * the default mapping) gives them, its signatures and its thread group size.
 * Free with dxspv_free_reflection().
 */
DXSPV_API enum dxspv_result dxspv_reflect(const struct dxspv_compile_info *info,
        struct dxspv_reflection *reflection, char **messages);

/** Frees what dxspv_reflect() allocated and clears `reflection`. */
DXSPV_API void dxspv_free_reflection(struct dxspv_reflection *reflection);

/** The reflection as JSON text (what `shader-translate --reflect` prints); free with dxspv_free_messages(). */
DXSPV_API enum dxspv_result dxspv_reflection_to_json(const struct dxspv_reflection *reflection, char **json);

/* ---- Root signatures (RTS0) ------------------------------------------- */

/** Root signature version, numbered as D3D_ROOT_SIGNATURE_VERSION. */
enum dxspv_root_signature_version {
    DXSPV_ROOT_SIGNATURE_VERSION_1_0 = 1,
    DXSPV_ROOT_SIGNATURE_VERSION_1_1 = 2,
    DXSPV_ROOT_SIGNATURE_VERSION_1_2 = 3,
    DXSPV_ROOT_SIGNATURE_VERSION_FORCE_32BIT = 0x7fffffff,
};

/** Root parameter type (D3D12_ROOT_PARAMETER_TYPE). */
enum dxspv_root_parameter_type {
    DXSPV_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE = 0,
    DXSPV_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS = 1,
    DXSPV_ROOT_PARAMETER_TYPE_CBV = 2,
    DXSPV_ROOT_PARAMETER_TYPE_SRV = 3,
    DXSPV_ROOT_PARAMETER_TYPE_UAV = 4,
    DXSPV_ROOT_PARAMETER_TYPE_FORCE_32BIT = 0x7fffffff,
};

/** Descriptor range type (D3D12_DESCRIPTOR_RANGE_TYPE). */
enum dxspv_descriptor_range_type {
    DXSPV_DESCRIPTOR_RANGE_TYPE_SRV = 0,
    DXSPV_DESCRIPTOR_RANGE_TYPE_UAV = 1,
    DXSPV_DESCRIPTOR_RANGE_TYPE_CBV = 2,
    DXSPV_DESCRIPTOR_RANGE_TYPE_SAMPLER = 3,
    DXSPV_DESCRIPTOR_RANGE_TYPE_FORCE_32BIT = 0x7fffffff,
};

/** One range of a descriptor table. `flags` is D3D12_DESCRIPTOR_RANGE_FLAGS (1.1+). */
struct dxspv_descriptor_range {
    enum dxspv_descriptor_range_type range_type;
    uint32_t descriptor_count;        /**< 0xffffffff: unbounded */
    uint32_t base_register;
    uint32_t register_space;
    uint32_t flags;
    uint32_t descriptor_table_offset; /**< 0xffffffff: append */
};

struct dxspv_root_descriptor_table {
    unsigned int range_count;
    const struct dxspv_descriptor_range *ranges;
};

struct dxspv_root_constants {
    uint32_t shader_register;
    uint32_t register_space;
    uint32_t value_count;
};

/** A root CBV/SRV/UAV. `flags` is D3D12_ROOT_DESCRIPTOR_FLAGS (1.1+). */
struct dxspv_root_descriptor {
    uint32_t shader_register;
    uint32_t register_space;
    uint32_t flags;
};

struct dxspv_root_parameter {
    enum dxspv_root_parameter_type parameter_type;
    union {
        struct dxspv_root_descriptor_table descriptor_table;
        struct dxspv_root_constants constants;
        struct dxspv_root_descriptor descriptor;
    } u;
    uint32_t shader_visibility; /**< D3D12_SHADER_VISIBILITY */
};

/** A static sampler (D3D12_STATIC_SAMPLER_DESC1). `flags` is 1.2 only. */
struct dxspv_static_sampler {
    uint32_t filter;
    uint32_t address_u, address_v, address_w;
    float mip_lod_bias;
    uint32_t max_anisotropy;
    uint32_t comparison_func;
    uint32_t border_color;
    float min_lod, max_lod;
    uint32_t shader_register;
    uint32_t register_space;
    uint32_t shader_visibility;
    uint32_t flags;
};

/** A root signature of any version. */
struct dxspv_root_signature_desc {
    enum dxspv_root_signature_version version;
    unsigned int parameter_count;
    const struct dxspv_root_parameter *parameters;
    unsigned int static_sampler_count;
    const struct dxspv_static_sampler *static_samplers;
    uint32_t flags; /**< D3D12_ROOT_SIGNATURE_FLAGS */
};

/**
 * Parses a root signature from a DXBC container with an RTS0 chunk, or from a
 * bare RTS0 chunk. Free the result with dxspv_free_root_signature().
 */
DXSPV_API enum dxspv_result dxspv_parse_root_signature(const struct dxspv_code *code,
        struct dxspv_root_signature_desc *desc, char **messages);

/** Serialises `desc` as a DXBC container holding one RTS0 chunk (checksummed). */
DXSPV_API enum dxspv_result dxspv_serialize_root_signature(const struct dxspv_root_signature_desc *desc,
        struct dxspv_code *dxbc, char **messages);

/** Frees what dxspv_parse_root_signature() allocated and clears `desc`. */
DXSPV_API void dxspv_free_root_signature(struct dxspv_root_signature_desc *desc);

#ifdef __cplusplus
}
#endif

#endif /* DXSPV_H */

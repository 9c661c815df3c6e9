// The SPIR-V module builder: ids, types, constants, decorations, functions
// and blocks, written once as words.
//
// Every instruction is encoded into its section's word vector when it is
// created (no per-instruction objects, no per-operand allocation); blocks
// keep their own words (in a WordArena) so that a construct's header can get
// its merge and branch after the construct's body was emitted. dump() lays
// the module out in the order SPIR-V requires, the blocks of each function in
// a structured order (dominators first, a construct's merge block after its
// body), without the blocks no control flow reaches; an unreachable merge
// block becomes OpUnreachable and an unreachable continue target a branch back
// to its loop header, and names and decorations of values defined in dropped
// code are dropped with them. The layout is a list of pointers to the
// instructions in the blocks' words: pruning marks it, and what stays is
// copied once into the module. Its containers take their memory from the
// thread's scratch arena while emit_spirv runs and leave it to the scope's
// end (ScopeVector, common/scratch.h).
//
// The method names follow glslang's spv::Builder, whose subset the emitter
// was first written against.
#pragma once

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <utility>
#include <vector>

#include "common/u64_map.h"
#include "spirv/word_arena.h"

namespace dxspv::spirv {

inline constexpr spv::Id NoResult = 0;

/// An operand of createOp / createNoResultOp: an id, or a literal word.
struct IdImmediate {
    bool isId;
    uint32_t word;
};

/// Operands gathered at a call site, at most N (the call site's own bound):
/// a list on the stack instead of a std::vector per instruction.
template <class T, size_t N>
class OperandList {
public:
    OperandList(std::initializer_list<T> init)
    {
        for (const T& v : init)
            push_back(v);
    }
    void push_back(T v)
    {
        assert(count_ < N); // N is the call site's own bound, not the input's
        if (count_ < N)
            items_[count_++] = v;
    }
    size_t size() const { return count_; }
    const T& operator[](size_t i) const { return items_[i]; }
    operator std::span<const T>() const { return {items_, count_}; }

private:
    T items_[N];
    size_t count_ = 0;
};

class Function;

class Block {
public:
    spv::Id getId() const { return id_; }
    Function& getParent() const { return *function_; }
    bool isTerminated() const;
    /// No instruction yet.
    bool empty() const { return words_.empty(); }

private:
    friend class Builder;
    spv::Id id_ = 0;
    uint32_t index_ = 0;        ///< in Builder::blocks_
    uint32_t local_ = 0;        ///< in its function's blocks_
    Function* function_ = nullptr;
    Words words_;
    uint32_t last_ = ~0u;       ///< offset of the last instruction in words_
    uint32_t dead_ = ~0u;       ///< stores a later store made useless: a list in Builder::dead_stores_
    static constexpr uint32_t no_block = ~0u;
    /// Index in the function's blocks_ of the OpSelectionMerge / OpLoopMerge
    /// target and of the OpLoopMerge continue target.
    uint32_t merge_ = no_block;
    uint32_t continue_ = no_block;
    /// The targets of the last instruction, an OpBranch (1) or an
    /// OpBranchConditional (2), as indices in the function's blocks_ (the
    /// layout reads them without visiting the words or the targets);
    /// switch_successors for an OpSwitch: read from its words.
    uint32_t successors_[2] = {};
    uint8_t successor_count_ = 0;
    static constexpr uint8_t switch_successors = 0xff;
};

class Function {
public:
    spv::Id getId() const { return id_; }
    Block* getEntryBlock() const { return blocks_.front(); }

private:
    friend class Builder;
    spv::Id id_ = 0, type_ = 0, return_type_ = 0;
    ScopeVector<Block*> blocks_;
    ScopeVector<uint32_t> variables_; ///< OpVariable Function, placed at the start of the entry block
};

class Builder {
public:
    /// `version`: the SPIR-V version word (0x00010000 for 1.0 ...);
    /// `instructions`, when known: see reserve() (made before the first id,
    /// the id table's one allocation).
    explicit Builder(uint32_t version, size_t instructions = 0);
    /// Room for a module from about `instructions` instructions (one
    /// allocation each for the ids and the globals instead of their growth).
    void reserve(size_t instructions);
    Builder(const Builder&) = delete;
    Builder& operator=(const Builder&) = delete;
    ~Builder();

    spv::Id getUniqueId()
    {
        ids_.emplace_back();
        return ++bound_;
    }
    /// The opcode of `id` when it is an OpCompositeInsert,
    /// OpCompositeConstruct or OpVectorShuffle made here (whose extracts
    /// fold to its parts), else OpNop.
    spv::Op composite_op(spv::Id id) const
    {
        const uint32_t* w = composite_words(id);
        return w ? spv::Op(w[0] & 0xffffu) : spv::OpNop;
    }

    // ---- module level ----
    void addCapability(spv::Capability capability);
    void addExtension(const char* name);
    spv::Id import(const char* name);
    void setMemoryModel(spv::AddressingModel addressing, spv::MemoryModel memory);
    void addEntryPoint(spv::ExecutionModel model, Function* function, const char* name,
        const ScratchVector<spv::Id>& interface);
    void addExecutionMode(Function* function, spv::ExecutionMode mode, int v1 = -1, int v2 = -1, int v3 = -1);
    void addName(spv::Id id, const char* name);
    void addMemberName(spv::Id id, int member, const char* name);
    void addDecoration(spv::Id id, spv::Decoration decoration, int value = -1);
    void addDecorationId(spv::Id id, spv::Decoration decoration, spv::Id operand);
    void addMemberDecoration(spv::Id id, unsigned member, spv::Decoration decoration, int value = -1);

    // ---- types (deduplicated except structs, and arrays with a stride) ----
    spv::Id makeVoidType();
    spv::Id makeBoolType();
    spv::Id makeIntegerType(int width, bool is_signed);
    spv::Id makeIntType(int width) { return makeIntegerType(width, true); }
    spv::Id makeUintType(int width) { return makeIntegerType(width, false); }
    spv::Id makeFloatType(int width);
    spv::Id makeVectorType(spv::Id component, int count);
    /// `stride` non-zero: a type of its own, for the caller to decorate with
    /// that ArrayStride.
    spv::Id makeArrayType(spv::Id element, spv::Id length, int stride);
    spv::Id makeRuntimeArray(spv::Id element);
    spv::Id makeStructType(const ScratchVector<spv::Id>& members, const char* name);
    spv::Id makeStructResultType(spv::Id type0, spv::Id type1);
    spv::Id makePointer(spv::StorageClass storage, spv::Id pointee);
    spv::Id makeFunctionType(spv::Id return_type, const ScratchVector<spv::Id>& params);
    spv::Id makeImageType(spv::Id sampled_type, spv::Dim dim, bool depth, bool arrayed, bool ms, unsigned sampled,
        spv::ImageFormat format);
    spv::Id makeSamplerType();
    spv::Id makeSampledImageType(spv::Id image_type);

    // ---- constants ----
    spv::Id makeBoolConstant(bool value);
    spv::Id makeUintConstant(uint32_t value, bool spec_constant = false);
    spv::Id makeIntConstant(int32_t value) { return make_scalar_constant(makeIntType(32), uint32_t(value), false); }
    spv::Id makeNullConstant(spv::Id type);
    /// OpConstant of `type` (one word, two when `wide`); not deduplicated.
    spv::Id make_scalar_constant(spv::Id type, uint64_t bits, bool wide);
    spv::Id make_composite_constant(spv::Id type, const spv::Id* parts, uint32_t count);

    // ---- queries ----
    spv::Id getTypeId(spv::Id id) const { return id < ids_.size() ? ids_[id].type : 0; }
    /// The operand of an OpBitcast result, else 0.
    spv::Id bitcast_source(spv::Id id) const;
    /// The value of a 32-bit scalar OpConstant, false for anything else.
    bool constant_word(spv::Id id, uint32_t& bits) const;
    /// The values of an OpConstantComposite of at most 4 32-bit scalars.
    bool constant_words(spv::Id id, uint32_t (&bits)[4], uint32_t& count) const;
    /// The words of a 32-bit scalar (count 1) or vector constant of `count`
    /// components, false for anything else.
    bool constant_lanes(spv::Id id, uint32_t count, uint32_t (&bits)[4]) const
    {
        uint32_t n = 0;
        return count == 1 ? constant_word(id, bits[0]) : constant_words(id, bits, n) && n == count;
    }
    /// Storage class of a pointer-typed id (a variable, an access chain).
    spv::StorageClass getStorageClass(spv::Id id) const
    {
        spv::Id type = getTypeId(id);
        return spv::StorageClass(type < ids_.size() ? ids_[type].storage : 0);
    }

    // ---- functions and blocks ----
    /// A void function without parameters that is the entry point; the
    /// build point moves to its entry block.
    Function* makeEntryPoint(const char* name);
    Function* makeFunctionEntry(spv::Id return_type, const char* name, Block** entry);
    /// Ends the build point's function: a return if its block is open.
    void leaveFunction();
    Block& makeNewBlock();
    /// The build point is where the entry point starts: until the build
    /// point moves or a function is called, a load of a Private variable or
    /// of one of the function's Function variables that nothing has stored
    /// to yet gives its initializer, or OpUndef without one.
    void assume_initial_values()
    {
        initial_ = block_;
        written_.assign(written_.size(), 0);
    }
    void setBuildPoint(Block* block)
    {
        if (block != block_)
            initial_ = nullptr;
        block_ = block;
        loads_.clear();
        values_.clear();
        stores_.clear();
    }
    Block* getBuildPoint() const { return block_; }

    // ---- instructions at the build point ----
    spv::Id createVariable(spv::StorageClass storage, spv::Id type, const char* name = nullptr,
        spv::Id initializer = NoResult);
    spv::Id createUndefined(spv::Id type);
    spv::Id createLoad(spv::Id pointer);
    void createStore(spv::Id value, spv::Id pointer);
    spv::Id createUnaryOp(spv::Op op, spv::Id type, spv::Id a);
    spv::Id createBinOp(spv::Op op, spv::Id type, spv::Id a, spv::Id b);
    spv::Id createTriOp(spv::Op op, spv::Id type, spv::Id a, spv::Id b, spv::Id c);
    spv::Id createOp(spv::Op op, spv::Id type, std::span<const spv::Id> operands);
    spv::Id createOp(spv::Op op, spv::Id type, std::span<const IdImmediate> operands);
    spv::Id createOp(spv::Op op, spv::Id type, std::initializer_list<spv::Id> operands)
    {
        return createOp(op, type, std::span<const spv::Id>(operands.begin(), operands.size()));
    }
    void createNoResultOp(spv::Op op);
    void createNoResultOp(spv::Op op, spv::Id operand);
    void createNoResultOp(spv::Op op, std::span<const spv::Id> operands);
    void createNoResultOp(spv::Op op, std::span<const IdImmediate> operands);
    void createNoResultOp(spv::Op op, std::initializer_list<spv::Id> operands)
    {
        createNoResultOp(op, std::span<const spv::Id>(operands.begin(), operands.size()));
    }
    spv::Id createCompositeExtract(spv::Id composite, spv::Id type, unsigned index);
    spv::Id createCompositeInsert(spv::Id object, spv::Id composite, spv::Id type, unsigned index);
    spv::Id createCompositeConstruct(spv::Id type, std::span<const spv::Id> parts);
    spv::Id createCompositeConstruct(spv::Id type, std::initializer_list<spv::Id> parts)
    {
        return createCompositeConstruct(type, std::span<const spv::Id>(parts.begin(), parts.size()));
    }
    spv::Id createBuiltinCall(spv::Id type, spv::Id set, int instruction, std::initializer_list<spv::Id> args);
    spv::Id createBuiltinCall(spv::Id type, spv::Id set, int instruction, std::span<const spv::Id> args);
    spv::Id createFunctionCall(Function* function, std::span<const spv::Id> args);
    void createControlBarrier(spv::Scope execution, spv::Scope memory, spv::MemorySemanticsMask semantics);

    // ---- control flow ----
    void createBranch(Block* target);
    void createConditionalBranch(spv::Id condition, Block* then_block, Block* else_block);
    void createSelectionMerge(Block* merge, unsigned control);
    void createLoopMerge(Block* merge, Block* continue_target, unsigned control);
    /// Appends OpSwitch to `header` (which need not be the build point).
    void createSwitch(Block* header, spv::Id selector, Block* default_block,
        const std::pair<uint32_t, Block*>* cases, size_t case_count);
    void makeReturn();

    /// A selection without else: the build point's block becomes the header,
    /// the code between construction and makeEndIf() the then-block.
    class If {
    public:
        If(spv::Id condition, unsigned control, Builder& builder);
        void makeEndIf();

    private:
        Builder& builder_;
        spv::Id condition_;
        unsigned control_;
        Block* header_;
        Block* then_;
        Block* merge_;
    };

    /// The module's words.
    void dump(std::vector<uint32_t>& out) const;

private:
    struct IdInfo { // trivial: zero when made (getUniqueId)
        spv::Id type;     ///< result type (0 for types and labels)
        uint16_t op;      ///< defining opcode
        uint16_t storage; ///< pointer types: storage class
        uint32_t block;   ///< instructions in blocks: 1 + index in blocks_
        /// types and constants: offset of the instruction in globals_;
        /// access chains: their variable; bitcasts: their operand;
        /// inserts, constructs and shuffles: their offset in their block;
        /// Private and Function variables: their offset in globals_ or in
        /// their function's variables_
        uint32_t at;
        /// The operand words of the instructions in globals_ that name it
        /// (named_by_global(), for prune()).
        uint32_t named;
    };

    IdInfo& info(spv::Id id);
    /// Appends an instruction of `word_count` words to `words` (a section);
    /// returns where its operands go.
    static uint32_t* emit(ScratchVector<uint32_t>& words, spv::Op op, uint32_t word_count)
    {
        uint32_t* w = words.append_uninitialized(word_count); // the caller writes every operand
        w[0] = word_count << 16 | uint32_t(op);
        return w + 1;
    }
    /// The same for an instruction whose last operand is the literal string
    /// `s`, after `operand_count` operands (nul-terminated, zero-padded):
    /// the words written once, without growing and fixing the instruction.
    static uint32_t* emit_with_string(ScratchVector<uint32_t>& words, spv::Op op, uint32_t operand_count,
        const char* s)
    {
        const size_t length = strlen(s);
        const uint32_t word_count = 1 + operand_count + uint32_t(length / 4 + 1);
        uint32_t* w = words.append_uninitialized(word_count);
        w[0] = word_count << 16 | uint32_t(op);
        w[word_count - 1] = 0; // the nul and the padding (or all of the last word)
        memcpy(w + 1 + operand_count, s, length);
        return w + 1;
    }
    /// The same at the end of the build point's block.
    uint32_t* emit_in_block(spv::Op op, uint32_t word_count)
    {
        uint32_t* w = block_words_.append(block_->words_, word_count);
        w[0] = word_count << 16 | uint32_t(op);
        return w + 1;
    }
    spv::Id emit_type(spv::Op op, std::initializer_list<uint32_t> operands, bool dedup = true);
    /// An operand word (not a literal) of a new instruction in globals_, or
    /// OpDecorateId's operand, names `id`, for prune(): once for every such
    /// word, and for no other (not for a Function variable's, nor for an
    /// existing type's).
    void named_by_global(spv::Id id)
    {
        if (id < ids_.size())
            ++ids_[id].named;
    }
    spv::Id typed_global(spv::Op op, spv::Id type, ScratchVector<spv::Id>& made);
    spv::Id builtin_call(spv::Id type, spv::Id set, int instruction, const spv::Id* args, size_t count);
    spv::Id result(spv::Op op, spv::Id type, uint32_t operand_count, uint32_t*& operands);
    void instruction(spv::Op op, uint32_t operand_count, uint32_t*& operands);
    void note_operand(spv::Op op, spv::Id id, spv::Id first_operand);
    const uint32_t* composite_words(spv::Id id) const;
    uint32_t vector_size(spv::Id id) const;
    spv::Id vector_shuffle(spv::Id type, std::span<const IdImmediate> operands);
    spv::Id emit_shuffle(spv::Id type, const uint32_t* operands, size_t count);
    spv::Id variable_of(spv::Id pointer) const;
    bool cacheable(spv::Id pointer) const;
    bool read_only(spv::Id pointer) const;
    /// Instructions without side effects: a result nothing uses can go, and
    /// (loads aside) an identical one in the same block can serve instead
    /// (reuse_value). Their opcodes are below 256 (pure_ops, builder_prune.cpp).
    static bool is_pure(uint32_t op) { return op < 256 && (pure_ops[op >> 6] >> (op & 63)) & 1; }
    static const uint64_t pure_ops[4];
    spv::Id reuse_value(spv::Id id);
    /// The functions' code in layout order: each instruction's words, in a
    /// block's words, a function's variables or `made` (labels and what
    /// layout writes; reserved up front, so the pointers stay valid); and
    /// what prune() needs, counted as the instructions are listed
    /// (builder_prune.cpp), so that it does not read the code again. Made by
    /// dump(), the last work of its scope: ScopeVectors, like the builder's.
    struct Code {
        struct Store {
            uint32_t index; ///< in instructions
            spv::Id pointer;
        };
        /// What prune() knows of an id (one table: one allocation and one
        /// zeroing for all).
        struct IdState {
            /// The id words naming it, its definition's included (a
            /// global's once it stays).
            uint32_t uses;
            uint32_t stored;     ///< the OpStores through it
            uint32_t defined_by; ///< 1 + the index of the pure instruction defining it
            uint8_t removed;     ///< its definition goes (1)
        };
        explicit Code(spv::Id bound) : bound(bound), ids(bound + 1) {}
        /// Lists the instructions in [from, to) (whole instructions).
        void add(const uint32_t* from, const uint32_t* to);
        /// Lists an instruction layout makes (OpFunction, OpLabel, OpBranch,
        /// OpUnreachable, OpFunctionEnd): every word counts, and it is no
        /// store, variable or value (add() without its checks and loop set-up).
        void add_made(const uint32_t* w)
        {
            instructions.push_back(w);
            const uint32_t count = w[0] >> 16;
            words += count;
            for (uint32_t i = 1; i < count; ++i)
                if (w[i] <= bound)
                    ++ids[w[i]].uses;
        }
        /// Adds `delta` to the use count of every id word of an instruction.
        void count_words(const uint32_t* w, uint32_t delta);
        bool removed(spv::Id id) const { return id <= bound && ids[id].removed; }
        /// Instruction `k` leaves the module.
        void drop(size_t k);

        spv::Id bound;
        bool removed_any = false; ///< prune() removed some id's definition
        size_t words = 0;         ///< of the instructions that stay
        /// Null once dropped by prune().
        ScopeVector<const uint32_t*> instructions;
        ScopeVector<uint32_t> made;
        ScopeVector<IdState> ids; ///< per id
        ScopeVector<spv::Id> pure; ///< the ids defined_by names
        ScopeVector<Store> stores;
        ScopeVector<uint32_t> variables; ///< the indices of OpVariables
        /// The offsets in globals_ of the instructions that go (prune()).
        ScopeVector<uint32_t> dropped_globals;
        /// Per block (Builder::blocks_): no control flow reaches it (1). Empty
        /// while every block is reached (the common case: no table to fill).
        ScopeVector<uint8_t> unreached;
    };
    void dump_function(const Function& function, Code& code) const;
    /// A block of a function at layout (builder_layout.cpp): its successors
    /// (successor_list[first, next node's first)), merge block and continue
    /// target, and the walks' marks.
    struct LayoutNode {
        uint32_t first = 0;
        uint32_t merge = Block::no_block, continue_target = Block::no_block;
        spv::Id header = 0; ///< a continue target: its loop header
        uint8_t reached = 0, visited = 0, delayed = 0;
    };
    void order_blocks(const Function& function, std::span<LayoutNode> nodes, ScratchVector<uint32_t>& order,
        Code& code) const;
    /// Drops the instructions of `code` that go and marks the ids whose
    /// definitions go (removed).
    void prune(Code& code) const;
    /// Appends the words of a literal string (nul-terminated, zero-padded).
    template <class Words>
    static void add_string(Words& words, const char* s)
    {
        size_t length = strlen(s);
        size_t at = words.size();
        words.resize(at + length / 4 + 1, 0);
        memcpy(words.data() + at, s, length);
    }
    Block* block_of(spv::Id label) const;
    Block& new_block(Function& function);
    size_t successors(const Block& block, Block** out) const;

    /// Two words (ids, offsets), as std::pair but trivially copyable: a
    /// ScopeVector element.
    struct WordPair {
        uint32_t first, second;
    };
    uint32_t version_;
    spv::Id bound_ = 0;
    ScopeVector<IdInfo> ids_;
    ScopeVector<uint32_t> capabilities_;
    ScopeVector<const char*> extensions_;
    ScopeVector<uint32_t> imports_, memory_model_, entry_points_, execution_modes_, names_, annotations_;
    ScopeVector<spv::Id> types_, nulls_, undefs_; ///< for deduplication
    U64Map type_index_; ///< a hash of a type's opcode and operands -> the first type with it
    U64Map pointers_;   ///< storage << 32 | pointee -> its pointer type (looked up most)
    ScopeVector<uint32_t> globals_; ///< types, constants and global variables in creation order
    /// One allocation each, destroyed with the builder on the heap (in an
    /// arena nothing of theirs is left to free); a std::deque would cost a
    /// map and a 512-byte node before its first element.
    ScopeVector<Function*> functions_;
    ScratchAllocator<Function> function_alloc_;
    /// The blocks' words: one allocation per block and per growth would
    /// cost more than the words (and scatter them); freed with the builder
    /// on the heap, at the scope's end in an arena.
    WordArena block_words_;
    ScratchAllocator<Block> block_alloc_; ///< the Block objects, one allocation each (freed as block_words_)
    ScopeVector<Block*> blocks_;
    /// Dead stores: (offset in its block, next of the block's list).
    ScopeVector<WordPair> dead_stores_;
    Block* block_ = nullptr;
    /// Loads of Function and Private pointers in the current block and the
    /// value each holds (the last store or load); such memory is private to
    /// the invocation, so only stores through the same variable and calls
    /// change it. Cleared when the build point moves.
    ScopeVector<WordPair> loads_;
    /// Stores of whole Function and Private variables in the current block
    /// not read since (variable, offset): a later store to the variable
    /// makes the earlier one dead.
    ScopeVector<WordPair> stores_;
    /// The instructions without side effects (and the access chains) of the
    /// current block: a hash of their words -> 1 + their offset (an
    /// identical one is reused).
    U64Map values_;
    static constexpr size_t max_reuse_window = 1024;
    /// (id << 32 | decoration) of the decorations without a value, made once.
    U64Map decorated_;
    uint32_t previous_last_ = ~0u; ///< the build point's last_ before result()'s instruction
    Block* initial_ = nullptr;     ///< see assume_initial_values()
    ScopeVector<uint8_t> written_; ///< per variable id: stored to in initial_ (1)
    ScopeVector<spv::Id> private_variables_; ///< for pruning
    /// The types and constants in globals_ (the globals prune() may remove),
    /// for its check whether one may go without walking every global.
    ScopeVector<spv::Id> removable_;
    spv::Id void_type_ = 0, bool_type_ = 0, true_ = 0, false_ = 0;
};

} // namespace dxspv::spirv

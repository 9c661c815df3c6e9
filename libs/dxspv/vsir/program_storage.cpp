// A Program's arrays are recycled per thread: the arrays of the last Program
// a thread destroyed, emptied, become the next one's, so a thread that
// translates shader after shader (a translation layer's worker) allocates
// them once instead of once per shader. Arrays larger than
// max_recycled_bytes are freed as usual; what a thread keeps is freed when
// it ends. The strings' arena goes the same way, emptied, with its first
// block.
#include "vsir/ir.h"

#include <type_traits>

namespace dxspv::vsir {

namespace {

constexpr size_t max_recycled_bytes = 256 * 1024;

struct RecycledArrays {
    std::vector<Instruction> instructions;
    std::vector<DstParam> dsts;
    std::vector<SrcParam> srcs;
    std::vector<Declaration> decls;
    std::vector<uint32_t> u32_pool;
    std::vector<SignatureElement> signatures[3];
    Arena arena; ///< emptied, its first block kept
};

thread_local RecycledArrays recycled;

/// Calls `f(array, recycled array)` for each of a program's arrays.
template <class F>
void for_each_array(Program& p, RecycledArrays& r, F&& f)
{
    f(p.instructions, r.instructions);
    f(p.dsts, r.dsts);
    f(p.srcs, r.srcs);
    f(p.decls, r.decls);
    f(p.u32_pool, r.u32_pool);
    f(p.inputs, r.signatures[0]);
    f(p.outputs, r.signatures[1]);
    f(p.patch_constants, r.signatures[2]);
}

} // namespace

// The arrays are moved in (the recycled ones are empty: they were cleared
// when given back), not default-constructed and then swapped.
Program::Program()
    : instructions(std::move(recycled.instructions)), dsts(std::move(recycled.dsts)), srcs(std::move(recycled.srcs)),
      decls(std::move(recycled.decls)), u32_pool(std::move(recycled.u32_pool)),
      inputs(std::move(recycled.signatures[0])), outputs(std::move(recycled.signatures[1])),
      patch_constants(std::move(recycled.signatures[2])), arena(std::move(recycled.arena))
{
}

Program::~Program()
{
    for_each_array(*this, recycled, [](auto& array, auto& to) {
        using T = typename std::remove_reference_t<decltype(array)>::value_type;
        static_assert(std::is_trivially_destructible_v<T>); // clear() costs nothing
        if (array.capacity() <= to.capacity() || array.capacity() * sizeof(T) > max_recycled_bytes)
            return;
        array.clear();
        to.swap(array);
    });
    arena.clear();
    if (arena.holds_block() && !recycled.arena.holds_block())
        recycled.arena = std::move(arena);
}

} // namespace dxspv::vsir

// A Program's arrays are recycled per thread: the arrays of the last Program
// a thread destroyed, emptied, become the next one's, so a thread that
// translates shader after shader (a translation layer's worker) allocates
// them once instead of once per shader. Arrays larger than
// max_recycled_bytes are freed as usual; what a thread keeps is freed when
// it ends.
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
};

thread_local RecycledArrays recycled;

template <class T>
void take(std::vector<T>& array, std::vector<T>& from)
{
    array.swap(from); // `from` is empty: recycled arrays are cleared
}

template <class T>
void give(std::vector<T>& array, std::vector<T>& to)
{
    static_assert(std::is_trivially_destructible_v<T>); // clear() costs nothing
    if (array.capacity() <= to.capacity() || array.capacity() * sizeof(T) > max_recycled_bytes)
        return;
    array.clear();
    to.swap(array);
}

} // namespace

Program::Program()
{
    RecycledArrays& r = recycled;
    take(instructions, r.instructions);
    take(dsts, r.dsts);
    take(srcs, r.srcs);
    take(decls, r.decls);
    take(u32_pool, r.u32_pool);
    take(inputs, r.signatures[0]);
    take(outputs, r.signatures[1]);
    take(patch_constants, r.signatures[2]);
}

Program::~Program()
{
    RecycledArrays& r = recycled;
    give(instructions, r.instructions);
    give(dsts, r.dsts);
    give(srcs, r.srcs);
    give(decls, r.decls);
    give(u32_pool, r.u32_pool);
    give(inputs, r.signatures[0]);
    give(outputs, r.signatures[1]);
    give(patch_constants, r.signatures[2]);
}

} // namespace dxspv::vsir

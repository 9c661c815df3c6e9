// A stable sort for the short arrays of a translation (signature elements,
// constant buffer members): an insertion sort up to 32 elements, which needs
// no buffer (std::stable_sort allocates one on the heap at every call), and
// std::stable_sort past that, so that long inputs stay O(n log n).
#pragma once

#include <algorithm>
#include <iterator>
#include <utility>

namespace dxspv {

template <class It, class Less>
void stable_sort_short(It first, It last, Less less)
{
    if (last - first > 32) {
        std::stable_sort(first, last, less);
        return;
    }
    for (It i = first + (first != last); i < last; ++i) {
        if (!less(*i, *(i - 1)))
            continue;
        auto value = std::move(*i);
        It j = i;
        do {
            *j = std::move(*(j - 1));
            --j;
        } while (j != first && less(value, *(j - 1)));
        *j = std::move(value);
    }
}

} // namespace dxspv

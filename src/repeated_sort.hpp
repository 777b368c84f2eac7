// Private to the world's step: a sort of inputs that mostly repeat. A pile
// at rest finds its contacts in the same order step after step, so the
// step's sorts over them (the contact keys of the time-of-impact phase, the
// touching pairs of the contact events) see the same sequence again; each
// was a few per cent of a 5,050-box pyramid's step. Then the last output is
// copied in one pass instead of sorted again: the same elements in the same
// order, so the states do not change to the bit.
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

namespace sweep::detail {

template <class T> class RepeatedSort {
  public:
    /// Sorts `v` by `less` (a strict weak order), as std::sort does.
    template <class Less = std::less<>> void sort(std::vector<T>& v, Less less = {}) {
        if (v == in_) {
            v.assign(out_.begin(), out_.end());
            return;
        }
        in_.assign(v.begin(), v.end());
        std::sort(v.begin(), v.end(), less);
        out_.assign(v.begin(), v.end());
    }

  private:
    std::vector<T> in_;  // the last input
    std::vector<T> out_; // what sorting it gave
};

} // namespace sweep::detail

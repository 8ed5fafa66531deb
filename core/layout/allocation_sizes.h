#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace memscope {

// The layout's copy of every allocation's size (issue 52): four bytes an allocation instead of
// eight. Sizes below 2^32 - 1 are kept as they are; larger ones (a block of 4 GiB or more, rare
// even in a 2.7B model's snapshot) are marked and kept beside, by allocation index. Negative
// sizes count as 0, as the layout draws them. Reading one is a load and a well-predicted branch:
// the layout's sweeps read millions of them a frame.
class AllocationSizes {
  public:
    size_t size() const { return m_small.size(); }

    // New entries are 0; shrinking drops the large sizes past the end.
    void resize(size_t n) {
        m_small.resize(n, 0);
        m_large.erase(firstLargeFrom(n), m_large.end());
    }

    void set(size_t a, int64_t bytes) {
        bytes = std::max<int64_t>(0, bytes);
        const auto it = firstLargeFrom(a);
        const bool had_large = it != m_large.end() && it->first == a;
        if (bytes < int64_t(kLarge)) {
            m_small[a] = uint32_t(bytes);
            if (had_large) {
                m_large.erase(it);
            }
            return;
        }
        m_small[a] = kLarge;
        if (had_large) {
            it->second = bytes;
        } else {
            m_large.insert(it, {a, bytes});  // at the end when set in index order
        }
    }

    int64_t operator[](size_t a) const {
        const uint32_t v = m_small[a];
        return v != kLarge ? int64_t(v) : large(a);
    }

  private:
    static constexpr uint32_t kLarge = std::numeric_limits<uint32_t>::max();

    using Large = std::vector<std::pair<size_t, int64_t>>;

    static bool indexBefore(const Large::value_type& e, size_t index) { return e.first < index; }
    // The first large size of an allocation index >= a.
    Large::iterator firstLargeFrom(size_t a) {
        return std::lower_bound(m_large.begin(), m_large.end(), a, indexBefore);
    }
    int64_t large(size_t a) const {
        return std::lower_bound(m_large.begin(), m_large.end(), a, indexBefore)->second;
    }

    std::vector<uint32_t> m_small;
    Large m_large;  // (allocation index, size), sorted by index
};

}  // namespace memscope

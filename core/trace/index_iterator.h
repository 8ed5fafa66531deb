#pragma once

#include <cstddef>
#include <iterator>
#include <type_traits>

namespace memscope {

// A random-access iterator over a sequence whose elements are read by index as values (a
// packed column, a trace's allocations). Read is a small copyable callable, element(size_t);
// an iterator holds its own copy, so it stays valid as long as what Read points at does, not
// only as long as the object whose begin() made it. operator* returns a value: take no
// pointer or reference to it that outlives the expression or loop iteration.
template <typename Read>
class IndexIterator {
  public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::decay_t<std::invoke_result_t<const Read&, size_t>>;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;

    IndexIterator() = default;
    IndexIterator(Read read, size_t i) : m_read(read), m_i(i) {}
    value_type operator*() const { return m_read(m_i); }
    value_type operator[](difference_type n) const {
        return m_read(size_t(difference_type(m_i) + n));
    }
    IndexIterator& operator++() { return ++m_i, *this; }
    IndexIterator operator++(int) {
        IndexIterator was = *this;
        ++m_i;
        return was;
    }
    IndexIterator& operator--() { return --m_i, *this; }
    IndexIterator operator--(int) {
        IndexIterator was = *this;
        --m_i;
        return was;
    }
    IndexIterator& operator+=(difference_type n) {
        return m_i = size_t(difference_type(m_i) + n), *this;
    }
    IndexIterator& operator-=(difference_type n) { return *this += -n; }
    friend IndexIterator operator+(IndexIterator it, difference_type n) { return it += n; }
    friend IndexIterator operator+(difference_type n, IndexIterator it) { return it += n; }
    friend IndexIterator operator-(IndexIterator it, difference_type n) { return it -= n; }
    friend difference_type operator-(const IndexIterator& a, const IndexIterator& b) {
        return difference_type(a.m_i) - difference_type(b.m_i);
    }
    friend bool operator==(const IndexIterator& a, const IndexIterator& b) {
        return a.m_i == b.m_i;
    }
    friend bool operator!=(const IndexIterator& a, const IndexIterator& b) {
        return a.m_i != b.m_i;
    }
    friend bool operator<(const IndexIterator& a, const IndexIterator& b) { return a.m_i < b.m_i; }
    friend bool operator>(const IndexIterator& a, const IndexIterator& b) { return a.m_i > b.m_i; }
    friend bool operator<=(const IndexIterator& a, const IndexIterator& b) {
        return a.m_i <= b.m_i;
    }
    friend bool operator>=(const IndexIterator& a, const IndexIterator& b) {
        return a.m_i >= b.m_i;
    }

  private:
    Read m_read{};
    size_t m_i = 0;
};

}  // namespace memscope

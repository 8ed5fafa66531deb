#pragma once

#include "trace/index_iterator.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace memscope {

// A column of integers kept in blocks of kBlock values, each block as its smallest value and the
// others' distance from it in as many bits as the block's largest distance needs
// (frame-of-reference bit packing). Any value is read in O(1) without unpacking its block, so
// code that reads `column[i]` or runs std::lower_bound over it reads it as it read a
// std::vector; values are appended only (the last, unfilled block stays unpacked). What a
// column of a long run holds barely changes within 128 neighbours (times, running totals,
// event indices): 2 to 4 bytes a value instead of 8 (issue 52: the layout of a 12M-event
// snapshot). A block costs 16 bytes of header.
template <typename T>
class PackedColumn {
    static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "PackedColumn holds integers");

  public:
    static constexpr size_t kBlock = 128;  // a multiple of 64: a block is a whole number of words

    using value_type = T;
    using size_type = size_t;

    // Reads the column a const_iterator walks.
    struct ReadValue {
        const PackedColumn* column = nullptr;
        T operator()(size_t i) const { return (*column)[i]; }
    };
    using const_iterator = IndexIterator<ReadValue>;

    PackedColumn() = default;
    PackedColumn(std::initializer_list<T> values) {
        for (const T v : values) {
            push_back(v);
        }
    }

    size_t size() const { return m_packed + m_tail.size(); }
    bool empty() const { return size() == 0; }

    T operator[](size_t i) const {
        const size_t b = i / kBlock;
        if (b >= m_head.size()) {
            return m_tail[i - m_packed];
        }
        const Header& h = m_head[b];
        const unsigned width = unsigned(h.word_width >> 56);
        if (width == 0) {
            return fromBits(h.base);
        }
        const uint64_t bit = uint64_t(i % kBlock) * width;
        const uint64_t* p = m_words.data() + (h.word_width & kWordMask) + (bit >> 6);
        const unsigned shift = unsigned(bit & 63);
        uint64_t v = p[0] >> shift;
        if (shift + width > 64) {
            v |= p[1] << (64 - shift);
        }
        if (width < 64) {
            v &= (uint64_t(1) << width) - 1;
        }
        return fromBits(h.base + v);
    }
    // Calls f(value) for the values [from, to) in order, unpacking each block's header once.
    template <typename F>
    void forEach(size_t from, size_t to, F&& f) const {
        while (from < to) {
            const size_t b = from / kBlock;
            if (b >= m_head.size()) {
                for (; from < to; ++from) {
                    f(m_tail[from - m_packed]);
                }
                return;
            }
            const size_t end = std::min(to, (b + 1) * kBlock);
            const Header& h = m_head[b];
            const unsigned width = unsigned(h.word_width >> 56);
            if (width == 0) {
                for (; from < end; ++from) {
                    f(fromBits(h.base));
                }
                continue;
            }
            const uint64_t* words = m_words.data() + (h.word_width & kWordMask);
            const uint64_t mask = width < 64 ? (uint64_t(1) << width) - 1 : ~uint64_t(0);
            for (uint64_t bit = uint64_t(from % kBlock) * width; from < end; ++from, bit += width) {
                const unsigned shift = unsigned(bit & 63);
                uint64_t v = words[bit >> 6] >> shift;
                if (shift + width > 64) {
                    v |= words[(bit >> 6) + 1] << (64 - shift);
                }
                f(fromBits(h.base + (v & mask)));
            }
        }
    }
    T front() const { return (*this)[0]; }
    T back() const { return m_tail.empty() ? (*this)[size() - 1] : m_tail.back(); }

    const_iterator begin() const { return {ReadValue{this}, 0}; }
    const_iterator end() const { return {ReadValue{this}, size()}; }

    void push_back(T v) {
        if (m_tail.capacity() < kBlock) {
            m_tail.reserve(kBlock);
        }
        m_tail.push_back(v);
        if (m_tail.size() == kBlock) {
            pack(m_tail.data());
            m_tail.clear();
        }
    }
    // Room for `n` values in all, so that appending them moves nothing.
    void reserve(size_t n) {
        m_head.reserve(n / kBlock);
        m_words.reserve(n / kBlock * 2);  // a guess: one bit a value; the rest grows as needed
    }
    void clear() {
        m_head.clear();
        m_words.clear();
        m_tail.clear();
        m_packed = 0;
    }
    // Keeps the first n values (n <= size()).
    void truncate(size_t n) {
        if (n >= size()) {
            return;
        }
        std::vector<T> keep;
        keep.reserve(kBlock);
        const size_t blocks = n / kBlock;
        for (size_t i = blocks * kBlock; i < n; ++i) {
            keep.push_back((*this)[i]);
        }
        if (blocks < m_head.size()) {
            m_words.resize(size_t(m_head[blocks].word_width & kWordMask));
            m_head.resize(blocks);
        }
        m_packed = blocks * kBlock;
        m_tail.swap(keep);
    }
    // Appends the values [first, last) of an input range.
    template <typename It>
    void append(It first, It last) {
        for (; first != last; ++first) {
            push_back(T(*first));
        }
    }
    // Appends n values from a plain array, packing whole blocks straight from it.
    void append(const T* values, size_t n) {
        size_t k = 0;
        while (k < n && !m_tail.empty()) {
            push_back(values[k++]);
        }
        for (; n - k >= kBlock; k += kBlock) {
            pack(values + k);
        }
        for (; k < n; ++k) {
            push_back(values[k]);
        }
    }
    // Replaces the values by the n values of a plain array, packed without spare capacity.
    void assign(const T* values, size_t n) {
        clear();
        append(values, n);
        shrink_to_fit();
    }
    // Keeps the first n values, or appends `value` up to n.
    void resize(size_t n, T value = T()) {
        truncate(n);
        while (size() < n) {
            push_back(value);
        }
    }
    // Replaces every value v by f(v) (packed again: O(size())).
    template <typename F>
    void transform(F&& f) {
        PackedColumn out;
        out.reserve(size());
        forEach(0, size(), [&](T v) { out.push_back(T(f(v))); });
        out.shrink_to_fit();
        swap(out);
    }
    // Sets value i to v (packed again: O(size()); for tests and rare repairs).
    void set(size_t i, T v) {
        size_t k = 0;
        transform([&](T old) { return k++ == i ? v : old; });
    }
    // Drops the first n values (O(size())).
    void dropFront(size_t n) {
        PackedColumn out;
        forEach(std::min(n, size()), size(), [&](T v) { out.push_back(v); });
        out.shrink_to_fit();
        swap(out);
    }
    void swap(PackedColumn& other) noexcept {
        m_head.swap(other.m_head);
        m_words.swap(other.m_words);
        m_tail.swap(other.m_tail);
        std::swap(m_packed, other.m_packed);
    }
    // Gives back the capacity left over from growing.
    void shrink_to_fit() {
        m_head.shrink_to_fit();
        m_words.shrink_to_fit();
    }
    // Bytes of memory the column holds (capacity included).
    size_t memoryBytes() const {
        return m_head.capacity() * sizeof(Header) + m_words.capacity() * sizeof(uint64_t) +
               m_tail.capacity() * sizeof(T);
    }
    std::vector<T> toVector() const { return {begin(), end()}; }

    friend bool operator==(const PackedColumn& a, const PackedColumn& b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (size_t i = 0; i < a.size(); ++i) {
            if (a[i] != b[i]) {
                return false;
            }
        }
        return true;
    }
    friend bool operator!=(const PackedColumn& a, const PackedColumn& b) { return !(a == b); }
    friend bool operator==(const PackedColumn& a, const std::vector<T>& b) {
        return a.size() == b.size() && std::equal(b.begin(), b.end(), a.begin());
    }
    friend bool operator==(const std::vector<T>& a, const PackedColumn& b) { return b == a; }
    friend bool operator!=(const PackedColumn& a, const std::vector<T>& b) { return !(a == b); }
    friend bool operator!=(const std::vector<T>& a, const PackedColumn& b) { return !(b == a); }

  private:
    static constexpr uint64_t kWordMask = (uint64_t(1) << 56) - 1;
    struct Header {
        uint64_t base = 0;        // the block's smallest value, as its 64-bit two's complement
        uint64_t word_width = 0;  // first word in m_words (56 bits), bits per value (top 8)
    };

    static uint64_t toBits(T v) { return uint64_t(int64_t(v)); }
    static T fromBits(uint64_t bits) { return T(bits); }

    // Packs kBlock values as the next block (the tail must be empty).
    void pack(const T* values) {
        T lowest = values[0];
        T highest = values[0];
        for (size_t k = 1; k < kBlock; ++k) {
            lowest = values[k] < lowest ? values[k] : lowest;
            highest = values[k] > highest ? values[k] : highest;
        }
        const uint64_t base = toBits(lowest);
        const uint64_t range = toBits(highest) - base;
        unsigned width = 0;
        while (width < 64 && (range >> width) != 0) {
            ++width;
        }
        const size_t first = m_words.size();
        if (first > kWordMask) {
            throw std::bad_alloc();  // 2^56 words: beyond any machine's memory
        }
        m_head.push_back({base, uint64_t(first) | uint64_t(width) << 56});
        if (width > 0) {
            m_words.resize(first + kBlock / 64 * width, 0);
            uint64_t* words = m_words.data() + first;
            for (size_t k = 0; k < kBlock; ++k) {
                const uint64_t v = toBits(values[k]) - base;
                const uint64_t bit = uint64_t(k) * width;
                const unsigned shift = unsigned(bit & 63);
                words[bit >> 6] |= v << shift;
                if (shift + width > 64) {
                    words[(bit >> 6) + 1] |= v >> (64 - shift);
                }
            }
        }
        m_packed += kBlock;
    }

    std::vector<Header> m_head;
    std::vector<uint64_t> m_words;
    std::vector<T> m_tail;  // the values after the last packed block (fewer than kBlock)
    size_t m_packed = 0;    // values in packed blocks
};

// Reads a packed column a block at a time: the block of the value asked for is unpacked into a
// plain array, so that a pass over the events that reads several columns at each one (where
// forEach, one column at a time, does not fit) costs an array read a value, not a packed read.
// Any order works (i < size()); increasing order unpacks each block once. Holds a pointer to the
// column: valid while the column is neither appended to nor rewritten.
template <typename T>
class PackedReader {
  public:
    explicit PackedReader(const PackedColumn<T>& column) : m_column(&column) {}
    T operator[](size_t i) {
        if (i - m_first >= m_count) {  // before m_first wraps around
            load(i);
        }
        return m_values[i - m_first];
    }

  private:
    static constexpr size_t kBlock = PackedColumn<T>::kBlock;
    void load(size_t i) {
        m_first = i / kBlock * kBlock;
        const size_t last = std::min(m_column->size(), m_first + kBlock);
        m_count = last > m_first ? last - m_first : 0;
        T* out = m_values;
        m_column->forEach(m_first, last, [&out](T v) { *out++ = v; });
    }
    const PackedColumn<T>* m_column;
    size_t m_first = 0;
    size_t m_count = 0;
    T m_values[kBlock] = {};
};

// What code that handles event columns generically (for_each_event_column.h) does to either
// kind of column.
template <typename T>
void dropFrontOf(std::vector<T>& v, size_t n) {
    v.erase(v.begin(), v.begin() + std::ptrdiff_t(std::min(n, v.size())));
}
template <typename T>
void dropFrontOf(PackedColumn<T>& v, size_t n) {
    v.dropFront(n);
}
// Values [first, first + n) of a column as a plain array: a vector's own, a packed column's
// unpacked into `scratch`.
template <typename T>
const T* plainValues(const std::vector<T>& v, size_t first, size_t, std::vector<T>&) {
    return v.data() + first;
}
template <typename T>
const T* plainValues(const PackedColumn<T>& v, size_t first, size_t n, std::vector<T>& scratch) {
    scratch.clear();
    scratch.reserve(n);
    v.forEach(first, first + n, [&](T x) { scratch.push_back(x); });
    return scratch.data();
}
// A plain array of n values to load a column through: a vector's own (resized to n), or
// `staging` for a packed column, which unstage() packs into it once the values are in.
template <typename T>
T* stageValues(std::vector<T>& v, size_t n, std::vector<T>&) {
    v.resize(n);
    return v.data();
}
template <typename T>
T* stageValues(PackedColumn<T>&, size_t n, std::vector<T>& staging) {
    staging.resize(n);
    return staging.data();
}
template <typename T>
void unstage(std::vector<T>&, std::vector<T>&) {}
template <typename T>
void unstage(PackedColumn<T>& v, std::vector<T>& staging) {
    v.assign(staging.data(), staging.size());
    staging = std::vector<T>();
}

// Calls f(values[i]) for i in [from, to): a vector's elements, or a packed column's unpacked block
// by block.
template <typename T, typename F>
void forEachValue(const std::vector<T>& values, size_t from, size_t to, F&& f) {
    for (size_t i = from; i < to; ++i) {
        f(values[i]);
    }
}
template <typename T, typename F>
void forEachValue(const PackedColumn<T>& values, size_t from, size_t to, F&& f) {
    values.forEach(from, to, f);
}

template <typename T>
void assignValues(std::vector<T>& v, std::vector<T>&& values) {
    v = std::move(values);
}
template <typename T>
void assignValues(PackedColumn<T>& v, std::vector<T>&& values) {
    v.assign(values.data(), values.size());
}

template <typename T, typename It>
void appendValues(std::vector<T>& v, It first, It last) {
    v.insert(v.end(), first, last);
}
template <typename T, typename It>
void appendValues(PackedColumn<T>& v, It first, It last) {
    v.append(first, last);
}

}  // namespace memscope

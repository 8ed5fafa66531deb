#pragma once

// The pickle memo as PickleReader keeps it: values by index, as Python's pickler numbers them
// (0, 1, 2, ...), with a far-out index in a sparse map so that LONG_BINPUT 4000000000 allocates
// nothing big. Each index is unset, set (it holds a value) or streamed (an item of a streamed
// list, handed to the sink and not kept: a later reference to it is an error).
//
// Values are kept in pages of kPageSize that are allocated when a value is first stored in them:
// a snapshot memoizes every trace entry's dict, and those are streamed, so a file of 17 million
// entries holds a byte per index here, not a 16-byte value per index (issue 52).

#include "pickle/pickle_value.h"

#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

namespace memscope {

class PickleMemo {
  public:
    static constexpr size_t kPageSize = 4096;

    // Whether index belongs to the dense part (or may grow it): up to 4096 past its end, or
    // twice its size. Beyond that, the sparse map.
    bool dense(uint64_t index) const {
        return index < m_state.size() + 4096 || index < m_state.size() * 2;
    }
    // Stores value at index (replacing what was there).
    void put(uint64_t index, const PickleValue& value);
    // Marks index as a streamed item: its value (if any) is released.
    void markStreamed(uint64_t index);
    // The value at index, or nullptr; *streamed says whether the index is a streamed item.
    const PickleValue* get(uint64_t index, bool* streamed) const {
        *streamed = false;
        if (index < m_state.size() && m_state[index] == kSet) {
            // Inline: a trace entry looks up eight keys, names and frame lists.
            return &m_pages[static_cast<size_t>(index / kPageSize)][index % kPageSize];
        }
        return getRest(index, streamed);
    }
    // Distinct indices stored (set or streamed): where MEMOIZE puts the next one.
    size_t count() const { return m_count; }
    // Forgets everything and frees the pages.
    void clear();

  private:
    enum State : uint8_t { kUnset = 0, kSet = 1, kStreamed = 2 };
    const PickleValue* getRest(uint64_t index, bool* streamed) const;
    void grow(uint64_t index);
    PickleValue& slot(uint64_t index);

    std::vector<uint8_t> m_state;  // per dense index
    std::vector<std::unique_ptr<PickleValue[]>> m_pages;
    // Values set in each page: a page whose values were all streamed or replaced is freed (a
    // trace entry the fast path could not take is put, then marked streamed).
    std::vector<uint32_t> m_pageLive;
    std::unordered_map<uint64_t, PickleValue> m_sparse;
    std::unordered_map<uint64_t, bool> m_sparseStreamed;
    size_t m_count = 0;
};

}  // namespace memscope

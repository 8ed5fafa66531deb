#include "pickle/pickle_memo.h"

namespace memscope {

void PickleMemo::grow(uint64_t index) {
    if (index >= m_state.size()) {
        m_state.resize(static_cast<size_t>(index) + 1, kUnset);
    }
}

PickleValue& PickleMemo::slot(uint64_t index) {
    const size_t page = static_cast<size_t>(index / kPageSize);
    if (page >= m_pages.size()) {
        m_pages.resize(page + 1);
        m_pageLive.resize(page + 1, 0);
    }
    if (!m_pages[page]) {
        m_pages[page].reset(new PickleValue[kPageSize]);
    }
    return m_pages[page][index % kPageSize];
}

void PickleMemo::put(uint64_t index, const PickleValue& value) {
    if (!dense(index)) {
        m_sparseStreamed.erase(index);
        if (m_sparse.insert_or_assign(index, value).second) {
            ++m_count;
        }
        return;
    }
    grow(index);
    if (m_state[index] == kUnset) {
        ++m_count;
    }
    PickleValue& to = slot(index);
    if (m_state[index] != kSet) {
        ++m_pageLive[static_cast<size_t>(index / kPageSize)];
    }
    m_state[index] = kSet;
    to = value;
}

void PickleMemo::markStreamed(uint64_t index) {
    if (index >= m_state.size() && !dense(index)) {
        const bool was_set = m_sparse.erase(index) > 0;
        if (m_sparseStreamed.emplace(index, true).second && !was_set) {
            ++m_count;
        }
        return;
    }
    grow(index);
    if (m_state[index] == kUnset) {
        ++m_count;
    }
    if (m_state[index] == kSet) {
        const size_t page = static_cast<size_t>(index / kPageSize);
        m_pages[page][index % kPageSize] = PickleValue();
        if (--m_pageLive[page] == 0) {
            m_pages[page].reset();
        }
    }
    m_state[index] = kStreamed;
}

// get() for an index that is not set in the dense part.
const PickleValue* PickleMemo::getRest(uint64_t index, bool* streamed) const {
    if (index < m_state.size()) {
        *streamed = m_state[index] == kStreamed;
        if (*streamed) {
            return nullptr;
        }
    }
    if (auto it = m_sparse.find(index); it != m_sparse.end()) {
        return &it->second;
    }
    *streamed = m_sparseStreamed.count(index) > 0;
    return nullptr;
}

void PickleMemo::clear() {
    m_state = std::vector<uint8_t>();
    m_pages = std::vector<std::unique_ptr<PickleValue[]>>();
    m_pageLive = std::vector<uint32_t>();
    m_sparse.clear();
    m_sparseStreamed.clear();
    m_count = 0;
}

}  // namespace memscope

#include "trace/backward_starts.h"

namespace memscope {

namespace {
// How far past its end the dense vector may grow for one step: a run adds one step at a time.
constexpr int64_t kMaxGap = int64_t(1) << 16;
}  // namespace

void BackwardStarts::note(int32_t step, int64_t event) {
    if (m_dense.empty() && m_sparse.empty()) {
        m_base = step;
    }
    if (!m_sparse.empty() && m_sparse.count(step) != 0) {
        return;  // its first is already kept there
    }
    const int64_t index = int64_t(step) - m_base;
    const auto size = static_cast<int64_t>(m_dense.size());
    if (index >= 0 && index < size + kMaxGap) {
        if (index >= size) {
            m_dense.resize(static_cast<size_t>(index) + 1, -1);
        }
        int64_t& first = m_dense[static_cast<size_t>(index)];
        if (first < 0) {
            first = event;
        }
        return;
    }
    m_sparse.emplace(step, event);  // keeps the first
}

int64_t BackwardStarts::at(int32_t step) const {
    const int64_t index = int64_t(step) - m_base;
    if (index >= 0 && index < static_cast<int64_t>(m_dense.size()) &&
        m_dense[static_cast<size_t>(index)] >= 0) {
        return m_dense[static_cast<size_t>(index)];
    }
    if (m_sparse.empty()) {
        return -1;
    }
    const auto it = m_sparse.find(step);
    return it != m_sparse.end() ? it->second : -1;
}

void BackwardStarts::clear() {
    m_base = 0;
    m_dense.clear();
    m_sparse.clear();
}

}  // namespace memscope

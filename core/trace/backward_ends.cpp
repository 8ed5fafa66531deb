#include "trace/backward_ends.h"

#include <algorithm>

namespace memscope {

void BackwardEnds::note(int64_t event, Phase phase) {
    if (phase == Phase::Backward) {
        m_inBackward = true;
    } else if (phase != Phase::Other && m_inBackward) {
        m_ends.push_back(event);
        m_inBackward = false;
    }
}

int64_t BackwardEnds::after(int64_t event) const {
    const auto it = std::upper_bound(m_ends.begin(), m_ends.end(), event);
    return it != m_ends.end() ? *it : -1;
}

void BackwardEnds::clear() {
    m_ends.clear();
    m_inBackward = false;
}

}  // namespace memscope

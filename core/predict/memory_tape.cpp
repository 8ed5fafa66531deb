#include "predict/memory_tape.h"

#include <stdexcept>

namespace memscope {

void MemoryTape::alloc(MemoryComponent component, int64_t bytes) {
    m_bytes[static_cast<int>(component)] += bytes;
    m_live += bytes;
    notePeak();
}

void MemoryTape::free(MemoryComponent component, int64_t bytes) {
    auto& slot = m_bytes[static_cast<int>(component)];
    if (slot < bytes) {
        throw std::logic_error("memory model frees more " + toString(component) +
                               " bytes than it allocated");
    }
    slot -= bytes;
    m_live -= bytes;
}

void MemoryTape::move(MemoryComponent from, MemoryComponent to, int64_t bytes) {
    free(from, bytes);
    alloc(to, bytes);
}

void MemoryTape::spike(MemoryComponent component, int64_t bytes) {
    alloc(component, bytes);
    free(component, bytes);
}

void MemoryTape::resetPeak() {
    m_peak = 0;
    m_phasePeaks.fill(0);
    notePeak();
}

void MemoryTape::notePeak() {
    auto& phase_peak = m_phasePeaks[static_cast<int>(m_phase)];
    if (m_live > phase_peak) {
        phase_peak = m_live;
    }
    if (m_live > m_peak) {
        m_peak = m_live;
        m_peakPhase = m_phase;
        m_peakBytes = m_bytes;
    }
}

}  // namespace memscope

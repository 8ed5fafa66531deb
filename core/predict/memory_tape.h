#pragma once

#include "predict/memory_component.h"
#include "run/phase.h"

#include <array>
#include <cstdint>

namespace memscope {

// Replays a training step's allocations and frees as the memory model predicts them, keeping
// the live bytes per component, the peak with its breakdown, and the peak of every phase.
// Frees that would take a component below zero are a modelling error and throw.
class MemoryTape {
  public:
    void setPhase(Phase phase) { m_phase = phase; }
    Phase phase() const { return m_phase; }

    void alloc(MemoryComponent component, int64_t bytes);
    void free(MemoryComponent component, int64_t bytes);
    // Moves bytes from one component to another (a gradient buffer that becomes .grad).
    void move(MemoryComponent from, MemoryComponent to, int64_t bytes);
    // A transient that is allocated and freed again right away.
    void spike(MemoryComponent component, int64_t bytes);

    int64_t live() const { return m_live; }
    const ComponentBytes& liveBytes() const { return m_bytes; }

    // Restarts peak tracking (a new step), keeping the live bytes.
    void resetPeak();
    int64_t peak() const { return m_peak; }
    Phase peakPhase() const { return m_peakPhase; }
    const ComponentBytes& peakBytes() const { return m_peakBytes; }
    int64_t phasePeak(Phase phase) const { return m_phasePeaks[static_cast<int>(phase)]; }

  private:
    void notePeak();

    Phase m_phase = Phase::Init;
    int64_t m_live = 0;
    ComponentBytes m_bytes{};
    int64_t m_peak = 0;
    Phase m_peakPhase = Phase::Init;
    ComponentBytes m_peakBytes{};
    std::array<int64_t, kPhaseCount> m_phasePeaks{};
};

}  // namespace memscope

#pragma once

#include "capture/recorder.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace memscope {

// Stands between the AllocationHook and the Recorder in a Python program (ProgramRecording):
// allocations get the allocating thread's Python stack below their op (PythonStack; the whole
// stack unless --python-frames caps it),
// each step's peak is checked against the running total LibTorch reported at that moment, and a
// child made by fork() drops everything (its recorder is the parent's, which nobody drains
// there), as does a thread still running after the recording finished.
class ProgramObserver : public AllocationObserver {
  public:
    ProgramObserver(Recorder& recorder, int python_frames)
        : m_recorder(recorder), m_pythonFrames(python_frames) {}

    void onMemoryEvent(void* ptr, int64_t size, int64_t allocated, int64_t allocator_total,
                       int64_t allocator_reserved, c10::Device device) override;
    void onPhase(Phase phase, int64_t step) override { m_recorder.onPhase(phase, step); }
    void onRole(const void* ptr, Category category, c10::Device device, const char* owner) override;
    void onOutOfMemory(int64_t requested, int64_t allocated, int64_t capacity,
                       c10::Device device) override;
    void onSegment(EventKind kind, uint64_t addr, int64_t size, c10::Device device) override;
    void onRunThreadStart() override { m_recorder.onRunThreadStart(); }
    void onRunThreadEnd() override { m_recorder.onRunThreadEnd(); }

    // From now on every event is dropped: in a child after fork(), and once the recording
    // finished (a thread the program left running still allocates until the process exits).
    void stop() { m_stopped.store(true, std::memory_order_relaxed); }
    bool stopped() const { return m_stopped.load(std::memory_order_relaxed); }

    // The highest recorded total since the last call, and LibTorch's own running total (what
    // the allocator passed to the hook) at the event that reached it; starts a new window.
    struct PeakCheck {
        int64_t recorded = 0;
        int64_t allocator = 0;
    };
    PeakCheck takePeak(int64_t current);
    // The depth of the deepest Python stack that was cut to PythonStack::kMaxFrames (0: none).
    size_t deepestCutStack() const { return m_deepest.load(std::memory_order_relaxed); }

  private:
    // The node of the calling thread's current scope with its Python frames below it.
    uint32_t pythonNode();

    Recorder& m_recorder;
    const int m_pythonFrames;
    std::atomic<bool> m_stopped{false};
    std::atomic<int64_t> m_peak{INT64_MIN};
    std::atomic<int64_t> m_allocatorAtPeak{0};
    std::atomic<size_t> m_deepest{0};
};

}  // namespace memscope

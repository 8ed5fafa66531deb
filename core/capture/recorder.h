#pragma once

#include "capture/recorder_clock.h"
#include "trace/trace.h"
#include "train/allocation_observer.h"

#include <ATen/record_function.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memscope {

// Records every allocation and free of a run with its call stack, phase and step, and keeps
// per-operator and per-module statistics. The trainer drives it (AllocationObserver); a consumer
// on any thread pulls what has arrived with drainInto() while the run goes on.
//
// Hot path (every tensor allocation): one timestamp, a fixed-size record appended to the
// calling thread's own chunk, an atomic release of the count. No lock, no c10 allocation.
// Stacks are interned as a trie when a scope opens (once per op call), not per allocation.
class Recorder : public AllocationObserver {
  public:
    struct Options {
        int64_t max_events = 0;      // keep only the newest N events (0: all)
        bool record_shapes = false;  // capture op inputs: FLOPs of matmul-like ops (slower)
    };

    Recorder();
    explicit Recorder(Options options);
    ~Recorder() override;
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // AllocationObserver (training threads)
    void onMemoryEvent(void* ptr, int64_t size, int64_t allocated, int64_t allocator_total,
                       int64_t allocator_reserved, c10::Device device) override;
    void onPhase(Phase phase, int64_t step) override;
    void onRole(const void* ptr, Category category, c10::Device device, const char* owner) override;
    // Adds the payload to the innermost recorded scope: the collective's own span.
    void onCollective(int64_t bytes) override;
    // Segment events with the reserved total after them (the allocator's reserved bytes when the
    // run started plus every change since).
    void onSegment(EventKind kind, uint64_t addr, int64_t size, c10::Device device) override;
    void onOutOfMemory(int64_t requested, int64_t allocated, int64_t capacity,
                       c10::Device device) override;
    void onRunThreadStart() override;
    void onRunThreadEnd() override;

    // A Python program's own frames below the calling thread's scopes (python/ProgramObserver):
    // the calling thread's current scope node; the node of `frame` under `parent` (made, and
    // its name and file copied, the first time); and an allocation or free at node `stack`.
    uint32_t currentNode();
    uint32_t frameNode(uint32_t parent, const Frame& frame);
    void onMemoryEventAt(uint32_t stack, void* ptr, int64_t size, int64_t allocated,
                         int64_t allocator_total, int64_t allocator_reserved, c10::Device device);
    // Threads that start after the run began (a Python program's own threads): their op and
    // module scopes reach this recorder once attachThread() ran on them (the handle to give
    // detachThread() on the same thread when it ends). onRunThreadStart() must have run.
    at::CallbackHandle attachThread();
    static void detachThread(at::CallbackHandle handle);
    // In a child made by fork(): no recorder is active any more, without taking any lock (another
    // thread of the parent may have held one when it forked). The child's events are dropped.
    static void deactivateAfterFork();

    // Consumer side, any one thread at a time: appends new stack nodes and events to `trace`
    // (events in time order), applies the max_events bound and returns how many events it added.
    size_t drainInto(Trace& trace);
    // Operator and module statistics, merged over threads, sorted by total time. Only once no
    // thread records any more (after the run): the recording threads update them unlocked.
    std::vector<OperatorStat> operatorStats() const;
    // While the run goes on: the statistics each thread last published, and a request to every
    // thread to publish again at its next op exit. So a figure lags by about one call of this
    // (the journal calls it once a second); a thread that never records again keeps its last.
    std::vector<OperatorStat> publishedOperatorStats() const;
    // Last total the allocator itself reported, and Memscope's own running total at that moment
    // (they must agree: tests check it at step boundaries).
    int64_t allocatorReportedTotal() const { return m_allocatorTotal.load(); }
    int64_t recordedTotal() const { return m_recordedTotal.load(); }
    uint64_t eventsRecorded() const { return m_eventsRecorded.load(); }
    // The clock every time the recorder records is on (capture/recorder_clock.h).
    const RecorderClock& clock() const { return m_clock; }

    struct ThreadState;  // per-thread buffers and scope stack (recorder_thread_state.h)

  private:
    ThreadState& threadState();
    void emit(ThreadState& ts, EventKind kind, uint64_t addr, int64_t size, int64_t allocated,
              int64_t reserved, c10::Device device);
    void emitAt(ThreadState& ts, uint32_t stack, EventKind kind, uint64_t addr, int64_t size,
                int64_t allocated, int64_t reserved, c10::Device device);
    void addToScope(ThreadState& ts, int64_t size);
    static std::unique_ptr<at::ObserverContext> onFunctionEnter(const at::RecordFunction& fn);
    static void onFunctionExit(const at::RecordFunction& fn, at::ObserverContext* ctx);
    int64_t nowNs() const;
    uint32_t internShapes(const std::string& shapes);
    uint32_t internNode(ThreadState& ts, uint32_t parent, const char* name, const char* file,
                        int line, FrameKind kind);
    uint32_t lookupNode(ThreadState& ts, uint32_t parent, const char* name, const char* file,
                        int line, FrameKind kind);
    // (node, this thread's statistic) of a call: the thread's prediction or call caches, else
    // lookupUncached.
    std::pair<uint32_t, uint32_t> lookupCall(ThreadState& ts, uint32_t parent, const char* name,
                                             const char* file, int line, FrameKind kind);
    std::pair<uint32_t, uint32_t> lookupUncached(ThreadState& ts, uint32_t parent, const char* name,
                                                 const char* file, int line, FrameKind kind);
    // The "backward of MODULE" node under `parent` for the module's frame.
    uint32_t backwardOfNode(ThreadState& ts, uint32_t parent, uint32_t module_frame);

    Options m_options;
    uint64_t m_generation;
    RecorderClock m_clock;
    std::atomic<int> m_phase{static_cast<int>(Phase::Init)};
    std::atomic<int> m_step{0};
    std::atomic<int64_t> m_allocatorTotal{0};
    std::atomic<int64_t> m_recordedTotal{0};
    std::atomic<int64_t> m_segmentReserved{0};  // onSegment's running reserved total
    std::atomic<uint64_t> m_eventsRecorded{0};
    // drainInto's staging buffers, kept between drains (their pages stay faulted in)
    std::vector<Event> m_eventBatch;
    std::vector<ThreadState*> m_drainThreads;

    mutable std::mutex m_mutex;  // guards the members below (never taken per event)
    std::vector<std::unique_ptr<ThreadState>> m_threads;
    StackTable m_stacks;
    size_t m_drainedNodes = 1;
    size_t m_drainedFrames = 0;
    std::vector<PhaseInterval> m_phases;  // every phase entered; the last one is open
    size_t m_drainedPhases = 0;
    std::vector<std::string> m_shapeStrings{std::string()};  // Trace::shape_strings
    std::unordered_map<std::string, uint32_t> m_shapeIds;
    // The frame id of the innermost forward module of each forward sequence number, indexed by
    // number - m_forwardBase (UINT32_MAX: no op of that number was seen): numbers only grow
    // within a step and a step's are close together, so a backward node finds its module with
    // one load (a binary search over pairs before, about 200 ns a node under the lock).
    std::vector<uint32_t> m_forwardFrames;
    int64_t m_forwardBase = 0;
    int64_t m_forwardLast = -1;  // the last number entered, -1: none since the table was cleared
    void clearForwardModules();  // under m_mutex
    uint32_t forwardModuleOf(int64_t sequence_nr) const;  // under m_mutex
    std::atomic<uint64_t> m_forwardVersion{0};  // bumped (under m_mutex) on every change of it
    at::CallbackHandle m_callback = 0;
};

}  // namespace memscope

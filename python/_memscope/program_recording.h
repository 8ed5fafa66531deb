#pragma once

#include "capture/recorder.h"
#include "capture/recording_pump.h"
#include "program_observer.h"
#include "train/allocation_hook.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace memscope {

class RunJournal;

// The recording of a Python program (python/memscope/run.py drives it through _memscope): the
// program's thread is the run thread. start() installs the AllocationHook and the recorder's
// callbacks on the calling thread and starts a poll thread that drains the recorder into a Trace
// and the journal every poll interval (as RecordingSession's owner does for the trainer);
// finish(), on the same thread, takes them down and writes the run file. Phases come from the
// program's hooks (phase()): a step ends with an optimizer step, or, in a program that never
// calls an optimizer the hooks know, where the next forward begins after a backward, or, where
// no forward is seen either (a compiled training step), where the next backward begins.
class ProgramRecording {
  public:
    struct InheritedBlock {
        uint64_t addr = 0;
        int64_t size = 0;
        int16_t device = -1;
        // The stack the parent recorded for it, outermost first, in recorded order (the scope
        // chain, then the Python frames): the child's run shows where its inheritance was made.
        std::vector<Frame> frames;
    };
    struct Options {
        std::string out;            // the run file; its journal is OUT.journal
        int python_frames = 4;      // innermost Python frames per allocation (0: none)
        int poll_ms = 50;           // drain and journal interval
        nlohmann::json program;     // what ran: {"script" or "module", "argv", "python", ...}
        std::string torch_version;  // the interpreter's torch.__version__
        std::string device = "cpu";
        // --device-memory-limit: an allocation past it fails with LibTorch's out-of-memory
        // error, as on a device that size (train/device_capacity.h); 0: none.
        int64_t device_memory_limit = 0;
        // A child made by fork(): the blocks its parent's recording had alive at the fork, in
        // the order they were made. They open the trace as allocations made before recording
        // (step -1) and the running total starts from them, as LibTorch's own does.
        std::vector<InheritedBlock> inherited;
    };
    // What the program's hooks tell (python/memscope/_hooks.py uses the same numbers).
    enum class Event {
        Forward = 0,        // a top-level module's forward begins
        Backward = 1,       // torch.autograd.backward / grad begins
        BackwardDone = 2,   // ... and returned
        Optimizer = 3,      // an optimizer's step() begins
        OptimizerDone = 4,  // ... and returned: the step ends
    };

    explicit ProgramRecording(Options options);
    ~ProgramRecording();  // stops the poll thread; finish() is the owner's to call
    ProgramRecording(const ProgramRecording&) = delete;
    ProgramRecording& operator=(const ProgramRecording&) = delete;

    // Throws RunFileError when the journal cannot be created.
    void start();
    // The status line the run ended with ("exit status 0", "raised ValueError: ...") goes
    // into the run's summary; returns the summary. Must run on start()'s thread.
    // `device`: the one the program used ("cpu", "cuda:0"); `allocator`: JSON of what the
    // program's CUDA caching allocator itself counted (torch.cuda.max_memory_allocated and
    // max_memory_reserved), kept in the summary's "program" beside the recorded peak.
    nlohmann::json finish(const std::string& ending, int exit_status, const std::string& device,
                          const std::string& allocator = "{}");

    void event(Event e, double loss);
    // The optimizers a step called, as the hooks name them ("AdamW", "ZeroOne > AdamW"): kept
    // once each, in the order first seen, for the summary's program.optimizers.
    void noteOptimizer(const std::string& name);
    void role(const void* ptr, Category category, c10::Device device, const char* owner);
    // A thread the program started: hooks on entry, off on exit (on that thread).
    void attachThread();
    void detachThread();
    // Around fork() (os.register_at_fork), so that a child can record from where its parent
    // was: beforeFork() drains the recorder into the trace and keeps the trace locked (no poll
    // or journal write is halfway when the process is copied); afterForkParent() unlocks it.
    void beforeFork();
    void afterForkParent();
    // In the child after fork(): this recording drops everything from now on (it takes no
    // lock another thread of the parent may have held). Returns the blocks alive at the fork,
    // for the child's own recording, when beforeFork() ran; else none.
    std::vector<InheritedBlock> forked();
    int64_t nowNs() const { return m_recorder.clock().nowNs(); }
    void addRegion(const std::string& name, int64_t begin_ns, int64_t end_ns);
    int64_t step() const { return m_step.load(); }
    int64_t currentBytes() const { return m_hook->current(); }
    int pythonFrames() const { return m_options.python_frames; }

  private:
    void pollLoop();
    void drain(bool final);
    void enterPhase(Phase phase, int64_t now);
    // Ends the step under way at `now` (under m_stepMutex): its metrics and peak check.
    void endStep(int64_t now);

    Options m_options;
    Recorder m_recorder;
    ProgramObserver m_observer;
    std::shared_ptr<AllocationHook> m_hook;
    std::unique_ptr<AllocationHookGuard> m_hookGuard;
    std::thread::id m_runThread;
    std::atomic<bool> m_started{false};
    bool m_finished = false;

    std::mutex m_traceMutex;    // the trace and journal: the poll thread and finish()
    bool m_forkLocked = false;  // beforeFork() holds m_traceMutex
    Trace m_trace;
    RecordingPump m_pump;  // the recorder and finished steps into m_trace, and the journal

    std::mutex m_pollMutex;
    std::condition_variable m_pollWake;
    bool m_stopPolling = false;
    std::thread m_poller;

    // Step bookkeeping (under m_stepMutex: a program's threads may call event())
    std::mutex m_stepMutex;
    std::atomic<int64_t> m_step{0};
    Phase m_phase = Phase::Init;
    int64_t m_phaseSince = 0;
    int64_t m_stepStart = 0;
    double m_phaseSeconds[5] = {};  // by Phase
    double m_loss = 0;
    // A program whose optimizer is no torch.optim.Optimizer (a hand-written update) sends no
    // Optimizer event: then a forward after a finished backward ends the step instead.
    bool m_sawOptimizer = false;
    bool m_backwardDone = false;   // in the step under way
    bool m_forwardInStep = false;  // a Forward event in the step under way
    nlohmann::json m_peakChecks = nlohmann::json::array();
    nlohmann::json m_regions = nlohmann::json::array();
    nlohmann::json m_optimizers = nlohmann::json::array();  // under m_stepMutex
};

}  // namespace memscope

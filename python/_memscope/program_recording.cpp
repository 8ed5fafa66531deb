#include "program_recording.h"

#include "python_stack.h"

#include "explain/trace_summary.h"
#include "io/run_file.h"
#include "io/run_journal.h"
#include "memscope_version.h"
#include "run/text_format.h"
#include "trace/compiled_frame_names.h"
#include "trace/program_stack_order.h"
#include "train/device_capacity.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <chrono>

namespace memscope {

namespace {
// The hook guard and callback of a thread the program started (attachThread).
struct ProgramThread {
    std::unique_ptr<AllocationHookGuard> guard;
    at::CallbackHandle callback = 0;
};
thread_local ProgramThread t_programThread;
}  // namespace

ProgramRecording::ProgramRecording(Options options)
    : m_options(std::move(options)),
      m_observer(m_recorder, m_options.python_frames),
      m_hook(std::make_shared<AllocationHook>(&m_observer)),
      m_pump(m_recorder, m_trace) {}

ProgramRecording::~ProgramRecording() {
    {
        std::lock_guard<std::mutex> lock(m_pollMutex);
        m_stopPolling = true;
    }
    m_pollWake.notify_all();
    if (m_poller.joinable()) {
        m_poller.join();
    }
}

void ProgramRecording::start() {
    auto& meta = m_trace.meta;
    meta.memscope_version = MEMSCOPE_VERSION;
    meta.started_at = utcTimestampNow();
    meta.torch_version = MEMSCOPE_LIBTORCH_VERSION;
    meta.device = m_options.device;
    meta.threads = at::get_num_threads();
    meta.config = nlohmann::json{{"program", m_options.program}};
    // A forked child's inheritance keeps the stacks its parent recorded: interned by the
    // recorder (whose table the trace's follows node for node) and drained into the trace
    // before the events that point at them.
    std::vector<uint32_t> inherited_stacks;
    for (const InheritedBlock& block : m_options.inherited) {
        uint32_t node = StackTable::kEmpty;
        for (const Frame& frame : block.frames) {
            node = m_recorder.frameNode(node, frame);
        }
        inherited_stacks.push_back(node);
    }
    if (!m_options.inherited.empty()) {
        m_recorder.drainInto(m_trace);
    }
    int64_t inherited = 0;
    for (size_t i = 0; i < m_options.inherited.size(); ++i) {
        const InheritedBlock& block = m_options.inherited[i];
        inherited += block.size;
        memscope::Event e;
        e.stack = inherited_stacks[i];
        e.addr = block.addr;
        e.size = block.size;
        e.allocated = inherited;
        e.step = -1;  // before recording: the parent made it
        e.device = block.device;
        m_trace.events.append(e);
    }
    m_hook->seed(inherited);
    m_pump.openJournal(RunJournal::pathFor(m_options.out));
    m_runThread = std::this_thread::get_id();
    m_hookGuard = std::make_unique<AllocationHookGuard>(m_hook);
    if (m_options.device_memory_limit > 0) {
        meta.capacity_bytes = m_options.device_memory_limit;
        DeviceCapacity::setLimit(m_options.device_memory_limit, m_hook);
    }
    m_observer.onRunThreadStart();
    m_observer.onPhase(Phase::Init, 0);
    m_phaseSince = nowNs();
    m_started = true;
    m_poller = std::thread([this] { pollLoop(); });
}

void ProgramRecording::pollLoop() {
    std::unique_lock<std::mutex> lock(m_pollMutex);
    while (!m_stopPolling) {
        m_pollWake.wait_for(lock, std::chrono::milliseconds(m_options.poll_ms));
        if (m_stopPolling) {
            break;
        }
        lock.unlock();
        drain(false);
        lock.lock();
    }
}

void ProgramRecording::drain(bool final) {
    std::lock_guard<std::mutex> lock(m_traceMutex);
    m_pump.pump(!final);  // the final drain's journal append comes once the trace is complete
}

void ProgramRecording::enterPhase(Phase phase, int64_t now) {
    m_phaseSeconds[static_cast<int>(m_phase)] += double(now - m_phaseSince) * 1e-9;
    m_phase = phase;
    m_phaseSince = now;
    m_observer.onPhase(phase, m_step.load());
}

void ProgramRecording::event(Event e, double loss) {
    if (!m_started || m_finished || m_observer.stopped()) {
        return;
    }
    std::lock_guard<std::mutex> lock(m_stepMutex);
    const int64_t now = nowNs();
    if (m_step.load() == 0) {
        // The first forward, backward or optimizer step ends initialisation: step 1 begins.
        m_step = 1;
        m_stepStart = now;
        m_hook->resetPeak();
        m_observer.takePeak(m_hook->current());
        for (double& s : m_phaseSeconds) {
            s = 0;
        }
    }
    switch (e) {
        case Event::Forward:
            if (!m_sawOptimizer && m_backwardDone && m_phase == Phase::Other) {
                endStep(now);  // a hand-written update ran between backward and this forward
            }
            m_forwardInStep = true;
            if (m_phase != Phase::Forward) {
                enterPhase(Phase::Forward, now);
            }
            break;
        case Event::Backward:
            if (!m_sawOptimizer && m_backwardDone && !m_forwardInStep && m_phase == Phase::Other) {
                // No forward was seen since the last backward: the forward and the update run
                // inside compiled code (a torch.compile'd training step), and backward, which
                // breaks its graph, is the one event of each step.
                endStep(now);
            }
            m_loss = loss;
            enterPhase(Phase::Backward, now);
            break;
        case Event::BackwardDone:
            m_backwardDone = true;
            enterPhase(Phase::Other, now);
            break;
        case Event::Optimizer:
            m_sawOptimizer = true;
            enterPhase(Phase::Optimizer, now);
            break;
        case Event::OptimizerDone:
            endStep(now);
            break;
    }
}

void ProgramRecording::noteOptimizer(const std::string& name) {
    std::lock_guard<std::mutex> lock(m_stepMutex);
    if (std::find(m_optimizers.begin(), m_optimizers.end(), name) == m_optimizers.end()) {
        m_optimizers.push_back(name);
    }
}

void ProgramRecording::endStep(int64_t now) {
    m_phaseSeconds[static_cast<int>(m_phase)] += double(now - m_phaseSince) * 1e-9;
    m_phaseSince = now;
    StepMetrics metrics;
    metrics.step = m_step.load();
    metrics.loss = m_loss;
    metrics.forward_s = m_phaseSeconds[static_cast<int>(Phase::Forward)];
    metrics.backward_s = m_phaseSeconds[static_cast<int>(Phase::Backward)];
    metrics.optimizer_s = m_phaseSeconds[static_cast<int>(Phase::Optimizer)];
    metrics.total_s = double(now - m_stepStart) * 1e-9;
    metrics.peak_allocated_bytes = m_hook->peak();
    metrics.allocated_bytes_at_end = m_hook->current();
    metrics.threads = m_options.device == "cpu" ? at::get_num_threads() : 0;
    const auto check = m_observer.takePeak(m_hook->current());
    m_peakChecks.push_back({{"step", metrics.step},
                            {"recorded_peak_bytes", check.recorded},
                            {"allocator_total_at_peak_bytes", check.allocator}});
    m_pump.addStep(metrics);
    m_hook->resetPeak();
    for (double& s : m_phaseSeconds) {
        s = 0;
    }
    m_step = m_step.load() + 1;
    m_stepStart = now;
    m_backwardDone = false;
    m_forwardInStep = false;
    m_phase = Phase::Other;
    m_observer.onPhase(Phase::Other, m_step.load());
}

void ProgramRecording::role(const void* ptr, Category category, c10::Device device,
                            const char* owner) {
    if (m_started && !m_finished && ptr != nullptr) {
        m_observer.onRole(ptr, category, device, owner);
    }
}

void ProgramRecording::attachThread() {
    if (!m_started || m_finished || m_observer.stopped() || t_programThread.guard) {
        return;
    }
    t_programThread.guard = std::make_unique<AllocationHookGuard>(m_hook);
    t_programThread.callback = m_recorder.attachThread();
}

void ProgramRecording::detachThread() {
    if (!t_programThread.guard) {
        return;
    }
    Recorder::detachThread(t_programThread.callback);
    t_programThread.callback = 0;
    t_programThread.guard.reset();
}

void ProgramRecording::beforeFork() {
    if (!m_started || m_finished || m_forkLocked) {
        return;
    }
    m_traceMutex.lock();
    m_forkLocked = true;
    m_recorder.drainInto(m_trace);
}

void ProgramRecording::afterForkParent() {
    if (m_forkLocked) {
        m_forkLocked = false;
        m_traceMutex.unlock();
    }
}

std::vector<ProgramRecording::InheritedBlock> ProgramRecording::forked() {
    // No lock the parent's threads held may be taken here. The poll thread does not exist in
    // the child: the recording is never destroyed (the module keeps it to the end), so nothing
    // joins it.
    m_observer.stop();
    Recorder::deactivateAfterFork();
    m_finished = true;
    std::vector<InheritedBlock> alive;
    if (!m_forkLocked) {
        return alive;
    }
    // The trace was drained just before the fork, under the lock this thread holds: what it
    // has allocated and not freed is what the child has. Paired by the one pairing mechanism
    // (Trace::finalize); this copy is the child's own.
    m_trace.finalize();
    for (const Allocation& a : m_trace.allocations()) {  // in the order they were made
        if (a.alloc_event >= 0 && a.free_event < 0) {
            InheritedBlock block{a.addr, a.size, a.device, {}};
            for (const uint32_t f :
                 m_trace.stacks.framesOf(m_trace.events.stack[size_t(a.alloc_event)])) {
                block.frames.push_back(m_trace.stacks.frame(f));
            }
            alive.push_back(std::move(block));
        }
    }
    m_forkLocked = false;
    m_traceMutex.unlock();
    return alive;
}

void ProgramRecording::addRegion(const std::string& name, int64_t begin_ns, int64_t end_ns) {
    std::lock_guard<std::mutex> lock(m_stepMutex);
    m_regions.push_back({{"name", name}, {"begin_ns", begin_ns}, {"end_ns", end_ns}});
}

nlohmann::json ProgramRecording::finish(const std::string& ending, int exit_status,
                                        const std::string& device, const std::string& allocator) {
    if (!m_started || m_finished) {
        throw std::logic_error("memscope: the recording is not running");
    }
    if (std::this_thread::get_id() != m_runThread) {
        throw std::logic_error("memscope: finish() must run on the thread that started");
    }
    m_finished = true;
    {
        std::lock_guard<std::mutex> lock(m_stepMutex);
        const int64_t now = nowNs();
        if (!m_sawOptimizer && m_backwardDone) {
            endStep(now);  // the last step of a hand-written update
        }
        enterPhase(Phase::Other, now);
    }
    m_observer.onRunThreadEnd();
    if (m_options.device_memory_limit > 0) {
        DeviceCapacity::clear();
    }
    m_hookGuard.reset();
    m_observer.stop();
    {
        std::lock_guard<std::mutex> lock(m_pollMutex);
        m_stopPolling = true;
    }
    m_pollWake.notify_all();
    if (m_poller.joinable()) {
        m_poller.join();
    }
    drain(true);
    std::lock_guard<std::mutex> lock(m_traceMutex);
    m_trace.meta.device = device;
    m_trace.meta.threads = at::get_num_threads();  // at start the pool may not be made yet
    m_trace.operators = m_recorder.operatorStats();
    // The journal ends with the stacks as recorded (it appends to what it holds); the run file
    // gets them in reading order, the recorded ones kept as raw stacks.
    m_pump.closeJournal();
    const std::string journal_error = m_pump.journalError();
    CompiledFrameNames::apply(m_trace);  // torch.compile's generated code, by its kernels
    ProgramStackOrder::apply(m_trace);
    m_trace.finalize();
    nlohmann::json program = {{"ending", ending},
                              {"exit_status", exit_status},
                              {"torch_version", m_options.torch_version},
                              {"python_frames", m_options.python_frames},
                              {"peak_checks", m_peakChecks}};
    {
        std::lock_guard<std::mutex> lock(m_stepMutex);
        if (!m_optimizers.empty()) {
            program["optimizers"] = m_optimizers;
        }
    }
    if (!journal_error.empty()) {
        program["journal_error"] = journal_error;
    }
    if (const size_t deepest = m_observer.deepestCutStack(); deepest > 0) {
        // Stacks deeper than the safety limit kept their outermost and innermost frames.
        program["python_stack_cut"] = {{"deepest_frames", deepest},
                                       {"kept_frames", PythonStack::kMaxFrames}};
    }
    const auto counted = nlohmann::json::parse(allocator, nullptr, false);
    if (counted.is_object() && !counted.empty()) {
        program["cuda_allocator"] = counted;
    }
    auto summary = TraceSummary::compute(m_trace);
    summary["program"] = program;
    if (!m_regions.empty()) {
        summary["annotations"] = m_regions;
    }
    m_trace.summary = summary;
    RunFile::save(m_trace, m_options.out);
    m_pump.discardJournal();
    return summary;
}

}  // namespace memscope

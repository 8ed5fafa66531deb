#include "capture/recorder.h"

#include "model/module_scope.h"

#include <algorithm>
#include <unordered_map>

namespace memscope {

namespace {

std::atomic<uint64_t> g_generations{0};
// The recorder whose run is active. Autograd's worker threads inherit the record-function
// callbacks but not thread-locals, so callbacks find the recorder here. One run records at a time.
std::atomic<Recorder*> g_active{nullptr};

int16_t deviceIndex(const c10::Device& device) {
    return device.is_cpu() ? int16_t(-1) : int16_t(device.index() < 0 ? 0 : device.index());
}

struct Chunk {
    static constexpr size_t kCapacity = 4096;
    Event events[kCapacity];
    std::atomic<size_t> count{0};
    std::atomic<Chunk*> next{nullptr};
};

struct ScopeEntry {
    uint32_t node_before = 0;
    uint32_t stat = 0;
    uint32_t module_frame = UINT32_MAX;  // innermost forward module frame in effect
    int64_t start_ns = 0;
    int64_t child_ns = 0;
    int64_t bytes_allocated = 0;  // children included
    int64_t self_allocated = 0;
    int64_t self_net = 0;
    int64_t largest = 0;
};

}  // namespace

struct Recorder::ThreadState {
    uint16_t index = 0;
    // producer (the owning thread)
    Chunk* tail = nullptr;
    std::vector<ScopeEntry> scopes;
    uint32_t current_node = StackTable::kEmpty;
    std::unordered_map<std::string, uint32_t> node_cache;
    std::unordered_map<std::string, uint32_t> stat_index;
    std::vector<OperatorStat> stats;
    // consumer (drainInto)
    Chunk* head = nullptr;
    size_t read_pos = 0;

    ThreadState() : tail(new Chunk), head(tail) {}
    ~ThreadState() {
        while (head != nullptr) {
            Chunk* next = head->next.load();
            delete head;
            head = next;
        }
    }
};

namespace {
struct ThreadSlot {
    uint64_t generation = 0;
    Recorder::ThreadState* state = nullptr;
};
thread_local ThreadSlot t_slot;
}  // namespace

Recorder::Recorder() : Recorder(Options{}) {}

Recorder::Recorder(Options options)
    : m_options(options),
      m_generation(++g_generations),
      m_start(std::chrono::steady_clock::now()) {}

Recorder::~Recorder() {
    Recorder* self = this;
    g_active.compare_exchange_strong(self, nullptr);
}

Recorder::ThreadState& Recorder::threadState() {
    if (t_slot.generation == m_generation) {
        return *t_slot.state;
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    auto state = std::make_unique<ThreadState>();
    state->index = static_cast<uint16_t>(m_threads.size());
    t_slot = {m_generation, state.get()};
    m_threads.push_back(std::move(state));
    return *t_slot.state;
}

void Recorder::emit(ThreadState& ts, EventKind kind, uint64_t addr, int64_t size, int64_t allocated,
                    int64_t reserved, c10::Device device) {
    Chunk* chunk = ts.tail;
    size_t n = chunk->count.load(std::memory_order_relaxed);
    if (n == Chunk::kCapacity) {
        auto* fresh = new Chunk;
        chunk->next.store(fresh, std::memory_order_release);
        ts.tail = chunk = fresh;
        n = 0;
    }
    Event& e = chunk->events[n];
    e.time_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - m_start)
                    .count();
    e.addr = addr;
    e.size = size;
    e.allocated = allocated;
    e.reserved = reserved;
    e.stack = ts.current_node;
    e.step = m_step.load(std::memory_order_relaxed);
    e.kind = kind;
    e.phase = static_cast<Phase>(m_phase.load(std::memory_order_relaxed));
    e.thread = ts.index;
    e.device = deviceIndex(device);
    chunk->count.store(n + 1, std::memory_order_release);
    m_eventsRecorded.fetch_add(1, std::memory_order_relaxed);
}

void Recorder::onMemoryEvent(void* ptr, int64_t size, int64_t allocated, int64_t allocator_total,
                             int64_t allocator_reserved, c10::Device device) {
    ThreadState& ts = threadState();
    emit(ts, size >= 0 ? EventKind::Alloc : EventKind::Free, reinterpret_cast<uint64_t>(ptr), size,
         allocated, allocator_reserved, device);
    m_allocatorTotal.store(allocator_total, std::memory_order_relaxed);
    m_recordedTotal.store(allocated, std::memory_order_relaxed);
    if (!ts.scopes.empty()) {
        auto& top = ts.scopes.back();
        top.self_net += size;
        if (size > 0) {
            top.bytes_allocated += size;
            top.self_allocated += size;
            top.largest = std::max(top.largest, size);
        }
    }
}

void Recorder::onPhase(Phase phase, int64_t step) {
    if (phase == Phase::Forward && step != m_step.load()) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_forwardModules.clear();  // the previous step's backward is over
    }
    m_step.store(static_cast<int>(step), std::memory_order_relaxed);
    m_phase.store(static_cast<int>(phase), std::memory_order_relaxed);
    if (phase == Phase::Forward) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_forwardModules.clear();
    }
}

void Recorder::onRole(const void* ptr, Category category, c10::Device device) {
    ThreadState& ts = threadState();
    emit(ts, EventKind::Role, reinterpret_cast<uint64_t>(ptr), static_cast<int64_t>(category),
         m_recordedTotal.load(std::memory_order_relaxed), 0, device);
}

void Recorder::onOutOfMemory(int64_t requested, int64_t allocated, int64_t capacity,
                             c10::Device device) {
    ThreadState& ts = threadState();
    emit(ts, EventKind::Oom, 0, requested, allocated, capacity, device);
}

uint32_t Recorder::internNode(ThreadState& ts, uint32_t parent, const char* name, const char* file,
                              int line, FrameKind kind) {
    std::string key = std::to_string(parent);
    key += '\x1f';
    key += static_cast<char>('0' + static_cast<int>(kind));
    key += name;
    if (file != nullptr) {
        key += '\x1f';
        key += file;
        key += ':' + std::to_string(line);
    }
    auto it = ts.node_cache.find(key);
    if (it != ts.node_cache.end()) {
        return it->second;
    }
    Frame frame;
    frame.name = name;
    frame.file = file != nullptr ? file : "";
    frame.line = line;
    frame.kind = kind;
    uint32_t node;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        node = m_stacks.child(parent, m_stacks.internFrame(frame));
    }
    ts.node_cache.emplace(std::move(key), node);
    return node;
}

std::unique_ptr<at::ObserverContext> Recorder::onFunctionEnter(const at::RecordFunction& fn) {
    Recorder* self = g_active.load(std::memory_order_acquire);
    if (self == nullptr) {
        return nullptr;
    }
    ThreadState& ts = self->threadState();
    ScopeEntry entry;
    entry.node_before = ts.current_node;
    entry.module_frame = ts.scopes.empty() ? UINT32_MAX : ts.scopes.back().module_frame;
    const char* name = fn.name();
    uint32_t parent = ts.current_node;
    FrameKind kind = FrameKind::Operator;
    const char* file = nullptr;
    int line = 0;
    switch (fn.scope()) {
        case at::RecordScope::USER_SCOPE: {
            kind = FrameKind::Module;
            const auto location = ModuleScope::pendingLocation();
            file = location.file;
            line = location.line;
            break;
        }
        case at::RecordScope::BACKWARD_FUNCTION: {
            kind = FrameKind::BackwardNode;
            uint32_t module_frame = UINT32_MAX;
            {
                std::lock_guard<std::mutex> lock(self->m_mutex);
                auto it = self->m_forwardModules.find(fn.seqNr());
                if (it != self->m_forwardModules.end()) {
                    module_frame = it->second;
                }
            }
            if (module_frame != UINT32_MAX) {
                std::string module;
                {
                    std::lock_guard<std::mutex> lock(self->m_mutex);
                    module = self->m_stacks.frame(module_frame).name;
                }
                parent = self->internNode(ts, parent, ("backward of " + module).c_str(), nullptr, 0,
                                          FrameKind::BackwardOf);
            }
            break;
        }
        default:
            break;
    }
    const uint32_t node = self->internNode(ts, parent, name, file, line, kind);
    if (kind == FrameKind::Module) {
        std::lock_guard<std::mutex> lock(self->m_mutex);
        entry.module_frame = self->m_stacks.frameOf(node);
    } else if (kind == FrameKind::Operator && fn.seqNr() >= 0 && entry.module_frame != UINT32_MAX) {
        std::lock_guard<std::mutex> lock(self->m_mutex);
        self->m_forwardModules.emplace(fn.seqNr(), entry.module_frame);
    }

    auto stat = ts.stat_index.find(name);
    if (stat == ts.stat_index.end()) {
        OperatorStat s;
        s.name = name;
        s.is_module = kind == FrameKind::Module;
        stat = ts.stat_index.emplace(name, static_cast<uint32_t>(ts.stats.size())).first;
        ts.stats.push_back(std::move(s));
    }
    entry.stat = stat->second;
    entry.start_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::steady_clock::now() - self->m_start)
                         .count();
    ts.scopes.push_back(entry);
    ts.current_node = node;
    return nullptr;
}

void Recorder::onFunctionExit(const at::RecordFunction&, at::ObserverContext*) {
    Recorder* self = g_active.load(std::memory_order_acquire);
    if (self == nullptr) {
        return;
    }
    ThreadState& ts = self->threadState();
    if (ts.scopes.empty()) {
        return;
    }
    const ScopeEntry e = ts.scopes.back();
    ts.scopes.pop_back();
    ts.current_node = e.node_before;
    const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - self->m_start)
                            .count();
    const int64_t total = now - e.start_ns;
    auto& s = ts.stats[e.stat];
    s.calls += 1;
    s.total_ns += total;
    s.self_ns += total - e.child_ns;
    s.bytes_allocated += e.bytes_allocated;
    s.self_bytes_allocated += e.self_allocated;
    s.self_net_bytes += e.self_net;
    s.largest_allocation = std::max(s.largest_allocation, e.largest);
    if (!ts.scopes.empty()) {
        auto& parent = ts.scopes.back();
        parent.child_ns += total;
        parent.bytes_allocated += e.bytes_allocated;
        parent.largest = std::max(parent.largest, e.largest);  // children included
    }
}

void Recorder::onRunThreadStart() {
    g_active.store(this, std::memory_order_release);
    threadState();
    auto callback =
        at::RecordFunctionCallback(&Recorder::onFunctionEnter, &Recorder::onFunctionExit)
            .needsInputs(m_options.record_shapes)
            .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                     at::RecordScope::USER_SCOPE});
    m_callback = at::addThreadLocalCallback(std::move(callback));
}

void Recorder::onRunThreadEnd() {
    if (m_callback != 0) {
        at::removeCallback(m_callback);
        m_callback = 0;
    }
    Recorder* self = this;
    g_active.compare_exchange_strong(self, nullptr);
}

size_t Recorder::drainInto(Trace& trace) {
    std::vector<Event> batch;
    bool several_threads = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        for (size_t f = m_drainedFrames; f < m_stacks.frameCount(); ++f) {
            trace.stacks.internFrame(m_stacks.frame(static_cast<uint32_t>(f)));
        }
        m_drainedFrames = m_stacks.frameCount();
        for (size_t n = m_drainedNodes; n < m_stacks.nodeCount(); ++n) {
            trace.stacks.child(m_stacks.parent(static_cast<uint32_t>(n)),
                               m_stacks.frameOf(static_cast<uint32_t>(n)));
        }
        m_drainedNodes = m_stacks.nodeCount();
        size_t threads_with_events = 0;
        for (auto& ts : m_threads) {
            const size_t before = batch.size();
            Chunk* chunk = ts->head;
            size_t pos = ts->read_pos;
            while (true) {
                const size_t n = chunk->count.load(std::memory_order_acquire);
                batch.insert(batch.end(), chunk->events + pos, chunk->events + n);
                pos = n;
                if (n < Chunk::kCapacity) {
                    break;
                }
                Chunk* next = chunk->next.load(std::memory_order_acquire);
                if (next == nullptr) {
                    break;
                }
                delete chunk;  // the producer has moved on to `next`
                chunk = next;
                pos = 0;
            }
            ts->head = chunk;
            ts->read_pos = pos;
            threads_with_events += batch.size() > before ? 1 : 0;
        }
        several_threads = threads_with_events > 1;
    }
    if (several_threads) {
        std::stable_sort(batch.begin(), batch.end(),
                         [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; });
    }
    trace.events.reserve(trace.events.count() + batch.size());
    for (const auto& e : batch) {
        trace.events.append(e);
    }
    const auto max = static_cast<size_t>(m_options.max_events);
    trace.meta.max_events = m_options.max_events;
    if (max > 0 && trace.events.count() > max) {
        const size_t drop = trace.events.count() - max;
        trace.events.dropFront(drop);
        trace.meta.dropped_events += static_cast<int64_t>(drop);
    }
    return batch.size();
}

std::vector<OperatorStat> Recorder::operatorStats() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::unordered_map<std::string, OperatorStat> merged;
    for (const auto& ts : m_threads) {
        for (const auto& s : ts->stats) {
            auto& m = merged[s.name];
            m.name = s.name;
            m.is_module = s.is_module;
            m.calls += s.calls;
            m.total_ns += s.total_ns;
            m.self_ns += s.self_ns;
            m.device_ns += s.device_ns;
            m.bytes_allocated += s.bytes_allocated;
            m.self_bytes_allocated += s.self_bytes_allocated;
            m.self_net_bytes += s.self_net_bytes;
            m.largest_allocation = std::max(m.largest_allocation, s.largest_allocation);
            m.flops += s.flops;
        }
    }
    std::vector<OperatorStat> out;
    out.reserve(merged.size());
    for (auto& [name, s] : merged) {
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(),
              [](const OperatorStat& a, const OperatorStat& b) { return a.total_ns > b.total_ns; });
    return out;
}

}  // namespace memscope

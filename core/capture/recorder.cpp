#include "capture/recorder.h"

#include "capture/recorder_thread_state.h"
#include "train/allocator_trace_link.h"

#include "model/module_scope.h"
#include "trace/mix64.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>

namespace memscope {

namespace {

using recorder_detail::CallEntry;
using recorder_detail::ScopeEntry;

std::atomic<uint64_t> g_generations{0};
// The recorder whose run is active. Autograd's worker threads inherit the record-function
// callbacks but not thread-locals, so callbacks find the recorder here. One run records at a time.
std::atomic<Recorder*> g_active{nullptr};

int16_t deviceIndex(const c10::Device& device) {
    return device.is_cpu() ? int16_t(-1) : int16_t(device.index() < 0 ? 0 : device.index());
}

// FLOPs of the matmul-like ops from their input shapes (2*m*n*k per product), or 0.
double matmulFlops(const at::RecordFunction& fn) {
    const std::string name = fn.name();
    const auto inputs = fn.inputs();
    auto sizes = [&inputs](size_t i) -> std::vector<int64_t> {
        if (i < inputs.size() && inputs[i].isTensor()) {
            return inputs[i].toTensor().sizes().vec();
        }
        return {};
    };
    const bool add = name == "aten::addmm" || name == "aten::baddbmm";
    if (name == "aten::mm" || name == "aten::addmm") {
        const auto a = sizes(add ? 1 : 0), b = sizes(add ? 2 : 1);
        if (a.size() == 2 && b.size() == 2)
            return 2.0 * double(a[0]) * double(a[1]) * double(b[1]);
    } else if (name == "aten::bmm" || name == "aten::baddbmm") {
        const auto a = sizes(add ? 1 : 0), b = sizes(add ? 2 : 1);
        if (a.size() == 3 && b.size() == 3) {
            return 2.0 * double(a[0]) * double(a[1]) * double(a[2]) * double(b[2]);
        }
    }
    return 0.0;
}

// "[8, 128, 256], [256, 256]": the tensor inputs' sizes, "-" for other inputs.
std::string inputShapes(const at::RecordFunction& fn) {
    std::string out;
    for (const auto& input : fn.inputs()) {
        if (!out.empty())
            out += ", ";
        if (input.isTensor()) {
            out += '[';
            const auto sizes = input.toTensor().sizes();
            for (size_t i = 0; i < sizes.size(); ++i) {
                out += (i ? ", " : "") + std::to_string(sizes[i]);
            }
            out += ']';
        } else {
            out += '-';
        }
    }
    return out;
}

// FNV-1a over a C string: names are short ("aten::mm", module paths), and hashing the text is
// cheaper than building a std::string key on every op call.
uint64_t nameHash(const char* name) {
    uint64_t h = 1469598103934665603ull;
    for (const char* p = name; *p != '\0'; ++p) {
        h = (h ^ static_cast<unsigned char>(*p)) * 1099511628211ull;
    }
    return h;
}

}  // namespace

namespace {

// The key of a call without its name: parent, kind and source location.
uint64_t callContextKey(uint32_t parent, FrameKind kind, const char* file, int line) {
    uint64_t key = mix64(uint64_t(parent) << 8 | uint64_t(static_cast<int>(kind)));
    if (file != nullptr) {
        key ^= mix64(reinterpret_cast<uintptr_t>(file) ^ (uint64_t(uint32_t(line)) << 48));
    }
    return key;
}

}  // namespace

namespace {
struct ThreadSlot {
    uint64_t generation = 0;
    Recorder::ThreadState* state = nullptr;
};
thread_local ThreadSlot t_slot;
}  // namespace

Recorder::Recorder() : Recorder(Options{}) {}

Recorder::Recorder(Options options) : m_options(options), m_generation(++g_generations) {}

Recorder::~Recorder() {
    AllocatorTraceLink::releaseSink(this);
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
    emitAt(ts, ts.current_node, kind, addr, size, allocated, reserved, device);
}

void Recorder::emitAt(ThreadState& ts, uint32_t stack, EventKind kind, uint64_t addr, int64_t size,
                      int64_t allocated, int64_t reserved, c10::Device device) {
    Event& e = ts.events.slot();
    e.time_ns = m_clock.nowNs();
    e.addr = addr;
    e.size = size;
    e.allocated = allocated;
    e.reserved = reserved;
    e.stack = stack;
    e.step = m_step.load(std::memory_order_relaxed);
    e.kind = kind;
    e.phase = static_cast<Phase>(m_phase.load(std::memory_order_relaxed));
    e.thread = ts.index;
    e.device = deviceIndex(device);
    ts.events.publish();
    m_eventsRecorded.fetch_add(1, std::memory_order_relaxed);
}

void Recorder::onMemoryEvent(void* ptr, int64_t size, int64_t allocated, int64_t allocator_total,
                             int64_t allocator_reserved, c10::Device device) {
    ThreadState& ts = threadState();
    // The CUDA/HIP caching allocator reports its reserved bytes (1.13 and 2.x); the CPU
    // allocator has no pool: its reserved column stays 0 rather than pretending to be one.
    // Segment events come apart, from the allocator's trace tracker (onSegment).
    emit(ts, size >= 0 ? EventKind::Alloc : EventKind::Free, reinterpret_cast<uint64_t>(ptr), size,
         allocated, device.is_cpu() ? 0 : allocator_reserved, device);
    m_allocatorTotal.store(allocator_total, std::memory_order_relaxed);
    m_recordedTotal.store(allocated, std::memory_order_relaxed);
    addToScope(ts, size);
}

uint32_t Recorder::currentNode() {
    return threadState().current_node;
}

uint32_t Recorder::frameNode(uint32_t parent, const Frame& frame) {
    return internNode(threadState(), parent, frame.name.c_str(),
                      frame.file.empty() ? nullptr : frame.file.c_str(), frame.line, frame.kind);
}

void Recorder::onMemoryEventAt(uint32_t stack, void* ptr, int64_t size, int64_t allocated,
                               int64_t allocator_total, int64_t allocator_reserved,
                               c10::Device device) {
    ThreadState& ts = threadState();
    emitAt(ts, stack, size >= 0 ? EventKind::Alloc : EventKind::Free,
           reinterpret_cast<uint64_t>(ptr), size, allocated,
           device.is_cpu() ? 0 : allocator_reserved, device);
    m_allocatorTotal.store(allocator_total, std::memory_order_relaxed);
    m_recordedTotal.store(allocated, std::memory_order_relaxed);
    addToScope(ts, size);
}

void Recorder::addToScope(ThreadState& ts, int64_t size) {
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

uint32_t Recorder::internShapes(const std::string& shapes) {
    std::lock_guard<std::mutex> lock(m_mutex);
    auto it = m_shapeIds.find(shapes);
    if (it != m_shapeIds.end()) {
        return it->second;
    }
    const auto id = static_cast<uint32_t>(m_shapeStrings.size());
    m_shapeStrings.push_back(shapes);
    m_shapeIds.emplace(shapes, id);
    return id;
}

int64_t Recorder::nowNs() const {
    return m_clock.nowNs();
}

void Recorder::onPhase(Phase phase, int64_t step) {
    {
        const int64_t now = nowNs();
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_phases.empty()) {
            m_phases.back().end_ns = now;
        }
        PhaseInterval interval;
        interval.phase = phase;
        interval.step = static_cast<int32_t>(step);
        interval.begin_ns = now;
        interval.end_ns = now;
        m_phases.push_back(interval);
    }
    if (phase == Phase::Forward && step != m_step.load()) {
        std::lock_guard<std::mutex> lock(m_mutex);
        clearForwardModules();  // the previous step's backward is over
    }
    m_step.store(static_cast<int>(step), std::memory_order_relaxed);
    m_phase.store(static_cast<int>(phase), std::memory_order_relaxed);
    if (phase == Phase::Forward) {
        std::lock_guard<std::mutex> lock(m_mutex);
        clearForwardModules();
    }
}

void Recorder::clearForwardModules() {
    m_forwardFrames.clear();
    m_forwardLast = -1;
    m_forwardVersion.fetch_add(1, std::memory_order_release);
}

uint32_t Recorder::forwardModuleOf(int64_t sequence_nr) const {
    if (sequence_nr < m_forwardBase || m_forwardLast < 0) {
        return UINT32_MAX;
    }
    const auto index = static_cast<size_t>(sequence_nr - m_forwardBase);
    return index < m_forwardFrames.size() ? m_forwardFrames[index] : UINT32_MAX;
}

void Recorder::onRole(const void* ptr, Category category, c10::Device device, const char* owner) {
    ThreadState& ts = threadState();
    // A role with an owner carries it as its stack: one Module frame at the root
    // (explain/module_table.h reads it).
    const uint32_t stack =
        owner != nullptr && *owner != '\0'
            ? lookupNode(ts, StackTable::kEmpty, owner, nullptr, 0, FrameKind::Module)
            : ts.current_node;
    emitAt(ts, stack, EventKind::Role, reinterpret_cast<uint64_t>(ptr),
           static_cast<int64_t>(category), m_recordedTotal.load(std::memory_order_relaxed), 0,
           device);
}

void Recorder::onCollective(int64_t bytes) {
    ThreadState& ts = threadState();
    if (!ts.scopes.empty()) {
        ts.stats[ts.scopes.back().stat].bytes_sent += bytes;
    }
}

void Recorder::onSegment(EventKind kind, uint64_t addr, int64_t size, c10::Device device) {
    ThreadState& ts = threadState();
    const int64_t reserved = m_segmentReserved.fetch_add(size, std::memory_order_relaxed) + size;
    emit(ts, kind, addr, size, m_recordedTotal.load(std::memory_order_relaxed), reserved, device);
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

// The node for `name` under `parent`: a hash of (parent, kind, name text), the name verified on
// a hit, else the full key (internNode).
uint32_t Recorder::lookupNode(ThreadState& ts, uint32_t parent, const char* name, const char* file,
                              int line, FrameKind kind) {
    const uint64_t node_key =
        nameHash(name) ^ ((uint64_t(parent) << 8 | uint64_t(kind)) * 0x9E3779B97F4A7C15ull);
    auto cached = ts.node_by_hash.find(node_key);
    if (cached != ts.node_by_hash.end() && cached->second < ts.node_names.size() &&
        ts.node_names[cached->second] == name) {
        return cached->second;
    }
    const uint32_t node = internNode(ts, parent, name, file, line, kind);
    if (cached == ts.node_by_hash.end()) {  // on a collision keep the first, go slow for this
        ts.node_by_hash.emplace(node_key, node);
        if (ts.node_names.size() <= node)
            ts.node_names.resize(node + 1);
        ts.node_names[node] = name;
    }
    return node;
}

namespace {

// This thread's statistic for `name` (one per name and thread), created on first use.
uint32_t lookupStat(Recorder::ThreadState& ts, const char* name, FrameKind kind) {
    const uint64_t name_hash = nameHash(name);
    auto stat_hit = ts.stat_by_hash.find(name_hash);
    if (stat_hit != ts.stat_by_hash.end() && ts.stats[stat_hit->second].name == name) {
        return stat_hit->second;
    }
    auto stat = ts.stat_index.find(name);
    if (stat == ts.stat_index.end()) {
        OperatorStat s;
        s.name = name;
        s.is_module = kind == FrameKind::Module;
        stat = ts.stat_index.emplace(name, static_cast<uint32_t>(ts.stats.size())).first;
        ts.stats.push_back(std::move(s));
    }
    if (stat_hit == ts.stat_by_hash.end())
        ts.stat_by_hash.emplace(name_hash, stat->second);
    return stat->second;
}

// The call's record from the caches (else `uncached()`'s node and statistic), nullptr for a name
// too long to keep.
template <typename Uncached>
CallEntry* findCall(Recorder::ThreadState& ts, uint32_t parent, const char* name, const char* file,
                    int line, FrameKind kind, Uncached uncached) {
    const size_t depth = ts.scopes.size();
    CallEntry* memo = depth < Recorder::ThreadState::kMemoDepth ? &ts.depth_memo[depth] : nullptr;
    const auto memo_key = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(name));
    if (memo != nullptr && memo->matches(memo_key, name, parent, kind, file, line)) {
        return memo->link;
    }
    const size_t length = std::strlen(name);
    if (length >= sizeof(CallEntry::text)) {
        return nullptr;
    }
    const auto remember = [&](CallEntry* record) {
        if (memo != nullptr) {
            *memo = *record;
            memo->key = memo_key;
            memo->link = record;
        }
        return record;
    };
    const uint64_t context = callContextKey(parent, kind, file, line);
    // Never 0 (an empty entry's key): the top bits pick the set, the low bit is kept set.
    const uint64_t pointer_key = (mix64(reinterpret_cast<uintptr_t>(name)) ^ context) | 1;
    if (const auto* e = ts.by_pointer.find(pointer_key, name, parent, kind, file, line)) {
        return remember(e->link);
    }
    const uint64_t text_key = (mix64(nameHash(name)) ^ context) | 1;
    CallEntry* record = nullptr;
    if (const auto* e = ts.by_text.find(text_key, name, parent, kind, file, line)) {
        record = e->link;
    } else {
        const std::pair<uint32_t, uint32_t> answer = uncached();
        record =
            ts.log.recordOf(answer.first, answer.second, name, length, parent, kind, file, line);
        ts.by_text.insert(text_key, record);
    }
    ts.by_pointer.insert(pointer_key, record);
    return remember(record);
}

}  // namespace

std::pair<uint32_t, uint32_t> Recorder::lookupCall(ThreadState& ts, uint32_t parent,
                                                   const char* name, const char* file, int line,
                                                   FrameKind kind) {
    CallEntry* record = ts.predicted;
    if (record == nullptr || !record->sameCall(name, parent, kind, file, line)) {
        CallEntry* second = ts.previous != nullptr ? ts.previous->link2 : nullptr;
        if (second != nullptr && second->sameCall(name, parent, kind, file, line)) {
            record = second;
        } else {
            record = findCall(ts, parent, name, file, line, kind,
                              [&] { return lookupUncached(ts, parent, name, file, line, kind); });
            if (ts.previous != nullptr) {
                // What comes after it from now on, and what came before (a loop alternates).
                ts.previous->link2 = ts.previous->link;
                ts.previous->link = record;
            }
        }
    }
    if (record == nullptr) {  // a name too long to keep: no record, no prediction
        ts.previous = ts.predicted = nullptr;
        return lookupUncached(ts, parent, name, file, line, kind);
    }
    ts.previous = record;
    ts.predicted = record->link;
    // The next call's likely records (two lines each): fetched while this op runs.
    for (const CallEntry* next : {record->link, record->link2}) {
        if (next != nullptr) {
            __builtin_prefetch(next);
            __builtin_prefetch(reinterpret_cast<const char*>(next) + 64);
        }
    }
    return {record->node, record->stat};
}

std::pair<uint32_t, uint32_t> Recorder::lookupUncached(ThreadState& ts, uint32_t parent,
                                                       const char* name, const char* file, int line,
                                                       FrameKind kind) {
    return {lookupNode(ts, parent, name, file, line, kind), lookupStat(ts, name, kind)};
}

uint32_t Recorder::backwardOfNode(ThreadState& ts, uint32_t parent, uint32_t module_frame) {
    const uint64_t key = uint64_t(parent) << 32 | module_frame;
    auto& cached = ts.backward_of_cache[mix64(key) >> (64 - ThreadState::kBackwardOfBits)];
    if (cached.key == key) {
        return cached.node;
    }
    const auto hit = ts.backward_of.find(key);
    if (hit != ts.backward_of.end()) {
        cached = {key, hit->second};
        return hit->second;
    }
    std::string module;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        module = m_stacks.frame(module_frame).name;
    }
    const uint32_t node = internNode(ts, parent, ("backward of " + module).c_str(), nullptr, 0,
                                     FrameKind::BackwardOf);
    ts.backward_of.emplace(key, node);
    cached = {key, node};
    return node;
}

std::unique_ptr<at::ObserverContext> Recorder::onFunctionEnter(const at::RecordFunction& fn) {
    Recorder* self = g_active.load(std::memory_order_acquire);
    if (self == nullptr) {
        return nullptr;
    }
    ThreadState& ts = self->threadState();
    // The scope's fields in locals, written into the stack's entry in place at the end: an entry
    // built on this frame and copied in was read back in 16-byte pieces over its 4- and 8-byte
    // stores, which the core cannot forward (perf: half of this function's samples).
    uint32_t module_frame = ts.scopes.empty() ? UINT32_MAX : ts.scopes.back().module_frame;
    uint32_t shapes = 0;
    const char* name = fn.name();
    uint32_t parent = ts.current_node;
    FrameKind kind = FrameKind::Operator;
    const char* file = nullptr;
    int line = 0;
    switch (fn.scope()) {
        case at::RecordScope::USER_SCOPE: {
            // A ModuleScope says where it is; a user range without one (Python's
            // record_function: "Optimizer.step#AdamW.step") is no module.
            const auto location = ModuleScope::pendingLocation();
            kind = location.file != nullptr ? FrameKind::Module : FrameKind::Other;
            file = location.file;
            line = location.line;
            break;
        }
        case at::RecordScope::BACKWARD_FUNCTION: {
            kind = FrameKind::BackwardNode;
            uint32_t forward_module = UINT32_MAX;
            {
                std::lock_guard<std::mutex> lock(self->m_mutex);
                forward_module = self->forwardModuleOf(fn.seqNr());
            }
            if (forward_module != UINT32_MAX) {
                parent = self->backwardOfNode(ts, parent, forward_module);
            }
            break;
        }
        default:
            break;
    }
    const auto call = self->lookupCall(ts, parent, name, file, line, kind);
    const uint32_t node = call.first;
    const uint32_t stat_index = call.second;
    // The exit updates this statistic: fetch its lines while the op runs (a statistic first
    // touched this step is otherwise a cache miss at the exit).
    const OperatorStat& stat = ts.stats[stat_index];
    __builtin_prefetch(&stat.calls, 1);
    __builtin_prefetch(&stat.largest_allocation, 1);
    if (kind == FrameKind::Module) {
        std::lock_guard<std::mutex> lock(self->m_mutex);
        module_frame = self->m_stacks.frameOf(node);
    } else if (kind == FrameKind::Operator && fn.seqNr() >= 0 && module_frame != UINT32_MAX &&
               !(fn.seqNr() == ts.forward_seq &&
                 self->m_forwardVersion.load(std::memory_order_acquire) == ts.forward_version)) {
        // Nested ops share their caller's number: the check above skips the lock for them when
        // nothing has touched the table since this thread entered that number.
        std::lock_guard<std::mutex> lock(self->m_mutex);
        const int64_t seq = fn.seqNr();
        // An op and the ops it calls share a number; the outermost (first) one is kept.
        if (seq != self->m_forwardLast) {
            // Numbers restarted (a new graph in the same phase), or are too far from the first
            // to index densely: start the table again from this one.
            constexpr int64_t kMaxSpan = int64_t(1) << 22;
            if (seq < self->m_forwardLast || self->m_forwardLast < 0 ||
                seq - self->m_forwardBase >= kMaxSpan) {
                self->m_forwardFrames.clear();
                self->m_forwardBase = seq;
            }
            const auto index = static_cast<size_t>(seq - self->m_forwardBase);
            if (self->m_forwardFrames.size() <= index) {
                self->m_forwardFrames.resize(index + 1, UINT32_MAX);
            }
            self->m_forwardFrames[index] = module_frame;
            self->m_forwardLast = seq;
            self->m_forwardVersion.fetch_add(1, std::memory_order_release);
        }
        ts.forward_seq = seq;
        ts.forward_version = self->m_forwardVersion.load(std::memory_order_relaxed);
    }
    if (self->m_options.record_shapes && kind == FrameKind::Operator) {
        ts.stats[stat_index].flops += matmulFlops(fn);
        shapes = self->internShapes(inputShapes(fn));
    }
    ScopeEntry& entry = ts.scopes.emplace_back();
    entry.node_before = ts.current_node;
    entry.stat = stat_index;
    entry.module_frame = module_frame;
    entry.shapes = shapes;
    entry.start_ns = self->m_clock.nowNs();
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
    const uint32_t node = ts.current_node;
    ts.current_node = e.node_before;
    // Never before the call began (a thread moved to another core reads that core's counter).
    const int64_t now = std::max(self->m_clock.nowNs(), e.start_ns);
    const int64_t total = now - e.start_ns;
    Span& span = ts.spans.slot();
    span.begin_ns = e.start_ns;
    span.end_ns = now;
    span.stack = node;
    span.thread = ts.index;
    span.shapes = e.shapes;
    ts.spans.publish();
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
    if (ts.stats_requested.load(std::memory_order_relaxed)) {
        std::lock_guard<std::mutex> lock(ts.published_mutex);
        ts.published_stats = ts.stats;
        ts.stats_requested.store(false, std::memory_order_relaxed);
    }
}

void Recorder::onRunThreadStart() {
    g_active.store(this, std::memory_order_release);
    threadState();
    // Segments the allocator reserved before the run (a GEMM that measured the peak, an
    // earlier run in this process) count in the reserved total of the segment events.
    int64_t reserved_before = 0;
    if (AllocatorTraceLink::state() == AllocatorTraceLink::State::Attached) {
        for (int device = 0; device < 64; ++device) {
            const auto stats = compat::cachingAllocatorStats(device);
            if (!stats.valid) {
                break;
            }
            reserved_before += stats.reserved_current;
        }
    }
    m_segmentReserved.store(reserved_before, std::memory_order_relaxed);
    AllocatorTraceLink::setSink(this);
    m_callback = attachThread();
}

namespace {
// The record-function callback this thread carries, whichever recorder added it (they all
// dispatch through g_active). A child made by fork() inherits its parent's on the forking thread:
// a recording started there reuses it instead of adding a second (every op would enter twice).
thread_local at::CallbackHandle t_callback = 0;
}  // namespace

at::CallbackHandle Recorder::attachThread() {
    threadState();
    if (t_callback != 0) {
        return t_callback;
    }
    auto callback =
        at::RecordFunctionCallback(&Recorder::onFunctionEnter, &Recorder::onFunctionExit)
            .needsInputs(m_options.record_shapes)
            .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION,
                     at::RecordScope::USER_SCOPE});
    t_callback = at::addThreadLocalCallback(std::move(callback));
    return t_callback;
}

void Recorder::detachThread(at::CallbackHandle handle) {
    if (handle != 0) {
        at::removeCallback(handle);
        if (t_callback == handle) {
            t_callback = 0;
        }
    }
}

void Recorder::deactivateAfterFork() {
    g_active.store(nullptr, std::memory_order_release);
}

void Recorder::onRunThreadEnd() {
    {
        const int64_t now = nowNs();
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_phases.empty()) {
            m_phases.back().end_ns = now;
        }
    }
    detachThread(m_callback);
    m_callback = 0;
    AllocatorTraceLink::releaseSink(this);
    Recorder* self = this;
    g_active.compare_exchange_strong(self, nullptr);
}

}  // namespace memscope

#pragma once

// Recorder::ThreadState, one recording thread's buffers, scope stack and call caches, and what
// it is made of: the chunk queues its events and spans travel in and the call tables and log
// that answer a call's node and statistic. Internal to the recorder (capture/recorder.cpp,
// capture/recorder_drain.cpp).

#include "capture/recorder.h"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

namespace memscope {

namespace recorder_detail {

// A single-producer, single-consumer list of fixed arrays: the owning thread appends and
// publishes the count with a release store; the consumer reads up to the acquired count and frees
// a chunk once the producer has moved on to the next one.
template <typename T>
struct Chunk {
    static constexpr size_t kCapacity = 4096;
    T items[kCapacity];
    std::atomic<size_t> count{0};
    std::atomic<Chunk*> next{nullptr};
};

// The recorder's long-lived buffers (event and span chunks, call tables) come straight from
// mmap, zeroed, not from malloc: long-lived recorder buffers interleaved with the tensors on
// glibc's heap kept it from reusing and trimming tensor memory, and the extra page faults cost
// training about 10% (measured with bench_record_overhead). MAP_POPULATE faults the pages in
// with the mmap call itself: on a virtual machine one fault per 4 KiB page (about 25 us here),
// taken on the training thread, cost more than the recorder's own work per op call.
inline void* mapPopulated(size_t bytes) {
    int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
    flags |= MAP_POPULATE;
#endif
    void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
    if (memory == MAP_FAILED) {
        throw std::bad_alloc();
    }
    return memory;
}

template <typename T>
Chunk<T>* newChunk() {
    return new (mapPopulated(sizeof(Chunk<T>))) Chunk<T>;
}

template <typename T>
void deleteChunk(Chunk<T>* chunk) {
    chunk->~Chunk<T>();
    munmap(chunk, sizeof(Chunk<T>));
}

template <typename T>
struct ChunkQueue {
    // Drained chunks kept for the producer to fill again (up to this many bytes per queue):
    // reused memory is already faulted in, so a recording that is drained as it goes touches no
    // fresh pages on the training thread at all.
    static constexpr size_t kKeepBytes = size_t(8) << 20;
    static constexpr size_t kKeepChunks = std::max<size_t>(2, kKeepBytes / sizeof(Chunk<T>));

    Chunk<T>* tail;  // producer
    Chunk<T>* head;  // consumer
    size_t read_pos = 0;
    std::mutex spare_mutex;  // taken once per chunk (thousands of items), never per item
    std::vector<Chunk<T>*> spare;

    ChunkQueue() : tail(newChunk<T>()), head(tail) { spare.reserve(kKeepChunks); }
    ~ChunkQueue() {
        while (head != nullptr) {
            Chunk<T>* next = head->next.load();
            deleteChunk(head);
            head = next;
        }
        for (Chunk<T>* chunk : spare) {
            deleteChunk(chunk);
        }
    }
    // Producer: a slot to fill, then publish().
    T& slot() {
        size_t n = tail->count.load(std::memory_order_relaxed);
        if (n == Chunk<T>::kCapacity) {
            auto* fresh = spareChunk();
            tail->next.store(fresh, std::memory_order_release);
            tail = fresh;
            n = 0;
        }
        return tail->items[n];
    }
    void publish() {
        tail->count.store(tail->count.load(std::memory_order_relaxed) + 1,
                          std::memory_order_release);
    }
    // Consumer: how many items are published and not yet drained (the producer may publish more
    // meanwhile).
    size_t available() const {
        size_t n = head->count.load(std::memory_order_acquire) - read_pos;
        for (const Chunk<T>* c = head->next.load(std::memory_order_acquire); c != nullptr;
             c = c->next.load(std::memory_order_acquire)) {
            n += c->count.load(std::memory_order_acquire);
        }
        return n;
    }
    // Consumer: appends what is published so far, at most `limit` items; returns how many.
    template <typename Out>
    size_t drain(Out& out, size_t limit = SIZE_MAX) {
        size_t taken = 0;
        while (true) {
            const size_t n = head->count.load(std::memory_order_acquire);
            const size_t end = n - read_pos <= limit - taken ? n : read_pos + (limit - taken);
            out.insert(out.end(), head->items + read_pos, head->items + end);
            taken += end - read_pos;
            read_pos = end;
            if (read_pos < Chunk<T>::kCapacity)  // the producer is still here, or the limit
                return taken;
            Chunk<T>* next = head->next.load(std::memory_order_acquire);
            if (next == nullptr)
                return taken;
            recycle(head);  // the producer has moved on to `next`
            head = next;
            read_pos = 0;
            if (taken == limit)
                return taken;
        }
    }

  private:
    Chunk<T>* spareChunk() {
        {
            std::lock_guard<std::mutex> lock(spare_mutex);
            if (!spare.empty()) {
                Chunk<T>* chunk = spare.back();
                spare.pop_back();
                chunk->count.store(0, std::memory_order_relaxed);
                chunk->next.store(nullptr, std::memory_order_relaxed);
                return chunk;
            }
        }
        return newChunk<T>();
    }
    void recycle(Chunk<T>* chunk) {
        {
            std::lock_guard<std::mutex> lock(spare_mutex);
            if (spare.size() < kKeepChunks) {
                spare.push_back(chunk);
                return;
            }
        }
        deleteChunk(chunk);
    }
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
    uint32_t shapes = 0;
};

// A call the recorder has looked up: its key, what identifies it (parent node, kind, name and,
// for module scopes, source location) and its answer (node and this thread's statistic). An
// entry is two cache lines and starts one. A key of 0 marks an empty entry. `link`: in a cache,
// the call's record in the thread's call log (CallLog); in that log, the record of the call that
// came after this one the last time (ThreadState::predicted).
struct CallEntry {
    uint64_t key = 0;
    const char* file = nullptr;
    CallEntry* link = nullptr;
    CallEntry* link2 = nullptr;  // in the log: the call that came after `link` did, before it
    uint32_t parent = UINT32_MAX;
    int32_t line = 0;
    uint32_t node = 0;
    uint32_t stat = 0;
    FrameKind kind = FrameKind::Operator;
    char text[79] = {};  // the name's text: names this long or longer are not kept

    // The name's text is always compared: names are not always stable pointers (a freed copy's
    // address can come back with other text).
    bool matches(uint64_t k, const char* name, uint32_t p, FrameKind kd, const char* f,
                 int l) const {
        return key == k && sameCall(name, p, kd, f, l);
    }
    bool sameCall(const char* name, uint32_t p, FrameKind kd, const char* f, int l) const {
        return parent == p && kind == kd && file == f && line == l && std::strcmp(text, name) == 0;
    }
    // Holds this call from now on, or (a name too long to keep) nothing.
    void assign(uint64_t k, const char* name, size_t length, uint32_t p, FrameKind kd,
                const char* f, int l, uint32_t n, uint32_t st, CallEntry* lk) {
        if (length >= sizeof text) {
            key = 0;
            return;
        }
        key = k;
        file = f;
        parent = p;
        line = l;
        kind = kd;
        node = n;
        stat = st;
        link = lk;
        link2 = nullptr;
        std::memcpy(text, name, length + 1);
    }
};
static_assert(sizeof(CallEntry) == 128, "a call entry is two cache lines");

// A set-associative table of calls (two ways a set, the newest first), from mapPopulated.
struct CallTable {
    explicit CallTable(unsigned set_bits)
        : set_bits(set_bits),
          bytes(sizeof(CallEntry) * 2 << set_bits),
          entries(static_cast<CallEntry*>(mapPopulated(bytes))) {}
    ~CallTable() { munmap(entries, bytes); }
    CallTable(const CallTable&) = delete;
    CallTable& operator=(const CallTable&) = delete;

    CallEntry* set(uint64_t key) const { return entries + 2 * (key >> (64 - set_bits)); }
    const CallEntry* find(uint64_t key, const char* name, uint32_t parent, FrameKind kind,
                          const char* file, int line) const {
        const CallEntry* s = set(key);
        for (int way = 0; way < 2; ++way) {
            if (s[way].matches(key, name, parent, kind, file, line)) {
                return &s[way];
            }
        }
        return nullptr;
    }
    // Holds `record` (a call log record) under `key` from now on.
    void insert(uint64_t key, CallEntry* record) {
        CallEntry* s = set(key);
        s[1] = s[0];
        s[0] = *record;
        s[0].key = key;
        s[0].link = record;
    }

    unsigned set_bits;
    size_t bytes;
    CallEntry* entries;
};

// A thread's call records, one per stack node it entered, in the order it first entered them;
// records never move. Each record's `link` is the record that came after it the last time: a
// training step makes the same calls in the same order as the step before, so the record
// predicted for the next call is known (and fetched into the cache) while the op runs.
struct CallLog {
    static constexpr size_t kBlockRecords = 512;  // 64 KiB blocks, from mapPopulated

    CallLog() = default;
    ~CallLog() {
        for (CallEntry* block : blocks) {
            munmap(block, kBlockRecords * sizeof(CallEntry));
        }
    }
    CallLog(const CallLog&) = delete;
    CallLog& operator=(const CallLog&) = delete;

    // The record of `node`, made from the call's identity on its first use; nullptr for a name
    // too long to keep.
    CallEntry* recordOf(uint32_t node, uint32_t stat, const char* name, size_t length,
                        uint32_t parent, FrameKind kind, const char* file, int line) {
        if (length >= sizeof(CallEntry::text)) {
            return nullptr;
        }
        if (node < by_node.size() && by_node[node] != nullptr) {
            return by_node[node];
        }
        if (used == kBlockRecords || blocks.empty()) {
            blocks.push_back(
                static_cast<CallEntry*>(mapPopulated(kBlockRecords * sizeof(CallEntry))));
            used = 0;
        }
        CallEntry* record = new (blocks.back() + used++) CallEntry;
        record->assign(reinterpret_cast<uintptr_t>(name), name, length, parent, kind, file, line,
                       node, stat, nullptr);
        if (by_node.size() <= node) {
            by_node.resize(node + 1, nullptr);
        }
        by_node[node] = record;
        return record;
    }

    std::vector<CallEntry*> blocks;
    size_t used = 0;
    std::vector<CallEntry*> by_node;  // by stack node id
};

}  // namespace recorder_detail

struct Recorder::ThreadState {
    template <typename T>
    using ChunkQueue = recorder_detail::ChunkQueue<T>;
    using ScopeEntry = recorder_detail::ScopeEntry;
    using CallEntry = recorder_detail::CallEntry;
    using CallTable = recorder_detail::CallTable;
    using CallLog = recorder_detail::CallLog;

    uint16_t index = 0;
    ChunkQueue<Event> events;
    ChunkQueue<Span> spans;
    std::vector<ScopeEntry> scopes;
    uint32_t current_node = StackTable::kEmpty;
    // Hot lookups key on a hash of (parent, kind, name text) and verify the name on a hit, so a
    // call costs one short hash instead of building a std::string key. (RecordFunction names are
    // not stable pointers: user scopes and some ops hold a copy of the text.)
    std::unordered_map<uint64_t, uint32_t> node_by_hash;
    std::unordered_map<uint64_t, uint32_t> stat_by_hash;
    std::vector<std::string> node_names;  // by node id, filled for nodes this thread looked up
    std::unordered_map<std::string, uint32_t> node_cache;
    std::unordered_map<std::string, uint32_t> stat_index;
    std::vector<OperatorStat> stats;  // this thread's alone: read elsewhere only after the run
    // While the run goes on another thread reads a copy: it sets stats_requested, and this
    // thread copies `stats` into published_stats at its next op exit (Recorder::
    // publishedOperatorStats). A relaxed load per op call; the copy once per request.
    std::atomic<bool> stats_requested{false};
    std::mutex published_mutex;
    std::vector<OperatorStat> published_stats;  // guarded by published_mutex
    // In front of the lookups above, a prediction and three caches that give a call's node and
    // statistic together, each keyed by (parent node, kind, the name, and for module scopes
    // their source location, on which their node also depends), each entry a CallEntry. The
    // answer for such a key never changes, so a cache only has to find it.
    // 0. `predicted`: the call log's record for the call that followed the previous one last
    //    time (else the one that followed it the time before: a loop alternates two calls).
    //    Fetched into the cache while the previous op runs, it answers a call with one
    //    comparison on lines already there. It answers about 97% of a workshop-default step's
    //    calls (some 600 of 18,200 fall through, most in the optimizer and the autograd engine);
    //    the recorder's share of the training thread's CPU time fell by about a quarter (perf).
    // 1. `depth_memo`: the last call at each depth of the scope stack, keyed by the name's
    //    pointer. A loop in a kernel calls the same op under the same parent over and over (a
    //    bmm selects and as_strides every matrix it multiplies: three quarters of a step's op
    //    calls), and this small array stays in the core's cache while the tables below are
    //    evicted by the tensors between two calls of an op. About 57% of a workshop-default
    //    step's calls.
    // 2. `by_pointer`, keyed by the name's pointer: operators, whose names are their schemas'.
    // 3. `by_text`, keyed by a hash of the name's text: names LibTorch builds for each call
    //    (autograd nodes, "autograd::engine::evaluate_function: ...", module scopes, which
    //    RecordFunction copies), whose pointer changes from call to call. Before it each of
    //    those (about 700 a step) took the hash-map lookups above, 1.1 us apiece.
    static constexpr size_t kMemoDepth = 32;
    CallEntry depth_memo[kMemoDepth];
    CallTable by_pointer{13};  // 8,192 sets of 2 (a step visits about 2,500 stack nodes)
    CallTable by_text{12};
    CallLog log;
    CallEntry* previous = nullptr;   // the record of this thread's last call, if it had one
    CallEntry* predicted = nullptr;  // previous->link then
    // "backward of MODULE" nodes by (parent node, module frame), which decide them.
    std::unordered_map<uint64_t, uint32_t> backward_of;
    // In front of it, a direct-mapped cache (8 KiB): every autograd node of a backward pass
    // asks, and the map's scattered nodes missed the cache at about 350 ns a lookup (perf:
    // backwardOfNode was a tenth of the recorder's samples). A key of ~0 marks an empty entry
    // (no module frame is UINT32_MAX here).
    struct BackwardOfEntry {
        uint64_t key = ~uint64_t(0);
        uint32_t node = 0;
    };
    static constexpr unsigned kBackwardOfBits = 9;
    BackwardOfEntry backward_of_cache[size_t(1) << kBackwardOfBits];

    ThreadState() = default;
    ThreadState(const ThreadState&) = delete;
    ThreadState& operator=(const ThreadState&) = delete;
    // The last forward sequence number this thread entered in Recorder::m_forwardFrames and the
    // table's version right after: while both still hold, entering it again would change nothing.
    int64_t forward_seq = -1;
    uint64_t forward_version = 0;
};

}  // namespace memscope

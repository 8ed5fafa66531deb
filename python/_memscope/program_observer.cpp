#include "program_observer.h"

#include "python_stack.h"

#include <unordered_map>
#include <vector>

namespace memscope {

namespace {

// One thread's way from a stack of Python frames to its node, memray's way: the stack of the
// thread's last allocation (its frames' identities and nodes) is kept, and a new stack reuses
// the nodes of the outer frames it shares with it (walking the chain is a few pointer reads a
// frame); a frame below those is looked up by (parent node, code, instruction), and only a frame
// never seen under that parent is read as text and interned. A code object freed and another
// made at its address, at the same instruction, under the same parent would reuse the old
// frame's node (the line cache of PythonStack has the same limit): module-level functions live
// as long as the program.
struct NodeKey {
    uint32_t parent;
    PythonStack::Key frame;
    bool operator==(const NodeKey& o) const { return parent == o.parent && frame == o.frame; }
};
struct NodeKeyHash {
    size_t operator()(const NodeKey& k) const {
        const auto code = reinterpret_cast<uintptr_t>(k.frame.code);
        return static_cast<size_t>((code >> 4) * 0x9E3779B97F4A7C15ull ^
                                   (uint64_t(k.parent) << 20) ^ uint64_t(uint32_t(k.frame.lasti)));
    }
};
struct StackCache {
    const Recorder* recorder = nullptr;  // the nodes are this recorder's
    uint32_t base = UINT32_MAX;          // scope node the last stack hung below
    std::vector<PythonStack::Key> keys;  // the last stack, outermost first
    std::vector<uint32_t> nodes;         // ... and its nodes
    std::vector<PythonStack::Key> walk;
    std::unordered_map<NodeKey, uint32_t, NodeKeyHash> nodesByKey;
    Frame frame;
};
thread_local StackCache t_cache;

}  // namespace

uint32_t ProgramObserver::pythonNode() {
    StackCache& c = t_cache;
    if (c.recorder != &m_recorder) {
        c = StackCache{};
        c.recorder = &m_recorder;
    }
    size_t deepest = 0;
    const size_t n = PythonStack::walk(static_cast<size_t>(m_pythonFrames), c.walk, deepest);
    if (deepest > 0) {
        size_t seen = m_deepest.load(std::memory_order_relaxed);
        while (deepest > seen &&
               !m_deepest.compare_exchange_weak(seen, deepest, std::memory_order_relaxed)) {
        }
    }
    const uint32_t base = m_recorder.currentNode();
    if (n == 0) {
        return base;
    }
    size_t shared = 0;
    uint32_t node = base;
    if (base == c.base) {
        const size_t most = std::min(n, c.keys.size());
        while (shared < most && c.keys[shared] == c.walk[shared]) {
            node = c.nodes[shared];
            ++shared;
        }
    }
    c.keys.resize(shared);
    c.nodes.resize(shared);
    for (size_t i = shared; i < n; ++i) {
        const NodeKey key{node, c.walk[i]};
        auto it = c.nodesByKey.find(key);
        if (it == c.nodesByKey.end()) {
            PythonStack::describe(c.walk[i], c.frame);
            it = c.nodesByKey.emplace(key, m_recorder.frameNode(node, c.frame)).first;
        }
        node = it->second;
        c.keys.push_back(c.walk[i]);
        c.nodes.push_back(node);
    }
    c.base = base;
    return node;
}

void ProgramObserver::onMemoryEvent(void* ptr, int64_t size, int64_t allocated,
                                    int64_t allocator_total, int64_t allocator_reserved,
                                    c10::Device device) {
    if (stopped()) {
        return;
    }
    if (size > 0) {
        // The compare-exchange keeps the highest total; with one allocating thread (the check's
        // case) the allocator's total stored next is the one of that same event.
        int64_t seen = m_peak.load(std::memory_order_relaxed);
        while (allocated > seen &&
               !m_peak.compare_exchange_weak(seen, allocated, std::memory_order_relaxed)) {
        }
        if (allocated > seen) {
            m_allocatorAtPeak.store(allocator_total, std::memory_order_relaxed);
        }
        if (m_pythonFrames > 0) {
            m_recorder.onMemoryEventAt(pythonNode(), ptr, size, allocated, allocator_total,
                                       allocator_reserved, device);
            return;
        }
    }
    m_recorder.onMemoryEvent(ptr, size, allocated, allocator_total, allocator_reserved, device);
}

void ProgramObserver::onRole(const void* ptr, Category category, c10::Device device,
                             const char* owner) {
    if (!stopped()) {
        m_recorder.onRole(ptr, category, device, owner);
    }
}

void ProgramObserver::onOutOfMemory(int64_t requested, int64_t allocated, int64_t capacity,
                                    c10::Device device) {
    if (!stopped()) {
        m_recorder.onOutOfMemory(requested, allocated, capacity, device);
    }
}

void ProgramObserver::onSegment(EventKind kind, uint64_t addr, int64_t size, c10::Device device) {
    if (!stopped()) {
        m_recorder.onSegment(kind, addr, size, device);
    }
}

ProgramObserver::PeakCheck ProgramObserver::takePeak(int64_t current) {
    PeakCheck check;
    check.recorded = m_peak.exchange(current, std::memory_order_relaxed);
    check.allocator = m_allocatorAtPeak.load(std::memory_order_relaxed);
    return check;
}

}  // namespace memscope

#pragma once

// Traces of a caching allocator built event by event (segments, blocks inside them, frees, an
// out-of-memory event), for the segment analysis, the reserved line and the segment view until
// imported snapshot fixtures with segments exist. Each event keeps `allocated` (live bytes) and
// `reserved` (reserved bytes) the way the recorder and the importer fill those columns.

#include "trace/trace.h"

#include <map>
#include <string>

namespace memscope::test {

class SegmentTraceBuilder {
  public:
    explicit SegmentTraceBuilder(int16_t device = 0) : m_device(device) {
        m_trace.meta.device = device < 0 ? "cpu" : "cuda:" + std::to_string(device);
        m_trace.meta.device_name = device < 0 ? "CPU" : "Test GPU";
        m_trace.meta.source = "segment fixture";
    }

    SegmentTraceBuilder& reserve(uint64_t addr, int64_t size, int64_t stream = 0,
                                 const std::string& pool = {}) {
        m_reserved += size;
        m_segments[addr] = size;
        m_trace.segment_tags.push_back({int64_t(m_trace.events.count()), stream, pool});
        return push(EventKind::SegmentAlloc, addr, size);
    }
    SegmentTraceBuilder& release(uint64_t addr) {
        const int64_t size = m_segments.at(addr);
        m_reserved -= size;
        m_segments.erase(addr);
        return push(EventKind::SegmentFree, addr, -size);
    }
    // A segment reserved before the trace began: released here, never seen reserved.
    SegmentTraceBuilder& releaseFromStart(uint64_t addr, int64_t size) {
        m_reserved -= size;
        return push(EventKind::SegmentFree, addr, -size);
    }
    SegmentTraceBuilder& alloc(uint64_t addr, int64_t size, Category category = Category::Unknown) {
        m_live += size;
        m_sizes[addr] = size;
        push(EventKind::Alloc, addr, size);
        if (category != Category::Unknown) {
            push(EventKind::Role, addr, int64_t(category));
        }
        return *this;
    }
    SegmentTraceBuilder& free(uint64_t addr) {
        const int64_t size = m_sizes.at(addr);
        m_live -= size;
        m_sizes.erase(addr);
        return push(EventKind::Free, addr, -size);
    }
    // An allocation live before the trace began, freed here.
    SegmentTraceBuilder& freeFromStart(uint64_t addr, int64_t size) {
        m_live -= size;
        return push(EventKind::Free, addr, -size);
    }
    SegmentTraceBuilder& oom(int64_t requested, int64_t capacity) {
        Event e = next(EventKind::Oom, 0, requested);
        e.reserved = capacity;  // an OOM event carries the capacity (trace.h)
        m_trace.events.append(e);
        return *this;
    }
    // Starts the running totals above zero (what was live or reserved before the trace).
    SegmentTraceBuilder& startWith(int64_t live, int64_t reserved) {
        m_live = live;
        m_reserved = reserved;
        return *this;
    }

    int64_t eventCount() const { return int64_t(m_trace.events.count()); }
    Trace build() {
        Trace t = m_trace;
        t.finalize();
        return t;
    }

  private:
    Event next(EventKind kind, uint64_t addr, int64_t size) {
        Event e;
        e.time_ns = m_time;
        m_time += 1000;
        e.kind = kind;
        e.addr = addr;
        e.size = size;
        e.allocated = m_live;
        e.reserved = m_reserved;
        e.device = m_device;
        e.step = 1;
        e.phase = Phase::Forward;
        return e;
    }
    SegmentTraceBuilder& push(EventKind kind, uint64_t addr, int64_t size) {
        m_trace.events.append(next(kind, addr, size));
        return *this;
    }

    Trace m_trace;
    int16_t m_device;
    int64_t m_time = 0;
    int64_t m_live = 0;
    int64_t m_reserved = 0;
    std::map<uint64_t, int64_t> m_sizes;
    std::map<uint64_t, int64_t> m_segments;
};

constexpr int64_t kMiB = 1 << 20;

// A small training-like story on one GPU: parameters and the input in a 20 MiB segment,
// activations in a 32 MiB one whose middle block is freed (a hole), small temporaries in a 2 MiB
// segment of the small pool, gradients, the activation segment released, a 64 MiB segment for a
// large buffer, and an out-of-memory request of 100 MiB against a 128 MiB device.
inline Trace demoSegmentTrace() {
    const uint64_t s1 = 0x7f0000000000, s2 = 0x7f0010000000, s3 = 0x7f0020000000,
                   s4 = 0x7f0030000000;
    SegmentTraceBuilder b;
    b.reserve(s1, 20 * kMiB, 7, "large")
        .alloc(s1, 8 * kMiB, Category::Parameter)
        .alloc(s1 + 8 * kMiB, 2 * kMiB, Category::Input)
        .reserve(s2, 32 * kMiB, 7, "large")
        .alloc(s2, 8 * kMiB, Category::Activation)
        .alloc(s2 + 8 * kMiB, 8 * kMiB, Category::Activation)
        .alloc(s2 + 16 * kMiB, 12 * kMiB, Category::Activation)
        .free(s2 + 8 * kMiB)
        .reserve(s3, 2 * kMiB, 7, "small")
        .alloc(s3, kMiB / 2, Category::Temporary)
        .alloc(s3 + kMiB, kMiB / 4, Category::Temporary)
        .alloc(s1 + 10 * kMiB, 8 * kMiB, Category::Gradient)
        .free(s3)
        .free(s2)
        .free(s2 + 16 * kMiB)
        .release(s2)
        .reserve(s4, 64 * kMiB, 7, "large")
        .alloc(s4, 40 * kMiB, Category::OptimizerState)
        .oom(100 * kMiB, 128 * kMiB);
    return b.build();
}

}  // namespace memscope::test

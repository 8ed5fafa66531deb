#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <vector>

namespace memscope {

// How the recorded spans of a trace nest: for every span, the span directly around it on the
// same thread (or -1) and its self time (its duration minus the spans directly inside it). A
// span encloses another when it began no later, ended no earlier, and its stack node is an
// ancestor of the other's: the stack check keeps back-to-back calls that share a nanosecond
// from being taken as nested.
class SpanNesting {
  public:
    explicit SpanNesting(const Trace& trace);

    int64_t parent(size_t span) const { return m_parent[span]; }
    int64_t selfNs(size_t span) const { return m_self[span]; }
    // Sum of the durations of the outermost spans: the time covered by recorded scopes.
    int64_t coveredNs() const { return m_covered; }

  private:
    std::vector<int64_t> m_parent;
    std::vector<int64_t> m_self;
    int64_t m_covered = 0;
};

}  // namespace memscope

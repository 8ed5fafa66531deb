// Recorder's consumer side: drainInto, which moves what the recording threads published into a
// Trace, and the operator statistics merged over the threads. The rest of the recorder is in
// capture/recorder.cpp.
#include "capture/recorder.h"

#include "capture/recorder_thread_state.h"

#include "trace/column_growth.h"
#include "trace/expected_run_length.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace memscope {

namespace {
// A recording's spans get a mapping of their own from their first growth (column_growth.h:
// above a huge page a column gets at least kOwnMappingBytes), so they never move again in a
// typical run and each byte is faulted in once (growing by doubling on glibc's heap faulted about
// 330 pages a step on the consumer against 190, bench_record_overhead with 4 KiB pages). With
// huge pages (HugePagePolicy) the first recording in a process faulted about 65 times a step
// on the heap, 11-21 times in these mappings. The cost: address space. Once two steps are done
// and the run's step count is known, a column that has to grow gets room for the whole run
// (expectedRunTotal): a 300-step workshop-default run's spans (about 175 MB) otherwise moved
// three times, copying 238 MiB into fresh pages on this thread. The event columns are packed
// (trace/packed_column.h): they grow by blocks of a few bytes an event as they are appended to.
constexpr size_t kFirstSpans = kHugePageBytes / sizeof(Span) + 1;
}  // namespace

size_t Recorder::drainInto(Trace& trace) {
    std::vector<Event>& batch = m_eventBatch;
    batch.clear();
    // The threads' queues are drained without the lock: each has this one consumer, and the
    // training threads take the lock for every new stack node and forward op, so holding it
    // through the copies made them wait for the drain (or, on a busy machine, for the drain's
    // thread to get a core back).
    std::vector<ThreadState*>& threads = m_drainThreads;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        threads.clear();
        for (auto& ts : m_threads) {
            threads.push_back(ts.get());
        }
    }
    size_t threads_with_events = 0;
    for (ThreadState* ts : threads) {
        const size_t before = batch.size();
        ts->events.drain(batch);
        // Spans go straight into the trace (a batch in between copied each one twice), after
        // the trace has room for what is there now (growing at least twofold, column_growth.h:
        // reserving just what a drain needs reallocated and copied the whole trace every
        // time); what the thread publishes meanwhile waits for the next drain.
        const size_t spans = ts->spans.available();
        growSpans(trace.spans, trace.spans.size() + spans,
                  std::max(kFirstSpans, expectedRunTotal(trace, trace.spans.size())));
        ts->spans.drain(trace.spans, spans);
        threads_with_events += batch.size() > before ? 1 : 0;
    }
    {
        // After the queues: every node an event or span drained above refers to was made (under
        // the lock) before that event was published, so it is among the nodes copied here.
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
        if (trace.shape_strings.size() < m_shapeStrings.size()) {  // only new strings: copying
            // all of them at every drain cost a run with --record-shapes thousands of strings a
            // poll
            trace.shape_strings.insert(
                trace.shape_strings.end(),
                m_shapeStrings.begin() + static_cast<std::ptrdiff_t>(trace.shape_strings.size()),
                m_shapeStrings.end());
        }
        // The phase that was open at the last drain may have closed since.
        if (m_drainedPhases > 0 && !trace.phases.empty()) {
            trace.phases.back().end_ns = m_phases[m_drainedPhases - 1].end_ns;
        }
        trace.phases.insert(trace.phases.end(),
                            m_phases.begin() + static_cast<std::ptrdiff_t>(m_drainedPhases),
                            m_phases.end());
        m_drainedPhases = m_phases.size();
    }
    if (threads_with_events > 1) {
        std::stable_sort(batch.begin(), batch.end(),
                         [](const Event& a, const Event& b) { return a.time_ns < b.time_ns; });
    }
    for (const auto& e : batch) {
        trace.events.append(e);
    }
    const auto max = static_cast<size_t>(m_options.max_events);
    trace.meta.max_events = m_options.max_events;
    if (max > 0 && trace.events.count() > max) {
        const size_t drop = trace.events.count() - max;
        trace.events.dropFront(drop);
        trace.meta.dropped_events += static_cast<int64_t>(drop);
        // spans that ended before the oldest kept event go with it
        const int64_t first = trace.events.time_ns.front();
        trace.spans.erase(std::remove_if(trace.spans.begin(), trace.spans.end(),
                                         [first](const Span& s) { return s.end_ns < first; }),
                          trace.spans.end());
    }
    return batch.size();
}

namespace {

// Adds one thread's statistics into `merged`, by name.
void mergeStats(const std::vector<OperatorStat>& stats,
                std::unordered_map<std::string, OperatorStat>& merged) {
    for (const auto& s : stats) {
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
        m.bytes_sent += s.bytes_sent;
    }
}

std::vector<OperatorStat> sortedStats(std::unordered_map<std::string, OperatorStat>& merged) {
    std::vector<OperatorStat> out;
    out.reserve(merged.size());
    for (auto& [name, s] : merged) {
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(),
              [](const OperatorStat& a, const OperatorStat& b) { return a.total_ns > b.total_ns; });
    return out;
}

}  // namespace

std::vector<OperatorStat> Recorder::operatorStats() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::unordered_map<std::string, OperatorStat> merged;
    for (const auto& ts : m_threads) {
        mergeStats(ts->stats, merged);
    }
    return sortedStats(merged);
}

std::vector<OperatorStat> Recorder::publishedOperatorStats() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    std::unordered_map<std::string, OperatorStat> merged;
    for (const auto& ts : m_threads) {
        {
            std::lock_guard<std::mutex> published(ts->published_mutex);
            mergeStats(ts->published_stats, merged);
        }
        ts->stats_requested.store(true, std::memory_order_relaxed);
    }
    return sortedStats(merged);
}

}  // namespace memscope

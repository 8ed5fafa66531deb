#include "capture/live_session.h"

#include "capture/recording_session.h"
#include "layout/live_trace_mirror.h"
#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <exception>

namespace memscope {

LiveSession::LiveSession(const TrainOptions& options, Options session_options) {
    Recorder::Options recorder;
    recorder.record_shapes = session_options.record_shapes;
    m_session = std::make_unique<RecordingSession>(options, recorder);
    if (!session_options.journal_path.empty()) {
        m_session->setJournal(session_options.journal_path);
    }
    m_session->setYieldToInterface(session_options.yield_to_interface);
}

LiveSession::~LiveSession() = default;

void LiveSession::setStepCallback(std::function<void(const StepMetrics&)> callback) {
    m_session->setStepCallback(std::move(callback));
}

void LiveSession::start() {
    m_session->start();
}

bool LiveSession::running() const {
    return m_session->running();
}

void LiveSession::cancel() {
    m_session->cancel();
}

std::shared_ptr<Trace> LiveSession::snapshot() {
    m_session->poll();
    auto trace = std::make_shared<Trace>(m_session->trace());
    trace->finalize();
    return trace;
}

LiveSession::LiveSnapshot LiveSession::liveSnapshot() {
    m_session->poll();
    if (!m_mirror) {
        m_mirror = std::make_unique<LiveTraceMirror>();
    }
    const LiveTraceMirror::Snapshot s = m_mirror->update(m_session->trace());
    return {s.trace, s.layout, s.incremental, s.traceMs, s.layoutMs};
}

void LiveSession::discardJournal() {
    m_session->discardJournal();
}

LiveSession::Result LiveSession::finish() {
    Result result;
    try {
        const RunSummary& summary = m_session->finish();
        result.cancelled = summary.cancelled;
        result.out_of_memory = summary.out_of_memory;
        result.error = summary.error;
        result.summary = summary.toText();
        result.peak_bytes = summary.peak_allocated_bytes;
        result.trace = std::make_shared<Trace>(m_session->trace());
    } catch (const std::exception& e) {
        // The run failed outside the trainer's own handling: keep what was recorded.
        result.error = e.what();
        result.trace = snapshot();
    }
    return result;
}

}  // namespace memscope

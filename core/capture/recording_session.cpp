#include "capture/recording_session.h"

#include "explain/trace_summary.h"
#include "io/run_journal.h"
#include "memscope_version.h"
#include "run/text_format.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>

namespace memscope {

RecordingSession::RecordingSession(TrainOptions options, Recorder::Options recorder_options)
    : m_options(options),
      m_recorder(std::make_unique<Recorder>(recorder_options)),
      m_maxEvents(recorder_options.max_events),
      m_trainer(std::move(options)),
      m_pump(*m_recorder, m_trace) {
    m_trainer.setAllocationObserver(m_recorder.get());
    // Steps reach the trace (and so the journal) as they finish, not only at the end.
    m_trainer.setStepCallback([this](const StepMetrics& step) {
        m_pump.addStep(step);
        if (m_stepCallback) {
            m_stepCallback(step);
        }
    });
}

RecordingSession::~RecordingSession() {
    if (m_thread.joinable()) {
        m_trainer.cancel();
        m_thread.join();
    }
}

void RecordingSession::setStepCallback(std::function<void(const StepMetrics&)> callback) {
    m_stepCallback = std::move(callback);
}

void RecordingSession::setJournal(std::string path) {
    m_journalPath = std::move(path);
}

void RecordingSession::setMeasurePeakFlops(bool measure) {
    m_trainer.setMeasurePeakFlops(measure);
}

void RecordingSession::setYieldToInterface(bool yield) {
    m_trainer.setYieldToInterface(yield);
}

void RecordingSession::start() {
    m_options.validate();
    m_trace.meta.memscope_version = MEMSCOPE_VERSION;
    m_trace.meta.started_at = utcTimestampNow();
    m_trace.meta.config = m_options.toJson();
    m_trace.meta.capacity_bytes = m_options.device_memory_limit;
    m_trace.meta.device = m_options.device;
    m_trace.meta.threads = m_options.threads;
    if (!m_journalPath.empty() && m_maxEvents == 0) {
        m_pump.openJournal(m_journalPath);
    }
    m_done = false;
    m_thread = std::thread([this] {
        try {
            m_summary = m_trainer.run();
        } catch (...) {
            m_failure = std::current_exception();
        }
        m_done = true;
    });
}

size_t RecordingSession::poll() {
    return m_pump.pump();
}

const RunSummary& RecordingSession::finish() {
    if (m_finished) {
        return m_summary;
    }
    if (m_thread.joinable()) {
        m_thread.join();
    }
    m_finished = true;
    if (m_failure) {
        std::rethrow_exception(m_failure);
    }
    m_recorder->drainInto(m_trace);
    auto& meta = m_trace.meta;
    meta.torch_version = m_summary.torch_version;
    meta.device = m_summary.device;
    meta.device_name = m_summary.device_name;
    meta.threads = m_summary.threads;
    m_trace.operators = m_recorder->operatorStats();
    m_trace.steps = m_summary.steps;
    m_trace.finalize();
    auto summary = m_summary.toJson();
    summary.update(TraceSummary::compute(m_trace));
    m_trace.summary = summary;
    m_pump.closeJournal();
    return m_summary;
}

}  // namespace memscope

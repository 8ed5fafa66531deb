#include "capture/recording_pump.h"

#include "io/run_journal.h"
#include "trace/trace.h"

namespace memscope {

RecordingPump::RecordingPump(Recorder& recorder, Trace& trace)
    : m_recorder(recorder), m_trace(trace) {}

RecordingPump::~RecordingPump() = default;

void RecordingPump::openJournal(const std::string& path) {
    m_journal = std::make_unique<RunJournal>(path);
    m_journal->append(m_trace);
}

void RecordingPump::addStep(const StepMetrics& step) {
    std::lock_guard<std::mutex> lock(m_stepsMutex);
    m_pendingSteps.push_back(step);
}

size_t RecordingPump::pump(bool journal) {
    const size_t drained = m_recorder.drainInto(m_trace);
    {
        std::lock_guard<std::mutex> lock(m_stepsMutex);
        m_trace.steps.insert(m_trace.steps.end(), m_pendingSteps.begin(), m_pendingSteps.end());
        m_pendingSteps.clear();
    }
    if (journal) {
        append(false);
    }
    return drained;
}

void RecordingPump::closeJournal() {
    append(true);
}

void RecordingPump::discardJournal() {
    if (m_journal) {
        m_journal->remove();
        m_journal.reset();
    }
}

void RecordingPump::append(bool final) {
    if (!m_journal) {
        return;
    }
    try {
        // The operator table is merged across threads under the recorder's lock: once a second,
        // from what the recording threads last published (reading their live statistics here
        // raced with their updates: tsan-full, session 10). The final append takes the table
        // the owner completed.
        const bool operators = final || m_journal->syncDue();
        if (operators && !final) {
            m_trace.operators = m_recorder.publishedOperatorStats();
        }
        m_journal->append(m_trace, operators);
        if (final) {
            m_journal->sync();
        }
    } catch (const std::exception& e) {
        // A full disk must not end the run: it goes on, unprotected, and says so.
        m_journalError = e.what();
        m_journal.reset();
    }
}

}  // namespace memscope

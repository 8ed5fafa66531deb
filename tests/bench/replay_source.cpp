#include "replay_source.h"

#include "io/run_file.h"

#include <algorithm>

using namespace memscope;

ReplaySource::ReplaySource(const std::string& path, Growth growth)
    : m_run(RunFile::load(path)), m_growth(growth) {
    m_growing = m_run;
    m_growing.events.clear();
    m_growing.steps.clear();
    if (m_growth == Growth::Everything) {
        m_growing.spans.clear();
        m_growing.phases.clear();
    }
    m_growing.finalize();
}

void ReplaySource::growTo(size_t to) {
    to = std::min(to, total());
    for (size_t i = m_growing.events.count(); i < to; ++i) {
        m_growing.events.append(m_run.events.at(i));
    }
    const size_t steps = total() > 0 ? m_run.steps.size() * to / total() : 0;
    m_growing.steps.assign(m_run.steps.begin(), m_run.steps.begin() + std::ptrdiff_t(steps));
    if (m_growth == Growth::Everything && to > 0) {
        const int64_t now = to == total() ? INT64_MAX : m_run.events.time_ns[to - 1];
        // Spans are in end order; phases in time order, the last one open until it ends.
        while (m_growing.spans.size() < m_run.spans.size() &&
               m_run.spans[m_growing.spans.size()].end_ns <= now) {
            m_growing.spans.push_back(m_run.spans[m_growing.spans.size()]);
        }
        while (m_growing.phases.size() < m_run.phases.size() &&
               m_run.phases[m_growing.phases.size()].begin_ns <= now) {
            m_growing.phases.push_back(m_run.phases[m_growing.phases.size()]);
        }
    }
}

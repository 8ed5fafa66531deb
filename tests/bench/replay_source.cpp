#include "replay_source.h"

#include "io/run_file.h"

#include <algorithm>

using namespace memscope;

ReplaySource::ReplaySource(const std::string& path) : m_run(RunFile::load(path)) {
    m_growing = m_run;
    m_growing.events.clear();
    m_growing.steps.clear();
    m_growing.finalize();
}

void ReplaySource::growTo(size_t to) {
    to = std::min(to, total());
    for (size_t i = m_growing.events.count(); i < to; ++i) {
        m_growing.events.append(m_run.events.at(i));
    }
    const size_t steps = total() > 0 ? m_run.steps.size() * to / total() : 0;
    m_growing.steps.assign(m_run.steps.begin(), m_run.steps.begin() + std::ptrdiff_t(steps));
}

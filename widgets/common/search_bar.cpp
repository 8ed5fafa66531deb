#include "common/search_bar.h"

#include "run_document.h"

#include "analysis/trace_search.h"
#include "trace/trace.h"

#include <QEvent>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTimer>
#include <QToolButton>

#include <algorithm>

namespace memscope {

SearchBar::SearchBar(RunDocument* state, QWidget* parent) : QWidget(parent), m_state(state) {
    setObjectName(QStringLiteral("search_bar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_edit = new QLineEdit(this);
    m_edit->setObjectName(QStringLiteral("search_edit"));
    m_edit->setClearButtonEnabled(true);
    m_edit->setMinimumWidth(120);
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("search_count"));
    m_prev = new QToolButton(this);
    m_prev->setArrowType(Qt::UpArrow);
    m_prev->setAutoRaise(true);
    m_next = new QToolButton(this);
    m_next->setArrowType(Qt::DownArrow);
    m_next->setAutoRaise(true);
    layout->addWidget(m_edit, 1);
    layout->addWidget(m_count);
    layout->addWidget(m_prev);
    layout->addWidget(m_next);
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    m_timer->setInterval(200);
    connect(m_timer, &QTimer::timeout, this, &SearchBar::search);
    connect(m_edit, &QLineEdit::textChanged, m_timer, qOverload<>(&QTimer::start));
    connect(m_edit, &QLineEdit::returnPressed, this, [this] {
        if (m_timer->isActive()) {
            search();
        }
        if (QGuiApplication::keyboardModifiers() & Qt::ShiftModifier) {
            previous();
        } else {
            next();
        }
    });
    connect(m_prev, &QToolButton::clicked, this, &SearchBar::previous);
    connect(m_next, &QToolButton::clicked, this, &SearchBar::next);
    // A new run or filter changes what matches.
    connect(m_state, &RunDocument::traceChanged, m_timer, qOverload<>(&QTimer::start));
    connect(m_state, &RunDocument::filterChanged, m_timer, qOverload<>(&QTimer::start));
    retranslateUi();
}

SearchBar::~SearchBar() = default;

void SearchBar::search() {
    m_timer->stop();
    const auto trace = m_state->trace();
    const std::string query = m_edit->text().toStdString();
    std::vector<int64_t> found;
    if (trace && !TraceSearch::normalize(query).empty()) {
        found = TraceSearch::matches(*trace, query);
        if (m_state->hasFilter()) {
            const auto& kept = m_state->filteredAllocations();
            std::vector<int64_t> both;
            std::set_intersection(found.begin(), found.end(), kept.begin(), kept.end(),
                                  std::back_inserter(both));
            found.swap(both);
        }
        // In time order: present from the start first, then by alloc event.
        const auto& allocations = trace->allocations();
        std::stable_sort(found.begin(), found.end(), [&allocations](int64_t a, int64_t b) {
            return allocations[size_t(a)].alloc_event < allocations[size_t(b)].alloc_event;
        });
    }
    const bool had = !m_matches.empty();
    m_matches.swap(found);
    m_current = -1;
    if (had || !m_matches.empty()) {
        m_state->setHighlightedAllocations(QVector<qint64>(m_matches.begin(), m_matches.end()));
    }
    updateCount();
}

void SearchBar::next() {
    if (m_timer->isActive()) {
        search();
    }
    if (!m_matches.empty()) {
        go(m_current < 0 ? 0 : (m_current + 1) % int(m_matches.size()));
    }
}

void SearchBar::previous() {
    if (m_timer->isActive()) {
        search();
    }
    if (!m_matches.empty()) {
        const int n = int(m_matches.size());
        go(m_current < 0 ? n - 1 : (m_current + n - 1) % n);
    }
}

void SearchBar::go(int index) {
    m_current = index;
    const int64_t a = m_matches[size_t(index)];
    m_state->setSelectedAllocation(a);
    m_state->reveal(a);
    updateCount();
}

void SearchBar::focusSearch() {
    m_edit->setFocus(Qt::ShortcutFocusReason);
    m_edit->selectAll();
}

void SearchBar::updateCount() {
    const QLocale locale;
    if (TraceSearch::normalize(m_edit->text().toStdString()).empty()) {
        m_count->clear();
    } else if (m_matches.empty()) {
        m_count->setText(tr("No matches"));
    } else if (m_current < 0) {
        m_count->setText(tr("%n match(es)", nullptr, int(m_matches.size())));
    } else {
        m_count->setText(
            tr("%1 of %2")
                .arg(locale.toString(m_current + 1), locale.toString(qint64(m_matches.size()))));
    }
    m_prev->setEnabled(!m_matches.empty());
    m_next->setEnabled(!m_matches.empty());
}

void SearchBar::retranslateUi() {
    m_edit->setPlaceholderText(tr("Search address, operator, module, category, frame"));
    m_edit->setToolTip(
        tr("Find allocations by address (hex, with or without 0x), operator, "
           "module, category or any stack frame text (Ctrl+F)"));
    m_prev->setToolTip(tr("Previous match (Shift+F3)"));
    m_next->setToolTip(tr("Next match (F3)"));
    updateCount();
}

void SearchBar::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope

#include "common/filter_chip.h"

#include "run_document.h"

#include "trace/trace.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>

namespace memscope {

FilterChip::FilterChip(RunDocument* state, QWidget* parent) : QFrame(parent), m_state(state) {
    setObjectName(QStringLiteral("filter_chip"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(255, 240, 215));
    setPalette(p);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 2, 2, 2);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("filter_text"));
    m_mode = new QComboBox(this);
    m_mode->setObjectName(QStringLiteral("filter_mode"));
    m_mode->addItem(QString(), int(RangeFilter::Mode::AliveIn));
    m_mode->addItem(QString(), int(RangeFilter::Mode::MadeIn));
    m_clear = new QToolButton(this);
    m_clear->setObjectName(QStringLiteral("filter_clear"));
    m_clear->setText(QStringLiteral("\u2715"));
    m_clear->setAutoRaise(true);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_mode);
    layout->addWidget(m_clear);
    connect(m_clear, &QToolButton::clicked, m_state, &RunDocument::clearFilter);
    connect(m_mode, qOverload<int>(&QComboBox::activated), this, [this](int index) {
        m_state->setFilterMode(RangeFilter::Mode(m_mode->itemData(index).toInt()));
    });
    connect(m_state, &RunDocument::filterChanged, this, &FilterChip::follow);
    retranslateUi();
}

FilterChip::~FilterChip() = default;

QString FilterChip::text() const {
    return m_label->text();
}

QString FilterChip::timeText(qint64 ns) {
    const QLocale locale;
    const double s = double(ns) / 1e9;
    if (s >= 0.1 || ns == 0) {
        return tr("%1 s").arg(locale.toString(s, 'f', 2));
    }
    if (s >= 1e-4) {
        return tr("%1 ms").arg(locale.toString(s * 1e3, 'f', 1));
    }
    return tr("%1 µs").arg(locale.toString(s * 1e6, 'f', 0));
}

void FilterChip::follow() {
    const auto& filter = m_state->filter();
    const auto trace = m_state->trace();
    setVisible(filter.has_value());
    if (!filter || !trace) {
        m_label->clear();
        return;
    }
    const QLocale locale;
    const auto& times = trace->events.time_ns;
    const qint64 last = std::max<qint64>(filter->first, filter->last - 1);
    QString text = tr("Filtered to events %1–%2")
                       .arg(locale.toString(qint64(filter->first)), locale.toString(last));
    if (size_t(last) < times.size()) {
        text += QStringLiteral(" (%1–%2)")
                    .arg(timeText(times[size_t(filter->first)]), timeText(times[size_t(last)]));
    }
    text += QStringLiteral(": ") +
            tr("%n allocation(s)", nullptr, int(m_state->filteredAllocations().size()));
    m_label->setText(text);
    m_mode->setCurrentIndex(m_mode->findData(int(filter->mode)));
    m_label->setToolTip(m_state->filterOrigin() == RunDocument::FilterOrigin::Timeline
                            ? tr("Chosen by Ctrl+drag on the timeline")
                        : m_state->filterOrigin() == RunDocument::FilterOrigin::Minimap
                            ? tr("Chosen by Ctrl+drag on the overview")
                        : m_state->filterOrigin() == RunDocument::FilterOrigin::CommandLine
                            ? tr("Given with --filter on the command line")
                            : QString());
}

void FilterChip::retranslateUi() {
    m_mode->setItemText(0, tr("alive in the range"));
    m_mode->setItemText(1, tr("made in the range"));
    m_mode->setToolTip(
        tr("Which allocations the views show: those alive at some event of the "
           "range, or those allocated in it"));
    m_clear->setToolTip(tr("Clear the filter"));
    follow();
}

void FilterChip::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QFrame::changeEvent(event);
}

}  // namespace memscope

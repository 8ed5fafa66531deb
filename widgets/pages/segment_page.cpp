#include "pages/segment_page.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "explain/reserved_memory.h"
#include "explain/segment_state.h"
#include "pages/segment_view.h"
#include "run_document.h"
#include "run_indexes.h"
#include "timeline/timeline_view.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace memscope {

namespace {

QString figures(const ReservedMemory::Point& p) {
    QString text = SegmentPage::tr("reserved %1, allocated %2, fragmentation %3")
                       .arg(bytesText(p.reserved), bytesText(p.allocated), bytesText(p.free_bytes));
    if (p.segments >= 0) {
        text += SegmentPage::tr(", largest free block %1 (%2 free blocks in %3 segments)")
                    .arg(bytesText(p.largest_free_block))
                    .arg(p.free_blocks)
                    .arg(p.segments);
    }
    return text;
}

}  // namespace

SegmentPage::SegmentPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_message = new QLabel(this);
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_message, 1);

    m_content = new QWidget(this);
    auto* content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    m_header = new QLabel(m_content);
    m_header->setTextFormat(Qt::RichText);
    m_header->setWordWrap(true);
    m_header->setTextInteractionFlags(Qt::TextSelectableByMouse);
    content->addWidget(m_header);

    auto* controls = new QHBoxLayout;
    m_eventLabel = new QLabel(m_content);
    m_slider = new QSlider(Qt::Horizontal, m_content);
    m_spin = new QSpinBox(m_content);
    m_peakButton = new QPushButton(m_content);
    m_oomButton = new QPushButton(m_content);
    controls->addWidget(m_eventLabel);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_spin);
    controls->addWidget(m_peakButton);
    controls->addWidget(m_oomButton);
    content->addLayout(controls);
    m_stateLabel = new QLabel(m_content);
    m_stateLabel->setWordWrap(true);
    m_stateLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    content->addWidget(m_stateLabel);
    m_legend = new QLabel(m_content);
    m_legend->setTextFormat(Qt::RichText);
    content->addWidget(m_legend);
    m_view = new SegmentView(m_content);
    content->addWidget(m_view, 1);
    layout->addWidget(m_content, 1);

    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { showAtEvent(v); });
    connect(m_spin, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int v) { showAtEvent(v); });
    connect(m_peakButton, &QPushButton::clicked, this, [this] { showAtEvent(m_peakEvent); });
    connect(m_oomButton, &QPushButton::clicked, this, [this] { showAtEvent(m_oomEvent); });
    retranslateUi();
    setTrace(nullptr);
}

SegmentPage::SegmentPage(RunDocument* document, QWidget* parent) : SegmentPage(parent) {
    setViewState(document);
}

SegmentPage::~SegmentPage() = default;

void SegmentPage::setViewState(RunDocument* document) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
    }
    m_state = document;
    if (m_state) {
        connect(m_state, &RunDocument::selectedAllocationChanged, this, &SegmentPage::showPinned);
    }
}

void SegmentPage::showPinned() {
    const auto trace = m_trace.lock();
    if (!m_state || !m_state->shows(trace)) {
        return;
    }
    const int64_t a = m_state->selectedAllocation();
    if (a >= 0 && size_t(a) < trace->allocations().size()) {
        showAtEvent(std::max<int64_t>(0, trace->allocations()[size_t(a)].alloc_event));
    }
}

void SegmentPage::setTrace(std::shared_ptr<const Trace> trace) {
    m_trace = trace;
    m_event = -1;
    m_peakEvent = trace ? trace->peakEvent() : -1;
    m_oomEvent = -1;
    const bool document_run = m_state && m_state->shows(trace);
    if (document_run) {  // found once per trace
        const auto& ooms = m_state->indexes()->oomEvents();
        m_oomEvent = ooms.empty() ? -1 : ooms.front();
    } else if (trace) {
        const auto& ev = trace->events;
        for (size_t i = 0; i < ev.count() && m_oomEvent < 0; ++i) {
            if (static_cast<EventKind>(ev.kind[i]) == EventKind::Oom) {
                m_oomEvent = int64_t(i);
            }
        }
    }
    const bool segments = trace && !trace->segments().empty();
    m_message->setVisible(!segments);
    m_content->setVisible(segments);
    const int last = trace ? int(std::max<size_t>(1, trace->events.count()) - 1) : 0;
    {
        const QSignalBlocker a(m_slider);
        const QSignalBlocker b(m_spin);
        m_slider->setRange(0, last);
        m_spin->setRange(0, last);
    }
    m_oomButton->setEnabled(m_oomEvent >= 0);
    retranslateUi();  // the message and the header depend on the run
    if (segments) {
        showAtEvent(m_peakEvent >= 0 ? m_peakEvent : last);
    } else {
        m_view->setState(nullptr, SegmentState());
    }
    showPinned();
}

void SegmentPage::showAtEvent(int64_t event) {
    const auto trace = m_trace.lock();
    if (!trace || trace->segments().empty() || event < 0) {
        return;
    }
    event = std::min<int64_t>(event, int64_t(trace->events.count()) - 1);
    if (event == m_event) {
        return;
    }
    m_event = event;
    {
        const QSignalBlocker a(m_slider);
        const QSignalBlocker b(m_spin);
        m_slider->setValue(int(event));
        m_spin->setValue(int(event));
    }
    m_view->setState(trace, SegmentState::at(*trace, event));
    updateState();
}

void SegmentPage::updateHeader() {
    const auto trace = m_trace.lock();
    if (!trace || trace->segments().empty()) {
        return;
    }
    const ReservedMemory r = ReservedMemory::compute(*trace);
    QStringList lines;
    lines << tr("<b>Reserved peak</b>: %1 (%2 bytes) at event %3")
                 .arg(bytesText(r.peakReserved()), QLocale().toString(qint64(r.peakReserved())))
                 .arg(r.peakReservedEvent());
    lines << tr("<b>At the allocated peak</b> (event %1): %2")
                 .arg(r.atPeak().event)
                 .arg(figures(r.atPeak()).toHtmlEscaped());
    if (r.atOom()) {
        lines << tr("<b>At the out-of-memory point</b> (event %1): %2")
                     .arg(r.atOom()->event)
                     .arg(figures(*r.atOom()).toHtmlEscaped());
    } else {
        lines << tr("No out-of-memory event in this run.");
    }
    m_header->setText(lines.join(QStringLiteral("<br/>")));

    std::array<bool, kCategoryCount> present{};
    for (const auto& a : trace->allocations()) {
        present[size_t(a.category) % present.size()] = true;
    }
    QStringList legend;
    for (int c = 0; c < kCategoryCount; ++c) {
        if (present[size_t(c)]) {
            legend << QStringLiteral(
                          "<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;"
                          "</span>&nbsp;%2")
                          .arg(TimelineView::categoryColor(c).name(),
                               TimelineLabels::categoryName(c).toHtmlEscaped());
        }
    }
    legend << QStringLiteral(
                  "<span style=\"background-color:#dcdcdc\">&nbsp;&nbsp;&nbsp;&nbsp;"
                  "</span>&nbsp;%1")
                  .arg(tr("free (hatched)"));
    m_legend->setText(legend.join(QStringLiteral("&nbsp;&nbsp;&nbsp;")));
}

void SegmentPage::updateState() {
    const auto trace = m_trace.lock();
    if (!trace || m_event < 0) {
        m_stateLabel->clear();
        return;
    }
    const SegmentState& s = m_view->state();
    const auto& ev = trace->events;
    QString text = tr("Event %1 (step %2, %3 s): %4 segments, reserved %5, allocated %6, "
                      "fragmentation %7, largest free block %8, %9 free blocks")
                       .arg(m_event)
                       .arg(ev.step[size_t(m_event)])
                       .arg(QLocale().toString(double(ev.time_ns[size_t(m_event)]) / 1e9, 'f', 4))
                       .arg(s.segments().size())
                       .arg(bytesText(s.reserved()), bytesText(s.allocated()),
                            bytesText(s.freeBytes()), bytesText(s.largestFreeBlock()))
                       .arg(s.freeBlocks());
    if (m_event == m_peakEvent) {
        text += tr(" (the allocated peak)");
    } else if (m_event == m_oomEvent) {
        text += tr(" (the out-of-memory point)");
    }
    if (s.outsideBytes() > 0) {
        text += tr("; %1 live outside every segment").arg(bytesText(s.outsideBytes()));
    }
    m_stateLabel->setText(text);
}

void SegmentPage::retranslateUi() {
    const auto trace = m_trace.lock();
    m_eventLabel->setText(tr("Event:"));
    m_peakButton->setText(tr("Peak"));
    m_peakButton->setToolTip(tr("Show the segments at the allocated peak"));
    m_oomButton->setText(tr("OOM"));
    m_oomButton->setToolTip(tr("Show the segments at the out-of-memory event"));
    if (!trace) {
        m_message->setText(tr("No run open."));
    } else if (trace->segments().empty()) {
        if (ReservedMemory::ranOnCpu(*trace) && !ReservedMemory::hasCachingAllocator(*trace)) {
            m_message->setText(
                tr("This run has no caching allocator (CPU): the CPU allocator reserves nothing "
                   "beyond what it hands out, so there are no segments to show."));
        } else {
            m_message->setText(
                tr("This run has reserved totals but no segments: segment events come from the "
                   "caching allocator's trace tracker (LibTorch 2.x) or from an imported "
                   "snapshot. The timeline shows the reserved line."));
        }
    }
    updateHeader();
    updateState();
}

void SegmentPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope

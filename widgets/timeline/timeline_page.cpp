#include "timeline/timeline_page.h"

#include "common/search_bar.h"
#include "common/stack_pane.h"
#include "layout/timeline_layout.h"
#include "run_document.h"
#include "timeline/timeline_minimap.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFuture>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace memscope {

TimelinePage::TimelinePage(QWidget* parent) : TimelinePage(nullptr, parent) {}

TimelinePage::TimelinePage(RunDocument* state, QWidget* parent)
    : QWidget(parent), m_state(state ? state : new RunDocument(this)) {
    setObjectName(QStringLiteral("timeline_page"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("timeline_splitter"));
    outer->addWidget(m_splitter);

    auto* top = new QWidget(m_splitter);
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(0, 0, 0, 0);

    // View options: the combos' items carry the enum values; texts come in retranslateUi.
    auto* options = new QHBoxLayout;
    m_rankLabel = new QLabel(top);
    m_rankCombo = new QComboBox(top);
    m_rankCombo->setObjectName(QStringLiteral("rank"));
    m_rankCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_rankLabel->setVisible(false);
    m_rankCombo->setVisible(false);
    m_allRanks = new QToolButton(top);
    m_allRanks->setObjectName(QStringLiteral("all_ranks"));
    m_allRanks->setCheckable(true);
    m_allRanks->setVisible(false);
    options->addWidget(m_rankLabel);
    options->addWidget(m_rankCombo);
    options->addWidget(m_allRanks);
    m_colorLabel = new QLabel(top);
    m_colorCombo = new QComboBox(top);
    m_colorCombo->setObjectName(QStringLiteral("color_mode"));
    for (const auto mode : {TimelineView::ColorMode::Category, TimelineView::ColorMode::Allocation,
                            TimelineView::ColorMode::Module, TimelineView::ColorMode::Phase}) {
        m_colorCombo->addItem(QString(), int(mode));
    }
    m_plotLabel = new QLabel(top);
    m_plotCombo = new QComboBox(top);
    m_plotCombo->setObjectName(QStringLiteral("plot_mode"));
    m_plotCombo->addItem(QString(), int(TimelineView::PlotMode::Allocations));
    m_plotCombo->addItem(QString(), int(TimelineView::PlotMode::Categories));
    m_axisLabel = new QLabel(top);
    m_axisCombo = new QComboBox(top);
    m_axisCombo->setObjectName(QStringLiteral("x_axis"));
    m_axisCombo->addItem(QString(), false);
    m_axisCombo->addItem(QString(), true);
    m_reset = new QPushButton(top);
    m_reset->setObjectName(QStringLiteral("reset_view"));
    for (QWidget* w : std::initializer_list<QWidget*>{m_colorLabel, m_colorCombo, m_plotLabel,
                                                      m_plotCombo, m_axisLabel, m_axisCombo}) {
        options->addWidget(w);
    }
    options->addStretch(1);
    options->addWidget(m_reset);
    top_layout->addLayout(options);
    // A second row, so that the window keeps its narrowest width: annotations and search.
    auto* find = new QHBoxLayout;
    m_annotations = new QToolButton(top);
    m_annotations->setObjectName(QStringLiteral("annotations_toggle"));
    m_annotations->setCheckable(true);
    find->addWidget(m_annotations);
    find->addStretch(1);
    m_search = new SearchBar(m_state, top);
    find->addWidget(m_search, 2);
    top_layout->addLayout(find);

    // The view, the minimap and the stack pane follow the document (the same trace, layout,
    // window, x axis, selection, highlights and range filter), not each other.
    // The lanes of all ranks take the place of the view, the minimap and the detail controls.
    m_viewStack = new QStackedWidget(top);
    top_layout->addWidget(m_viewStack, 1);
    m_detailed = new QWidget(m_viewStack);
    auto* detailed_layout = new QVBoxLayout(m_detailed);
    detailed_layout->setContentsMargins(0, 0, 0, 0);
    m_view = new TimelineView(m_state, m_detailed);
    detailed_layout->addWidget(m_view, 1);
    m_minimap = new TimelineMinimap(m_state, m_detailed);
    detailed_layout->addWidget(m_minimap);
    m_lanes = new RankLanesView(m_state, m_viewStack);
    m_viewStack->addWidget(m_detailed);
    m_viewStack->addWidget(m_lanes);

    auto* controls = new QHBoxLayout;
    m_label = new QLabel(top);
    m_label->setObjectName(QStringLiteral("detail_label"));
    controls->addWidget(m_label);
    m_slider = new QSlider(Qt::Horizontal, top);
    m_slider->setObjectName(QStringLiteral("detail_slider"));
    m_slider->setRange(0, 0);
    controls->addWidget(m_slider, 1);
    m_countLabel = new QLabel(top);
    controls->addWidget(m_countLabel);
    m_count = new QSpinBox(top);
    m_count->setObjectName(QStringLiteral("detail_count"));
    m_count->setRange(0, 0);
    m_count->setGroupSeparatorShown(true);
    m_count->setKeyboardTracking(false);
    controls->addWidget(m_count);
    m_percent = new QDoubleSpinBox(top);
    m_percent->setObjectName(QStringLiteral("detail_percent"));
    m_percent->setRange(0, 100);
    m_percent->setDecimals(2);
    m_percent->setSuffix(QStringLiteral(" %"));
    m_percent->setKeyboardTracking(false);
    controls->addWidget(m_percent);
    detailed_layout->addLayout(controls);

    m_stackPane = new StackPane(m_state, m_splitter);
    m_splitter->addWidget(top);
    m_splitter->addWidget(m_stackPane);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);

    m_detailTimer = new QTimer(this);
    m_detailTimer->setSingleShot(true);
    m_detailTimer->setInterval(0);
    connect(m_detailTimer, &QTimer::timeout, this, [this] {
        if (m_wantedDetail >= 0) {
            m_view->setDetail(m_wantedDetail);
        }
    });
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { requestDetail(v); });
    connect(m_count, qOverload<int>(&QSpinBox::valueChanged), this,
            [this](int v) { requestDetail(v); });
    connect(m_percent, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this](double p) {
        if (const TimelineLayout* layout = m_view->timelineLayout()) {
            requestDetail(layout->detailForPercent(p));
        }
    });
    connect(m_view, &TimelineView::detailChanged, this, [this] { syncDetailControls(); });
    connect(m_colorCombo, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        m_view->setColorMode(TimelineView::ColorMode(m_colorCombo->itemData(i).toInt()));
    });
    connect(m_plotCombo, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        m_view->setPlotMode(TimelineView::PlotMode(m_plotCombo->itemData(i).toInt()));
    });
    connect(m_axisCombo, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int i) { m_view->setTimeAxis(m_axisCombo->itemData(i).toBool()); });
    connect(m_reset, &QPushButton::clicked, m_view, &TimelineView::resetView);
    connect(m_rankCombo, qOverload<int>(&QComboBox::activated), this, [this](int i) {
        if (i >= 0) {
            m_state->setRank(m_rankCombo->itemData(i).toInt());
        }
    });
    // The run shown is the document's: whoever sets it (the run session, a test) is followed.
    connect(m_state, &RunDocument::traceChanged, this, &TimelinePage::followTrace);
    connect(m_state, &RunDocument::layoutChanged, this, &TimelinePage::followLayout);
    connect(m_state, &RunDocument::rankChanged, this, [this](int rank) {
        const QSignalBlocker block(m_rankCombo);
        m_rankCombo->setCurrentIndex(m_rankCombo->findData(rank));
    });
    // The combos follow the view when code changes it.
    connect(m_view, &TimelineView::colorModeChanged, this, [this](TimelineView::ColorMode mode) {
        const QSignalBlocker block(m_colorCombo);
        m_colorCombo->setCurrentIndex(m_colorCombo->findData(int(mode)));
    });
    connect(m_view, &TimelineView::plotModeChanged, this, [this](TimelineView::PlotMode mode) {
        const QSignalBlocker block(m_plotCombo);
        m_plotCombo->setCurrentIndex(m_plotCombo->findData(int(mode)));
    });
    connect(m_view, &TimelineView::timeAxisChanged, this, [this](bool on) {
        const QSignalBlocker block(m_axisCombo);
        m_axisCombo->setCurrentIndex(m_axisCombo->findData(on));
    });
    connect(m_annotations, &QToolButton::toggled, m_view, &TimelineView::setAnnotationsVisible);
    connect(m_allRanks, &QToolButton::toggled, this, &TimelinePage::showAllRanks);
    // A double-clicked lane is the rank to look at in detail (the document's rank already).
    connect(m_lanes, &RankLanesView::laneActivated, this, [this] { showAllRanks(false); });

    retranslateUi();
    syncDetailControls();
}

TimelinePage::~TimelinePage() = default;

void TimelinePage::setLiveTrace(std::shared_ptr<const Trace> trace,
                                std::shared_ptr<TimelineLayout> layout) {
    const auto shown = m_trace.lock();
    const bool continues = m_live && trace && shown && m_view->timelineLayout() &&
                           trace->events.count() >= shown->events.count() &&
                           trace->meta.started_at == shown->meta.started_at;
    m_state->setTrace(trace, continues, std::move(layout));  // followTrace() shows it
    m_live = trace != nullptr;
}

void TimelinePage::setTrace(std::shared_ptr<const Trace> trace) {
    m_state->setTrace(std::move(trace));  // followTrace() shows it
    m_live = false;
}

void TimelinePage::followTrace() {
    const std::shared_ptr<const Trace> trace = m_state->trace();
    const auto shown = m_trace.lock();
    if (trace == shown) {
        return;
    }
    const bool continues = m_state->isContinuation() && shown && m_view->timelineLayout();
    m_wantedDetail = -1;
    m_pending = false;
    m_trace = trace;
    m_view->setPlaceholderText(QString());
    if (!trace) {
        m_live = false;
        m_view->setTrace(nullptr);
        syncDetailControls();
        return;
    }
    // The document lays the run out (here for a small run or a live run's next snapshot, else
    // on a worker thread: followLayout() shows it when it arrives).
    bool laid_out = false;
    {
        // The layout a small run gets here and now is shown below, not by followLayout().
        const QScopedValueRollback<bool> following(m_followingTrace, true);
        laid_out = m_state->requestLayout();
    }
    if (!laid_out) {
        m_pending = true;
        m_view->setTrace(nullptr);
        m_view->setPlaceholderText(
            tr("Laying out %1 events…").arg(QLocale().toString(qint64(trace->events.count()))));
        syncDetailControls();
        return;
    }
    if (continues) {
        m_view->updateTrace(trace, m_state->drawingLayout());
        syncDetailControls();
        return;
    }
    adoptLayout(m_state->drawingLayout());
}

void TimelinePage::followLayout() {
    std::shared_ptr<TimelineLayout> layout = m_state->drawingLayout();
    if (m_followingTrace || !layout || layout.get() == m_view->timelineLayout() ||
        m_state->trace() != m_trace.lock()) {
        return;
    }
    adoptLayout(std::move(layout));
}

void TimelinePage::adoptLayout(std::shared_ptr<TimelineLayout> layout) {
    m_pending = false;
    m_view->setPlaceholderText(QString());
    m_view->setTrace(m_trace.lock(), std::move(layout));
    syncDetailControls();
    emit layoutReady();
}

void TimelinePage::requestDetail(int64_t n) {
    m_wantedDetail = n;
    m_detailTimer->start();
}

void TimelinePage::syncDetailControls() {
    const int64_t count = m_view->allocationCount();
    const int64_t detail = m_view->detail();
    const int max = int(std::min<int64_t>(count, std::numeric_limits<int>::max()));
    const QSignalBlocker block_slider(m_slider);
    const QSignalBlocker block_count(m_count);
    const QSignalBlocker block_percent(m_percent);
    m_slider->setRange(0, max);
    m_slider->setValue(int(std::min<int64_t>(detail, max)));
    m_slider->setPageStep(std::max(1, max / 20));
    m_slider->setSingleStep(std::max(1, max / 1000));
    m_count->setRange(0, max);
    m_count->setValue(int(std::min<int64_t>(detail, max)));
    m_percent->setValue(count > 0 ? 100.0 * double(detail) / double(count) : 0.0);
    const bool enabled = m_view->timelineLayout() != nullptr;
    m_slider->setEnabled(enabled);
    m_count->setEnabled(enabled);
    m_percent->setEnabled(enabled);
    m_label->setText(m_view->detailText());
}

void TimelinePage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void TimelinePage::setRanks(const QStringList& labels, int current) {
    const QSignalBlocker block(m_rankCombo);
    m_rankCombo->clear();
    for (int r = 0; r < labels.size(); ++r) {
        m_rankCombo->addItem(labels[r], r);
    }
    m_rankCombo->setCurrentIndex(current);
    m_state->setRank(labels.isEmpty() ? -1 : current);
    m_rankLabel->setVisible(!labels.isEmpty());
    m_rankCombo->setVisible(!labels.isEmpty());
}

void TimelinePage::setRankRuns(const QVector<RankLanesView::Run>& runs) {
    m_lanes->setRuns(runs);
    m_allRanks->setVisible(!runs.isEmpty());
    if (runs.isEmpty()) {
        showAllRanks(false);
    }
}

void TimelinePage::showAllRanks(bool on) {
    on = on && m_lanes->hasRuns();
    {
        const QSignalBlocker block(m_allRanks);
        m_allRanks->setChecked(on);
    }
    m_viewStack->setCurrentWidget(on ? static_cast<QWidget*>(m_lanes) : m_detailed);
    // The view options are the detailed timeline's.
    for (QWidget* w : std::initializer_list<QWidget*>{m_colorCombo, m_plotCombo, m_axisCombo,
                                                      m_reset, m_annotations}) {
        w->setEnabled(!on);
    }
}

bool TimelinePage::showsAllRanks() const {
    return m_viewStack->currentWidget() == m_lanes;
}

void TimelinePage::retranslateUi() {
    m_rankLabel->setText(tr("Rank"));
    m_rankCombo->setToolTip(tr("The process (rank) of the multi-process run shown in every view"));
    m_allRanks->setText(tr("All ranks"));
    m_allRanks->setToolTip(
        tr("Every rank at once: one lane per rank, steps aligned, one memory scale; click a lane "
           "to pick its rank"));
    m_countLabel->setText(tr("Draw the largest"));
    m_colorLabel->setText(tr("Colour by"));
    m_colorCombo->setItemText(0, tr("Category"));
    m_colorCombo->setItemText(1, tr("Allocation"));
    m_colorCombo->setItemText(2, tr("Module"));
    m_colorCombo->setItemText(3, tr("Phase"));
    m_colorCombo->setToolTip(tr("How the allocations are coloured"));
    m_plotLabel->setText(tr("Plot"));
    m_plotCombo->setItemText(0, tr("Allocations"));
    m_plotCombo->setItemText(1, tr("By category"));
    m_plotCombo->setToolTip(tr("Allocations one by one, or memory stacked by category over time"));
    m_axisLabel->setText(tr("x axis"));
    m_axisCombo->setItemText(0, tr("Events"));
    m_axisCombo->setItemText(1, tr("Wall time"));
    m_axisCombo->setToolTip(tr("Space the timeline by allocation and free events or by wall time"));
    m_annotations->setText(tr("Annotations"));
    m_annotations->setToolTip(
        tr("Show steps, phases, checkpoint recomputations and imported "
           "annotations as labelled bands"));
    m_reset->setText(tr("Reset view"));
    m_reset->setToolTip(tr("Show the whole run (double-click the timeline does the same)"));
    m_slider->setToolTip(
        tr("How many of the largest allocations are drawn one by one; the "
           "others are summed into one summarized band on top."));
    m_count->setToolTip(tr("Number of allocations drawn one by one"));
    m_percent->setToolTip(tr("Share of all allocations drawn one by one"));
    m_label->setText(m_view->detailText());
}

}  // namespace memscope

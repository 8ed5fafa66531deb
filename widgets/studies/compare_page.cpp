#include "studies/compare_page.h"

#include "analysis/aligned_difference.h"
#include "analysis/stack_diff.h"
#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "error_text.h"
#include "io/atomic_file.h"
#include "itemmodels/comparison_model.h"
#include "itemmodels/stack_diff_model.h"
#include "layout/timeline_layout.h"
#include "pages/flame_graph_view.h"
#include "studies/overlay_chart.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"
#include "when_finished.h"

#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace memscope {

ComparePage::ComparePage(QWidget* parent) : QWidget(parent) {
    m_viewA = new TimelineView(this);
    m_viewB = new TimelineView(this);
    m_labelA = new QLabel(this);
    m_labelB = new QLabel(this);
    m_sync = new QCheckBox(this);
    m_sync->setChecked(true);
    m_exportButton = new QPushButton(this);
    m_model = new ComparisonModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);  // model order until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();

    auto* stacked = new QWidget(this);
    auto* tl = new QVBoxLayout(stacked);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(m_labelA);
    tl->addWidget(m_viewA, 1);
    tl->addWidget(m_labelB);
    tl->addWidget(m_viewB, 1);

    // Overlay: both totals on A's axis, and the difference at the picked point below.
    auto* overlay = new QSplitter(Qt::Vertical, this);
    m_overlayChart = new OverlayChart(overlay);
    auto* differenceBox = new QWidget(overlay);
    auto* dl = new QVBoxLayout(differenceBox);
    dl->setContentsMargins(0, 0, 0, 0);
    m_overlayLabel = new QLabel(differenceBox);
    m_overlayLabel->setObjectName(QStringLiteral("compare_overlay_label"));
    m_overlayLabel->setWordWrap(true);
    m_overlayLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_overlayTable = new QTableWidget(0, 5, differenceBox);
    m_overlayTable->setObjectName(QStringLiteral("compare_overlay_table"));
    m_overlayTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_overlayTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_overlayTable->verticalHeader()->hide();
    m_overlayTable->horizontalHeader()->setStretchLastSection(true);
    dl->addWidget(m_overlayLabel);
    dl->addWidget(m_overlayTable, 1);
    overlay->addWidget(m_overlayChart);
    overlay->addWidget(differenceBox);
    overlay->setStretchFactor(0, 3);
    overlay->setStretchFactor(1, 2);

    m_overlay = new QCheckBox(this);
    m_overlay->setObjectName(QStringLiteral("compare_overlay_mode"));
    m_modes = new QStackedWidget(this);
    m_modes->addWidget(stacked);
    m_modes->addWidget(overlay);
    auto* timelines = new QWidget(this);
    auto* ml = new QVBoxLayout(timelines);
    ml->setContentsMargins(0, 0, 0, 0);
    ml->addWidget(m_overlay);
    ml->addWidget(m_modes, 1);

    auto* tableBox = new QWidget(this);
    auto* bl = new QVBoxLayout(tableBox);
    bl->setContentsMargins(0, 0, 0, 0);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_sync);
    controls->addStretch(1);
    controls->addWidget(m_exportButton);
    bl->addLayout(controls);
    bl->addWidget(m_table, 1);

    m_stackModel = new StackDiffModel(this);
    m_stackProxy = new QSortFilterProxyModel(this);
    m_stackProxy->setSourceModel(m_stackModel);
    m_stackProxy->setSortRole(StackDiffModel::SortRole);
    m_stackTable = new QTableView(this);
    m_stackTable->setModel(m_stackProxy);
    m_stackTable->setSortingEnabled(true);
    m_stackTable->sortByColumn(-1, Qt::AscendingOrder);  // by |difference| until a click
    m_stackTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_stackTable->horizontalHeader()->setSectionResizeMode(StackDiffModel::Stack,
                                                           QHeaderView::Stretch);
    m_stackTable->verticalHeader()->hide();
    m_stackTable->setWordWrap(false);
    m_stackTable->setTextElideMode(Qt::ElideLeft);  // the innermost frames matter most

    auto* flameBox = new QWidget(this);
    auto* fl = new QVBoxLayout(flameBox);
    fl->setContentsMargins(0, 0, 0, 0);
    m_diffLegend = new QLabel(flameBox);
    m_diffLegend->setWordWrap(true);
    m_diffFlame = new FlameGraphView(flameBox);
    fl->addWidget(m_diffLegend);
    fl->addWidget(m_diffFlame, 1);

    // Below the timelines: the summary table on the left, the per-stack difference on the right.
    m_details = new QTabWidget(this);
    m_details->addTab(flameBox, QString());
    m_details->addTab(m_stackTable, QString());
    auto* lower = new QSplitter(Qt::Horizontal, this);
    lower->addWidget(tableBox);
    lower->addWidget(m_details);
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);

    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(timelines);
    m_splitter->addWidget(lower);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_splitter);

    connect(m_viewA, &TimelineView::visibleRangeChanged, this,
            [this](double x0, double x1) { follow(true, x0, x1); });
    connect(m_viewB, &TimelineView::visibleRangeChanged, this,
            [this](double x0, double x1) { follow(false, x0, x1); });
    connect(m_overlay, &QCheckBox::toggled, this, [this] { updateMode(); });
    connect(m_overlayChart, &OverlayChart::picked, this, &ComparePage::showDifferenceAt);
    connect(m_sync, &QCheckBox::toggled, this, [this](bool on) {
        if (on) {
            follow(true, m_viewA->visibleX0(), m_viewA->visibleX1());
        }
    });
    connect(m_exportButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export comparison"), QString(),
                                                          tr("CSV files (*.csv)"));
        if (path.isEmpty()) {
            return;
        }
        if (const Outcome written = exportCsv(path); !written) {
            m_labelB->setText(written.message());
        }
    });
    retranslateUi();
}

ComparePage::~ComparePage() = default;

void ComparePage::setRuns(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b,
                          QString nameA, QString nameB) {
    m_comparing = a && b;
    m_nameA = std::move(nameA);
    m_nameB = std::move(nameB);
    ++m_generation;
    m_alignment = StepAlignment();
    if (!m_comparing) {
        m_model->setComparison(RunComparison());
        m_stackModel->setDiff(nullptr);
        m_diffFlame->setTree(nullptr);
        m_viewA->setTrace(nullptr);
        m_viewB->setTrace(nullptr);
        m_overlayChart->clear();
        m_overlayTable->setRowCount(0);
        m_overlayLabel->clear();
        m_pending = false;
        retranslateUi();
        return;
    }
    m_model->setComparison(
        RunComparison::compare(*a, *b, m_nameA.toStdString(), m_nameB.toStdString()));
    m_table->resizeColumnsToContents();
    auto diff = std::make_shared<const StackDiff>(StackDiff::compare(*a, *b));
    m_stackModel->setDiff(diff);
    m_diffFlame->setTree(std::shared_ptr<const StackTree>(diff, &diff->tree()),
                         FlameGraphView::Mode::Difference);
    m_pending = true;
    m_viewA->setTrace(nullptr);
    m_viewB->setTrace(nullptr);
    m_viewA->setPlaceholderText(tr("Laying out..."));
    m_viewB->setPlaceholderText(tr("Laying out..."));
    retranslateUi();
    // The runs travel with their layouts: the page keeps neither run, its two timelines do.
    const uint64_t generation = m_generation;
    using Layouts = std::pair<std::shared_ptr<TimelineLayout>, std::shared_ptr<TimelineLayout>>;
    whenFinished(this, QtConcurrent::run([a, b] {
                     return Layouts(std::make_shared<TimelineLayout>(*a),
                                    std::make_shared<TimelineLayout>(*b));
                 }),
                 [this, generation, a, b](Layouts layouts) {
                     if (generation == m_generation) {
                         adoptLayouts(a, std::move(layouts.first), b, std::move(layouts.second));
                     }
                 });
}

void ComparePage::adoptLayouts(std::shared_ptr<const Trace> a,
                               std::shared_ptr<TimelineLayout> layout_a,
                               std::shared_ptr<const Trace> b,
                               std::shared_ptr<TimelineLayout> layout_b) {
    m_alignment = StepAlignment::between(*a, *layout_a, *b, *layout_b);
    m_overlayChart->setRuns(a, layout_a, b, layout_b, m_alignment, m_nameA, m_nameB);
    m_following = true;  // the two resets below must not move each other
    m_viewA->setTrace(std::move(a), std::move(layout_a));
    m_viewB->setTrace(std::move(b), std::move(layout_b));
    m_following = false;
    m_pending = false;
    showDifferenceAt(-1);
    emit layoutsReady();
}

void ComparePage::updateMode() {
    m_modes->setCurrentIndex(m_overlay->isChecked() ? 1 : 0);
    m_sync->setEnabled(!m_overlay->isChecked());
}

void ComparePage::showDifferenceAt(double x) {
    const Trace* a = m_viewA->trace();
    const Trace* b = m_viewB->trace();
    const TimelineLayout* layout = m_viewA->timelineLayout();
    m_overlayTable->setRowCount(0);
    if (!a || !b || !layout) {
        return;
    }
    // The moment at x: A's step and phase there; outside a step's phases, each run's peak.
    AlignedDifference::Moment moment = AlignedDifference::parseMoment("peak");
    if (x >= 0 && layout->xCount() > 0) {
        const int64_t event =
            layout->eventAt(std::clamp<int64_t>(int64_t(x), 0, layout->xCount() - 1));
        const int32_t step = a->events.step[size_t(event)];
        const auto phase = Phase(a->events.phase[size_t(event)]);
        if (step >= 1 &&
            (phase == Phase::Forward || phase == Phase::Backward || phase == Phase::Optimizer)) {
            moment = AlignedDifference::parseMoment(std::to_string(step) + ":" + toString(phase));
        }
    }
    AlignedDifference d;
    try {
        d = AlignedDifference::compute(*a, *b, moment, m_nameA.toStdString(),
                                       m_nameB.toStdString());
    } catch (const std::exception& e) {
        m_overlayLabel->setText(errorText(e));
        return;
    }
    m_overlayChart->setPickedX(x >= 0 ? x : double(d.event_a >= 0 ? layout->peakX() : -1));
    const QString where = moment.step < 0 ? tr("At each run's peak")
                                          : tr("At step %1, %2 (each run's highest point there)")
                                                .arg(moment.step)
                                                .arg(TimelineLabels::phaseName(moment.phase));
    m_overlayLabel->setText(tr("%1: A %2, B %3, difference %4.")
                                .arg(where, bytesText(d.total_a), bytesText(d.total_b),
                                     signedBytesText(d.total_b - d.total_a)));
    int row = 0;
    for (const auto& r : d.rows) {
        if (r.delta() == 0) {
            continue;
        }
        m_overlayTable->insertRow(row);
        QString section;
        switch (r.section) {
            case AlignedDifference::Section::Category:
                section = tr("category");
                break;
            case AlignedDifference::Section::Module:
                section = tr("module");
                break;
            case AlignedDifference::Section::Place:
                section = tr("place");
                break;
        }
        const QStringList cells = {section, bytesText(r.a), bytesText(r.b),
                                   signedBytesText(r.delta()), QString::fromStdString(r.name)};
        for (int c = 0; c < cells.size(); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c >= 1 && c <= 3) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            m_overlayTable->setItem(row, c, item);
        }
        ++row;
    }
    m_overlayTable->resizeColumnsToContents();
}

void ComparePage::follow(bool from_a, double x0, double x1) {
    if (m_following || m_pending || !m_sync->isChecked() || !m_viewA->timelineLayout() ||
        !m_viewB->timelineLayout()) {
        return;
    }
    m_following = true;
    if (from_a) {
        m_viewB->setVisibleRange(m_alignment.aToB(x0), m_alignment.aToB(x1));
    } else {
        m_viewA->setVisibleRange(m_alignment.bToA(x0), m_alignment.bToA(x1));
    }
    m_following = false;
}

Outcome ComparePage::exportCsv(const QString& path) {
    const std::string text =
        TableExporter::toCsv(m_model->comparison().toTable(TableExporter::Units::Raw));
    try {
        writeFileAtomically(path.toStdString(), [&text](std::ostream& out) { out << text; });
    } catch (const std::exception& e) {
        return Outcome::failure(errorText(e));
    }
    return {};
}

void ComparePage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void ComparePage::retranslateUi() {
    m_labelA->setText(m_nameA.isEmpty() ? tr("Run A") : tr("A: %1").arg(m_nameA));
    m_labelB->setText(m_nameB.isEmpty() ? tr("Run B") : tr("B: %1").arg(m_nameB));
    m_sync->setText(tr("Synchronize the timelines (by step)"));
    m_sync->setToolTip(tr("Zooming or panning one timeline shows the same steps in the other"));
    m_exportButton->setText(tr("Export CSV..."));
    m_overlay->setText(tr("Overlay on one axis (B aligned to A's steps)"));
    m_overlayTable->setHorizontalHeaderLabels(
        {tr("By"), tr("A"), tr("B"), tr("B - A"), tr("Category, module or place")});
    m_details->setTabText(0, tr("Difference flame graph"));
    m_details->setTabText(1, tr("By stack at the peak"));
    m_diffLegend->setText(
        tr("Bytes alive at each run's peak by stack, B minus A: red frames grew, blue frames "
           "shrank; a frame is as wide as the bytes that changed below it."));
    m_diffFlame->setPlaceholderText(m_comparing ? tr("The two runs hold the same bytes by stack "
                                                     "at their peaks.")
                                                : tr("Compare two runs to see the difference."));
}

}  // namespace memscope

#include "pages/growth_page.h"

#include "common/byte_format.h"
#include "explain/step_growth.h"
#include "run_document.h"
#include "trace/trace.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace memscope {

namespace {

enum PlaceColumn {
    PlaceTrend,
    PlacePerStep,
    PlaceCount,
    PlaceSteps,
    PlaceKept,
    PlaceMadeAt,
    PlaceCalledFrom,
    PlaceOperator,
    PlaceColumnCount
};

enum StepColumn { StepNumber, StepFloor, StepMade, StepKeptNext, StepKeptLast, StepColumnCount };

QTableWidget* makeTable(QWidget* parent, const QString& name, int columns) {
    auto* table = new QTableWidget(0, columns, parent);
    table->setObjectName(name);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->setVisible(false);
    table->horizontalHeader()->setStretchLastSection(true);
    table->setAlternatingRowColors(true);
    return table;
}

QTableWidgetItem* cell(const QString& text, bool number = false) {
    auto* item = new QTableWidgetItem(text);
    if (number) {
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    return item;
}

}  // namespace

GrowthPage::GrowthPage(RunDocument* document, QWidget* parent)
    : QWidget(parent), m_state(document) {
    auto* layout = new QVBoxLayout(this);
    m_verdict = new QLabel(this);
    m_verdict->setObjectName(QStringLiteral("growth_verdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_verdict->font();
    bold.setBold(true);
    m_verdict->setFont(bold);
    layout->addWidget(m_verdict);

    auto* bar = new QHBoxLayout;
    m_placesTitle = new QLabel(this);
    bar->addWidget(m_placesTitle);
    bar->addStretch(1);
    m_groupingLabel = new QLabel(this);
    bar->addWidget(m_groupingLabel);
    m_grouping = new QComboBox(this);
    m_grouping->setObjectName(QStringLiteral("growth_grouping"));
    m_grouping->addItems({QString(), QString()});
    m_groupingLabel->setBuddy(m_grouping);
    bar->addWidget(m_grouping);
    layout->addLayout(bar);
    m_places = makeTable(this, QStringLiteral("growth_places"), PlaceColumnCount);
    layout->addWidget(m_places, 3);
    m_hint = new QLabel(this);
    m_hint->setWordWrap(true);
    layout->addWidget(m_hint);
    m_stepsTitle = new QLabel(this);
    layout->addWidget(m_stepsTitle);
    m_steps = makeTable(this, QStringLiteral("growth_steps"), StepColumnCount);
    // Figures: each column as wide as its title and cells (a long title is not cut).
    m_steps->horizontalHeader()->setStretchLastSection(false);
    layout->addWidget(m_steps, 2);

    connect(m_grouping, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (m_highlightedRow >= 0) {
            toggleRow(m_highlightedRow);  // clears what the other grouping's row highlighted
        }
        fillPlaces();
    });
    connect(m_places, &QTableWidget::cellClicked, this, [this](int row, int) { toggleRow(row); });
    if (m_state) {
        connect(this, &GrowthPage::allocationsHighlighted, m_state,
                &RunDocument::setHighlightedAllocations);
        // Another highlight (a search, a module row) replaces this page's.
        connect(m_state, &RunDocument::highlightedAllocationsChanged, this,
                [this](const QVector<qint64>& allocations) {
                    if (m_highlightedRow >= 0 && allocations.isEmpty()) {
                        m_highlightedRow = -1;
                        m_places->clearSelection();
                    }
                });
    }
    retranslateUi();
    setTrace(nullptr);
}

GrowthPage::~GrowthPage() = default;

void GrowthPage::setTrace(std::shared_ptr<const Trace> trace) {
    const uint64_t generation = ++m_generation;
    m_highlightedRow = -1;
    if (!trace) {
        adopt(nullptr);
        return;
    }
    if (trace->events.count() <= m_asyncEvents) {
        adopt(std::make_shared<const StepGrowth>(StepGrowth::analyze(*trace)));
        return;
    }
    m_growth.reset();
    m_pending = true;
    updateVerdict();
    if (!m_watcher) {
        m_watcher = new QFutureWatcher<std::shared_ptr<const StepGrowth>>(this);
        connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
            if (m_watcher->isFinished() &&
                m_watcher->property("generation").toULongLong() == m_generation) {
                adopt(m_watcher->result());
            }
        });
    }
    m_watcher->setProperty("generation", qulonglong(generation));
    m_watcher->setFuture(QtConcurrent::run(
        [trace] { return std::make_shared<const StepGrowth>(StepGrowth::analyze(*trace)); }));
}

void GrowthPage::adopt(std::shared_ptr<const StepGrowth> growth) {
    m_pending = false;
    m_growth = std::move(growth);
    fillPlaces();
    fillSteps();
    updateVerdict();
    emit growthReady();
}

void GrowthPage::toggleRow(int row) {
    if (!m_growth) {
        return;
    }
    const auto& groups = shownGroups();
    if (row < 0 || size_t(row) >= groups.size() || row == m_highlightedRow) {
        m_highlightedRow = -1;
        m_places->clearSelection();
        emit allocationsHighlighted({});
        return;
    }
    m_highlightedRow = row;
    QVector<qint64> allocations;
    allocations.reserve(qsizetype(groups[size_t(row)].allocations.size()));
    for (const int64_t a : groups[size_t(row)].allocations) {
        allocations.push_back(a);
    }
    emit allocationsHighlighted(allocations);
}

const std::vector<StepGrowth::Group>& GrowthPage::shownGroups() const {
    return m_grouping->currentIndex() == 1 ? m_growth->byModule() : m_growth->byStack();
}

void GrowthPage::fillPlaces() {
    m_places->setRowCount(0);
    if (!m_growth) {
        return;
    }
    const auto& groups = shownGroups();
    const bool by_module = m_grouping->currentIndex() == 1;
    m_places->setHorizontalHeaderItem(
        PlaceMadeAt, new QTableWidgetItem(by_module ? tr("Module") : tr("Made at")));
    m_places->setRowCount(int(groups.size()));
    for (size_t i = 0; i < groups.size(); ++i) {
        const auto& g = groups[i];
        const int r = int(i);
        QString trend;
        switch (g.trend) {
            case StepGrowth::Trend::Grows:
                trend = tr("grows");
                break;
            case StepGrowth::Trend::Stopped:
                trend = tr("stopped");
                break;
            case StepGrowth::Trend::Once:
                trend = tr("kept once");
                break;
        }
        m_places->setItem(r, PlaceTrend, cell(trend));
        m_places->setItem(r, PlacePerStep, cell(bytesText(g.bytes_per_step), true));
        m_places->setItem(r, PlaceCount, cell(QString::number(g.count_per_step), true));
        m_places->setItem(
            r, PlaceSteps,
            cell(g.first_step == g.last_step ? QString::number(g.first_step)
                                             : tr("%1-%2").arg(g.first_step).arg(g.last_step)));
        m_places->setItem(r, PlaceKept, cell(bytesText(g.kept_bytes), true));
        m_places->setItem(r, PlaceMadeAt,
                          cell(QString::fromStdString(by_module ? g.name : g.made_at)));
        m_places->setItem(r, PlaceCalledFrom, cell(QString::fromStdString(g.called_from)));
        m_places->setItem(r, PlaceOperator, cell(QString::fromStdString(g.op)));
        m_places->item(r, PlaceMadeAt)->setToolTip(QString::fromStdString(g.name));
    }
    m_places->resizeColumnsToContents();
}

void GrowthPage::fillSteps() {
    m_steps->setRowCount(0);
    if (!m_growth) {
        return;
    }
    const auto& steps = m_growth->steps();
    m_steps->setRowCount(int(steps.size()));
    for (size_t i = 0; i < steps.size(); ++i) {
        const auto& s = steps[i];
        const int r = int(i);
        const bool judged = s.step < m_growth->completeSteps();
        m_steps->setItem(r, StepNumber, cell(QString::number(s.step), true));
        m_steps->setItem(r, StepFloor, cell(bytesText(s.floor_bytes), true));
        m_steps->setItem(r, StepMade, cell(bytesText(s.made_bytes), true));
        m_steps->setItem(r, StepKeptNext,
                         cell(judged ? bytesText(s.kept_next_bytes) : tr("-"), true));
        m_steps->setItem(r, StepKeptLast,
                         cell(judged ? bytesText(s.kept_last_bytes) : tr("-"), true));
    }
    m_steps->resizeColumnsToContents();
}

void GrowthPage::updateVerdict() {
    if (m_pending) {
        m_verdict->setText(tr("Finding what each step keeps..."));
        return;
    }
    if (!m_growth) {
        m_verdict->setText(tr("No run."));
        return;
    }
    const StepGrowth& g = *m_growth;
    const auto& groups = g.byStack();
    const StepGrowth::Group* top = groups.empty() ? nullptr : &groups.front();
    const QString where =
        top == nullptr || top->made_at.empty()
            ? QString()
            : (top->called_from.empty()
                   ? tr(" The most is made at %1.").arg(QString::fromStdString(top->made_at))
                   : tr(" The most is made at %1, called from %2.")
                         .arg(QString::fromStdString(top->made_at),
                              QString::fromStdString(top->called_from)));
    switch (g.verdict()) {
        case StepGrowth::Verdict::TooFewSteps:
            m_verdict->setText(
                tr("%n complete step(s): too few to tell whether memory grows "
                   "(it takes 3).",
                   nullptr, g.completeSteps()));
            break;
        case StepGrowth::Verdict::Steady:
            m_verdict->setText(
                tr("Does not grow: what each step makes is freed by the end of the next one "
                   "(end-of-step floor %1).")
                    .arg(bytesText(g.steps().empty() ? 0 : g.steps().back().floor_bytes)));
            break;
        case StepGrowth::Verdict::Grows:
            m_verdict->setText(tr("Grows %1 a step from step %2: kept to the last step (%3).")
                                   .arg(bytesText(g.bytesPerStep()))
                                   .arg(g.fromStep())
                                   .arg(g.completeSteps()) +
                               where);
            break;
        case StepGrowth::Verdict::Stopped: {
            const StepGrowth::Span span = g.span(StepGrowth::Trend::Stopped);
            m_verdict->setText(tr("Grew %1 over steps %2-%3, then stopped growing.")
                                   .arg(bytesText(span.kept_bytes))
                                   .arg(span.first_step)
                                   .arg(span.last_step) +
                               where);
            break;
        }
    }
}

void GrowthPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void GrowthPage::retranslateUi() {
    m_placesTitle->setText(tr("What the steps keep, largest first:"));
    m_groupingLabel->setText(tr("&Group by:"));
    m_grouping->setItemText(0, tr("Stack"));
    m_grouping->setItemText(1, tr("Module"));
    m_hint->setText(
        tr("Parameters, gradients and optimizer state are left out. Click a row to "
           "highlight the allocations it kept on the timeline; click it again to "
           "clear them."));
    m_stepsTitle->setText(tr("Per complete step:"));
    m_places->setHorizontalHeaderLabels({tr("Trend"), tr("A step"), tr("Allocations a step"),
                                         tr("Steps"), tr("Kept"), tr("Made at"), tr("Called from"),
                                         tr("Operator")});
    m_steps->setHorizontalHeaderLabels({tr("Step"), tr("End-of-step floor"), tr("Made in the step"),
                                        tr("Kept to the next step"), tr("Kept to the last step")});
    fillPlaces();
    fillSteps();
    updateVerdict();
}

}  // namespace memscope

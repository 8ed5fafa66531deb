#include "pages/flame_graph_page.h"

#include "analysis/stack_tree.h"
#include "common/byte_format.h"
#include "itemmodels/stack_tree_model.h"
#include "pages/flame_graph_view.h"
#include "run_document.h"
#include "trace/program_stack_order.h"
#include "trace/trace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdint>

namespace memscope {

namespace {

QTreeView* makeTreeView(QWidget* parent, QSortFilterProxyModel* proxy) {
    auto* view = new QTreeView(parent);
    view->setModel(proxy);
    view->setSortingEnabled(true);
    view->sortByColumn(StackTreeModel::Peak, Qt::DescendingOrder);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->header()->setStretchLastSection(false);
    view->header()->setSectionResizeMode(StackTreeModel::Frame, QHeaderView::Stretch);
    for (int c = StackTreeModel::Peak; c < StackTreeModel::ColumnCount; ++c) {
        view->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    return view;
}

}  // namespace

FlameGraphPage::FlameGraphPage(QWidget* parent) : QWidget(parent) {
    m_time = new QComboBox(this);
    m_time->addItem(QString());
    m_time->addItem(QString());
    m_colorBy = new QComboBox(this);
    m_colorBy->addItem(QString());
    m_colorBy->addItem(QString());
    m_rawFrames = new QCheckBox(this);
    m_rawFrames->setObjectName(QStringLiteral("flame_raw_frames"));
    m_rawFrames->setVisible(false);
    m_mergeLines = new QCheckBox(this);
    m_mergeLines->setObjectName(QStringLiteral("flame_merge_lines"));
    m_info = new QLabel(this);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_flame = new FlameGraphView(this);

    m_topDownModel = new StackTreeModel(this);
    m_topDownProxy = new QSortFilterProxyModel(this);
    m_topDownProxy->setSourceModel(m_topDownModel);
    m_topDownProxy->setSortRole(StackTreeModel::SortRole);
    m_bottomUpModel = new StackTreeModel(this);
    m_bottomUpProxy = new QSortFilterProxyModel(this);
    m_bottomUpProxy->setSourceModel(m_bottomUpModel);
    m_bottomUpProxy->setSortRole(StackTreeModel::SortRole);
    m_topDownView = makeTreeView(this, m_topDownProxy);
    m_bottomUpView = makeTreeView(this, m_bottomUpProxy);
    m_trees = new QTabWidget(this);
    m_trees->addTab(m_topDownView, QString());
    m_trees->addTab(m_bottomUpView, QString());

    auto* controls = new QHBoxLayout;
    controls->addWidget(m_time);
    controls->addWidget(m_colorBy);
    controls->addWidget(m_rawFrames);
    controls->addWidget(m_mergeLines);
    controls->addWidget(m_info, 1);
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->addWidget(m_flame);
    m_splitter->addWidget(m_trees);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_splitter, 1);

    connect(m_time, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(m_rawFrames, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_mergeLines, &QCheckBox::toggled, this, [this] { rebuild(); });
    connect(m_colorBy, &QComboBox::currentIndexChanged, this, [this](int index) {
        m_flame->setColorBy(index == 1 ? FlameGraphView::ColorBy::Module
                                       : FlameGraphView::ColorBy::Category);
    });
    connect(m_flame, &FlameGraphView::frameClicked, this,
            [this](int node) { highlightNode(m_topDown.get(), node); });
    auto follow_row = [this](QTreeView* view, QSortFilterProxyModel* proxy, StackTreeModel* model) {
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this, proxy, model](const QModelIndex& current) {
                    if (current.isValid()) {
                        highlightNode(model->tree(), model->nodeOf(proxy->mapToSource(current)));
                    }
                });
    };
    follow_row(m_topDownView, m_topDownProxy, m_topDownModel);
    follow_row(m_bottomUpView, m_bottomUpProxy, m_bottomUpModel);
    retranslateUi();
}

FlameGraphPage::FlameGraphPage(RunDocument* document, QWidget* parent) : FlameGraphPage(parent) {
    setViewState(document);
}

FlameGraphPage::~FlameGraphPage() = default;

void FlameGraphPage::setViewState(RunDocument* document) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
        disconnect(this, nullptr, m_state, nullptr);
    }
    m_state = document;
    if (!m_state) {
        return;
    }
    connect(this, &FlameGraphPage::allocationsHighlighted, m_state,
            &RunDocument::setHighlightedAllocations);
    connect(m_state, &RunDocument::filterRangeChanged, this, [this](qint64 first, qint64 last) {
        if (showsDocumentRun()) {
            setEventRange(first, last);
        }
    });
    connect(m_state, &RunDocument::selectedAllocationChanged, this, [this](qint64 a) {
        if (showsDocumentRun()) {
            setSelectedAllocation(a);
        }
    });
    connect(m_state, &RunDocument::moduleFilterChanged, this, [this] {
        auto mask = showsDocumentRun() ? m_state->moduleMask() : nullptr;
        if (mask != m_only) {
            m_only = std::move(mask);
            rebuild();
        }
    });
}

bool FlameGraphPage::showsDocumentRun() const {
    return m_state && m_state->shows(m_trace);
}

void FlameGraphPage::setTrace(std::shared_ptr<const Trace> trace) {
    m_trace = trace;
    m_rawFrames->setVisible(trace && trace->hasRawStacks());
    const bool program = trace && ProgramStackOrder::applies(*trace);
    if (program != m_mergeLinesForProgram) {
        const QSignalBlocker quiet(m_mergeLines);
        m_mergeLines->setChecked(program);
        m_mergeLinesForProgram = program;
    }
    m_selectedEvent = -1;
    m_first = 0;
    m_last = -1;
    m_only = showsDocumentRun() ? m_state->moduleMask() : nullptr;
    if (showsDocumentRun()) {  // one rebuild with the document's range and time
        const auto& filter = m_state->filter();
        if (filter && filter->last > filter->first) {
            m_first = std::max<int64_t>(0, filter->first);
            m_last = filter->last;
        }
        const int64_t a = m_state->selectedAllocation();
        if (a >= 0 && size_t(a) < trace->allocations().size()) {
            m_selectedEvent = std::max<int64_t>(0, trace->allocations()[size_t(a)].alloc_event);
        }
    }
    rebuild();
}

void FlameGraphPage::showAtEvent(int64_t event) {
    m_selectedEvent = event;
    if (timeChoice() == TimeChoice::Selected) {
        rebuild();
    } else {
        setTimeChoice(TimeChoice::Selected);  // rebuilds
    }
}

void FlameGraphPage::setTimeChoice(TimeChoice choice) {
    m_time->setCurrentIndex(choice == TimeChoice::Selected ? 1 : 0);
}

FlameGraphPage::TimeChoice FlameGraphPage::timeChoice() const {
    return m_time->currentIndex() == 1 ? TimeChoice::Selected : TimeChoice::Peak;
}

int64_t FlameGraphPage::atEvent() const {
    return m_topDown ? m_topDown->atEvent() : -1;
}

void FlameGraphPage::setEventRange(qint64 first, qint64 last) {
    if (last < 0 || last <= first) {
        first = 0;
        last = -1;
    }
    first = std::max<qint64>(0, first);
    if (first == m_first && last == m_last) {
        return;
    }
    m_first = first;
    m_last = last;
    rebuild();
}

void FlameGraphPage::setSelectedAllocation(qint64 allocation) {
    const auto trace = m_trace.lock();
    int64_t event = -1;
    if (trace && allocation >= 0 && size_t(allocation) < trace->allocations().size()) {
        event = std::max<int64_t>(0, trace->allocations()[size_t(allocation)].alloc_event);
    }
    if (event == m_selectedEvent) {
        return;
    }
    m_selectedEvent = event;
    if (timeChoice() == TimeChoice::Selected) {
        rebuild();
    }
}

void FlameGraphPage::rebuild() {
    const auto trace = m_trace.lock();
    const uint64_t generation = ++m_generation;
    if (!trace) {
        adoptTrees({});
        return;
    }
    StackTreeOptions options;
    options.first_event = m_first;
    options.last_event = m_last;
    options.only = m_only;
    if (timeChoice() == TimeChoice::Selected && m_selectedEvent >= 0) {
        options.at_event = m_selectedEvent;
    }
    options.raw_frames = showsRawFrames();  // read in place: no copy of the run
    options.merge_lines = m_mergeLines->isChecked();
    const std::shared_ptr<const Trace> tree_trace = trace;
    auto build = [options](const Trace& trace) mutable {
        options.direction = StackTreeOptions::Direction::TopDown;
        auto top_down = std::make_shared<const StackTree>(StackTree::build(trace, options));
        options.direction = StackTreeOptions::Direction::BottomUp;
        auto bottom_up = std::make_shared<const StackTree>(StackTree::build(trace, options));
        return Trees(std::move(top_down), std::move(bottom_up));
    };
    if (trace->events.count() <= m_asyncEvents) {
        adoptTrees(build(*tree_trace));  // small: here and now
        return;
    }
    // Large: the trees of the previous run, range or time go (their nodes would name the
    // wrong allocations), and the worker's trees are shown when they arrive unless another
    // rebuild started meanwhile.
    m_topDown.reset();
    m_bottomUp.reset();
    m_flame->setTree(nullptr);
    m_topDownModel->setTree(nullptr);
    m_bottomUpModel->setTree(nullptr);
    m_pending = true;
    updateInfo();
    if (!m_watcher) {
        m_watcher = new QFutureWatcher<Trees>(this);
        connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
            // A finished signal of a future replaced since is not the current one's.
            if (m_watcher->isFinished() && m_watcherGeneration == m_generation) {
                adoptTrees(m_watcher->result());
            }
        });
    }
    m_watcherGeneration = generation;
    m_watcher->setFuture(
        QtConcurrent::run([build, tree_trace]() mutable { return build(*tree_trace); }));
}

bool FlameGraphPage::showsRawFrames() const {
    const auto trace = m_trace.lock();
    return trace && trace->hasRawStacks() && m_rawFrames->isChecked();
}

void FlameGraphPage::adoptTrees(Trees trees) {
    m_pending = false;
    m_topDown = std::move(trees.first);
    m_bottomUp = std::move(trees.second);
    m_flame->setTree(m_topDown);
    m_topDownModel->setTree(m_topDown);
    m_bottomUpModel->setTree(m_bottomUp);
    if (m_topDown) {
        m_topDownView->expandToDepth(0);
    }
    updateInfo();
    emit treesReady();
}

void FlameGraphPage::highlightNode(const StackTree* tree, int node) {
    const auto trace = m_trace.lock();
    if (!trace || !tree) {
        return;
    }
    // The root (or a click that zoomed out to it) clears the highlight.
    QVector<qint64> out;
    if (node > 0) {
        for (int64_t a : tree->allocationsAt(*trace, node)) {
            out.push_back(a);
        }
    }
    emit allocationsHighlighted(out);
}

void FlameGraphPage::updateInfo() {
    const auto trace = m_trace.lock();
    if (m_pending) {
        m_info->setText(tr("Building the stack trees of %1 events…")
                            .arg(QLocale().toString(qint64(trace ? trace->events.count() : 0))));
        m_flame->setPlaceholderText(m_info->text());
        return;
    }
    if (!trace || !m_topDown) {
        m_info->setText(tr("No run."));
        return;
    }
    const int64_t at = m_topDown->atEvent();
    if (at < 0) {
        m_info->setText(tr("No allocation or free in this run or range."));
        m_flame->setPlaceholderText(tr("No allocation or free in this run or range."));
        return;
    }
    const double seconds = double(trace->events.time_ns[size_t(at)]) * 1e-9;
    QString text = tr("At event %1 (%2 s): %3 alive in %n allocation(s)", nullptr,
                      int(std::min<int64_t>(m_topDown->root().alive_count, INT32_MAX)))
                       .arg(QLocale().toString(qint64(at)))
                       .arg(QLocale().toString(seconds, 'f', 3))
                       .arg(bytesText(m_topDown->root().bytes));
    if (m_last >= 0) {
        text += QStringLiteral("; ") + tr("range: events %1 to %2")
                                           .arg(QLocale().toString(qint64(m_topDown->firstEvent())),
                                                QLocale().toString(qint64(m_topDown->lastEvent())));
    }
    if (timeChoice() == TimeChoice::Selected && m_selectedEvent < 0) {
        text += QStringLiteral("; ") + tr("pin an allocation on the timeline to choose the time");
    }
    m_info->setText(text);
    m_flame->setPlaceholderText(QString());
}

void FlameGraphPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void FlameGraphPage::retranslateUi() {
    m_time->setItemText(0, tr("At the peak"));
    m_time->setItemText(1, tr("At the selected time"));
    m_time->setToolTip(
        tr("The time whose live allocations are shown: the peak of allocated "
           "memory, or the allocation pinned on the timeline"));
    m_colorBy->setItemText(0, tr("Colour by category"));
    m_colorBy->setItemText(1, tr("Colour by module"));
    m_rawFrames->setText(tr("Raw frames"));
    m_rawFrames->setToolTip(
        tr("Show the snapshot's frames as PyTorch wrote them (interpreter, dispatcher and "
           "allocator frames included) instead of the cleaned stacks"));
    m_mergeLines->setText(tr("Merge lines"));
    m_mergeLines->setToolTip(
        tr("One box per function whatever line it was at, so that a program's entry and a "
           "worker's function are one root; off: one box per source line"));
    m_trees->setTabText(0, tr("Top-down"));
    m_trees->setTabText(1, tr("Bottom-up"));
    m_flame->setToolTip(QString());
    updateInfo();
}

}  // namespace memscope

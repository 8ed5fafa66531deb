#include "pages/module_page.h"

#include "common/byte_format.h"
#include "common/filter_chip.h"
#include "explain/module_table.h"
#include "itemmodels/module_tree_model.h"
#include "run_document.h"
#include "trace/trace.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace memscope {

namespace {

// The width column `column`'s shown cells need (QTreeView keeps sizeHintForColumn protected; it
// is public in QAbstractItemView and counts the tree's indentation).
int contentWidth(const QAbstractItemView* view, int column) {
    return view->sizeHintForColumn(column);
}

}  // namespace

ModulePage::ModulePage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("modules_message"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_message, 1);

    m_content = new QWidget(this);
    auto* content = new QVBoxLayout(m_content);
    content->setContentsMargins(0, 0, 0, 0);
    m_moment = new QLabel(m_content);
    m_moment->setObjectName(QStringLiteral("modules_moment"));
    m_moment->setWordWrap(true);
    m_moment->setTextInteractionFlags(Qt::TextSelectableByMouse);
    content->addWidget(m_moment);

    m_filterBar = new QWidget(m_content);
    auto* filter = new QHBoxLayout(m_filterBar);
    filter->setContentsMargins(0, 0, 0, 0);
    m_filterLabel = new QLabel(m_filterBar);
    m_filterLabel->setObjectName(QStringLiteral("modules_filter"));
    m_filterLabel->setWordWrap(true);
    m_clearFilter = new QToolButton(m_filterBar);
    m_clearFilter->setObjectName(QStringLiteral("modules_clear_filter"));
    filter->addWidget(m_filterLabel, 1);
    filter->addWidget(m_clearFilter);
    m_filterBar->setVisible(false);
    content->addWidget(m_filterBar);

    m_model = new ModuleTreeModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ModuleTreeModel::SortRole);
    m_view = new QTreeView(m_content);
    m_view->setObjectName(QStringLiteral("modules_tree"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ModuleTreeModel::Held, Qt::DescendingOrder);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Twelve columns, each as wide as its text (fitColumns), resizable, scrolling sideways in a
    // narrow window rather than squeezing the module names.
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->installEventFilter(this);
    content->addWidget(m_view, 1);

    m_dominant = new QLabel(m_content);
    m_dominant->setObjectName(QStringLiteral("modules_dominant"));
    m_dominant->setWordWrap(true);
    m_dominant->setTextInteractionFlags(Qt::TextSelectableByMouse);
    content->addWidget(m_dominant);
    layout->addWidget(m_content, 1);

    // A click on the expand arrow does not emit clicked(): only a click on the row itself.
    connect(m_view, &QTreeView::clicked, this, &ModulePage::toggleModuleFilter);
    connect(m_clearFilter, &QToolButton::clicked, this, &ModulePage::clearModuleFilter);
    connect(m_view->header(), &QHeaderView::sortIndicatorChanged, this, [this] { fitColumns(); });
    // Deeper rows shown: their names may need a wider first column.
    connect(m_view, &QTreeView::expanded, this, [this] {
        m_view->setColumnWidth(ModuleTreeModel::Module,
                               std::max(m_view->columnWidth(ModuleTreeModel::Module),
                                        contentWidth(m_view, ModuleTreeModel::Module)));
    });
    retranslateUi();
    setTrace(nullptr);
}

ModulePage::ModulePage(RunDocument* document, QWidget* parent) : ModulePage(parent) {
    setViewState(document);
}

ModulePage::~ModulePage() = default;

void ModulePage::setViewState(RunDocument* document) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
        disconnect(this, nullptr, m_state, nullptr);
    }
    m_state = document;
    if (!m_state) {
        return;
    }
    connect(this, &ModulePage::allocationsHighlighted, m_state,
            &RunDocument::setHighlightedAllocations);
    connect(m_state, &RunDocument::selectedAllocationChanged, this, [this] {
        if (showsDocumentRun()) {
            showAtEvent(pinnedEvent());
        }
    });
    // Another highlight (a search, an operator row, a new run) replaces the module's.
    connect(m_state, &RunDocument::highlightedAllocationsChanged, this,
            [this](const QVector<qint64>& allocations) {
                if (!m_filter.isEmpty() && allocations != m_filtered) {
                    dropFilter();
                }
            });
}

bool ModulePage::showsDocumentRun() const {
    return m_state && m_state->shows(m_trace);
}

int64_t ModulePage::pinnedEvent() const {
    const auto trace = m_trace.lock();
    if (!trace || !m_state || !m_state->shows(trace)) {
        return -1;
    }
    const int64_t a = m_state->selectedAllocation();
    if (a < 0 || size_t(a) >= trace->allocations().size()) {
        return -1;
    }
    return std::max<int64_t>(0, trace->allocations()[size_t(a)].alloc_event);
}

void ModulePage::setTrace(std::shared_ptr<const Trace> trace) {
    const bool same = m_trace.lock() == trace && trace;
    m_trace = trace;
    if (!same) {
        m_modules.reset();
        if (!m_filter.isEmpty()) {
            // A live run's newer snapshot keeps the document's highlights: the filter goes on
            // over the new snapshot. Otherwise the run it was about is gone.
            const QString path = m_filter;
            const bool kept =
                m_state && m_state->shows(trace) && m_state->highlightedAllocations() == m_filtered;
            dropFilter();
            if (kept) {
                setModuleFilter(path);
            }
        }
    }
    m_available = trace && ModuleTable::available(*trace);
    m_message->setVisible(!m_available);
    m_content->setVisible(m_available);
    m_requested = pinnedEvent();
    retranslateUi();  // the message depends on the run
    recompute();
}

void ModulePage::showAtEvent(int64_t event) {
    event = event < 0 ? -1 : event;
    if (event == m_requested && (m_table || m_pending)) {
        return;
    }
    m_requested = event;
    recompute();
}

ModulePage::Result ModulePage::computeTable(const Trace& trace, int64_t event, bool with_modules) {
    Result result;
    if (!with_modules) {
        result.table = std::make_shared<const ModuleTable>(ModuleTable::compute(trace, event));
        return result;
    }
    // The table attributes allocations to modules as the filter does: one pass for both.
    auto modules = std::make_shared<const ModuleIndex>(ModuleTable::modulesOfAllocations(trace));
    result.table =
        std::make_shared<const ModuleTable>(ModuleTable::compute(trace, event, *modules));
    result.modules = std::move(modules);
    return result;
}

void ModulePage::recompute() {
    const auto trace = m_trace.lock();
    const uint64_t generation = ++m_generation;
    if (!trace || !m_available) {
        adopt({});
        return;
    }
    const int64_t event = m_requested;
    const bool with_modules = !m_modules;
    if (trace->events.count() <= m_asyncEvents) {
        adopt(computeTable(*trace, event, with_modules));  // small: here and now
        return;
    }
    // Large: the previous moment's table goes, the worker's shows when it arrives unless
    // another recompute started meanwhile.
    m_table.reset();
    m_model->setTable(nullptr);
    m_pending = true;
    updateTexts();
    if (!m_watcher) {
        m_watcher = new QFutureWatcher<Result>(this);
        connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
            // A finished signal of a future replaced since is not the current one's.
            if (m_watcher->isFinished() && m_watcherGeneration == m_generation) {
                adopt(m_watcher->result());
            }
        });
    }
    m_watcherGeneration = generation;
    m_watcher->setFuture(QtConcurrent::run(
        [trace, event, with_modules] { return computeTable(*trace, event, with_modules); }));
}

void ModulePage::adopt(Result result) {
    m_pending = false;
    m_table = std::move(result.table);
    if (result.modules) {
        m_modules = std::move(result.modules);
    }
    m_model->setTable(m_table);
    if (m_table) {
        m_view->expandToDepth(1);
        // The filtered module stays the current row at another moment.
        if (!m_filter.isEmpty()) {
            const std::string path = m_filter.toStdString();
            const auto& rows = m_table->rows();
            for (size_t r = 0; r < rows.size(); ++r) {
                if (rows[r].path == path) {
                    const QModelIndex index =
                        m_proxy->mapFromSource(m_model->indexOfTableRow(int(r)));
                    m_view->selectionModel()->setCurrentIndex(
                        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
                    m_view->scrollTo(index);
                    break;
                }
            }
        }
    }
    fitColumns();
    updateTexts();
    emit tableReady();
}

void ModulePage::fitColumns() {
    // QHeaderView's own size hint keeps room for the sort arrow in every section: twelve arrows'
    // room pushes the last columns out of a laptop-wide window. Only the sorted column gets it.
    const QHeaderView* header = m_view->header();
    const int margin = header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const int arrow = header->style()->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header);
    for (int c = 0; c < ModuleTreeModel::ColumnCount; ++c) {
        const QString title = m_model->headerData(c, Qt::Horizontal).toString();
        int width = header->fontMetrics().horizontalAdvance(title) + 4 * margin;
        if (c == header->sortIndicatorSection()) {
            width += arrow + margin;
        }
        m_view->setColumnWidth(c, std::max(width, contentWidth(m_view, c) + margin));
    }
}

void ModulePage::toggleModuleFilter(const QModelIndex& proxy_index) {
    if (!proxy_index.isValid()) {
        return;
    }
    const QString path = proxy_index.siblingAtColumn(ModuleTreeModel::Module)
                             .data(ModuleTreeModel::PathRole)
                             .toString();
    if (path.isEmpty()) {
        return;  // "(no module)": no module to filter to
    }
    setModuleFilter(path == m_filter ? QString() : path);
}

void ModulePage::setModuleFilter(const QString& path) {
    if (path == m_filter) {
        return;
    }
    QVector<qint64> allocations;
    if (!path.isEmpty()) {
        const auto trace = m_trace.lock();
        if (!trace) {
            return;
        }
        if (!m_modules) {  // asked for before a table was computed
            m_modules = computeTable(*trace, m_requested, true).modules;
        }
        const std::string p = path.toStdString();
        std::vector<uint8_t> under(m_modules->paths.size());
        for (size_t i = 0; i < under.size(); ++i) {
            under[i] = ModuleTable::isUnder(m_modules->paths[i], p) ? 1 : 0;
        }
        for (size_t a = 0; a < m_modules->of.size(); ++a) {
            const int32_t m = m_modules->of[a];
            if (m >= 0 && under[size_t(m)]) {
                allocations.push_back(qint64(a));
            }
        }
    }
    // Set before the document answers with highlightedAllocationsChanged.
    m_filter = path;
    m_filtered = std::move(allocations);
    updateFilterLabel();
    emit allocationsHighlighted(m_filtered);
    // The views that filter (allocations, flame graph) take the module's allocations as a mask.
    if (showsDocumentRun()) {
        std::shared_ptr<std::vector<uint8_t>> mask;
        if (!m_filter.isEmpty()) {
            mask = std::make_shared<std::vector<uint8_t>>(m_trace.lock()->allocations().size());
            for (const qint64 a : std::as_const(m_filtered)) {
                (*mask)[size_t(a)] = 1;
            }
        }
        m_state->setModuleFilter(m_filter, std::move(mask));
    }
    emit moduleFilterChanged(m_filter);
}

void ModulePage::dropFilter() {
    if (m_filter.isEmpty()) {
        return;
    }
    m_filter.clear();
    m_filtered.clear();
    updateFilterLabel();
    if (showsDocumentRun()) {
        m_state->setModuleFilter(QString(), nullptr);
    }
    emit moduleFilterChanged(m_filter);
}

void ModulePage::updateFilterLabel() {
    m_filterBar->setVisible(!m_filter.isEmpty());
    if (m_filter.isEmpty()) {
        m_filterLabel->clear();
        return;
    }
    m_filterLabel->setText(
        tr("Filtered to %1: %n allocation(s) highlighted on the timeline. Click the row again or "
           "Clear to show everything.",
           nullptr, int(std::min<qsizetype>(m_filtered.size(), INT32_MAX)))
            .arg(m_filter));
}

void ModulePage::updateTexts() {
    const auto trace = m_trace.lock();
    if (m_pending) {
        m_moment->setText(tr("Computing the modules of %1 events…")
                              .arg(QLocale().toString(qint64(trace ? trace->events.count() : 0))));
        m_dominant->clear();
        return;
    }
    if (!trace || !m_table || m_table->event() < 0) {
        m_moment->setText(tr("No allocation or free in this run."));
        m_dominant->clear();
        return;
    }
    const int64_t at = m_table->event();
    const QString alive = bytesText(m_table->aliveBytes());
    const QString time = FilterChip::timeText(trace->events.time_ns[size_t(at)]);
    if (m_requested < 0) {
        m_moment->setText(tr("At the peak, step %1 (event %2, t = %3): %4 alive. Pin an "
                             "allocation on the timeline to see another moment.")
                              .arg(m_table->step())
                              .arg(QLocale().toString(qint64(at)), time, alive));
    } else {
        m_moment->setText(tr("At event %1 (t = %2), step %3: %4 alive.")
                              .arg(QLocale().toString(qint64(at)), time)
                              .arg(m_table->step())
                              .arg(alive));
    }
    QStringList names;
    for (int r : m_table->dominantRows(3)) {
        const ModuleTable::Row& row = m_table->rows()[size_t(r)];
        const double share = m_table->aliveBytes() > 0
                                 ? 100.0 * double(row.held()) / double(m_table->aliveBytes())
                                 : 0.0;
        names << tr("%1 (%2, %3%)")
                     .arg(QString::fromStdString(row.path), bytesText(row.held()),
                          QLocale().toString(share, 'f', 0));
    }
    m_dominant->setText(names.isEmpty()
                            ? tr("No module holds memory at this moment.")
                            : tr("Holding the most: %1.").arg(names.join(QStringLiteral(", "))));
}

bool ModulePage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            toggleModuleFilter(m_view->currentIndex());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ModulePage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void ModulePage::retranslateUi() {
    m_message->setText(m_trace.lock() ? tr("This run names no modules: none of its stacks has a "
                                           "module frame, so its memory cannot be split by module.")
                                      : tr("No run."));
    m_moment->setToolTip(
        tr("The moment shown: the peak of allocated memory, or the allocation pinned on the "
           "timeline (unpin it to come back to the peak)"));
    m_clearFilter->setText(tr("Clear"));
    m_clearFilter->setToolTip(tr("Show every module's allocations again"));
    updateFilterLabel();
    updateTexts();
}

}  // namespace memscope

#include "pages/allocations_page.h"

#include "run_document.h"

#include "itemmodels/allocation_list_model.h"
#include "itemmodels/memory_events_model.h"
#include "itemmodels/operator_filter_proxy.h"
#include "trace/trace.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace memscope {

namespace {

QTreeView* makeList(QWidget* parent, QAbstractItemModel* model) {
    auto* view = new QTreeView(parent);
    view->setModel(model);
    view->setRootIsDecorated(false);
    view->setUniformRowHeights(true);
    view->setAlternatingRowColors(true);
    view->setSortingEnabled(true);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    return view;
}

}  // namespace

AllocationsPage::AllocationsPage(QWidget* parent) : QWidget(parent) {
    m_allocations = new AllocationListModel(this);
    m_events = new MemoryEventsModel(this);
    m_allocation_proxy = new OperatorFilterProxy(this);
    m_allocation_proxy->setRoles(AllocationListModel::SortRole,
                                 AllocationListModel::SearchTextRole);
    m_allocation_proxy->setSourceModel(m_allocations);
    m_events_proxy = new OperatorFilterProxy(this);
    m_events_proxy->setRoles(MemoryEventsModel::SortRole, MemoryEventsModel::SearchTextRole);
    m_events_proxy->setSourceModel(m_events);

    m_search_label = new QLabel(this);
    m_search = new QLineEdit(this);
    m_search->setClearButtonEnabled(true);
    m_search_label->setBuddy(m_search);
    m_tabs = new QTabWidget(this);
    m_allocation_view = makeList(m_tabs, m_allocation_proxy);
    m_allocation_view->sortByColumn(AllocationListModel::Size, Qt::DescendingOrder);
    m_events_view = makeList(m_tabs, m_events_proxy);
    m_events_view->sortByColumn(MemoryEventsModel::Time, Qt::AscendingOrder);
    m_tabs->addTab(m_allocation_view, QString());
    m_tabs->addTab(m_events_view, QString());
    m_status = new QLabel(this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_search_label);
    bar->addWidget(m_search, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_status);

    // Filtering a few hundred thousand rows takes a moment: apply it when typing pauses.
    m_search_timer = new QTimer(this);
    m_search_timer->setSingleShot(true);
    m_search_timer->setInterval(250);
    connect(m_search_timer, &QTimer::timeout, this, &AllocationsPage::applySearch);
    connect(m_search, &QLineEdit::textChanged, m_search_timer, qOverload<>(&QTimer::start));
    for (QTreeView* view : {m_allocation_view, m_events_view}) {
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
                [this](const QModelIndex& current) { rowActivated(current); });
    }
    retranslateUi();
}

AllocationsPage::AllocationsPage(RunDocument* document, QWidget* parent) : AllocationsPage(parent) {
    setViewState(document);
}

AllocationsPage::~AllocationsPage() = default;

bool AllocationsPage::showsDocumentRun() const {
    return m_state && m_state->shows(m_allocations->trace());
}

void AllocationsPage::setTrace(std::shared_ptr<const Trace> trace) {
    // The document's indexes when this is its run: module and operator computed once per run.
    const auto indexes = m_state && m_state->shows(trace) ? m_state->indexes() : nullptr;
    m_events->setTrace(trace, indexes);
    m_allocations->setTrace(std::move(trace), indexes);
    followFilter();
    for (QTreeView* view : {m_allocation_view, m_events_view}) {
        view->header()->resizeSections(QHeaderView::ResizeToContents);
    }
    // The document's pinned allocation selects its rows in the new lists.
    if (showsDocumentRun() && m_state->selectedAllocation() >= 0) {
        showAllocation(m_state->selectedAllocation());
    }
    retranslateUi();
}

void AllocationsPage::setViewState(RunDocument* state) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
    }
    m_state = state;
    if (m_state) {
        connect(m_state, &RunDocument::filterChanged, this, &AllocationsPage::followFilter);
        connect(m_state, &RunDocument::moduleFilterChanged, this, &AllocationsPage::followFilter);
        connect(m_state, &RunDocument::selectedAllocationChanged, this, [this](qint64 a) {
            if (a >= 0 && showsDocumentRun()) {
                showAllocation(a);
            }
        });
    }
    followFilter();
}

void AllocationsPage::followFilter() {
    const auto filter = showsDocumentRun() ? m_state->filter() : std::nullopt;
    m_allocations->setRangeFilter(filter);
    m_allocations->setAllocationMask(showsDocumentRun() ? m_state->moduleMask() : nullptr);
    if (filter) {
        m_events->setEventRange(filter->first, filter->last);
    } else {
        m_events->clearEventRange();
    }
    retranslateUi();
}

void AllocationsPage::applySearch() {
    m_search_timer->stop();
    m_allocation_proxy->setSearchText(m_search->text());
    m_events_proxy->setSearchText(m_search->text());
    retranslateUi();
}

void AllocationsPage::rowActivated(const QModelIndex& proxy_index) {
    if (m_showing || !proxy_index.isValid()) {
        return;
    }
    const qint64 allocation = proxy_index.data(AllocationListModel::AllocationRole).toLongLong();
    if (allocation >= 0) {
        emit allocationSelected(allocation);
    }
}

void AllocationsPage::showAllocation(qint64 allocation) {
    m_showing = true;
    auto select = [](QTreeView* view, const QModelIndex& index) {
        if (!index.isValid()) {
            view->selectionModel()->clearSelection();
            return;
        }
        view->scrollTo(index);
        view->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    };
    const int row = m_allocations->rowOfAllocation(allocation);
    QModelIndex index =
        row >= 0 ? m_allocation_proxy->mapFromSource(m_allocations->index(row, 0)) : QModelIndex();
    if (row >= 0 && !index.isValid() && !m_search->text().isEmpty()) {
        m_search->clear();  // hidden by the search: show everything again
        applySearch();
        index = m_allocation_proxy->mapFromSource(m_allocations->index(row, 0));
    }
    select(m_allocation_view, index);
    const auto event_rows = m_events->rowsOfAllocation(allocation);
    select(m_events_view, event_rows.empty() ? QModelIndex()
                                             : m_events_proxy->mapFromSource(
                                                   m_events->index(event_rows.front(), 0)));
    m_showing = false;
}

void AllocationsPage::retranslateUi() {
    m_search_label->setText(tr("&Search:"));
    m_search->setPlaceholderText(tr("category, phase, module or operator"));
    m_tabs->setTabText(0, tr("Allocations (largest first)"));
    m_tabs->setTabText(1, tr("Memory events"));
    const QLocale locale;
    m_status->setText(m_allocations->trace()
                          ? tr("%1 of %2 allocations, %3 of %4 alloc/free events shown")
                                .arg(locale.toString(m_allocation_proxy->rowCount()),
                                     locale.toString(m_allocations->totalCount()),
                                     locale.toString(m_events_proxy->rowCount()),
                                     locale.toString(m_events->totalCount()))
                          : tr("No run open."));
}

QString AllocationsPage::statusText() const {
    return m_status->text();
}

void AllocationsPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope

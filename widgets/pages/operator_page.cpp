#include "pages/operator_page.h"

#include "error_text.h"
#include "run_document.h"
#include "when_finished.h"

#include "analysis/table_exporter.h"
#include "io/atomic_file.h"
#include "itemmodels/operator_filter_proxy.h"
#include "itemmodels/operator_table_model.h"
#include "trace/trace.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFuture>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <utility>

namespace memscope {

OperatorPage::OperatorPage(QWidget* parent) : QWidget(parent) {
    m_model = new OperatorTableModel(this);
    m_proxy = new OperatorFilterProxy(this);
    m_proxy->setSourceModel(m_model);

    m_search_label = new QLabel(this);
    m_search = new QLineEdit(this);
    m_search->setClearButtonEnabled(true);
    m_search_label->setBuddy(m_search);
    m_grouping_label = new QLabel(this);
    m_grouping_combo = new QComboBox(this);
    m_grouping_combo->addItem(QString(), int(OperatorTable::Grouping::ByOperator));
    m_grouping_combo->addItem(QString(), int(OperatorTable::Grouping::ByModule));
    m_grouping_label->setBuddy(m_grouping_combo);
    m_export = new QPushButton(this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);  // the range filter's note is long

    m_view = new QTreeView(this);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->header()->setStretchLastSection(false);
    m_view->sortByColumn(OperatorTableModel::CpuMemory, Qt::DescendingOrder);

    auto* bar = new QHBoxLayout;
    bar->addWidget(m_search_label);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_grouping_label);
    bar->addWidget(m_grouping_combo);
    bar->addWidget(m_export);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setSearchText(text);
        if (!text.isEmpty() && m_grouping == OperatorTable::Grouping::ByModule) {
            m_view->expandAll();  // show where the matches are
        }
        updateStatus();
    });
    connect(m_grouping_combo, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        setGrouping(OperatorTable::Grouping(m_grouping_combo->currentData().toInt()));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &OperatorPage::onSelectionChanged);
    connect(m_export, &QPushButton::clicked, this, &OperatorPage::exportClicked);
    retranslateUi();
    updateStatus();
}

OperatorPage::OperatorPage(RunDocument* document, QWidget* parent) : OperatorPage(parent) {
    setViewState(document);
}

OperatorPage::~OperatorPage() = default;

void OperatorPage::setTrace(std::shared_ptr<const Trace> trace) {
    m_trace = std::move(trace);
    followFilter();
    rebuild();
}

bool OperatorPage::showsDocumentRun() const {
    return m_state && m_state->shows(m_trace);
}

void OperatorPage::setViewState(RunDocument* state) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
        disconnect(this, nullptr, m_state, nullptr);
    }
    m_state = state;
    if (!m_state) {
        followFilter();
        return;
    }
    connect(m_state, &RunDocument::filterChanged, this, &OperatorPage::followFilter);
    connect(this, &OperatorPage::allocationsHighlighted, m_state,
            &RunDocument::setHighlightedAllocations);
    connect(m_state, &RunDocument::selectedAllocationChanged, this, [this](qint64 a) {
        if (a >= 0 && showsDocumentRun()) {
            showAllocation(a);
        }
    });
    followFilter();
}

void OperatorPage::followFilter() {
    m_model->setRangeFilter(showsDocumentRun() ? m_state->filter() : std::nullopt);
    if (m_grouping == OperatorTable::Grouping::ByModule) {
        m_view->expandToDepth(1);
    }
    updateStatus();
}

void OperatorPage::setGrouping(OperatorTable::Grouping grouping) {
    if (m_grouping_combo->currentData().toInt() != int(grouping)) {
        m_grouping_combo->setCurrentIndex(m_grouping_combo->findData(int(grouping)));
    }
    if (grouping == m_grouping) {
        return;
    }
    m_grouping = grouping;
    rebuild();
}

void OperatorPage::rebuild() {
    const uint64_t generation = ++m_generation;
    const auto trace = m_trace.lock();
    if (!trace) {
        m_pending = false;
        m_model->setTable(nullptr, nullptr);
        updateStatus();
        return;
    }
    const auto grouping = m_grouping;
    const bool now = trace->events.count() <= kAsyncEvents;  // small: built here and now
    // By operator, the document's table of the run (the summary page's too); by module, ours.
    QFuture<std::shared_ptr<const OperatorTable>> table;
    if (m_state && grouping == OperatorTable::Grouping::ByOperator) {
        table = m_state->operatorTable(trace, now);
    } else if (now) {
        table = QtFuture::makeReadyFuture(
            std::make_shared<const OperatorTable>(OperatorTable::build(*trace, grouping)));
    } else {
        table = QtConcurrent::run([trace, grouping] {
            return std::make_shared<const OperatorTable>(OperatorTable::build(*trace, grouping));
        });
    }
    if (now) {
        adoptTable(trace, table.result());
        return;
    }
    m_pending = true;
    m_model->setTable(nullptr, nullptr);
    updateStatus();
    whenFinished(this, table,
                 [this, generation, trace](std::shared_ptr<const OperatorTable> table) {
                     if (generation == m_generation) {
                         adoptTable(trace, std::move(table));
                     }
                 });
}

void OperatorPage::adoptTable(std::shared_ptr<const Trace> trace,
                              std::shared_ptr<const OperatorTable> table) {
    m_pending = false;
    m_model->setTable(std::move(trace), std::move(table));
    m_view->setRootIsDecorated(m_grouping == OperatorTable::Grouping::ByModule);
    // Device time exists only where a GPU was timed: no empty column for CPU runs.
    bool device_time = false;
    for (const auto& row : m_model->table()->rows()) {
        device_time = device_time || row.device_ns > 0;
    }
    m_view->setColumnHidden(OperatorTableModel::DeviceTime, !device_time);
    // So does the payload of collectives: only multi-rank runs have them.
    bool sent = false;
    for (const auto& row : m_model->table()->rows()) {
        sent = sent || row.bytes_sent > 0;
    }
    m_view->setColumnHidden(OperatorTableModel::BytesSent, !sent);
    QHeaderView* header = m_view->header();
    header->resizeSections(QHeaderView::ResizeToContents);
    // Long module paths and shape lists would push the numbers off screen.
    for (const auto& [column, most] : {std::pair{int(OperatorTableModel::Name), 380},
                                       std::pair{int(OperatorTableModel::InputShapes), 280}}) {
        if (header->sectionSize(column) > most) {
            header->resizeSection(column, most);
        }
    }
    if (m_grouping == OperatorTable::Grouping::ByModule) {
        m_view->expandToDepth(1);
    }
    updateStatus();
    // The document's pinned allocation selects its row once the table is there (a large run's
    // table arrives after the pin).
    if (showsDocumentRun() && m_state->selectedAllocation() >= 0) {
        showAllocation(m_state->selectedAllocation());
    }
    emit tableReady();
}

void OperatorPage::onSelectionChanged() {
    if (m_showing) {
        return;
    }
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    QVector<qint64> allocations;
    if (!rows.isEmpty() && m_model->table()) {
        const int64_t row = m_model->tableRow(m_proxy->mapToSource(rows.first()));
        for (int64_t a : m_model->allocationsInside(row)) {
            allocations.push_back(a);
        }
    }
    emit allocationsHighlighted(allocations);
}

void OperatorPage::showAllocation(qint64 allocation) {
    const OperatorTable* table = m_model->table();
    const int64_t row = table ? table->rowOfAllocation(allocation) : -1;
    m_showing = true;
    if (row < 0) {
        m_view->selectionModel()->clearSelection();
        m_showing = false;
        return;
    }
    QModelIndex index = m_proxy->mapFromSource(m_model->indexOfTableRow(row));
    if (!index.isValid()) {  // filtered out by the search: show everything again
        m_search->clear();
        index = m_proxy->mapFromSource(m_model->indexOfTableRow(row));
    }
    if (!index.isValid()) {  // outside the range filter
        m_view->selectionModel()->clearSelection();
        m_showing = false;
        return;
    }
    m_view->scrollTo(index);  // expands its parents
    m_view->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_showing = false;
}

Outcome OperatorPage::exportCsv(const QString& path) const {
    TableExporter::Table table;
    const bool tree = m_grouping == OperatorTable::Grouping::ByModule;
    table.columns.push_back(tree ? "path" : "name");
    table.numeric.push_back(false);
    const char* const columns[] = {"calls",
                                   "self_cpu_ns",
                                   "self_cpu_percent",
                                   "cpu_total_ns",
                                   "cpu_total_percent",
                                   "device_total_ns",
                                   "cpu_mem_bytes",
                                   "self_cpu_mem_bytes",
                                   "self_allocated_bytes",
                                   "input_shapes",
                                   "flops"};
    for (const char* c : columns) {
        table.columns.push_back(c);
        table.numeric.push_back(std::string(c) != "input_shapes");
    }
    std::function<void(const QModelIndex&, const QString&)> add_rows =
        [&](const QModelIndex& parent, const QString& prefix) {
            for (int r = 0; r < m_proxy->rowCount(parent); ++r) {
                const QModelIndex index = m_proxy->index(r, 0, parent);
                const int64_t row = m_model->tableRow(m_proxy->mapToSource(index));
                const QString name =
                    prefix.isEmpty() ? m_model->fullName(row)
                                     : prefix + QStringLiteral(" > ") + m_model->displayName(row);
                std::vector<std::string> cells{name.toStdString()};
                for (int c = OperatorTableModel::Calls; c < OperatorTableModel::ColumnCount; ++c) {
                    const QVariant v =
                        m_proxy->index(r, c, parent).data(OperatorTableModel::SortRole);
                    if (c == OperatorTableModel::InputShapes) {
                        // every shape of the row, not only the most frequent
                        QStringList shapes;
                        for (const auto& [shape, calls] : m_model->table()->row(row).shapes) {
                            shapes
                                << QString::fromStdString(m_model->trace()->shape_strings[shape]);
                        }
                        cells.push_back(shapes.join(QStringLiteral("; ")).toStdString());
                    } else if (v.typeId() == QMetaType::Double) {
                        cells.push_back(QString::number(v.toDouble(), 'g', 10).toStdString());
                    } else {
                        cells.push_back(v.toString().toStdString());
                    }
                }
                table.rows.push_back(std::move(cells));
                if (tree) {
                    add_rows(index, name);
                }
            }
        };
    if (m_model->table()) {
        add_rows(QModelIndex(), QString());
    }
    try {
        writeFileAtomically(path.toStdString(),
                            [&table](std::ostream& out) { out << TableExporter::toCsv(table); });
    } catch (const std::exception& e) {
        return Outcome::failure(errorText(e));
    }
    return {};
}

void OperatorPage::exportClicked() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export operator table"),
                                     QStringLiteral("operators.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty()) {
        return;
    }
    if (const Outcome written = exportCsv(path); !written) {
        QMessageBox::warning(this, tr("Export operator table"),
                             tr("Could not write %1: %2").arg(path, written.message()));
    }
}

void OperatorPage::updateStatus() {
    const OperatorTable* table = m_model->table();
    if (m_pending) {
        m_status->setText(tr("Aggregating operators..."));
    } else if (!table) {
        m_status->setText(tr("No run open."));
    } else if (table->rows().empty()) {
        m_status->setText(tr("This run has no operators or allocations."));
    } else {
        const bool spans = !m_model->trace()->spans.empty();
        const bool shapes = m_model->trace()->shape_strings.size() > 1;
        QString text = tr("%n row(s)", nullptr, int(m_model->shownRowCount()));
        if (const auto& filter = m_model->rangeFilter()) {
            text += QStringLiteral(" ") + tr("of %1").arg(table->rows().size()) +
                    QStringLiteral(". ") +
                    tr("Range filter: rows with allocations %1 events %2–%3 or calls that ran "
                       "in them; memory columns count those allocations")
                        .arg(filter->mode == RangeFilter::Mode::AliveIn ? tr("alive in")
                                                                        : tr("made in"),
                             QLocale().toString(qint64(filter->first)),
                             QLocale().toString(qint64(filter->last - 1))) +
                    QStringLiteral("; ") +
                    (m_model->callsFollowFilter()
                         ? tr("calls, times and FLOPs count those calls, each in full (device "
                              "time and input shapes are the whole run's)")
                         : tr("calls and times are the whole run's (no op spans)"));
        }
        const QString covered =
            tr("%1 ms").arg(QLocale().toString(double(m_model->coveredNs()) / 1e6, 'f', 1));
        text += QStringLiteral(". ") +
                (m_model->callsFollowFilter()
                     ? tr("Times are wall time on the recording thread; %1 inside the recorded "
                          "scopes that ran in the range.")
                           .arg(covered)
                     : tr("Times are wall time on the recording thread; %1 inside recorded "
                          "scopes.")
                           .arg(covered));
        if (!spans) {
            text += QLatin1Char(' ') +
                    tr("This run has no op spans: times come from the stored per-name statistics.");
        }
        if (!shapes) {
            text +=
                QLatin1Char(' ') + tr("Record with --record-shapes for input shapes and FLOPs.");
        }
        m_status->setText(text);
    }
    m_export->setEnabled(table != nullptr && !m_pending);
}

void OperatorPage::retranslateUi() {
    m_search_label->setText(tr("&Search:"));
    m_search->setPlaceholderText(tr("operator, module or input shape"));
    m_grouping_label->setText(tr("&Group by:"));
    m_grouping_combo->setItemText(0, tr("Operator"));
    m_grouping_combo->setItemText(1, tr("Module tree"));
    m_export->setText(tr("Export CSV..."));
    m_export->setToolTip(tr("Save the rows shown as CSV (raw bytes, nanoseconds and FLOPs)"));
    updateStatus();
}

void OperatorPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope

#include "pages/rank_summary_table.h"

#include "analysis/run_statistics.h"
#include "common/byte_format.h"
#include "trace/trace.h"

#include <QHeaderView>
#include <QLocale>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace memscope {

RankSummaryTable::Row RankSummaryTable::rowOf(int rank, const Trace& trace) {
    Row row;
    row.rank = rank;
    row.events = qint64(trace.events.count());
    // What the run stored (its summary and steps); the events are not read.
    const RunStatistics stored = RunStatistics::fromStored(trace);
    row.step1_peak_bytes = stored.step1_peak_bytes;
    row.steady_peak_bytes = stored.steady_peak_bytes;
    row.peak_bytes = stored.peak_bytes;
    row.avg_step_s = stored.avg_step_s;
    row.communication_bytes = stored.communication_bytes;
    return row;
}

RankSummaryTable::RankSummaryTable(QWidget* parent) : QGroupBox(parent) {
    m_table = new QTableWidget(0, 7, this);
    m_table->setObjectName(QStringLiteral("rank_table"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->setVisible(false);
    m_table->setAlternatingRowColors(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    setVisible(false);
}

void RankSummaryTable::setRanks(const QVector<Row>& ranks, int current) {
    m_ranks = ranks;
    m_current = current;
    setVisible(!ranks.isEmpty());
    fill();
}

void RankSummaryTable::fill() {
    m_table->setRowCount(int(m_ranks.size()));
    const QLocale locale;
    for (int i = 0; i < m_ranks.size(); ++i) {
        const Row& r = m_ranks[i];
        auto set = [&](int column, const QString& text, bool number = true) {
            auto* item = new QTableWidgetItem(text);
            if (number) {
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            }
            if (r.rank == m_current) {
                QFont font = item->font();
                font.setBold(true);
                item->setFont(font);
            }
            m_table->setItem(i, column, item);
        };
        set(0, r.rank == m_current ? tr("%1 (shown)").arg(r.rank) : QString::number(r.rank), false);
        if (r.missing) {
            set(1, tr("no recording"), false);
            for (int c = 2; c < 7; ++c) {
                set(c, QString());
            }
            continue;
        }
        set(1, bytesText(r.peak_bytes));
        set(2, bytesText(r.step1_peak_bytes));
        set(3, bytesText(r.steady_peak_bytes));
        set(4, tr("%1 s").arg(locale.toString(r.avg_step_s, 'f', 3)));
        set(5, bytesText(r.communication_bytes));
        set(6, locale.toString(r.events));
    }
    m_table->resizeColumnsToContents();
    m_table->setFixedHeight(m_table->horizontalHeader()->height() +
                            m_table->verticalHeader()->defaultSectionSize() *
                                int(std::max<qsizetype>(1, m_ranks.size())) +
                            4);
}

void RankSummaryTable::retranslateUi() {
    setTitle(tr("Ranks"));
    m_table->setHorizontalHeaderLabels({tr("Rank"), tr("Peak allocated"), tr("Step 1 peak"),
                                        tr("Steady peak"), tr("Avg step"), tr("Collective payload"),
                                        tr("Events")});
    fill();
}

}  // namespace memscope

#pragma once

#include <QGroupBox>
#include <QVector>

class QTableWidget;

namespace memscope {

class Trace;

// The summary's Ranks box: every rank of a multi-process run side by side (peak, step 1 and
// steady peaks, average step, collective payload, events), the rank the page describes in bold;
// a rank without a recording (killed) says so. Hidden for a single process.
class RankSummaryTable : public QGroupBox {
    Q_OBJECT

  public:
    // One rank's row.
    struct Row {
        int rank = 0;
        bool missing = false;  // its file is gone or unreadable (e.g. the rank was killed)
        qint64 peak_bytes = 0;
        qint64 step1_peak_bytes = 0;
        qint64 steady_peak_bytes = 0;
        double avg_step_s = 0;
        qint64 communication_bytes = 0;
        qint64 events = 0;
    };
    // A rank's figures from its recording (the per-step peaks and times it stores).
    static Row rowOf(int rank, const Trace& trace);

    explicit RankSummaryTable(QWidget* parent = nullptr);

    // The ranks (empty: a single process; the box hides) and the one shown.
    void setRanks(const QVector<Row>& ranks, int current);
    QTableWidget* table() const { return m_table; }
    // Sets the title and the column names and fills the rows again.
    void retranslateUi();

  private:
    void fill();

    QTableWidget* m_table = nullptr;
    QVector<Row> m_ranks;
    int m_current = -1;
};

}  // namespace memscope

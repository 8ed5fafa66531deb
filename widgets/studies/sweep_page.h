#pragma once

#include "outcome.h"
#include "studies/scaling_fit.h"
#include "studies/sweep_result.h"

#include <QFuture>
#include <QString>
#include <QWidget>

#include <memory>

class QChart;
class QChartView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTabWidget;
class QTableView;

namespace memscope {

class CancellationToken;
class SweepTableModel;

// Scaling sweeps: define one (lists of batch sizes, sequence lengths, presets, precisions,
// attention variants, checkpointing, profile types; steps, mode, capacity, output directory), run
// it on a worker thread with progress and cancel (finished points are kept), or open a finished
// sweep directory. Shows charts of peak and average memory against batch size and sequence
// length (linear or log-log axes), throughput and memory per token, with out-of-memory points
// marked, the fitted exponents with a plain verdict, and the points and seed tables in a table
// view with CSV export.
class SweepPage : public QWidget {
    Q_OBJECT

  public:
    explicit SweepPage(QWidget* parent = nullptr);
    ~SweepPage() override;  // cancels a running sweep and waits for it

    // Reads DIR/sweep.json; fails with the reason.
    Outcome openSweep(const QString& dir);
    // Starts `spec` into `dir` on a worker thread; fails when one is running or the spec has no
    // valid points. sweepFinished() follows.
    Outcome startSweep(const SweepSpec& spec, const QString& dir);
    // The spec the form describes; fails naming the field.
    Outcome specFromForm(SweepSpec& spec) const;
    void cancelSweep();
    bool isRunning() const { return m_running; }

    // Shows a result (finished, cancelled or opened).
    void setResult(SweepResult result, const QString& dir);
    const SweepResult& result() const { return m_result; }
    QString sweepDirectory() const { return m_dir; }

    void setLogAxes(bool on);
    bool logAxes() const;
    // Writes the table shown (plain numbers) as CSV; fails with why.
    Outcome exportCsv(const QString& path);
    // The fitted exponents and verdicts as shown under the charts (plain text).
    QString verdictText() const;
    // A scaling verdict as the page words it (translated), by the verdict's kind.
    static QString verdictWord(ScalingFit::Verdict verdict);

    QChart* memoryVsBatchChart() const { return m_charts[0]; }
    QChart* memoryVsSeqChart() const { return m_charts[1]; }
    QChart* throughputChart() const { return m_charts[2]; }
    QChart* perTokenChart() const { return m_charts[3]; }
    QChartView* chartView(int i) const { return m_chartViews[i]; }
    QTabWidget* tabs() const { return m_tabs; }
    QComboBox* tableComboBox() const { return m_tableCombo; }
    QComboBox* xAxisComboBox() const { return m_xAxis; }
    SweepTableModel* tableModel() const { return m_tableModel; }
    QSortFilterProxyModel* proxyModel() const { return m_proxy; }
    QTableView* tableView() const { return m_table; }
    QProgressBar* progressBar() const { return m_progress; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* cancelButton() const { return m_cancelButton; }
    QLabel* statusLabel() const { return m_status; }
    QLineEdit* batchSizesEdit() const { return m_batchSizes; }
    QLineEdit* seqLensEdit() const { return m_seqLens; }
    QLineEdit* outputDirEdit() const { return m_outDir; }

  signals:
    // A sweep ended: ok (finished or cancelled), or failed with why.
    void sweepFinished(const memscope::Outcome& outcome);
    // A point's run file, double-clicked in the points table (the main window opens it).
    void runFileActivated(const QString& path);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void onProgress(int index, int total, const QString& label, int step, int steps);
    void finishSweep(const SweepResult& result, const Outcome& outcome);
    void rebuildCharts();
    void rebuildTable();
    void updateVerdict();
    void retranslateUi();
    QString tableTitle(int kind) const;

    SweepResult m_result;
    QString m_dir;
    bool m_running = false;
    std::shared_ptr<CancellationToken> m_cancel;
    QFuture<void> m_future;

    // form
    QComboBox* m_preset = nullptr;
    QLineEdit* m_batchSizes = nullptr;
    QLineEdit* m_seqLens = nullptr;
    QLineEdit* m_presets = nullptr;
    QLineEdit* m_dtypes = nullptr;
    QLineEdit* m_attention = nullptr;
    QLineEdit* m_checkpointing = nullptr;
    QLineEdit* m_profiles = nullptr;
    QSpinBox* m_steps = nullptr;
    QComboBox* m_mode = nullptr;
    QLineEdit* m_capacity = nullptr;
    QLineEdit* m_outDir = nullptr;
    QPushButton* m_browse = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_open = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QList<QLabel*> m_formLabels;

    // results
    QTabWidget* m_tabs = nullptr;
    QChart* m_charts[4] = {};
    QChartView* m_chartViews[4] = {};
    QCheckBox* m_logAxes = nullptr;
    QComboBox* m_xAxis = nullptr;
    QLabel* m_xAxisLabel = nullptr;
    QLabel* m_verdict = nullptr;
    QComboBox* m_tableCombo = nullptr;
    SweepTableModel* m_tableModel = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QPushButton* m_exportButton = nullptr;
};

}  // namespace memscope

#pragma once

#include "common/figure_form.h"
#include "pages/rank_summary_table.h"
#include "pages/summary_result.h"

#include <QFuture>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>

class QChartView;
class QGroupBox;
class QLabel;
class QTableWidget;

namespace memscope {

class OomPanel;
class PeakCategoryChart;
class RooflinePanel;
class RunDocument;
class Trace;

// The summary tab: the run's memory figures (peak in step 1 and steady state, average,
// peak-to-average, per-phase peaks), a chart of the bytes by category at the peak
// (PeakCategoryChart), throughput (samples/s, tokens/s, TFLOP/s, MFU), and the roofline
// (RooflinePanel): arithmetic intensity, achieved FLOP/s and bandwidth and the workshop's
// classification for the step and per operator, against peak FLOP/s and bandwidth measured on
// this computer (CPU runs) with the method shown. A run that ran out of memory gets an "Out of
// memory" box on top (OomPanel): the request, the device's figures, capacity or fragmentation
// and the categories and modules that filled it (OomExplanation); a multi-process run a Ranks
// table (RankSummaryTable). Everything is computed on a worker thread; computed() says when the
// page shows a run.
class SummaryPage : public QWidget {
    Q_OBJECT

  public:
    // What the worker computes for a trace.
    using Result = SummaryResult;
    // One rank of a multi-process run, side by side with the others in the Ranks table.
    using RankRow = RankSummaryTable::Row;
    // A rank's figures from its recording (the per-step peaks and times it stores).
    static RankRow rankRowOf(int rank, const Trace& trace) {
        return RankSummaryTable::rowOf(rank, trace);
    }

    explicit SummaryPage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    SummaryPage(RunDocument* document, QWidget* parent);
    ~SummaryPage() override;

    // The ranks of a multi-process run (empty: a single process; the table is hidden) and the
    // one the other figures describe.
    void setRanks(const QVector<RankRow>& ranks, int current);
    QTableWidget* rankTable() const;

    void setTrace(std::shared_ptr<const Trace> trace);
    // A Python program's run that ran out of memory: the advice of the fit of a sweep of the
    // program (sweep --python's directory, ProgramFitAdvice) in "oom_advice": the largest batch
    // and context that fit the capacity. False, with the reason in the figure, when the sweep
    // cannot be read or fitted, or the run is no point of its program. The box's "Advice from a
    // sweep..." button asks for the directory and calls this.
    bool adviseFromSweep(const QString& dir);
    // Follows a shared view state: while it has a range filter (and this page shows its run),
    // a "Filtered range" box at the top gives the range's events and times, the allocations it
    // selects and their bytes by category, and the highest live total in the range
    // (RangeFilter::summarize); figure keys "filter_range", "filter_allocations",
    // "filter_bytes", "filter_peak", "filter_categories".
    void setViewState(RunDocument* state);
    // Measure the CPU's peak FLOP/s and bandwidth for the roofline (on by default; about half a
    // second the first time in a process). Off: only figures stored in the run are used.
    void setMeasurePeaks(bool measure) { m_measure = measure; }
    bool isComputing() const { return m_pending; }
    const Result* result() const { return m_result.get(); }

    // The text shown for a figure: "peak", "step1_peak", "steady_peak", "average",
    // "peak_to_average", "forward_peak", "backward_peak", "optimizer_peak", "peak_at",
    // "category_rules" (an import's: one line per category at the peak, "Gradient (inferred:
    // made in backward, alive after it)"; hidden for recordings), "before_recording",
    // "reserved_peak", "fragmentation_peak", "fragmentation_oom",
    // "samples_per_s", "tokens_per_s", "tflops", "mfu", "step_flops", "step_bytes",
    // "step_intensity", "step_class", "step_flops_per_s", "step_bandwidth", "peak_flops",
    // "peak_bandwidth", "ridge"; for a run that ran out of memory "oom_request", "oom_stack",
    // "oom_device", "oom_verdict", "oom_categories", "oom_modules", "oom_advice"; empty for an
    // unknown key.
    QString figureText(const QString& key) const;
    QChartView* chartView() const;
    QTableWidget* rooflineTable() const;

    // `operators`: the trace's operator table grouped by operator when the caller has it
    // (RunDocument::operatorTable); else it is built here.
    static Result compute(std::shared_ptr<const Trace> trace, bool measure_peaks,
                          QFuture<std::shared_ptr<const OperatorTable>> operators = {});

  signals:
    void computed();
    void allocationsHighlighted(const QVector<qint64>& allocations);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void adopt(std::shared_ptr<const Result> result);
    void showResult();
    void retranslateUi();
    void followFilter();

    // The run shown: the document's (or the caller's), which keeps it alive; the page keeps
    // what it computed from it (m_result).
    std::weak_ptr<const Trace> m_trace;
    std::shared_ptr<const Result> m_result;
    bool m_measure = true;
    bool m_pending = false;
    uint64_t m_generation = 0;

    QLabel* m_status = nullptr;
    RunDocument* m_state = nullptr;
    // The figures of the filter, memory and throughput boxes (the others have their own).
    FigureForm m_figures;
    QGroupBox* m_filter_box = nullptr;
    QGroupBox* m_memory_box = nullptr;
    OomPanel* m_oom = nullptr;
    QGroupBox* m_speed_box = nullptr;
    RooflinePanel* m_roofline = nullptr;
    PeakCategoryChart* m_chart = nullptr;
    RankSummaryTable* m_ranks = nullptr;
};

}  // namespace memscope

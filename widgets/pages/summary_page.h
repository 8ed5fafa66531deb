#pragma once

#include "analysis/operator_table.h"
#include "analysis/roofline.h"
#include "analysis/run_statistics.h"
#include "explain/oom_explanation.h"
#include "explain/reserved_memory.h"
#include "explain/trace_summary.h"
#include "predict/fit_advice.h"
#include "studies/program_fit_advice.h"

#include <QFuture>
#include <QMap>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>

class QChartView;
class QGroupBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace memscope {

class RunDocument;
class Trace;

// The summary tab: the run's memory figures (peak in step 1 and steady state, average,
// peak-to-average, per-phase peaks), a chart of the bytes by category at the peak, throughput
// (samples/s, tokens/s, TFLOP/s, MFU), and the roofline: arithmetic intensity, achieved FLOP/s
// and bandwidth and the workshop's classification for the step and per operator, against peak
// FLOP/s and bandwidth measured on this computer (CPU runs) with the method shown. A run that ran
// out of memory gets an "Out of memory" box on top: the request, the device's figures, capacity
// or fragmentation and the categories and modules that filled it (OomExplanation). Everything is
// computed on a worker thread; computed() says when the page shows a run.
class SummaryPage : public QWidget {
    Q_OBJECT

  public:
    // What the worker computes for a trace.
    struct Result {
        RunStatistics statistics;
        Roofline roofline;
        std::shared_ptr<const OperatorTable> operators;  // grouped by operator name
        double peak_flops_per_s = 0;
        QString peak_flops_method;
        double peak_bytes_per_s = 0;
        QString peak_bandwidth_method;
        ReservedMemory reserved;  // the caching allocator's figures; none on a CPU
        // The run's own description (the status line), and whether its categories and phases
        // were inferred (an import): the page keeps these, not the run.
        QString source;
        qint64 events = 0;
        qint64 allocations = 0;
        bool categories_inferred = false;
        // Per category at the peak, the rule that put most of its bytes there
        // (TraceSummary::leadingRulesAt), and the bytes allocated before recording started.
        std::vector<TraceSummary::RuleShare> rules_at_peak;
        int64_t before_recording_bytes = 0;
        std::optional<OomExplanation> oom;  // the first out-of-memory event explained
        // After an out-of-memory: the single changes the planner predicts to fit the capacity,
        // for a run whose configuration it knows (advised); a Python program's command line,
        // for the advice of a sweep of it (adviseFromSweep).
        bool advised = false;
        std::vector<FitAdvice::Suggestion> advice;
        std::vector<std::string> program_command;
        QString error;  // why the run could not be summarized; "" when it was
    };

    // One rank of a multi-process run, side by side with the others in the Ranks table.
    struct RankRow {
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
    static RankRow rankRowOf(int rank, const Trace& trace);

    explicit SummaryPage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    SummaryPage(RunDocument* document, QWidget* parent);
    ~SummaryPage() override;

    // The ranks of a multi-process run (empty: a single process; the table is hidden) and the
    // one the other figures describe.
    void setRanks(const QVector<RankRow>& ranks, int current);
    QTableWidget* rankTable() const { return m_rank_table; }

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
    QChartView* chartView() const { return m_chart_view; }
    QTableWidget* rooflineTable() const { return m_roofline_table; }

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
    void updateChart();
    void fillRooflineTable();
    void fillRankTable();
    void showOom();
    void showOomAdvice();
    void chooseSweep();
    void setFigure(const QString& key, const QString& text, const QString& tool_tip = {});
    QLabel* addFigure(QGroupBox* box, const QString& key);
    void onRooflineSelection();
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
    QGroupBox* m_filter_box = nullptr;
    QGroupBox* m_memory_box = nullptr;
    QGroupBox* m_oom_box = nullptr;
    QPushButton* m_sweep_button = nullptr;  // "Advice from a sweep..." (a Python program's OOM)
    std::optional<ProgramFitAdvice::Advice> m_sweep_advice;
    QString m_sweep_dir;
    QString m_sweep_error;
    QGroupBox* m_speed_box = nullptr;
    QGroupBox* m_roofline_box = nullptr;
    QGroupBox* m_chart_box = nullptr;
    QMap<QString, QLabel*> m_values;
    QMap<QString, QLabel*> m_names;
    QChartView* m_chart_view = nullptr;
    QTableWidget* m_roofline_table = nullptr;
    QGroupBox* m_rank_box = nullptr;
    QTableWidget* m_rank_table = nullptr;
    QVector<RankRow> m_ranks;
    int m_current_rank = -1;
    QLabel* m_roofline_note = nullptr;
};

}  // namespace memscope

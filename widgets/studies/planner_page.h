#pragma once

#include <QList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QSpinBox;
class QTableWidget;
class QTreeWidget;

class QChartView;

namespace memscope {

class DeviceDatabase;
class Planner;
class ProgramFitPanel;
class Trace;
struct PlanRequest;
struct PlanResult;
struct TrainOptions;

// The Planner tab: a form describing a run (model, batch, sequence, precision, attention,
// checkpointing, training or forward, device, GPUs and strategy), and what the memory model
// predicts for it: a stacked breakdown chart, the fit verdict with headroom, a strategy
// comparison, ranked recommendations. Every change of a field updates the prediction at once.
// With a run open, setMeasuredTrace() fills the form from the run's configuration and overlays
// the measured peak, per component, with the error of each prediction. Below, a user's own
// program predicted from a sweep of it (ProgramFitPanel), against the form's device.
class PlannerPage : public QWidget {
    Q_OBJECT

  public:
    // predict_when_shown: while the page is hidden (a tab of the main window not shown), the
    // prediction waits for it to show; the CPU's peak it needs is measured with LibTorch, which
    // the window does not load before it has opened and drawn a run (issue 31). Otherwise the
    // prediction follows the form at once.
    explicit PlannerPage(QWidget* parent = nullptr, bool predict_when_shown = false);
    ~PlannerPage() override;

    // The last prediction; nullptr while the form describes something that cannot run.
    const PlanResult* result() const { return m_result.get(); }
    // The predicted peak per GPU in bytes (0 when there is no prediction).
    qint64 predictedPeak() const;

    // A training option's field is found by its key: findChild<QSpinBox*>("batch_size").
    QComboBox* deviceComboBox() const { return m_device; }
    QSpinBox* gpusSpinBox() const { return m_gpus; }
    QLabel* peakLabel() const { return m_peakLabel; }
    QLabel* verdictLabel() const { return m_verdictLabel; }
    QTableWidget* overlayTable() const { return m_overlay; }
    QTableWidget* strategyTable() const { return m_strategies; }
    QTreeWidget* recommendationTree() const { return m_recommendations; }
    QChartView* chartView() const { return m_chartView; }
    ProgramFitPanel* programFitPanel() const { return m_programFit; }

  public slots:
    // Shows predicted against measured for an open run and fills the form from its recorded
    // configuration (trace->meta.config). nullptr clears the overlay.
    void setMeasuredTrace(std::shared_ptr<const memscope::Trace> trace);
    // Recomputes the prediction from the form (connected to every field).
    void updatePrediction();

  protected:
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    void buildUi();
    void retranslate();
    void applyPreset();
    void fillForm(const TrainOptions& options);
    PlanRequest requestFromForm() const;
    void showResult();
    void showError(const QString& message);
    void updateChart();
    void updateOverlay();

    std::unique_ptr<Planner> m_planner;
    std::unique_ptr<PlanResult> m_result;
    // The open run's figures (the page keeps these, not the run).
    bool m_measured = false;       // a run is open
    bool m_measuredOnCpu = false;  // ... and it ran on a CPU
    std::optional<qint64> m_measuredPeak;
    std::vector<qint64> m_measuredGroups;  // per chart group, at the measured peak
    double m_measuredMfu = 0;              // the open run's MFU (0..1), 0 when it has none
    bool m_filling = false;
    bool m_predictWhenShown = false;
    bool m_predictionStale = false;  // updatePrediction waits for the page to show

    QFormLayout* m_modelForm = nullptr;
    QFormLayout* m_runForm = nullptr;
    QFormLayout* m_clusterForm = nullptr;
    QGroupBox* m_modelBox = nullptr;
    QGroupBox* m_runBox = nullptr;
    QGroupBox* m_clusterBox = nullptr;
    QGroupBox* m_resultBox = nullptr;
    QGroupBox* m_strategyBox = nullptr;
    QGroupBox* m_recommendationBox = nullptr;
    QGroupBox* m_overlayBox = nullptr;
    QList<QWidget*> m_optionFields;  // the training options' fields (TrainOptionFields)
    QComboBox* m_preset = nullptr;
    QComboBox* m_device = nullptr;
    QSpinBox* m_gpus = nullptr;
    QComboBox* m_strategy = nullptr;
    QSpinBox* m_zero = nullptr;
    QLabel* m_verdictLabel = nullptr;
    QLabel* m_peakLabel = nullptr;
    QLabel* m_timeLabel = nullptr;
    QLabel* m_bottleneckLabel = nullptr;
    QChartView* m_chartView = nullptr;
    QTableWidget* m_strategies = nullptr;
    QTreeWidget* m_recommendations = nullptr;
    QTableWidget* m_overlay = nullptr;
    ProgramFitPanel* m_programFit = nullptr;
};

}  // namespace memscope

#pragma once

#include "common/figure_form.h"
#include "studies/program_fit_advice.h"

#include <QGroupBox>

#include <memory>
#include <optional>

class QPushButton;

namespace memscope {

struct SummaryResult;

// The summary's "Out of memory" box, shown for a run that ran out of memory (OomExplanation):
// the request and where it was made, the device's figures, capacity or fragmentation, the
// categories and modules that filled the device, and what fits: the single changes the planner
// predicts for a run whose configuration it knows, or for a Python program the advice of a fit
// of a sweep of it ("Advice from a sweep...").
class OomPanel : public QGroupBox {
    Q_OBJECT

  public:
    explicit OomPanel(QWidget* parent = nullptr);

    // Shows `result`'s out-of-memory explanation; hidden for none (or no result).
    void showResult(std::shared_ptr<const SummaryResult> result);
    // Forgets the advice of a sweep (another run is shown).
    void clearSweep();
    // SummaryPage::adviseFromSweep.
    bool adviseFromSweep(const QString& dir);
    // Its figures: "oom_request", "oom_stack", "oom_device", "oom_verdict", "oom_categories",
    // "oom_modules", "oom_advice".
    const FigureForm& figures() const { return m_figures; }
    // Empties every figure.
    void clear() { m_figures.clear(); }
    // Sets every text but the figures' (showResult() sets those).
    void retranslateUi();

  private:
    void showAdvice();
    void chooseSweep();

    FigureForm m_figures;
    std::shared_ptr<const SummaryResult> m_result;
    QPushButton* m_sweep_button = nullptr;  // "Advice from a sweep..." (a Python program's OOM)
    std::optional<ProgramFitAdvice::Advice> m_sweep_advice;
    QString m_sweep_dir;
    QString m_sweep_error;
};

}  // namespace memscope

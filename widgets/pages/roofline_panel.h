#pragma once

#include "common/figure_form.h"

#include <QGroupBox>
#include <QVector>

#include <memory>

class QLabel;
class QTableWidget;

namespace memscope {

class OperatorTable;
struct SummaryResult;

// The summary's Roofline box: the step's FLOPs, bytes moved, arithmetic intensity, achieved
// FLOP/s and bandwidth and the workshop's classification, against the peak FLOP/s and bandwidth
// (measured on this computer for a CPU run, with the method in a tool tip), a note on how the
// figures are estimated, and the same per operator in a table. A row of the table highlights
// the allocations its operator made.
class RooflinePanel : public QGroupBox {
    Q_OBJECT

  public:
    explicit RooflinePanel(QWidget* parent = nullptr);

    // Shows `result`'s roofline; nullptr (or a result with an error) empties the box.
    void showResult(const SummaryResult* result);
    // Its figures: "step_flops", "step_bytes", "step_intensity", "step_class",
    // "step_flops_per_s", "step_bandwidth", "peak_flops", "peak_bandwidth", "ridge".
    const FigureForm& figures() const { return m_figures; }
    QTableWidget* table() const { return m_table; }
    // Sets every text but the figures' (show() sets those).
    void retranslateUi();

  signals:
    void allocationsHighlighted(const QVector<qint64>& allocations);

  private:
    void fillTable(const SummaryResult* result);
    void onSelection();

    FigureForm m_figures;
    QLabel* m_note = nullptr;
    QTableWidget* m_table = nullptr;
    // The run's operator table (grouped by operator), for the allocations of a row.
    std::shared_ptr<const OperatorTable> m_operators;
};

}  // namespace memscope

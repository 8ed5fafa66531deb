#pragma once

#include <QGroupBox>

class QChartView;

namespace memscope {

struct SummaryResult;

// The summary's "At the peak" box: a bar per category of the bytes alive at the run's peak, in
// MiB, each in the category's timeline colour, titled with the peak.
class PeakCategoryChart : public QGroupBox {
    Q_OBJECT

  public:
    explicit PeakCategoryChart(QWidget* parent = nullptr);

    // Draws `result`'s bytes by category at the peak; nullptr leaves the chart empty.
    void showResult(const SummaryResult* result);
    QChartView* chartView() const { return m_chart_view; }
    // Sets the box's title (showResult() sets the chart's).
    void retranslateUi();

  private:
    QChartView* m_chart_view = nullptr;
};

}  // namespace memscope

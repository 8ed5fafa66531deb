#include "pages/peak_category_chart.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "pages/summary_result.h"
#include "timeline/timeline_view.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHorizontalStackedBarSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <vector>

namespace memscope {

PeakCategoryChart::PeakCategoryChart(QWidget* parent) : QGroupBox(parent) {
    m_chart_view = new QChartView(this);
    m_chart_view->setRenderHint(QPainter::Antialiasing);
    m_chart_view->setMinimumSize(420, 260);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_chart_view);
}

void PeakCategoryChart::showResult(const SummaryResult* r) {
    auto* chart = new QChart;
    chart->legend()->hide();
    chart->setMargins(QMargins(4, 4, 4, 4));
    if (r) {
        const auto& bytes = r->statistics.bytes_by_category_at_peak;
        int64_t top = 0;
        QStringList names;
        std::vector<int> shown;
        // The category axis runs bottom-up: add in reverse so it reads Parameter, ... top-down.
        for (int c = kCategoryCount - 1; c >= 0; --c) {
            if (bytes[size_t(c)] > 0) {
                shown.push_back(c);
                names << TimelineLabels::categoryName(c);
                top = std::max(top, bytes[size_t(c)]);
            }
        }
        // One set per category, each with its value in its own row, so every bar has the
        // category's timeline colour.
        auto* series = new QHorizontalStackedBarSeries;
        const double mib = 1024.0 * 1024.0;
        for (size_t i = 0; i < shown.size(); ++i) {
            auto* set = new QBarSet(names[int(i)]);
            for (size_t j = 0; j < shown.size(); ++j) {
                *set << (i == j ? double(bytes[size_t(shown[i])]) / mib : 0.0);
            }
            set->setColor(TimelineView::categoryColor(shown[i]));
            set->setLabelColor(Qt::black);
            series->append(set);
        }
        series->setLabelsVisible(false);
        chart->addSeries(series);
        auto* y = new QBarCategoryAxis;
        y->append(names);
        chart->addAxis(y, Qt::AlignLeft);
        series->attachAxis(y);
        auto* x = new QValueAxis;
        x->setRange(0, std::max(1.0, double(top) / mib * 1.05));
        x->setLabelFormat(QStringLiteral("%.0f"));
        x->setTitleText(tr("MiB at the peak"));
        chart->addAxis(x, Qt::AlignBottom);
        series->attachAxis(x);
        const QString peak = bytesText(r->statistics.peak_bytes);
        chart->setTitle(r->categories_inferred
                            ? tr("Bytes by category at the peak (%1), categories inferred from "
                                 "the snapshot")
                                  .arg(peak)
                            : tr("Bytes by category at the peak (%1)").arg(peak));
    }
    QChart* old = m_chart_view->chart();
    m_chart_view->setChart(chart);
    delete old;
}

void PeakCategoryChart::retranslateUi() {
    setTitle(tr("At the peak"));
}

}  // namespace memscope

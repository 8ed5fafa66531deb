#pragma once

#include "painters/timeline_colors.h"
#include "painters/timeline_paint_context.h"

#include <QCoreApplication>
#include <QRectF>
#include <QString>
#include <QVector>

class QPainter;

namespace memscope {

class Trace;

class ReservedLinePainter;

// What frames the timeline's plot: the header (title, the run's subtitle, the legend and the
// total's entry) and the axes (byte ticks, event or wall-time ticks, and the bottom line with
// the time span, the axis title and the detail), with the margins they take.
class TimelineFramePainter {
    Q_DECLARE_TR_FUNCTIONS(TimelineFramePainter)

  public:
    // Margins around the plot, in pixels.
    static constexpr double kLeft = 76;
    static constexpr double kRight = 18;
    static constexpr double kHeader = 50;  // title and legend
    static constexpr double kStrip = 30;   // step labels and phase names above the plot
    static constexpr double kBottom = 46;  // tick labels, axis title, detail

    explicit TimelineFramePainter(const TimelinePaintContext& context) : m_ctx(context) {}

    // Title, subtitle and as many legend entries as fit before the total's; after the total,
    // the reserved line's entry when `reserved` is given.
    void paintHeader(QPainter& painter, const QRectF& area,
                     const QVector<TimelineLegendEntry>& legend,
                     const ReservedLinePainter* reserved = nullptr) const;
    // Ticks and labels around the plot; `detail` ends the bottom line.
    void paintAxes(QPainter& painter, const QRectF& area, const QString& detail) const;

    // "96 MiB", "1.5 GiB": a byte tick label in the largest binary unit that `top`, the axis'
    // top, reaches, so every label on an axis has the same unit.
    static QString byteTickLabel(double bytes, double top);
    // What the legend says before the categories: "Inferred:" for an import's categories
    // (RunMetadata::categories_inferred), else nothing.
    static QString legendLead(const Trace* trace);
    // The legend's tooltip for an import (rich text; empty for a recording): its categories are
    // inferred, the rule behind each category at the peak ("Gradient (inferred: made in
    // backward, alive after it)", TraceSummary::leadingRulesAt), and the gradient rule in full.
    // O(events + allocations): callers keep it per trace.
    static QString legendToolTip(const Trace* trace);

  private:
    // "preset · batch 8 · ... · 73,740 allocations".
    QString runSubtitle() const;

    const TimelinePaintContext& m_ctx;
};

}  // namespace memscope

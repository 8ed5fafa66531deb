#pragma once

#include "painters/timeline_paint_context.h"

#include <QCoreApplication>
#include <QRectF>

#include <cstdint>

class QPainter;

namespace memscope {

// The run's steps and phases on the timeline: a background band per phase inside the plot,
// step labels and phase names in the strip above it, and dashed step boundaries over the data.
// Thinned when they crowd: step lines at least a few pixels apart (every k-th step), phase
// bands left out when the phases in view average under a few pixels each (except wide ones).
class TimelineStepPainter {
    Q_DECLARE_TR_FUNCTIONS(TimelineStepPainter)

  public:
    explicit TimelineStepPainter(const TimelinePaintContext& context) : m_ctx(context) {}

    // Bands inside the plot (the painter's clip keeps them there), labels in `strip`.
    void paintPhases(QPainter& painter, const QRectF& strip) const;
    // Step boundaries over the data.
    void paintStepLines(QPainter& painter) const;
    // Each complete step's end-of-step floor (the bytes alive when the next step begins,
    // explain/step_growth.h): a tick at the step's end joined to the previous step's by a dotted
    // line, so that memory a program keeps from every step reads as a rising floor. Only where
    // steps are far enough apart to tell the ticks apart.
    void paintStepFloors(QPainter& painter) const;

    // Every how many steps a step line is drawn when steps are `pixels_per_step` apart: 1, 2,
    // 5, 10, 20, ... so that lines are at least a few pixels apart.
    static int32_t stepLineStride(double pixels_per_step);

  private:
    const TimelinePaintContext& m_ctx;
};

}  // namespace memscope

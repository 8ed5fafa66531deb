#pragma once

#include <QColor>
#include <QRect>
#include <QVector>

class QPainter;

namespace memscope {

// Fills many rectangles with one translucent colour, as QPainter::drawRects would with that
// brush and no pen, pixel for pixel. Qt's raster engine blends each translucent rectangle of
// more than about 96 rows on its GUI thread pool, a hand-off and a wait per rectangle: 1,920
// one-pixel columns (the timeline's zoomed-out range wash) took 50-120 ms a frame on two cores
// (issue 52). When the painter draws on a 32-bit premultiplied QImage with no transform but a
// whole-pixel translation, source-over composition and no clip but a rectangle, the pixels are
// blended here directly, with the raster engine's arithmetic (colour + destination x (255 - alpha)
// / 255, Qt's rounding); otherwise drawRects does it.
class TranslucentRects {
  public:
    static void fill(QPainter& painter, const QVector<QRect>& rects, const QColor& color);
    // Whether fill() blends on `painter` itself (for tests).
    static bool blendsDirectly(const QPainter& painter);
};

}  // namespace memscope

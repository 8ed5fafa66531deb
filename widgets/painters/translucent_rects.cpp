#include "painters/translucent_rects.h"

#include <QImage>
#include <QPaintDevice>
#include <QPainter>
#include <QPainterPath>
#include <QRgba64>
#include <QTransform>

#include <algorithm>
#include <cmath>
#include <optional>

namespace memscope {

namespace {

// x * a / 255 for the four channels of a premultiplied pixel, rounded as Qt's raster engine does
// (qrgb.h's BYTE_MUL).
inline uint byteMul(uint x, uint a) {
    uint t = (x & 0xff00ff) * a;
    t = (t + ((t >> 8) & 0xff00ff) + 0x800080) >> 8;
    t &= 0xff00ff;
    x = ((x >> 8) & 0xff00ff) * a;
    x = (x + ((x >> 8) & 0xff00ff) + 0x800080);
    x &= 0xff00ff00;
    return x | t;
}

bool wholePixels(double v) {
    return std::abs(v - std::round(v)) < 1e-9;
}

// The device pixels a rectangular clip keeps, rounded as the raster engine rounds a clip
// rectangle (each edge to the nearest pixel boundary, qRound); nullopt when the clip is not one
// rectangle.
std::optional<QRect> clipInDevice(const QPainter& painter) {
    const QPainterPath path = painter.clipPath();
    const QRectF box = path.boundingRect();
    QPainterPath rect;
    rect.addRect(box);
    if (path != rect) {
        return std::nullopt;
    }
    const QRectF r = painter.deviceTransform().mapRect(box);
    const int x1 = qRound(r.left());
    const int y1 = qRound(r.top());
    const int x2 = qRound(r.right());
    const int y2 = qRound(r.bottom());
    return QRect(x1, y1, x2 - x1, y2 - y1);
}

// The device pixels `painter` may write directly on its image (the image, within a rectangular
// clip), or nothing when it may not (see TranslucentRects).
std::optional<QRect> directBounds(const QPainter& painter) {
    const QPaintDevice* device = painter.device();
    if (!device || device->devType() != QInternal::Image) {
        return std::nullopt;
    }
    const auto* image = static_cast<const QImage*>(device);
    const QTransform t = painter.deviceTransform();
    if (image->format() != QImage::Format_ARGB32_Premultiplied ||
        t.type() > QTransform::TxTranslate || !wholePixels(t.dx()) || !wholePixels(t.dy()) ||
        painter.compositionMode() != QPainter::CompositionMode_SourceOver ||
        painter.opacity() != 1.0) {
        return std::nullopt;
    }
    if (!painter.hasClipping()) {
        return image->rect();
    }
    const std::optional<QRect> clip = clipInDevice(painter);
    return clip ? std::optional<QRect>(image->rect() & *clip) : std::nullopt;
}

}  // namespace

bool TranslucentRects::blendsDirectly(const QPainter& painter) {
    return directBounds(painter).has_value();
}

void TranslucentRects::fill(QPainter& painter, const QVector<QRect>& rects, const QColor& color) {
    if (rects.isEmpty()) {
        return;
    }
    const std::optional<QRect> bounds = directBounds(painter);
    if (!bounds || color.alpha() == 255) {
        painter.save();
        painter.setPen(Qt::NoPen);
        painter.setBrush(color);
        painter.drawRects(rects);
        painter.restore();
        return;
    }
    auto* image = static_cast<QImage*>(painter.device());
    const QTransform t = painter.deviceTransform();
    const int dx = int(std::lround(t.dx()));
    const int dy = int(std::lround(t.dy()));
    // The premultiplied colour as the raster engine makes it (QRgba64, then 8 bits).
    const uint source = color.rgba64().premultiplied().toArgb32();
    const uint keep = 255 - qAlpha(source);
    // Writes go to the image the painter draws on: its data is not shared (bits() would copy
    // it otherwise and the painter would not see the writes), which a painter's own image is
    // not while it paints.
    uchar* bits = image->bits();
    const qsizetype stride = image->bytesPerLine();
    for (const QRect& logical : rects) {
        const QRect r = logical.normalized().translated(dx, dy) & *bounds;
        for (int y = r.top(); y <= r.bottom(); ++y) {
            auto* row = reinterpret_cast<uint*>(bits + y * stride);
            for (int x = r.left(); x <= r.right(); ++x) {
                row[x] = source + byteMul(row[x], keep);
            }
        }
    }
}

}  // namespace memscope

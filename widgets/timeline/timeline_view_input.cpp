// TimelineView's mouse, wheel and keyboard handling: hover tooltips, zoom, pan, rubber band
// and range filter. The rest of the class is in timeline_view.cpp.
#include "timeline/timeline_view.h"

#include "painters/timeline_frame_painter.h"
#include "run_document.h"

#include "layout/timeline_layout.h"
#include "trace/trace.h"

#include <QEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace memscope {

QString TimelineView::legendToolTip() const {
    if (m_legendTipOf != m_trace.get()) {
        m_legendTip = TimelineFramePainter::legendToolTip(m_trace.get());
        m_legendTipOf = m_trace.get();
    }
    return m_legendTip;
}

void TimelineView::updateHover(const QPointF& pos, const QPoint& global_pos) {
    // The header (title and legend): an import's legend says what its categories rest on.
    if (m_trace && m_trace->meta.categories_inferred && pos.y() >= 0 &&
        pos.y() < TimelineFramePainter::kHeader) {
        if (m_hovered >= 0) {
            setHovered(-1);
            update();
        }
        QToolTip::showText(global_pos, legendToolTip(), this);
        return;
    }
    if (m_plotMode == PlotMode::Categories) {
        // A line at the cursor and the bytes of each category there.
        QString text;
        const bool inside = m_layout && plotRect(QRectF(rect())).contains(pos);
        m_hoverPx = inside ? pos.x() : -1;
        update();
        if (inside) {
            text = categoryTooltipText(int64_t(std::floor(mapping().pixelToX(pos.x()))));
        }
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(global_pos, text, this);
        }
        return;
    }
    const int64_t a = allocationAt(pos);
    if (a != m_hovered) {
        setHovered(a);
        update();
    }
    QString text;
    if (a >= 0) {
        text = tooltipText(a);
    } else if (m_layout && plotRect(QRectF(rect())).contains(pos)) {
        const TimelineMapping m = mapping();
        const double x = m.pixelToX(pos.x());
        if (m_layout->inSummarizedBand(x, m.pixelToBytes(pos.y()))) {
            text = tooltipText(-1, int64_t(std::floor(x)));
        }
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(global_pos, text, this);
    }
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    if (!m_layout || m_layout->xCount() == 0) {
        return;
    }
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0) {
        return;
    }
    const double limit = double(m_layout->xCount());
    const TimelineMapping zoomed =
        mapping().zoomedAt(event->position().x(), std::pow(1.25, notches), 0, limit, kMinimumSpan);
    setVisibleRange(zoomed.x0, zoomed.x1);
    event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ControlModifier) &&
        m_layout) {
        // Ctrl+drag: a range of events for the range filter.
        m_banding = true;
        m_filtering = true;
        m_bandFrom = m_bandTo = event->position().x();
        update();
        return;
    }
    m_filtering = false;
    const bool band =
        event->button() == Qt::RightButton ||
        (event->button() == Qt::LeftButton && (event->modifiers() & Qt::ShiftModifier));
    if (band && m_layout) {
        // Rubber band: the release zooms to the columns it spans.
        m_banding = true;
        m_bandFrom = m_bandTo = event->position().x();
        update();
        return;
    }
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    m_pressed = true;
    m_dragging = false;
    m_pressPos = event->position();
    m_pressX0 = m_x0;
    m_pressX1 = m_x1;
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    if (m_banding) {
        m_bandTo = event->position().x();
        update();
        return;
    }
    if (m_pressed && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - m_pressPos;
        if (!m_dragging && std::abs(delta.x()) + std::abs(delta.y()) >= 4) {
            m_dragging = true;
            setCursor(Qt::ClosedHandCursor);
        }
        if (m_dragging && m_layout) {
            const TimelineMapping m = mapping().withWindow(m_pressX0, m_pressX1);
            const TimelineMapping panned =
                m.pannedBy(delta.x(), 0, std::max<double>(double(m_layout->xCount()), 1.0));
            setVisibleRange(panned.x0, panned.x1);
        }
        return;
    }
    updateHover(event->position(), event->globalPosition().toPoint());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (m_banding) {
        m_banding = false;
        update();
        const TimelineMapping m = mapping();
        const double lo = std::clamp(std::min(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        const double hi = std::clamp(std::max(m_bandFrom, m_bandTo), m.left, m.left + m.width);
        if (m_filtering) {
            m_filtering = false;
            if (hi - lo >= 3 && m_layout->xCount() > 0) {
                const auto [first, last] = eventRangeOfX(m.pixelToX(lo), m.pixelToX(hi));
                emit rangeSelected(first, last);
                if (m_state) {
                    m_state->setFilterFromX(*m_layout, m.pixelToX(lo), m.pixelToX(hi),
                                            RunDocument::FilterOrigin::Timeline);
                }
            }
            return;
        }
        if (hi - lo >= 3) {  // a click is no band
            double x0 = m.pixelToX(lo);
            double x1 = m.pixelToX(hi);
            if (x1 - x0 < kMinimumSpan) {
                const double centre = (x0 + x1) / 2;
                x0 = centre - kMinimumSpan / 2;
                x1 = centre + kMinimumSpan / 2;
            }
            setVisibleRange(x0, x1);
        }
        return;
    }
    if (event->button() != Qt::LeftButton || !m_pressed) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    m_pressed = false;
    if (m_dragging) {
        m_dragging = false;
        unsetCursor();
        return;
    }
    if (m_plotMode == PlotMode::Allocations) {
        selectAllocation(allocationAt(event->position()));
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        resetView();
    }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (!m_layout) {
        QWidget::keyPressEvent(event);
        return;
    }
    const TimelineMapping m = mapping();
    const double limit = std::max<double>(double(m_layout->xCount()), 1.0);
    const double centre = m.left + m.width / 2;
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: {
            const auto z = m.zoomedAt(centre, 1.5, 0, limit, kMinimumSpan);
            setVisibleRange(z.x0, z.x1);
            break;
        }
        case Qt::Key_Minus: {
            const auto z = m.zoomedAt(centre, 1 / 1.5, 0, limit, kMinimumSpan);
            setVisibleRange(z.x0, z.x1);
            break;
        }
        case Qt::Key_Left:
        case Qt::Key_Right: {
            const double dx = (event->key() == Qt::Key_Left ? 1 : -1) * m.width / 8;
            const auto p = m.pannedBy(dx, 0, limit);
            setVisibleRange(p.x0, p.x1);
            break;
        }
        case Qt::Key_Home:
        case Qt::Key_0:
            resetView();
            break;
        case Qt::Key_Escape:
            selectAllocation(-1);
            break;
        default:
            QWidget::keyPressEvent(event);
    }
}

void TimelineView::leaveEvent(QEvent* event) {
    if (m_hovered >= 0 || m_hoverPx >= 0) {
        setHovered(-1);
        m_hoverPx = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

void TimelineView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        rebuildColors();    // legend names
        invalidateChart();  // every label is drawn, so a repaint retranslates
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope

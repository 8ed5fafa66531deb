#include "pages/segment_view.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "timeline/timeline_view.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace memscope {

namespace {

constexpr double k_label_width = 230;  // address, size, pool
constexpr double k_row = 24;
constexpr double k_bar = 16;
constexpr double k_margin = 8;

QString exact(int64_t bytes) {
    return QLocale().toString(qint64(bytes));
}

QString address(uint64_t addr) {
    return QStringLiteral("0x%1").arg(addr, 0, 16);
}

}  // namespace

SegmentView::SegmentView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

void SegmentView::setState(std::shared_ptr<const Trace> trace, SegmentState state) {
    m_trace = std::move(trace);
    m_state = std::move(state);
    updateGeometry();
    update();
}

int64_t SegmentView::largestSegment() const {
    int64_t largest = 1;
    for (const auto& s : m_state.segments()) {
        largest = std::max(largest, s.size);
    }
    return largest;
}

QSize SegmentView::sizeHint() const {
    return {900, int(2 * k_margin + k_row * std::max<size_t>(1, m_state.segments().size()))};
}

QSize SegmentView::minimumSizeHint() const {
    return {int(k_label_width) + 200, sizeHint().height()};
}

QRectF SegmentView::barRect(int row) const {
    const auto& segments = m_state.segments();
    if (row < 0 || size_t(row) >= segments.size()) {
        return {};
    }
    const double full = std::max(10.0, width() - k_label_width - 2 * k_margin);
    const double w =
        std::max(2.0, full * double(segments[size_t(row)].size) / double(largestSegment()));
    return {k_margin + k_label_width, k_margin + row * k_row + (k_row - k_bar) / 2, w, k_bar};
}

void SegmentView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::white);
    const QFontMetricsF fm(painter.font());
    const auto& segments = m_state.segments();
    for (size_t row = 0; row < segments.size(); ++row) {
        const auto& s = segments[row];
        const QRectF bar = barRect(int(row));
        if (bar.bottom() < 0 || bar.top() > height()) {
            continue;
        }
        QString label = tr("%1  %2").arg(address(s.addr), bytesText(s.size));
        if (!s.pool.empty()) {
            label += QStringLiteral("  ") + QString::fromStdString(s.pool);
        }
        painter.setPen(QColor(50, 50, 50));
        painter.drawText(QRectF(k_margin, bar.top() - 4, k_label_width - 8, bar.height() + 8),
                         Qt::AlignVCenter | Qt::AlignLeft,
                         fm.elidedText(label, Qt::ElideRight, k_label_width - 8));
        const double scale = bar.width() / double(std::max<int64_t>(1, s.size));
        // Free gaps: grey, hatched.
        for (const auto& g : s.gaps) {
            const QRectF r(bar.left() + double(g.offset) * scale, bar.top(),
                           std::max(1.0, double(g.size) * scale), bar.height());
            painter.fillRect(r, QColor(236, 236, 236));
            painter.fillRect(r, QBrush(QColor(170, 170, 170), Qt::BDiagPattern));
        }
        for (const auto& b : s.blocks) {
            const QRectF r(bar.left() + double(b.offset) * scale, bar.top(),
                           std::max(1.0, double(b.size) * scale), bar.height());
            const QColor color = TimelineView::categoryColor(int(b.category));
            painter.fillRect(r, color);
            if (r.width() >= 4) {
                painter.setPen(QPen(color.darker(140), 0));
                painter.drawRect(r.adjusted(0, 0, -1, -1));
            }
        }
        painter.setPen(QPen(QColor(0, 0, 0, 120), 0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(bar);
    }
}

QString SegmentView::toolTipAt(const QPointF& pos) const {
    const auto& segments = m_state.segments();
    for (size_t row = 0; row < segments.size(); ++row) {
        const QRectF bar = barRect(int(row));
        if (pos.y() < bar.top() || pos.y() > bar.bottom()) {
            continue;
        }
        const auto& s = segments[row];
        QString head = tr("<b>Segment %1</b>: %2 bytes (%3)")
                           .arg(address(s.addr), exact(s.size), bytesText(s.size));
        head += QStringLiteral("<br/>") + tr("Allocated %1 bytes in %2 blocks, free %3 bytes")
                                              .arg(exact(s.allocated))
                                              .arg(s.blocks.size())
                                              .arg(exact(s.size - s.allocated));
        if (!s.pool.empty() || s.stream != 0) {
            head += QStringLiteral("<br/>") +
                    tr("Pool %1, stream %2").arg(QString::fromStdString(s.pool)).arg(s.stream);
        }
        if (pos.x() < bar.left() || pos.x() > bar.right()) {
            return pos.x() < bar.left() ? head : QString();
        }
        const auto offset = int64_t((pos.x() - bar.left()) / bar.width() * double(s.size));
        for (const auto& b : s.blocks) {
            if (offset >= b.offset && offset < b.offset + b.size) {
                return head + QStringLiteral("<hr/>") +
                       tr("<b>%1</b> block: %2 bytes (%3) at offset %4, allocation %5")
                           .arg(TimelineLabels::categoryName(int(b.category)), exact(b.size),
                                bytesText(b.size), exact(b.offset))
                           .arg(b.allocation);
            }
        }
        for (const auto& g : s.gaps) {
            if (offset >= g.offset && offset < g.offset + g.size) {
                return head + QStringLiteral("<hr/>") +
                       tr("Free: %1 bytes (%2) at offset %3")
                           .arg(exact(g.size), bytesText(g.size), exact(g.offset));
            }
        }
        return head;
    }
    return {};
}

bool SegmentView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty()) {
            QToolTip::hideText();
        } else {
            QToolTip::showText(help->globalPos(), text, this);
        }
        return true;
    }
    return QWidget::event(event);
}

}  // namespace memscope

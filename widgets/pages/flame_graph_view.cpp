#include "pages/flame_graph_view.h"

#include "analysis/stack_tree.h"
#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "painters/timeline_colors.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace memscope {

namespace {

int dominantCategory(const StackTreeNode& n) {
    int best = kCategoryCount - 1;
    int64_t best_bytes = 0;
    for (int c = 0; c < kCategoryCount; ++c) {
        if (n.category_bytes[size_t(c)] > best_bytes) {
            best_bytes = n.category_bytes[size_t(c)];
            best = c;
        }
    }
    return best;
}

}  // namespace

FlameGraphView::FlameGraphView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

FlameGraphView::~FlameGraphView() = default;

void FlameGraphView::setTree(std::shared_ptr<const StackTree> tree, Mode mode) {
    m_tree = std::move(tree);
    m_mode = mode;
    m_zoom = 0;
    m_hover = -1;
    m_dirty = true;
    updateGeometry();
    update();
}

void FlameGraphView::setColorBy(ColorBy by) {
    m_colorBy = by;
    update();
}

void FlameGraphView::setPlaceholderText(const QString& text) {
    m_placeholder = text;
    update();
}

void FlameGraphView::zoomTo(int node) {
    if (!m_tree || node < 0 || size_t(node) >= m_tree->size()) {
        node = 0;
    }
    if (node != m_zoom) {
        m_zoom = node;
        m_dirty = true;
        update();
    }
}

QSize FlameGraphView::sizeHint() const {
    int depth = 4;
    if (m_tree) {
        for (const StackTreeNode& n : m_tree->nodes()) {
            depth = std::max(depth, n.depth + 1);
        }
    }
    return QSize(800, std::min(depth, 40) * kRowHeight + 2);
}

QSize FlameGraphView::minimumSizeHint() const {
    return QSize(200, 4 * kRowHeight);
}

void FlameGraphView::layoutBoxes() const {
    if (!m_dirty && m_layoutSize == size()) {
        return;
    }
    m_dirty = false;
    m_layoutSize = size();
    m_boxes.clear();
    m_boxOfNode.assign(m_tree ? m_tree->size() : 0, -1);
    if (!m_tree || m_tree->root().bytes <= 0) {
        return;
    }
    const double width = std::max(1, this->width());
    // The zoomed frame and its ancestors take the whole width.
    std::vector<int> chain;
    for (int n = m_zoom; n >= 0; n = m_tree->node(n).parent) {
        chain.push_back(n);
    }
    std::reverse(chain.begin(), chain.end());
    for (int n : chain) {
        m_boxOfNode[size_t(n)] = int(m_boxes.size());
        m_boxes.push_back(
            {n, QRectF(0, m_tree->node(n).depth * kRowHeight, width, kRowHeight - 1)});
    }
    const int64_t bytes = m_tree->node(m_zoom).bytes;
    if (bytes > 0) {
        layoutChildren(m_zoom, 0, width / double(bytes));
    }
}

void FlameGraphView::layoutChildren(int node, double x, double scale) const {
    const StackTreeNode& n = m_tree->node(node);
    if (n.depth * kRowHeight > height()) {
        return;
    }
    for (int32_t c : n.children) {
        const double w = double(m_tree->node(c).bytes) * scale;
        if (w < 1.0) {
            continue;  // too narrow to see; its siblings are smaller still or elsewhere
        }
        m_boxOfNode[size_t(c)] = int(m_boxes.size());
        m_boxes.push_back({c, QRectF(x, (n.depth + 1) * kRowHeight, w, kRowHeight - 1)});
        layoutChildren(c, x, scale);
        x += w;
    }
}

int FlameGraphView::nodeAt(const QPointF& pos) const {
    layoutBoxes();
    for (const Box& b : m_boxes) {
        if (b.rect.contains(pos)) {
            return b.node;
        }
    }
    return -1;
}

QRectF FlameGraphView::boxOf(int node) const {
    layoutBoxes();
    if (node < 0 || size_t(node) >= m_boxOfNode.size() || m_boxOfNode[size_t(node)] < 0) {
        return {};
    }
    return m_boxes[size_t(m_boxOfNode[size_t(node)])].rect;
}

QColor FlameGraphView::fillOf(int node) const {
    const StackTreeNode& n = m_tree->node(node);
    if (m_mode == Mode::Difference) {
        if (n.bytes <= 0 || n.delta() == 0) {
            return QColor(0xdd, 0xdd, 0xdd);
        }
        // Light to strong as more of the box is net change; light enough for black labels.
        const double share = std::min(1.0, std::abs(double(n.delta())) / double(n.bytes));
        if (n.delta() > 0) {
            const int gb = int(std::lround(215 - 135 * share));
            return QColor(238, gb, gb);
        }
        return QColor(int(std::lround(215 - 120 * share)), int(std::lround(225 - 95 * share)), 245);
    }
    if (m_colorBy == ColorBy::Category) {
        return TimelineColors::categoryColor(dominantCategory(n)).lighter(115);
    }
    // By module: the innermost module frame at or above the frame names the colour.
    QString key = QString::fromStdString(n.name);
    for (int up = node; up > 0; up = m_tree->node(up).parent) {
        const StackTreeNode& u = m_tree->node(up);
        if (u.kind == FrameKind::Module || u.kind == FrameKind::BackwardOf) {
            key = QString::fromStdString(u.name);
            break;
        }
    }
    const int hue = int(qHash(key) % 360u);
    return QColor::fromHsv(hue, 90, 240);
}

QString FlameGraphView::toolTipFor(int node) const {
    if (!m_tree || node < 0 || size_t(node) >= m_tree->size()) {
        return {};
    }
    const StackTreeNode& n = m_tree->node(node);
    const QString name = node == 0 ? tr("All allocations") : QString::fromStdString(n.name);
    QString text = QStringLiteral("<b>%1</b><br>").arg(name.toHtmlEscaped());
    if (m_mode == Mode::Difference) {
        text += tr("A: %1<br>B: %2<br>Difference: %3")
                    .arg(bytesText(n.bytes_a), bytesText(n.bytes_b), signedBytesText(n.delta()));
        const int64_t total = m_tree->root().bytes;
        if (total > 0) {
            text += QStringLiteral("<br>") +
                    tr("%1% of all changed bytes")
                        .arg(100.0 * double(n.bytes) / double(total), 0, 'f', 1);
        }
        return text;
    }
    const int64_t total = m_tree->root().bytes;
    text += tr("%1 (%2% of %3) in %n allocation(s)", nullptr,
               int(std::min<int64_t>(n.alive_count, INT32_MAX)))
                .arg(bytesText(n.bytes))
                .arg(total > 0 ? 100.0 * double(n.bytes) / double(total) : 0.0, 0, 'f', 1)
                .arg(bytesText(total));
    if (n.bytes > 0) {
        text += QStringLiteral("<br>") +
                tr("Mostly %1").arg(TimelineLabels::categoryName(dominantCategory(n)));
    }
    return text;
}

bool FlameGraphView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int node = nodeAt(help->pos());
        if (node >= 0) {
            QToolTip::showText(help->globalPos(), toolTipFor(node), this);
        } else {
            QToolTip::hideText();
            event->ignore();
        }
        return true;
    }
    return QWidget::event(event);
}

void FlameGraphView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    layoutBoxes();
    if (m_boxes.empty()) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(
            rect(), Qt::AlignCenter | Qt::TextWordWrap,
            m_placeholder.isEmpty() ? tr("Nothing is allocated at this time.") : m_placeholder);
        return;
    }
    const QFontMetrics fm = p.fontMetrics();
    for (const Box& b : m_boxes) {
        const StackTreeNode& n = m_tree->node(b.node);
        const bool ancestor = n.depth < m_tree->node(m_zoom).depth;
        QColor fill = fillOf(b.node);
        if (ancestor) {
            fill = fill.lighter(125);
        }
        if (b.node == m_hover) {
            fill = fill.darker(120);
        }
        p.fillRect(b.rect, fill);
        if (b.node == m_hover) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 1.5));
            p.drawRect(b.rect.adjusted(0.5, 0.5, -0.5, -0.5));
        }
        if (b.rect.width() < 24) {
            continue;
        }
        QString label;
        if (b.node == 0) {
            label = m_mode == Mode::Difference
                        ? tr("All stacks: A %1, B %2 (%3)")
                              .arg(bytesText(n.bytes_a), bytesText(n.bytes_b),
                                   signedBytesText(n.delta()))
                        : tr("All allocations: %1").arg(bytesText(n.bytes));
        } else {
            label = QString::fromStdString(n.name);
        }
        const QRectF text_rect = b.rect.adjusted(4, 0, -3, 0);
        const QString shown = fm.elidedText(label, Qt::ElideRight, int(text_rect.width()));
        if (shown != label && shown.size() <= 4) {
            continue;  // a letter or two and an ellipsis: the tooltip names it
        }
        p.setPen(Qt::black);
        p.drawText(text_rect, Qt::AlignVCenter | Qt::AlignLeft, shown);
    }
}

void FlameGraphView::mouseMoveEvent(QMouseEvent* event) {
    const int node = nodeAt(event->position());
    if (node != m_hover) {
        m_hover = node;
        setCursor(node >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
}

void FlameGraphView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    const int node = nodeAt(event->position());
    if (node < 0) {
        return;
    }
    zoomTo(node);
    emit frameClicked(node);
}

void FlameGraphView::leaveEvent(QEvent* event) {
    if (m_hover >= 0) {
        m_hover = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

}  // namespace memscope

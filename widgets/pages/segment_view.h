#pragma once

#include "explain/segment_state.h"

#include <QWidget>

#include <memory>

namespace memscope {

class Trace;

// The caching allocator's segments at one moment, like memory_viz's Allocator State History:
// one row per reserved segment, its bar as wide as the segment is large (the largest segment
// fills the row), blocks coloured by category and free gaps hatched grey. Hovering a block or a
// gap shows its exact bytes, offset and (for a block) category and allocation.
class SegmentView : public QWidget {
    Q_OBJECT

  public:
    explicit SegmentView(QWidget* parent = nullptr);

    void setState(std::shared_ptr<const Trace> trace, SegmentState state);
    const SegmentState& state() const { return m_state; }
    // The tooltip text at a widget position (empty over nothing).
    QString toolTipAt(const QPointF& pos) const;
    // Where segment row i's bar lies (for tests and tooltips).
    QRectF barRect(int row) const;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

  private:
    int64_t largestSegment() const;

    std::shared_ptr<const Trace> m_trace;
    SegmentState m_state;
};

}  // namespace memscope

#pragma once

#include "analysis/step_alignment.h"

#include <QString>
#include <QWidget>

#include <memory>

namespace memscope {

class TimelineLayout;
class Trace;

// Two runs on one axis (issue 53): A's alloc/free events along x, B's allocated total drawn over
// it through the step alignment (the start of step k in B over the start of step k in A), each
// as the envelope of its total per pixel column (the highest total as a line, the lowest to the
// highest washed), and where a run has a caching allocator its reserved bytes dashed. A's step
// boundaries are marked. A click picks a point of A's axis (pickedX, picked()); the page shows
// the difference there.
class OverlayChart : public QWidget {
    Q_OBJECT

  public:
    explicit OverlayChart(QWidget* parent = nullptr);
    ~OverlayChart() override;

    void setRuns(std::shared_ptr<const Trace> a, std::shared_ptr<const TimelineLayout> layout_a,
                 std::shared_ptr<const Trace> b, std::shared_ptr<const TimelineLayout> layout_b,
                 const StepAlignment& alignment, const QString& name_a, const QString& name_b);
    void clear();
    bool hasRuns() const { return m_a != nullptr; }

    // The picked point of A's axis (-1: none), drawn as a vertical line.
    double pickedX() const { return m_picked; }
    void setPickedX(double x);

    // The plot's rectangle and its mapping of A's x and of bytes, for tests.
    QRectF plotRect() const;
    double xToPixel(double x) const;
    double bytesToPixel(double bytes) const;
    double topBytes() const { return m_top; }

    QSize sizeHint() const override { return {800, 360}; }

  signals:
    void picked(double x);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

  private:
    void paintRun(QPainter& painter, const TimelineLayout& layout, const Trace& trace, bool is_b,
                  const QColor& colour) const;

    std::shared_ptr<const Trace> m_a, m_b;
    std::shared_ptr<const TimelineLayout> m_layoutA, m_layoutB;
    StepAlignment m_alignment;
    QString m_nameA, m_nameB;
    double m_top = 1;
    double m_picked = -1;
};

}  // namespace memscope

#pragma once

#include "layout/timeline_mapping.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

namespace memscope {

class RunDocument;
class TimelineLayout;

// An overview of the whole run under the timeline: the total live memory (per pixel column its
// envelope: filled up to its minimum, lighter up to its maximum) and a brush over the window the
// timeline shows. Dragging the brush pans, dragging one of its edges resizes it, pressing outside
// it centres it there, the wheel zooms it; each change is announced with windowChanged(), and
// setWindow() moves the brush when the view changes. x is in event indices as in TimelineView, on
// an event or a wall-time axis.
class TimelineMinimap : public QWidget {
    Q_OBJECT

  public:
    explicit TimelineMinimap(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    TimelineMinimap(RunDocument* document, QWidget* parent);
    ~TimelineMinimap() override;

    // The layout of the run shown (nullptr clears); the brush keeps its window.
    void setTimelineLayout(std::shared_ptr<const TimelineLayout> layout);
    void setTimeAxis(bool on);
    bool timeAxis() const { return m_timeAxis; }
    // Moves the brush (no signal).
    void setWindow(double x0, double x1);
    double windowX0() const { return m_x0; }
    double windowX1() const { return m_x1; }

    // The whole run mapped onto this widget's drawing area (y: bytes up to the run's peak).
    TimelineMapping mapping() const;
    // The brush's pixel extent.
    QRectF brushRect() const;
    // The curve's per-column maxima as last computed (tests).
    const std::vector<int64_t>& columnMaxima() const { return m_columns; }
    const std::vector<int64_t>& columnMinima() const { return m_minima; }

    // Follows a run document (nullptr: none): its layout and x axis are drawn, the brush is its
    // window, moving the brush moves it, Ctrl+drag sets its range filter, and the filter's range
    // is marked.
    void setViewState(RunDocument* state);
    // The filter range marked, in x's (x1 <= x0: none).
    void setFilterX(double x0, double x1);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

  signals:
    // The user moved or resized the brush.
    void windowChanged(double x0, double x1);
    // Ctrl+drag chose the x's [x0, x1).
    void rangeSelected(double x0, double x1);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

  private:
    enum class Grip { None, Move, Left, Right };
    Grip gripAt(double px) const;
    void rebuildColumns();
    void followFilter();
    void requestWindow(double x0, double x1);
    // Moves the window [x0, x1] by dx minimap pixels, keeping its span (in time on a time axis).
    void moveWindow(double x0, double x1, double dx);
    double axisEnd() const;

    std::shared_ptr<const TimelineLayout> m_layout;
    std::vector<int64_t> m_columns;
    std::vector<int64_t> m_minima;
    bool m_timeAxis = false;
    double m_x0 = 0;
    double m_x1 = 1;
    Grip m_grip = Grip::None;
    RunDocument* m_state = nullptr;
    bool m_selecting = false;  // Ctrl+drag in progress, from m_pressPx to m_selectPx
    double m_selectPx = 0;
    double m_filterX0 = 0;
    double m_filterX1 = 0;
    double m_pressPx = 0;
    double m_pressX0 = 0;
    double m_pressX1 = 1;
};

}  // namespace memscope

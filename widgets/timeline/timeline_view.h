#pragma once

#include "painters/reserved_line_painter.h"
#include "painters/timeline_colors.h"
#include "painters/timeline_paint_context.h"
#include "timeline/timeline_chart_renderer.h"

#include "analysis/range_filter.h"
#include "layout/timeline_mapping.h"
#include "trace/trace_annotations.h"

#include <QColor>
#include <QImage>
#include <QPoint>
#include <QThreadPool>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

class QPainter;
template <typename T>
class QFutureWatcher;

namespace memscope {

class RunDocument;
class RunIndexes;
class TimelineLayout;
class Trace;

// The active memory timeline, drawn the way pytorch.org/memory_viz draws it (x: alloc/free
// events, allocations stacked, the largest N drawn one by one and the rest summarized in a band on
// top), straight from a TimelineLayout with QPainter: only allocations live in the visible window
// are drawn, polygons are simplified to the pixel grid, and allocations narrower than a pixel are
// merged per pixel column and colour. Wheel zooms around the cursor, drag pans, shift+drag or
// right-drag zooms to a rubber band, double-click resets; y follows the peak of the visible
// window (and the capacity line when a limit was set). Hover shows a tooltip; click pins an
// allocation and emits allocationSelected().
//
// Colours come by allocation, category, top-level module or phase (a colour index per
// allocation, computed when the mode or the trace changes). A second plot mode stacks memory by
// category over time instead. The x axis counts alloc/free events or follows wall time.
//
// On screen the chart is kept as an image of everything but the hover and selection outlines,
// redrawn only when what it shows changes (window, detail, size, modes, trace): hovering
// repaints the outlines over it. The image is rendered by TimelineChartRenderer from a frozen
// copy of the view's state, on the GUI thread or, while the view follows a live run and for
// charts slow to paint, on a worker thread (setChartRendering): the view then shows the previous
// image until the new one arrives, so that a paint is a blit.
//
// This class holds the state, the interaction and the image cache; painting is done by one
// painter per layer, each fed a TimelinePaintContext (the mapping, the layout, the colours and,
// zoomed out, each pixel column's envelope), in paintAll's order: phases (TimelineStepPainter),
// envelope base and summarized band (TimelineEnvelopePainter), drawn allocations
// (TimelineAllocationPainter) or the category plot (TimelineCategoryPainter), the envelope's
// range, highlights, the total line, step lines, capacity and OOM marks and the peak
// (TimelineOverlayPainter), then header and axes (TimelineFramePainter). A new layer is one more
// painter class and one call there. Colours and legend: TimelineColors; hover texts:
// TimelineTooltips; category and phase names: TimelineLabels.
class TimelineView : public QWidget {
    Q_OBJECT

  public:
    enum class ColorMode { Allocation, Category, Module, Phase };
    Q_ENUM(ColorMode)
    enum class PlotMode { Allocations, Categories };
    Q_ENUM(PlotMode)
    // One legend entry: a name and its colour.
    using LegendEntry = TimelineLegendEntry;
    // What the last paint drew, for tests and the benchmark.
    using PaintStats = TimelinePaintStats;

    // Where the on-screen chart image is rendered when what it shows changed. Automatic: on a
    // worker thread while the view follows a live run (updateTrace) or when the last chart took
    // over kBackgroundMs to render, else on the GUI thread. Background: always on the worker;
    // Synchronous: always on the GUI thread (the way before). Only one render runs at a time;
    // what changes meanwhile is rendered when it ends (the latest state only). While it runs,
    // the view shows the previous image (when only the window moved, its plot moved and
    // scaled to the new window). Exports, renderImage and QWidget::render/grab always paint the
    // complete chart on the calling thread.
    enum class ChartRendering { Automatic, Background, Synchronous };
    Q_ENUM(ChartRendering)
    static constexpr double kBackgroundMs = 16;

    explicit TimelineView(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    TimelineView(RunDocument* document, QWidget* parent);
    ~TimelineView() override;

    // Shows a trace. The layout must have been computed from this trace; without one it is
    // computed here (TimelinePage computes large ones off the GUI thread). nullptr clears.
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<TimelineLayout> layout = nullptr);
    // Shows a newer snapshot of the run on display while it grows (events only appended, so
    // allocation indices stay valid) without resetting the view: the pinned allocation and the
    // hovered one stay, a detail the user chose is applied to the new layout (otherwise the
    // layout's own), and the window grows when it showed everything, slides along when its
    // right edge was at the end (following the newest events), else stays where the user put
    // it. Without a current trace it is setTrace().
    void updateTrace(std::shared_ptr<const Trace> trace,
                     std::shared_ptr<TimelineLayout> layout = nullptr);
    const Trace* trace() const { return m_trace.get(); }
    const TimelineLayout* timelineLayout() const { return m_layout.get(); }
    std::shared_ptr<const TimelineLayout> sharedLayout() const { return m_layout; }
    // A line shown instead of the chart while there is no layout ("Laying out...").
    void setPlaceholderText(const QString& text);

    // Detail: the largest n allocations drawn one by one.
    void setDetail(int64_t n);
    void setDetailPercent(double percent);
    int64_t detail() const;
    int64_t allocationCount() const;
    // "Detail: 15,000 of 73,740 allocations".
    QString detailText() const;

    // The visible window in event indices, and the mapping for a drawing area.
    double visibleX0() const { return m_x0; }
    double visibleX1() const { return m_x1; }
    void setVisibleRange(double x0, double x1);
    // The plot rectangle inside `area` (axes and legend around it).
    QRectF plotRect(const QRectF& area) const;
    // The mapping in use when painting `area` (the widget's rect by default).
    TimelineMapping mapping(const QRectF& area) const;
    TimelineMapping mapping() const { return mapping(QRectF(rect())); }
    // Smallest window the wheel zooms into, in events.
    static constexpr double kMinimumSpan = 8;

    // The allocation under a widget position, or -1.
    int64_t allocationAt(const QPointF& pos) const;
    int64_t hoveredAllocation() const { return m_hovered; }
    int64_t selectedAllocation() const { return m_selected; }
    // Pins an allocation (-1 unpins) and emits allocationSelected.
    void selectAllocation(int64_t index);
    // The hover text for an allocation, or for the summarized band at an event (allocation -1).
    QString tooltipText(int64_t allocation, int64_t x = -1) const;

    // Colour of the drawn allocations, and its legend.
    void setColorMode(ColorMode mode);
    ColorMode colorMode() const { return m_colorMode; }
    // The fill of allocation a in the current colour mode.
    QColor allocationColor(int64_t a) const;
    // The legend the header shows (colour groups, then the summarized band when there is one).
    QVector<LegendEntry> legend() const;
    // The caching allocator's reserved line (inactive for runs without one, e.g. CPU runs).
    const ReservedLinePainter& reservedLine() const { return *m_reservedLine; }
    // Allocations one by one, or memory stacked by category over time.
    void setPlotMode(PlotMode mode);
    PlotMode plotMode() const { return m_plotMode; }
    // x proportional to wall time (true) or to the alloc/free event index (false, the default).
    // The window (visibleX0/X1, in event indices) stays; zoom and pan work in time.
    void setTimeAxis(bool on);
    bool timeAxis() const { return m_timeAxis; }
    // Emphasises these allocations (outlined, everything else dimmed); empty clears.
    void setHighlightedAllocations(const QVector<qint64>& allocations);
    QVector<qint64> highlightedAllocations() const;
    // The hover text of the category plot at event x: bytes per category.
    QString categoryTooltipText(int64_t x) const;
    // The legend's hover text: for an import, the rule behind each category at the peak
    // (TimelineFramePainter::legendToolTip), kept per trace; empty for a recording.
    QString legendToolTip() const;

    // Paints the whole chart into `area` (exports: QSvgGenerator, printers, images).
    void renderTo(QPainter& painter, const QRectF& area);
    // Renders the view as it would show at `size` (screenshots, exports, benchmark), at a
    // device pixel ratio of `scale` (1 to 4: the image has size * scale pixels).
    QImage renderImage(const QSize& size, qreal scale = 1);
    PaintStats lastPaintStats() const { return m_stats; }
    // How the last on-screen paint went: whether it redrew the chart or reused its image.
    bool lastPaintReusedChart() const { return m_lastPaintCached; }

    void setChartRendering(ChartRendering mode);
    ChartRendering chartRendering() const { return m_rendering; }
    // Background renders started, shown and dropped (their image was older than the one shown,
    // of another trace, or of another size when they ended), for tests and the benchmark.
    struct RenderCounts {
        int64_t started = 0;
        int64_t shown = 0;
        int64_t dropped = 0;
    };
    RenderCounts renderCounts() const { return m_renderCounts; }
    // A background render is running (its result not taken yet).
    bool isRendering() const { return m_renderBusy; }
    // Waits until the render running ends and takes its result (nothing when none runs).
    void waitForRender();
    // The chart image the view shows on screen (without the outlines), for tests.
    QImage chartImage() const { return m_chart; }
    // Milliseconds the last paintEvent took on the GUI thread (a blit and the outlines, or the
    // whole chart when it was rendered there).
    double lastPaintEventMs() const { return m_lastPaintEventMs; }

    // Every how many steps a step line is drawn when steps are `pixels_per_step` apart: 1, 2, 5,
    // 10, 20, ... so that lines are at least a few pixels apart.
    static int32_t stepLineStride(double pixels_per_step);
    static QColor categoryColor(int category);
    // "96 MiB", "1.5 GiB": a byte tick label in the largest binary unit that `top`, the axis'
    // top, reaches, so every label on an axis has the same unit.
    static QString byteTickLabel(double bytes, double top);

    // Follows a run document (nullptr: none): the window, the x axis, the detail, the pinned
    // and hovered allocations, the highlights and the range filter (shaded outside its range)
    // come from it, and what the user does here goes to it; OOM marks and module colours use
    // its indexes when it shows this view's trace. Ctrl+drag selects a range of events and sets it
    // as the state's filter (rangeSelected is emitted either way).
    void setViewState(RunDocument* state);
    RunDocument* viewState() const { return m_state; }
    // The range filter drawn: the chart is shaded outside [first, last) (std::nullopt: none).
    void setRangeFilter(const std::optional<RangeFilter>& filter);
    // The event range [first, last) the alloc/free x's [x0, x1) cover.
    std::pair<int64_t, int64_t> eventRangeOfX(double x0, double x1) const;
    // The x where event `event` falls (first x whose event is at or after it).
    double xOfEvent(int64_t event) const;
    // Moves the window (keeping its span) so that allocation a is in view; pins nothing.
    void revealAllocation(int64_t a);

    // The run's named regions (TraceAnnotations::fromTrace, computed when first needed after
    // the trace changes), drawn as labelled bands along the bottom of the plot when visible
    // (TimelineAnnotationPainter). Off by default.
    const std::vector<TraceAnnotation>& annotations() const;
    // Whether they are computed for the trace as it is now (by a paint on this thread, or handed
    // over by the background render that computed them).
    bool annotationsReady() const { return m_annotations && m_annotationsOf == m_data; }
    void setAnnotationsVisible(bool on);
    bool annotationsVisible() const { return m_annotationsVisible; }

  public slots:
    void resetView();

  signals:
    void allocationSelected(int index);
    void detailChanged(qint64 n);
    void visibleRangeChanged(double x0, double x1);
    void colorModeChanged(memscope::TimelineView::ColorMode mode);
    void plotModeChanged(memscope::TimelineView::PlotMode mode);
    void timeAxisChanged(bool on);
    // Ctrl+drag selected the events [first, last).
    void rangeSelected(qint64 first, qint64 last);

  protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    // Caches derived from the trace and layout (OOM events, colours), after either changes.
    void rebuildDerived();
    // The same for a live run's next snapshot (events [0, old_events) unchanged, the layout
    // extended): only the new events and the allocations the extension touched.
    void extendDerived(size_t old_events);
    void addOomMarks(size_t first_event);
    void rebuildColors();
    // The document's indexes when it shows this view's trace, else nullptr.
    const RunIndexes* documentIndexes() const;
    // Sets the hovered allocation and tells the document.
    void setHovered(int64_t a);
    // Something the chart shows changed: the cached chart image is stale.
    void invalidateChart();
    // What the layers paint from, for the mapping m (no envelope yet).
    TimelinePaintContext paintContext(const TimelineMapping& m);
    // The view's state as the chart renderer reads it (shared, not copied: a background render
    // holds it until it ends).
    TimelineChartRenderer::Input chartInput() const;
    // The chart; with overlays also the hover and selection outlines and the rubber band.
    void paintAll(QPainter& painter, const QRectF& area, bool overlays = true);

    // What a chart image shows: the trace (epoch: setTrace calls), what else it shows
    // (m_generation), the window and the size.
    struct ChartKey {
        uint64_t epoch = 0;
        uint64_t generation = 0;
        double x0 = -1;
        double x1 = -1;
        QSize pixels;
        qreal dpr = 0;
        bool operator==(const ChartKey& o) const {
            return epoch == o.epoch && generation == o.generation && x0 == o.x0 && x1 == o.x1 &&
                   pixels == o.pixels && dpr == o.dpr;
        }
        bool operator!=(const ChartKey& o) const { return !(*this == o); }
    };
    ChartKey currentKey() const;
    bool renderInBackground() const;
    // Starts a background render of the current state unless one runs (it ends with update()).
    void requestRender();
    void onRenderFinished();
    // The kept image while a newer one renders: when only the window moved, its plot moved and
    // scaled to where its x's are now.
    void paintPreviousChart(QPainter& painter, const QRectF& area);
    // Before changing what a running render reads: copies of the colours and the reserved line
    // (theirs are left to it), a wait for it before changing the layout it holds.
    TimelineColors& writableColors();
    ReservedLinePainter& writableReservedLine();
    void waitForRenderOf(const TimelineLayout* layout);
    void paintOverlays(QPainter& painter, const TimelineMapping& m);
    void updateHover(const QPointF& pos, const QPoint& global_pos);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<TimelineLayout> m_layout;
    std::vector<TimelineOomMark> m_ooms;
    std::shared_ptr<ReservedLinePainter> m_reservedLine;
    ColorMode m_colorMode = ColorMode::Category;
    PlotMode m_plotMode = PlotMode::Allocations;
    bool m_timeAxis = false;
    std::shared_ptr<TimelineColors> m_colors;
    std::vector<int64_t> m_highlighted;  // sorted allocation indices
    // The cached chart (everything but the overlays) and what it was drawn for; its serial
    // orders images by when their state was taken (a render's result older than the image
    // shown is dropped).
    QImage m_chart;
    ChartKey m_chartKey;
    uint64_t m_chartSerial = 0;
    uint64_t m_serial = 0;
    uint64_t m_epoch = 1;
    uint64_t m_generation = 1;
    bool m_lastPaintCached = false;
    double m_lastPaintEventMs = 0;
    double m_lastChartMs = 0;  // the last chart render, wherever it ran
    // Background rendering: one worker thread, one render at a time.
    ChartRendering m_rendering = ChartRendering::Automatic;
    bool m_live = false;  // updateTrace continued the trace shown
    QThreadPool m_renderPool;
    QFutureWatcher<TimelineChartRenderer::Result>* m_renderWatcher = nullptr;
    bool m_renderBusy = false;
    ChartKey m_renderKey;
    uint64_t m_renderSerial = 0;
    const TimelineLayout* m_renderLayout = nullptr;
    bool m_colorsShared = false;    // the running render holds m_colors
    bool m_reservedShared = false;  // and m_reservedLine
    RenderCounts m_renderCounts;
    // Rubber band zoom in progress: from and to, in widget pixels; m_filtering: a Ctrl+drag
    // range for the filter instead of a zoom.
    bool m_banding = false;
    bool m_filtering = false;
    RunDocument* m_state = nullptr;
    std::optional<RangeFilter> m_filter;
    mutable std::shared_ptr<const std::vector<TraceAnnotation>> m_annotations;
    // Bumped whenever the trace or its events change (setTrace, rebuildDerived, extendDerived):
    // the annotations are of the trace as it was at m_annotationsOf; a background render that
    // computed them (m_renderData) hands them over only if nothing changed meanwhile.
    uint64_t m_data = 1;
    mutable uint64_t m_annotationsOf = 0;
    uint64_t m_renderData = 0;
    bool m_annotationsVisible = false;
    double m_bandFrom = 0;
    double m_bandTo = 0;
    double m_hoverPx = -1;  // the category plot's hover line
    QString m_placeholder;
    mutable QString m_legendTip;  // legendToolTip() of m_legendTipOf
    mutable const Trace* m_legendTipOf = nullptr;
    double m_x0 = 0;
    double m_x1 = 1;
    int64_t m_hovered = -1;
    int64_t m_selected = -1;
    bool m_userDetail = false;  // setDetail was called since setTrace: live updates keep it
    bool m_pressed = false;
    bool m_dragging = false;
    QPointF m_pressPos;
    double m_pressX0 = 0;
    double m_pressX1 = 1;
    PaintStats m_stats;
};

}  // namespace memscope

#pragma once

#include <QColor>
#include <QCoreApplication>

#include <cstdint>
#include <vector>

class QPainter;

namespace memscope {

class TimelineLayout;
class Trace;
struct TimelineMapping;

// The caching allocator's reserved bytes as a line above the timeline's allocated stack, and its
// legend entry. Zoomed out (more x than pixel columns) each column gets what the allocated total
// gets: its range between the lowest and the highest reserved total as a light band, and the
// highest as a short line, so that a total that swings within columns reads as a band, not as a
// solid mass of vertical strokes. A run without a caching allocator (a CPU run) gets no line: its
// legend entry says so instead of drawing reserved equal to allocated. Reserved totals are read
// once per trace at every x of the layout (explain/reserved_memory.h) and kept with per-block
// maxima, so a repaint or a y-range query costs O(pixels + blocks), not O(events). A live run's
// grown trace is read from its first new event on (extend), so that a refresh costs what it added.
class ReservedLinePainter {
    Q_DECLARE_TR_FUNCTIONS(memscope::ReservedLinePainter)

  public:
    // Reads the reserved totals of `trace` at the layout's x positions (both may be null).
    void setTrace(const Trace* trace, const TimelineLayout* layout);
    // The same for `trace` and `layout` grown by appended events since the last call (a live
    // run's next snapshot): reads only the new events and x. Falls back to setTrace (and
    // answers false) when they did not only grow, or when how reserved bytes are read changed.
    bool extend(const Trace* trace, const TimelineLayout* layout);
    // The run has a caching allocator: the line is drawn.
    bool active() const { return m_active; }
    int64_t at(int64_t x) const;
    // Highest (lowest) reserved total over x in [x0, x1), 0 when inactive.
    int64_t maxIn(int64_t x0, int64_t x1) const;
    int64_t minIn(int64_t x0, int64_t x1) const;
    void paint(QPainter& painter, const TimelineMapping& m) const;
    // The legend entry ("Reserved", or "No caching allocator (CPU)") at x on the legend
    // baseline, with a swatch `box` pixels wide; answers the x after it.
    double paintLegend(QPainter& painter, double x, double baseline, double box) const;
    QString legendText() const;
    static QColor color() { return QColor(0, 118, 140); }

  private:
    static int64_t fromStartBytes(const Trace& trace);
    void extendTo(const Trace& trace, const TimelineLayout* layout);

    static constexpr int64_t kBlock = 256;
    bool m_hasTrace = false;
    bool m_active = false;
    bool m_cpu = false;
    bool m_column = false;            // the reserved column is filled (else: the segments' total)
    size_t m_events = 0;              // events read so far
    int64_t m_xCount = 0;             // x read so far
    int64_t m_running = 0;            // reserved bytes after the last event read
    int64_t m_fromStart = 0;          // bytes of the segments reserved before the trace
    std::vector<int64_t> m_values;    // per x
    std::vector<int64_t> m_blockMax;  // per kBlock x
    std::vector<int64_t> m_blockMin;  // per kBlock x
};

}  // namespace memscope

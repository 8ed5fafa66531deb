#pragma once

#include "analysis/step_alignment.h"

#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>
#include <QWidget>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace memscope {

class RunDocument;
class TimelineColors;
class TimelineLayout;
class Trace;

// Every rank of a multi-process run at once (issue 40): one lane per rank, stacked vertically,
// memory stacked by category as the detailed timeline's "By category" plot draws it
// (TimelineCategoryPainter), on one byte scale shared by all lanes, each lane's peak marked and
// labelled (rank, a Python program's process, peak bytes and where it was).
//
// Steps aligned: every rank's own x axis (its alloc/free events) is mapped onto one common axis
// piecewise linearly between anchors (the start of the run, each step's first phase, the end;
// StepAlignment), so that step k of every lane starts at the same pixel column. Each segment
// between two anchors is as wide on the common axis as the widest rank makes it, so no rank's
// events are squeezed below one unit each.
//
// It keeps no trace: when it first shows, it lays each rank out (a layout without drawn
// allocations, the categories present, the step starts and the peak's step and phase) here for
// small runs and on a worker for large ones, and keeps only that. Clicking a lane sets the
// document's rank; double-clicking it also asks for the detailed view (laneActivated).
class RankLanesView : public QWidget {
    Q_OBJECT

  public:
    // Runs with more events than this in all are laid out on a worker thread.
    static constexpr int64_t kAsyncEvents = 200000;

    // One rank to show: its number, which process it is (a Python program's, "spawn, pid 42";
    // empty for the trainer's ranks) and its run (nullptr: no recording).
    struct Run {
        int rank = 0;
        QString process;
        std::shared_ptr<const Trace> trace;
    };

    explicit RankLanesView(RunDocument* state, QWidget* parent = nullptr);
    ~RankLanesView() override;

    // Shows these ranks (empty: none). The runs are held weakly and laid out when the view
    // shows (or ensureLanes() is called), so a run directory whose lanes are never looked at
    // costs nothing. The same runs again (same traces and processes) keep the lanes as they are.
    void setRuns(const QVector<Run>& runs);
    // Lays out the runs last given now, unless done already: here for small runs, on a worker
    // for large ones (isComputing() until lanesReady()).
    void ensureLanes();
    bool isComputing() const { return m_computing; }
    // Whether runs were given (laid out or not).
    bool hasRuns() const { return !m_runs.empty(); }

    // --- what is drawn (tests, the screenshot)
    int laneCount() const { return int(m_lanes.size()); }
    int laneRank(int lane) const;
    // The lane's highest total and the x (its own axis) where it is first reached; -1 without a
    // recording.
    int64_t lanePeakBytes(int lane) const;
    int64_t lanePeakX(int lane) const;
    // The label over the lane ("rank 1 · spawn, pid 42 · peak 1.2 MiB (step 2, backward)").
    QString laneLabel(int lane) const;
    // The shared scale: the highest of the lanes' peaks, and the byte axis top every lane uses.
    int64_t scaleBytes() const { return m_scaleBytes; }
    double axisTopBytes() const;
    // Where things are, in widget pixels: a lane's plot, a lane's own x on the common axis, the
    // start of step `step` in a lane (-1 when that lane has no such step), the peak's dot, and
    // the lane at a point (-1: none).
    QRectF lanePlotRect(int lane) const;
    double laneXToPixel(int lane, double x) const;
    double stepStartPixel(int lane, int32_t step) const;
    QPointF peakPoint(int lane) const;
    int laneAt(const QPointF& pos) const;
    // What the tooltip says at a point: the rank, the step, the bytes in use there and per
    // category (empty outside the lanes' plots).
    QString toolTipAt(const QPointF& pos) const;

  signals:
    // The lanes were computed for the runs last given.
    void lanesReady();
    // A lane was double-clicked: its rank is the document's; show it in detail.
    void laneActivated(int rank);

  protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    // A line through every lane at the pointer: the same moment of the step on each rank.
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  public:
    // One rank's lane, computed from its run (defined here so the worker can build it).
    struct Lane {
        int rank = 0;
        QString process;
        bool missing = true;
        std::shared_ptr<const TimelineLayout> layout;
        std::shared_ptr<const TimelineColors> colors;
        std::vector<std::pair<int32_t, double>> steps;  // step, x of its start on the lane's axis
        // Phases as on the detailed timeline's background: [x0, x1) on the lane's axis, phase.
        struct Band {
            double x0 = 0;
            double x1 = 0;
            int phase = 0;
        };
        std::vector<Band> phases;
        int64_t peakBytes = 0;
        int64_t peakX = -1;
        int32_t peakStep = 0;
        int peakPhase = -1;
        StepAlignment toCommon;  // the lane's x -> the common axis
    };

  private:
    void adopt(std::vector<Lane> lanes);
    double commonToPixel(double u) const;
    // The plot area of all lanes (without the margins, the header and the step strip).
    QRectF lanesArea() const;

    RunDocument* m_state = nullptr;
    std::vector<Lane> m_lanes;
    // The runs shown, to tell the same runs given again (held weakly: the document owns them).
    std::vector<std::weak_ptr<const Trace>> m_runs;
    std::vector<char> m_hadRun;  // whether each was given a run (nullptr: no recording)
    std::vector<int> m_rankNumbers;
    QStringList m_processes;
    std::vector<std::pair<int32_t, double>> m_commonSteps;  // step, its start on the common axis
    double m_commonEnd = 1;
    int64_t m_scaleBytes = 0;
    bool m_computing = false;
    bool m_pending = false;  // runs given, lanes not computed yet
    double m_hoverPx = -1;   // the pointer's pixel column over the lanes, -1: none
    uint64_t m_generation = 0;
};

}  // namespace memscope

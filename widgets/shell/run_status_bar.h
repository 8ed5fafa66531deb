#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QProgressBar;
class QStatusBar;

namespace memscope {

class RunLoadProgress;

// The status bar's run widgets, right of the window's own status line: the step of a run being
// recorded ("Step 2 of 3", then how it ended), its progress bar, the bar of a run being opened
// (RunLoadProgress), the time left and the peak. Widgets rather than showMessage(): status tips of
// hovered actions would erase a message.
class RunStatusBar : public QObject {
    Q_OBJECT

  public:
    explicit RunStatusBar(QStatusBar* bar);

    RunLoadProgress* loadProgress() const { return m_load_progress; }
    bool hasPeak() const;

  public slots:
    // A run of `total` steps starts.
    void runStarted(qint64 total);
    // A step ended: estimated seconds left and the peak so far.
    void stepped(qint64 step, qint64 total, double secondsLeft, qint64 peakBytes);
    // The run ended: `status` says how ("Finished 3 steps").
    void runFinished(const QString& status);
    void showPeak(qint64 bytes);

  private:
    QLabel* m_step_label = nullptr;
    QProgressBar* m_progress = nullptr;
    RunLoadProgress* m_load_progress = nullptr;
    QLabel* m_eta_label = nullptr;
    QLabel* m_peak_label = nullptr;
};

}  // namespace memscope

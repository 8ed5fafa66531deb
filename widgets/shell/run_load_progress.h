#pragma once

#include <QWidget>

#include <atomic>

class QLabel;
class QProgressBar;
class QPushButton;

namespace memscope {

// The status bar's "Opening FILE [=====   ] Cancel" while a big run loads on a worker thread.
// The window shows the run session's progress with setFraction(); a worker may report through
// report() (any thread). Cancel sets the flag RunFile::load polls and emits cancelRequested().
class RunLoadProgress : public QWidget {
    Q_OBJECT

  public:
    explicit RunLoadProgress(QWidget* parent = nullptr);

    // Shows the bar at 0 with Cancel enabled (cancellable) or a busy bar without it.
    void start(bool cancellable);
    void finish();
    // Thread-safe: posts the fraction (0..1) to the GUI thread, at most once per 1/1000 step.
    void report(double fraction);
    // The fraction (0..1) now, on the GUI thread; the bar never goes back.
    void setFraction(double fraction);
    // The flag RunFile::LoadOptions::cancel points at; cleared by start().
    const std::atomic<bool>* cancelFlag() const { return &m_cancel; }
    void cancel();
    bool cancelled() const { return m_cancel.load(); }
    int value() const;  // per mille shown now (tests)

  signals:
    void cancelRequested();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslateUi();

    QProgressBar* m_bar = nullptr;
    QPushButton* m_cancel_button = nullptr;
    std::atomic<bool> m_cancel{false};
    std::atomic<int> m_posted{-1};
};

}  // namespace memscope

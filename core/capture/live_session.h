#pragma once

#include "capture/live_run.h"
#include "run/step_metrics.h"
#include "run/train_options.h"

#include <functional>
#include <memory>
#include <string>

namespace memscope {

class LiveTraceMirror;
class RecordingSession;
class TimelineLayout;
class Trace;

// A recorded run for a front end that must not include LibTorch's headers (the GUI: Qt's
// `slots` and `emit` macros break them, and its translation tools would parse all of ATen). It
// wraps a RecordingSession behind this light header and hands out complete snapshots. The GUI
// reaches it as a LiveRun made by its LibTorch part (capture/live_run.h has the contract of each
// member and the Options, Result and LiveSnapshot types).
class LiveSession final : public LiveRun {
  public:
    LiveSession(const TrainOptions& options, Options session_options);
    ~LiveSession() override;  // cancels and joins a run still going

    void setStepCallback(std::function<void(const StepMetrics&)> callback) override;
    void start() override;
    bool running() const override;
    void cancel() override;
    std::shared_ptr<Trace> snapshot() override;
    LiveSnapshot liveSnapshot() override;
    Result finish() override;
    void discardJournal() override;

  private:
    std::unique_ptr<RecordingSession> m_session;
    std::unique_ptr<LiveTraceMirror> m_mirror;
};

}  // namespace memscope

#pragma once

#include "model/error.h"

#include <atomic>

namespace memscope {

// Thrown on the training thread when another thread asked the run to stop. It unwinds through
// LibTorch (module forwards and autograd hooks both check), so the run ends at the next module
// boundary instead of at the end of the step.
class RunCancelled : public Error {
  public:
    RunCancelled() : Error("run cancelled") {}
};

class CancellationToken {
  public:
    void request() { m_requested.store(true, std::memory_order_relaxed); }
    void reset() { m_requested.store(false, std::memory_order_relaxed); }
    bool requested() const { return m_requested.load(std::memory_order_relaxed); }

    // The token the current thread checks; null means "never cancelled".
    static void install(const CancellationToken* token);
    static const CancellationToken* installed();
    // Throws RunCancelled if the installed token was requested.
    static void throwIfRequested();

  private:
    std::atomic<bool> m_requested{false};
};

}  // namespace memscope

#pragma once

#include "run/phase.h"

#include <cstdint>
#include <vector>

namespace memscope {

// Where each backward pass ends: the first event after a run of backward events that a phase
// other than backward placed (forward, optimizer, init; events of phase Other inside or after
// the run do not end it). The categorizer's "alive after backward" rule (trace/categorizer.h)
// asks it for the end of the pass an allocation was made in. Events arrive in order, once each
// (a live run's builder notes only the new ones), so the ends are kept sorted as they come.
class BackwardEnds {
  public:
    // Event `event` has phase `phase`.
    void note(int64_t event, Phase phase);
    // The end of the backward pass that event `event` (a backward event) belongs to: the first
    // end after it, or -1 while that pass has not ended.
    int64_t after(int64_t event) const;
    void clear();

  private:
    std::vector<int64_t> m_ends;
    bool m_inBackward = false;
};

}  // namespace memscope

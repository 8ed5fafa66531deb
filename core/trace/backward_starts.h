#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace memscope {

// The first event of each step's backward pass, by step number (the categorizer's "alive at the
// backward" rule, trace/categorizer.h). A run's steps count up one at a time, so they are kept in
// a vector from the first step seen; a step far outside what that vector could have grown to
// (a damaged file's 2^31 - 1, or steps that go back) goes to a map instead, so that no step
// number can make it allocate more than the events justify.
class BackwardStarts {
  public:
    // Records `event` as step `step`'s first backward event unless one came before.
    void note(int32_t step, int64_t event);
    // Step `step`'s first backward event, or -1.
    int64_t at(int32_t step) const;
    void clear();

  private:
    int64_t m_base = 0;                   // the step of m_dense[0]
    std::vector<int64_t> m_dense;         // per step from m_base: the first backward event, or -1
    std::map<int32_t, int64_t> m_sparse;  // the steps outside m_dense's reach
};

}  // namespace memscope

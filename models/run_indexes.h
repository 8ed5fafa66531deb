#pragma once

#include "explain/stack_attribution.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace memscope {

class Trace;

// What several views derive from one trace, computed once (RunDocument::indexes builds it on
// first use per trace and hands the same object to every view): the module and operator of every
// stack node and so of every allocation (the allocation lists, the memory events, the timeline's
// module colours and hover texts), and the trace's out-of-memory events (the timeline's marks,
// the segment page). Plain C++: it keeps the trace alive and never changes.
class RunIndexes {
  public:
    explicit RunIndexes(std::shared_ptr<const Trace> trace);

    const Trace& trace() const { return *m_trace; }
    const std::shared_ptr<const Trace>& sharedTrace() const { return m_trace; }
    const StackAttribution& attribution() const { return m_attribution; }

    // Innermost module ("backward of X" frames count) and operator (else autograd node) of
    // allocation a's stack ("" for none).
    const std::string& moduleOfAllocation(int64_t a) const;
    const std::string& operatorOfAllocation(int64_t a) const;
    // The stack node of allocation a: its alloc event's, else its free event's (0, the root).
    uint32_t stackOfAllocation(int64_t a) const;
    // The events of kind Oom, ascending.
    const std::vector<int64_t>& oomEvents() const { return m_ooms; }

  private:
    std::shared_ptr<const Trace> m_trace;
    StackAttribution m_attribution;
    std::vector<int64_t> m_ooms;
};

}  // namespace memscope

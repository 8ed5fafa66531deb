#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// A named region of a run's time, drawn on the timeline as a labelled band.
struct TraceAnnotation {
    enum class Kind : uint8_t {
        Step,       // a training step (from its phases)
        Phase,      // forward, backward, optimizer of a step (the trainer's phase intervals)
        Recompute,  // an activation-checkpointing recomputation of a top-level module in backward
        User,       // imported: PyTorch's external annotations / record_function markers
    };
    std::string name;
    Kind kind = Kind::User;
    int64_t begin_ns = 0;
    int64_t end_ns = 0;  // exclusive; begin_ns <= end_ns

    bool operator==(const TraceAnnotation& o) const {
        return name == o.name && kind == o.kind && begin_ns == o.begin_ns && end_ns == o.end_ns;
    }
};

// The annotations of a run: steps and phases from Trace::phases (a step spans its phases), one
// Recompute region per top-level module span recorded while a step's backward ran (spans whose
// stack holds a module frame and no module frame above it: the checkpoint re-running a block's
// forward), and the imported ones the snapshot importer keeps in Trace::summary
// ("annotations": [{"name", "begin_ns", "end_ns"}], read here only). Sorted by kind, then
// begin time. O(phases + spans + stack depth of the module spans).
class TraceAnnotations {
  public:
    static std::vector<TraceAnnotation> fromTrace(const Trace& trace);
    // The summary key the importer writes the user annotations under.
    static constexpr const char* kSummaryKey = "annotations";
};

}  // namespace memscope

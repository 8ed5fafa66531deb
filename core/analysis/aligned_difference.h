#pragma once

#include "run/phase.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// Where two runs differ at one aligned moment (issue 53): "step 2, forward" in A against step 2,
// forward in B, rather than each at its own peak. The moment of a run is the event with the most
// bytes alive inside that step's phase (the first such event), or inside the step (no phase), or
// the run's peak. At the two moments, the bytes alive in each run by category, by module (the
// innermost module on the allocation's stack; "backward of M" counts as M) and by the place that
// made them (the innermost frame with a source file, else the module, and the operator); the
// rows of a section sum to the two totals, so B's total minus A's is the sum of the deltas.
class AlignedDifference {
  public:
    struct Moment {
        int32_t step = -1;  // -1: the run's peak
        int phase = -1;     // a Phase, or -1: anywhere in the step
        std::string text;   // as the user wrote it
    };
    // "peak", "3" (step 3) or "3:forward" / "3:backward" / "3:optimizer". InputError naming
    // the text otherwise.
    static Moment parseMoment(const std::string& text);
    // The event of the moment in `trace`: InputError naming `run` when it has no such step or
    // phase (with the steps it has).
    static int64_t eventOf(const Trace& trace, const Moment& moment, const std::string& run);

    enum class Section { Category, Module, Place };
    struct Row {
        Section section = Section::Category;
        std::string name;
        int64_t a = 0;
        int64_t b = 0;
        int64_t delta() const { return b - a; }
    };

    static AlignedDifference compute(const Trace& a, const Trace& b, const Moment& moment,
                                     const std::string& name_a = "A",
                                     const std::string& name_b = "B");

    std::string name_a, name_b;
    Moment moment;
    int64_t event_a = -1, event_b = -1;
    int64_t total_a = 0, total_b = 0;  // bytes alive at the two moments
    // Per section, the largest |delta| first; every row of a section is kept (they sum).
    std::vector<Row> rows;

    static std::string sectionName(Section section);  // "category", "module", "place"
    // The moment, the totals and per section the `top` largest changes.
    std::string toText(size_t top = 10) const;
    nlohmann::json toJson(size_t top = 50) const;
};

}  // namespace memscope

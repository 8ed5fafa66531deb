#pragma once

#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// Where the memory went, nn.Module by nn.Module (issue 41), from the run's own allocation events:
// a tree of module paths ("TinyLlama", "TinyLlama.blocks", "TinyLlama.blocks.0", ...) whose rows
// sum, at one moment of the run and over the whole run.
//
// The module of an allocation: the module its storage was named for (a Role event whose stack is
// a Module frame: the trainer and the Python recorder name each parameter, gradient and optimizer
// state with the module that owns the parameter), else the innermost module frame of the stack
// that allocated it ("backward of M" counts as M), else none (the "(no module)" row: the input
// batch, a loss computed outside the model, the optimizer's temporaries, ...).
//
// At the moment (an event index: the peak by default), each live allocation counts in one column:
//   parameters, gradients, optimizer state   its category
//   activations    made in a forward and still alive (saved for backward and the like)
//   temporaries    category TEMPORARY, made outside backward
//   backward       made in a backward (not a gradient): the backward's own buffers
//   other          the rest (inputs, communication buffers, memory alive before the recording)
// A row's "self" figures are the allocations attributed to its own path, its "total" figures add
// its sub-modules'. The top rows' totals plus the "(no module)" row equal the bytes alive at the
// moment, to the byte.
// Over the whole run, per module (sub-modules included):
//   forward peak    the most its forward added at once: over every run of consecutive forward
//                   events inside the module, the highest running sum of their sizes
//   backward peak   the same for the events of its backward ("backward of M" frames)
//   saved           in the step of the moment: bytes its forward made that were still alive when
//                   that step's backward began (what autograd kept for it)
class ModuleTable {
  public:
    enum Column {
        Parameters,
        Gradients,
        OptimizerState,
        Activations,
        Temporaries,
        Backward,
        Other
    };
    static constexpr int kColumnCount = 7;
    using Bytes = std::array<int64_t, kColumnCount>;

    struct Row {
        std::string path;  // "" for the "(no module)" row
        std::string name;  // the last part of the path ("q_proj"), "(no module)"
        int depth = 0;     // 0 for top rows
        int parent = -1;   // row index, -1 for top rows
        Bytes self{};
        Bytes total{};
        int64_t forward_peak = 0;
        int64_t backward_peak = 0;
        int64_t saved_for_backward = 0;
        int64_t allocations = 0;  // live allocations counted in total

        int64_t held() const;  // the sum of total
    };

    // Whether the run names modules at all: a Module or "backward of" frame on some stack.
    static bool available(const Trace& trace);
    // The table at event `event` (clamped to the run; -1: the allocated peak, Trace::peakEvent).
    static ModuleTable compute(const Trace& trace, int64_t event = -1);

    int64_t event() const { return m_event; }
    int32_t step() const { return m_step; }
    // Depth first: every row before its sub-modules, siblings by held() descending (ties in the
    // order their paths first appear); the "(no module)" row last among the top rows.
    const std::vector<Row>& rows() const { return m_rows; }
    // The bytes alive at the moment, and per column: what the top rows sum to.
    int64_t aliveBytes() const { return m_alive; }
    const Bytes& aliveByColumn() const { return m_aliveByColumn; }
    // The top rows that hold the most at the moment, largest first (not "(no module)").
    std::vector<int> dominantRows(size_t count) const;

    // The module each allocation of the trace is attributed to: paths[of[a]], -1 for none.
    // Paths are numbered by the first allocation attributed to each.
    struct AllocationModules {
        std::vector<std::string> paths;
        std::vector<int32_t> of;
    };
    static AllocationModules modulesOfAllocations(const Trace& trace);
    // compute() with the trace's modulesOfAllocations already at hand.
    static ModuleTable compute(const Trace& trace, int64_t event, const AllocationModules& modules);
    // The innermost module on a stack ("backward of M" counts as M), "" for none: the
    // allocating stack's part of that rule, for one stack (no Role owners; O(depth)).
    static std::string moduleOfStack(const StackTable& stacks, uint32_t node);
    // Whether `module` is `path` or one of its sub-modules ("a.b" is under "a", "a.bc" is not).
    static bool isUnder(const std::string& module, const std::string& path);

    static const char* columnId(int column);    // "parameters", "optimizer_state", ...
    static const char* columnName(int column);  // "Parameters", "Optimizer state", ...
    // {"event", "step", "alive_bytes", "columns": [...], "rows": [{"path", "depth", "self": {},
    // "total": {}, "held", "forward_peak", "backward_peak", "saved_for_backward"}]}
    nlohmann::json toJson() const;
    // Text for `info --modules`: an indented tree, rows down to `max_depth` (-1: all), the
    // dominating rows named under it.
    std::string toText(int max_depth = -1) const;

  private:
    int64_t m_event = -1;
    int32_t m_step = 0;
    int64_t m_alive = 0;
    Bytes m_aliveByColumn{};
    std::vector<Row> m_rows;
};

}  // namespace memscope

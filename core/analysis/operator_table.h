#pragma once

#include "analysis/range_filter.h"
#include "trace/trace.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memscope {

class SpanNesting;

// The operator table of a run, in the spirit of torch.profiler's key_averages(): one row per
// operator name, or a module tree. Times and calls come from the recorded spans (a span's self
// time is its duration minus the spans directly inside it), memory from the allocations: each
// allocation is attributed to exactly one row, the innermost operator (or autograd node) on its
// stack, or a row for allocations made outside any operator.
//
// Module tree: module rows nest by their dotted paths ("TinyLlama.blocks.0" holds
// "TinyLlama.blocks.0.attention"); under a module come the operators its forward called
// (nested as on the stack: aten::linear > aten::addmm) and a "backward" row with the autograd
// nodes that the recorder traced back to that module ("backward of ..." frames), so a module's
// totals cover its forward and its backward. Activation-checkpointing recomputations count as
// calls of the module they recompute.
class OperatorTable {
  public:
    enum class Grouping { ByOperator, ByModule };
    enum class RowKind : uint8_t {
        Operator,      // an ATen op ("aten::mm")
        BackwardNode,  // an autograd node ("MmBackward0")
        Module,        // a module path ("TinyLlama.blocks.0.attention")
        Backward,      // the backward of the parent module row
        Unattributed,  // allocations made outside any operator (and, in the tree, any module)
    };

    struct Row {
        std::string name;  // Backward rows: the module's path
        RowKind kind = RowKind::Operator;
        int64_t parent = -1;
        std::vector<int64_t> children;
        int64_t calls = 0;
        int64_t self_ns = 0;
        int64_t total_ns = 0;         // inside, children included (recursive calls counted once)
        int64_t device_ns = 0;        // GPU time where measured
        int64_t bytes_allocated = 0;  // by allocations made inside, children included
        int64_t self_bytes_allocated = 0;  // by the allocations attributed to this row
        int64_t self_net_bytes = 0;        // those minus the frees made in this row
        double flops = 0;                  // of this row's own calls (matmul-like ops)
        int64_t bytes_sent = 0;            // c10d collectives: payload sent to the other ranks
        // Input shapes as Trace::shape_strings indices with their call counts, most calls first.
        std::vector<std::pair<uint32_t, int64_t>> shapes;
        std::vector<int64_t> allocations;  // Trace::allocations() indices attributed here
    };

    static OperatorTable build(const Trace& trace, Grouping grouping);

    Grouping grouping() const { return m_grouping; }
    const std::vector<Row>& rows() const { return m_rows; }
    const Row& row(int64_t index) const { return m_rows[static_cast<size_t>(index)]; }
    // Rows without a parent (all rows when grouped by operator).
    const std::vector<int64_t>& topLevel() const { return m_top; }
    // The row an allocation is attributed to, or -1 for an index out of range.
    int64_t rowOfAllocation(int64_t allocation) const;
    // Allocations made inside a row, its children's included, ascending.
    std::vector<int64_t> allocationsInside(int64_t row) const;
    // The time the percentages refer to: all time inside recorded scopes.
    int64_t coveredNs() const { return m_covered; }
    double selfPercent(const Row& row) const;
    double totalPercent(const Row& row) const;

    // The calls of a row and their times, as Row holds them for the whole run.
    struct Calls {
        int64_t calls = 0;
        int64_t self_ns = 0;
        int64_t total_ns = 0;
        double flops = 0;
    };
    struct CallsInRange {
        // Per row (the indices of rows()). Empty when the run has no op spans: its calls and
        // times are the recorder's per-name statistics, which no range can split.
        std::vector<Calls> rows;
        // The selected calls' time outside any other selected call, what percentages refer to.
        int64_t covered_ns = 0;
        double selfPercent(const Calls& c) const;
        double totalPercent(const Calls& c) const;
    };
    // Calls and times of the calls that ran in a filter's range: those whose span overlaps its
    // time window (RangeFilter::overlaps, the same for both modes), counted as build() counts
    // the whole run's, whole calls with their whole times (a call straddling an end of the
    // range counts in full). The whole run's range gives the rows' own figures. `trace` must be
    // the trace the table was built from. O(spans x nesting depth).
    CallsInRange callsIn(const Trace& trace, const RangeFilter& filter) const;

  private:
    void collectInside(int64_t row, std::vector<int64_t>& out) const;
    // Rows in an order where every parent comes before its children.
    std::vector<int64_t> parentsFirst() const;
    // Calls and times of the spans that overlap `window` (every span: nullptr), before the
    // module tree's bottom-up totals; `covered` gets the outermost selected spans' time.
    std::vector<Calls> countCalls(const Trace& trace, const RangeFilter::TimeWindow* window,
                                  int64_t* covered) const;

    Grouping m_grouping = Grouping::ByOperator;
    std::vector<Row> m_rows;
    std::vector<int64_t> m_top;
    std::vector<int64_t> m_rowOfAllocation;
    // ByOperator: per row the allocations made inside (nested operators' included).
    std::vector<std::vector<int64_t>> m_inside;
    int64_t m_covered = 0;
    // Per span of the trace: the row its call counts in (-1: none), and how the spans nest.
    std::vector<int64_t> m_rowOfSpan;
    std::shared_ptr<const SpanNesting> m_nesting;
    // FLOPs of one call of a matmul-like row with given input shapes: key row << 32 | shapes.
    std::unordered_map<uint64_t, double> m_callFlops;
};

}  // namespace memscope

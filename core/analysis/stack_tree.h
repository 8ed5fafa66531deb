#pragma once

#include "trace/category.h"
#include "trace/stack_table.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace memscope {

class Trace;

// What StackTree::build aggregates: the allocations alive at one event (the peak by default) and
// those made in an optional event range [first_event, last_event).
struct StackTreeOptions {
    enum class Direction {
        TopDown,   // root -> outermost frame -> ... -> innermost frame (a flame graph's tree)
        BottomUp,  // root -> innermost frame -> ... -> outermost frame (heaptrack's bottom-up)
    };
    Direction direction = Direction::TopDown;
    // The event whose live allocations give `bytes`; -1: the event with the most memory
    // allocated (the peak), within the range when one is set.
    int64_t at_event = -1;
    // The range filter: only allocations alive in (or made in) [first_event, last_event) count;
    // allocated bytes, allocations and temporaries count those made in it. last_event -1: the end.
    int64_t first_event = 0;
    int64_t last_event = -1;
    // When set, only the allocations whose flag is 1 count (a module filter: the Modules tab's
    // row, ModuleTable::modulesOfAllocations); the moment is still the run's peak in the range.
    std::shared_ptr<const std::vector<uint8_t>> only;
    // The frames as the file listed them (Trace::raw_stacks, an import's), read in place, instead
    // of the cleaned stacks; ignored for a trace without raw stacks.
    bool raw_frames = false;
    // Source frames of one function are one node whatever line they were at ("train_step
    // (train.py)"): a program's entry is one root, a worker's function one box. Off: a node per
    // line ("train_step (train.py:42)"), as the folded export writes them.
    bool merge_lines = false;
};

// One frame of a stack tree. Every figure counts the allocations whose stack passes through the
// node (children included), so the root holds the totals.
struct StackTreeNode {
    std::string name;  // frame text (StackTree::frameText); "" for the root
    FrameKind kind = FrameKind::Other;
    int32_t parent = -1;
    int32_t depth = 0;              // the root is 0
    std::vector<int32_t> children;  // largest `bytes` first (then allocated bytes, then name)
    int64_t bytes = 0;              // alive at the chosen event ("peak" in heaptrack's tables)
    int64_t alive_count = 0;        // allocations alive at the chosen event
    int64_t allocated_bytes = 0;    // made in the range (the whole run without one)
    int64_t allocations = 0;        // allocations made in the range
    int64_t temporary_bytes = 0;    // of those, temporary ones (heaptrack's definition)
    int64_t temporaries = 0;
    std::array<int64_t, kCategoryCount> category_bytes{};  // `bytes` by category
    // Difference trees (StackDiff): bytes alive at the peak of run A and of run B. There,
    // `bytes` is the sum of |B - A| over the stacks below, so boxes nest.
    int64_t bytes_a = 0;
    int64_t bytes_b = 0;

    int64_t delta() const { return bytes_b - bytes_a; }
};

// The allocations of a trace aggregated by their stack (module, operator, autograd node and
// imported Python frames, as the trace's StackTable holds them) into a call tree. Allocations
// without a stack sit under one "[no stack]" frame. Temporary allocation (heaptrack): the very
// next alloc or free event after it is its own free.
class StackTree {
  public:
    static constexpr const char* kNoStack = "[no stack]";
    // An imported snapshot's allocations without a stack that were alive before its trace
    // began (RunMetadata::categories_inferred; a block of the snapshot's segments, a free with no
    // alloc): they sit under this frame instead of kNoStack.
    static constexpr const char* kBeforeRecording = "[allocated before recording]";

    static StackTree build(const Trace& trace, const StackTreeOptions& options = {});

    // "name", or "name (file:line)" for other frames with a source location (imported Python
    // frames: many are named "forward").
    static std::string frameText(const Frame& frame);
    // frameText without the line, for StackTreeOptions::merge_lines.
    static std::string functionText(const Frame& frame);

    StackTreeOptions::Direction direction() const { return m_direction; }
    int64_t atEvent() const { return m_at; }  // -1 for a trace without alloc/free events
    int64_t firstEvent() const { return m_first; }
    int64_t lastEvent() const { return m_last; }  // exclusive, resolved (never -1)

    const std::vector<StackTreeNode>& nodes() const { return m_nodes; }
    const StackTreeNode& node(int32_t index) const { return m_nodes[size_t(index)]; }
    const StackTreeNode& root() const { return m_nodes.front(); }
    size_t size() const { return m_nodes.size(); }

    // Frame names from below the root down to the node.
    std::vector<std::string> path(int32_t node) const;
    // Allocations counted in the node's `bytes` (alive at the chosen event), ascending.
    std::vector<int64_t> allocationsAt(const Trace& trace, int32_t node) const;
    // Folded stacks (flamegraph.pl, speedscope): one "frame;frame;frame bytes" line per path
    // with bytes of its own (a node's bytes minus its children's), largest first. ';' in frame
    // text becomes ','.
    std::string folded() const;

    // For builders of other trees (StackDiff): the child of `parent` named so, made on demand.
    int32_t child(int32_t parent, const std::string& name, FrameKind kind);
    StackTreeNode& mutableNode(int32_t index) { return m_nodes[size_t(index)]; }
    // Orders every node's children largest first; call once the figures are in.
    void sortChildren();

    StackTree();

  private:
    std::vector<StackTreeNode> m_nodes;
    std::unordered_map<std::string, int32_t> m_children;  // "parent\x1fname" -> node
    std::vector<int32_t> m_leafOfStack;                   // StackTable node -> deepest node
    StackTreeOptions::Direction m_direction = StackTreeOptions::Direction::TopDown;
    int64_t m_at = -1;
    bool m_raw = false;  // built from the raw frames (allocationsAt reads the same ones)
    int64_t m_first = 0;
    int64_t m_last = 0;
};

}  // namespace memscope

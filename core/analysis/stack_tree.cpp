#include "analysis/stack_tree.h"

#include "trace/trace.h"

#include <algorithm>

namespace memscope {

namespace {

struct StackFigures {
    int64_t bytes = 0;
    int64_t alive_count = 0;
    int64_t allocated_bytes = 0;
    int64_t allocations = 0;
    int64_t temporary_bytes = 0;
    int64_t temporaries = 0;
    std::array<int64_t, kCategoryCount> category_bytes{};
    bool used = false;
};

bool isAllocOrFree(uint8_t kind) {
    return kind == uint8_t(EventKind::Alloc) || kind == uint8_t(EventKind::Free);
}

// heaptrack: an allocation is temporary when the next alloc or free event after it is its own
// free (any other alloc or free in between makes it not).
std::vector<bool> temporaryAllocations(const Trace& trace) {
    const auto& ev = trace.events;
    const auto& of_event = trace.allocationOfEvent();
    std::vector<bool> temporary(trace.allocations().size(), false);
    int64_t last_alloc = -1;
    for (size_t i = 0; i < ev.count() && i < of_event.size(); ++i) {
        const uint8_t kind = ev.kind[i];
        if (!isAllocOrFree(kind)) {
            continue;
        }
        const int64_t a = of_event[i];
        if (kind == uint8_t(EventKind::Free) && a >= 0 && a == last_alloc &&
            size_t(a) < temporary.size()) {
            temporary[size_t(a)] = true;
        }
        last_alloc = kind == uint8_t(EventKind::Alloc) ? a : -1;
    }
    return temporary;
}

// The stacks a tree is built from: the trace's cleaned ones, or the raw frames as the file listed
// them (StackTreeOptions::raw_frames), read in place.
struct StackSource {
    const StackTable& table;
    const PackedColumn<uint32_t>& of_event;
};

StackSource stackSourceOf(const Trace& trace, bool raw) {
    if (raw && trace.hasRawStacks()) {
        return {trace.raw_stacks, trace.raw_stack};
    }
    return {trace.stacks, trace.events.stack};
}

uint32_t stackOf(const Trace& trace, const StackSource& source, const Allocation& a) {
    if (a.alloc_event < 0 || size_t(a.alloc_event) >= trace.events.count()) {
        return StackTable::kEmpty;
    }
    const uint32_t s = source.of_event[size_t(a.alloc_event)];
    return s < source.table.nodeCount() ? s : StackTable::kEmpty;
}

// The stack an allocation is counted under: its own, or for an import's allocation without one
// that was alive before the trace began, one more slot after the table's nodes (kBeforeRecording).
uint32_t slotOf(const Trace& trace, const StackSource& source, const Allocation& a) {
    const uint32_t s = stackOf(trace, source, a);
    if (s != StackTable::kEmpty || !trace.meta.categories_inferred) {
        return s;
    }
    const bool before = a.alloc_event < 0 || (size_t(a.alloc_event) < trace.events.count() &&
                                              trace.events.step[size_t(a.alloc_event)] < 0);
    return before ? uint32_t(source.table.nodeCount()) : s;
}

bool aliveAt(const Allocation& a, int64_t at) {
    return at >= 0 && a.alloc_event <= at && (a.free_event < 0 || a.free_event > at);
}

bool overlaps(const Allocation& a, int64_t first, int64_t last) {
    return a.alloc_event < last && (a.free_event < 0 || a.free_event > first);
}

}  // namespace

StackTree::StackTree() {
    m_nodes.emplace_back();
}

std::string StackTree::frameText(const Frame& frame) {
    // Module paths, operators and autograd nodes name themselves; a recorded frame's source line
    // would only keep two builds of the same model apart.
    if (frame.file.empty() || frame.kind != FrameKind::Other) {
        return frame.name;
    }
    return frame.name + " (" + frame.file + ":" + std::to_string(frame.line) + ")";
}

std::string StackTree::functionText(const Frame& frame) {
    if (frame.file.empty() || frame.kind != FrameKind::Other) {
        return frame.name;
    }
    return frame.name + " (" + frame.file + ")";
}

int32_t StackTree::child(int32_t parent, const std::string& name, FrameKind kind) {
    std::string key = std::to_string(parent);
    key += '\x1f';
    key += name;
    auto it = m_children.find(key);
    if (it != m_children.end()) {
        return it->second;
    }
    const auto id = int32_t(m_nodes.size());
    StackTreeNode n;
    n.name = name;
    n.kind = kind;
    n.parent = parent;
    n.depth = m_nodes[size_t(parent)].depth + 1;
    m_nodes.push_back(std::move(n));
    m_nodes[size_t(parent)].children.push_back(id);
    m_children.emplace(std::move(key), id);
    return id;
}

void StackTree::sortChildren() {
    for (auto& n : m_nodes) {
        std::sort(n.children.begin(), n.children.end(), [this](int32_t x, int32_t y) {
            const StackTreeNode& a = m_nodes[size_t(x)];
            const StackTreeNode& b = m_nodes[size_t(y)];
            if (a.bytes != b.bytes) {
                return a.bytes > b.bytes;
            }
            if (a.allocated_bytes != b.allocated_bytes) {
                return a.allocated_bytes > b.allocated_bytes;
            }
            return a.name < b.name;
        });
    }
}

StackTree StackTree::build(const Trace& trace, const StackTreeOptions& options) {
    StackTree tree;
    const auto& ev = trace.events;
    const auto n_events = int64_t(ev.count());
    tree.m_direction = options.direction;
    tree.m_first = std::clamp<int64_t>(options.first_event, 0, n_events);
    tree.m_last =
        options.last_event < 0 ? n_events : std::clamp<int64_t>(options.last_event, 0, n_events);
    tree.m_last = std::max(tree.m_last, tree.m_first);
    tree.m_at = options.at_event;
    if (tree.m_at < 0) {  // the peak within the range
        int64_t best_bytes = -1;
        for (int64_t i = tree.m_first; i < tree.m_last; ++i) {
            if (isAllocOrFree(ev.kind[size_t(i)]) && ev.allocated[size_t(i)] > best_bytes) {
                best_bytes = ev.allocated[size_t(i)];
                tree.m_at = i;
            }
        }
    } else if (tree.m_at >= n_events) {
        tree.m_at = n_events - 1;
    }

    tree.m_raw = options.raw_frames && trace.hasRawStacks();
    const StackSource source = stackSourceOf(trace, tree.m_raw);
    const auto& stacks = source.table;
    const std::vector<bool> temporary = temporaryAllocations(trace);
    std::vector<StackFigures> per_stack(stacks.nodeCount() + 1);  // + slotOf's extra slot
    const auto& allocations = trace.allocations();
    for (size_t k = 0; k < allocations.size(); ++k) {
        const Allocation& a = allocations[k];
        if (!overlaps(a, tree.m_first, tree.m_last) ||
            (options.only && (k >= options.only->size() || (*options.only)[k] == 0))) {
            continue;
        }
        const bool alive = aliveAt(a, tree.m_at);
        const bool made = a.alloc_event >= tree.m_first && a.alloc_event < tree.m_last;
        if (!alive && !made) {
            continue;
        }
        StackFigures& f = per_stack[slotOf(trace, source, a)];
        f.used = true;
        if (alive) {
            f.bytes += a.size;
            f.alive_count += 1;
            f.category_bytes[std::min<size_t>(size_t(a.category), kCategoryCount - 1)] += a.size;
        }
        if (made) {
            f.allocated_bytes += a.size;
            f.allocations += 1;
            if (temporary[k]) {
                f.temporary_bytes += a.size;
                f.temporaries += 1;
            }
        }
    }

    tree.m_leafOfStack.assign(per_stack.size(), -1);
    std::vector<int32_t> text_of_frame(stacks.frameCount(), -1);
    std::vector<std::string> texts;
    const bool bottom_up = options.direction == StackTreeOptions::Direction::BottomUp;
    for (uint32_t s = 0; s < per_stack.size(); ++s) {
        const StackFigures& f = per_stack[s];
        if (!f.used) {
            continue;
        }
        const bool before = s == stacks.nodeCount();
        std::vector<uint32_t> frames = before ? std::vector<uint32_t>() : stacks.framesOf(s);
        if (bottom_up) {
            std::reverse(frames.begin(), frames.end());
        }
        std::vector<int32_t> chain{0};
        if (frames.empty()) {
            chain.push_back(tree.child(0, before ? kBeforeRecording : kNoStack, FrameKind::Other));
        }
        for (uint32_t frame : frames) {
            if (text_of_frame[frame] < 0) {
                text_of_frame[frame] = int32_t(texts.size());
                texts.push_back(options.merge_lines ? functionText(stacks.frame(frame))
                                                    : frameText(stacks.frame(frame)));
            }
            chain.push_back(tree.child(chain.back(), texts[size_t(text_of_frame[frame])],
                                       stacks.frame(frame).kind));
        }
        tree.m_leafOfStack[s] = chain.back();
        for (int32_t id : chain) {
            StackTreeNode& n = tree.m_nodes[size_t(id)];
            n.bytes += f.bytes;
            n.alive_count += f.alive_count;
            n.allocated_bytes += f.allocated_bytes;
            n.allocations += f.allocations;
            n.temporary_bytes += f.temporary_bytes;
            n.temporaries += f.temporaries;
            for (int c = 0; c < kCategoryCount; ++c) {
                n.category_bytes[size_t(c)] += f.category_bytes[size_t(c)];
            }
        }
    }
    tree.sortChildren();
    return tree;
}

std::vector<std::string> StackTree::path(int32_t node) const {
    std::vector<std::string> out;
    while (node > 0) {
        out.push_back(m_nodes[size_t(node)].name);
        node = m_nodes[size_t(node)].parent;
    }
    std::reverse(out.begin(), out.end());
    return out;
}

std::vector<int64_t> StackTree::allocationsAt(const Trace& trace, int32_t node) const {
    std::vector<int64_t> out;
    if (node < 0 || size_t(node) >= m_nodes.size() || m_at < 0) {
        return out;
    }
    const int32_t depth = m_nodes[size_t(node)].depth;
    const StackSource source = stackSourceOf(trace, m_raw);
    std::vector<int8_t> under(m_leafOfStack.size(), -1);  // per stack: 1 under the node, 0 not
    const auto& allocations = trace.allocations();
    for (size_t k = 0; k < allocations.size(); ++k) {
        const Allocation& a = allocations[k];
        if (!aliveAt(a, m_at) || !overlaps(a, m_first, m_last)) {
            continue;
        }
        const uint32_t s = slotOf(trace, source, a);
        if (s >= under.size()) {
            continue;
        }
        if (under[s] < 0) {
            int32_t n = m_leafOfStack[s];
            while (n >= 0 && m_nodes[size_t(n)].depth > depth) {
                n = m_nodes[size_t(n)].parent;
            }
            under[s] = n == node ? 1 : 0;
        }
        if (under[s] == 1) {
            out.push_back(int64_t(k));
        }
    }
    return out;
}

std::string StackTree::folded() const {
    std::vector<std::pair<int64_t, std::string>> lines;
    for (size_t i = 1; i < m_nodes.size(); ++i) {
        const StackTreeNode& n = m_nodes[i];
        int64_t self = n.bytes;
        for (int32_t c : n.children) {
            self -= m_nodes[size_t(c)].bytes;
        }
        if (self <= 0) {
            continue;
        }
        std::string line;
        for (const std::string& name : path(int32_t(i))) {
            if (!line.empty()) {
                line += ';';
            }
            std::string text = name;
            std::replace(text.begin(), text.end(), ';', ',');
            std::replace(text.begin(), text.end(), '\n', ' ');
            line += text;
        }
        lines.emplace_back(self, std::move(line));
    }
    std::stable_sort(lines.begin(), lines.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string out;
    for (const auto& [bytes, line] : lines) {
        out += line;
        out += ' ';
        out += std::to_string(bytes);
        out += '\n';
    }
    return out;
}

}  // namespace memscope

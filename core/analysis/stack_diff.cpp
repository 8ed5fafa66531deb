#include "analysis/stack_diff.h"

#include "trace/trace.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace memscope {

namespace {

// Each path of a top-down tree with bytes of its own (the node's minus its children's).
void collectSelf(const StackTree& tree, bool into_b,
                 std::map<std::vector<std::string>, StackDiff::Row>& rows,
                 std::map<std::vector<std::string>, FrameKind>& kinds) {
    for (size_t i = 1; i < tree.size(); ++i) {
        const StackTreeNode& n = tree.node(int32_t(i));
        kinds.emplace(tree.path(int32_t(i)), n.kind);  // for colours of the difference tree
        int64_t self = n.bytes;
        for (int32_t c : n.children) {
            self -= tree.node(c).bytes;
        }
        if (self == 0) {
            continue;
        }
        std::vector<std::string> path = tree.path(int32_t(i));
        StackDiff::Row& row = rows[path];
        row.frames = std::move(path);
        (into_b ? row.bytes_b : row.bytes_a) += self;
    }
}

}  // namespace

std::string StackDiff::describe(const std::vector<std::string>& frames) {
    std::string out;
    for (const std::string& f : frames) {
        if (!out.empty()) {
            out += " > ";
        }
        out += f;
    }
    return out;
}

StackDiff StackDiff::compare(const Trace& a, const Trace& b, int64_t at_a, int64_t at_b) {
    StackTreeOptions options;
    options.at_event = at_a;
    const StackTree tree_a = StackTree::build(a, options);
    options.at_event = at_b;
    const StackTree tree_b = StackTree::build(b, options);

    StackDiff diff;
    diff.m_atA = tree_a.atEvent();
    diff.m_atB = tree_b.atEvent();
    std::map<std::vector<std::string>, Row> by_path;
    std::map<std::vector<std::string>, FrameKind> kinds;
    collectSelf(tree_a, false, by_path, kinds);
    collectSelf(tree_b, true, by_path, kinds);

    for (auto& [path, row] : by_path) {
        // Every stack's bytes go into the tree (so its totals are the runs' totals); the table
        // lists those that changed.
        std::vector<int32_t> chain{0};
        std::vector<std::string> prefix;
        for (const std::string& name : path) {
            prefix.push_back(name);
            const auto kind = kinds.find(prefix);
            chain.push_back(diff.m_tree.child(
                chain.back(), name, kind != kinds.end() ? kind->second : FrameKind::Other));
        }
        const int64_t change = std::llabs(row.delta());
        for (int32_t id : chain) {
            StackTreeNode& n = diff.m_tree.mutableNode(id);
            n.bytes_a += row.bytes_a;
            n.bytes_b += row.bytes_b;
            n.bytes += change;
        }
        if (row.delta() != 0) {
            diff.m_rows.push_back(row);
        }
    }
    diff.m_tree.sortChildren();
    std::stable_sort(diff.m_rows.begin(), diff.m_rows.end(), [](const Row& x, const Row& y) {
        const int64_t dx = std::llabs(x.delta());
        const int64_t dy = std::llabs(y.delta());
        if (dx != dy) {
            return dx > dy;
        }
        return x.frames < y.frames;
    });
    return diff;
}

}  // namespace memscope

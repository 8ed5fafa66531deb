#include "analysis/operator_table.h"

#include "analysis/shape_list.h"
#include "analysis/span_nesting.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace memscope {

namespace {

using Row = OperatorTable::Row;
using RowKind = OperatorTable::RowKind;

bool isCall(FrameKind kind) {
    return kind == FrameKind::Operator || kind == FrameKind::BackwardNode;
}

const std::string kBackwardOf = "backward of ";

}  // namespace

OperatorTable OperatorTable::build(const Trace& trace, Grouping grouping) {
    OperatorTable table;
    table.m_grouping = grouping;
    auto& rows = table.m_rows;
    const auto& stacks = trace.stacks;
    const bool tree = grouping == Grouping::ByModule;

    auto add_row = [&rows](std::string name, RowKind kind, int64_t parent) {
        Row r;
        r.name = std::move(name);
        r.kind = kind;
        r.parent = parent;
        rows.push_back(std::move(r));
        return static_cast<int64_t>(rows.size() - 1);
    };
    std::unordered_map<std::string, int64_t> by_name;  // ByOperator rows; ByModule module rows
    std::map<std::pair<int64_t, std::string>, int64_t> calls_under;  // ByModule call rows
    std::unordered_map<int64_t, int64_t> backward_of;                // module row -> its row
    auto module_row = [&](const std::string& name) {
        auto it = by_name.find(name);
        if (it == by_name.end()) {
            it = by_name.emplace(name, add_row(name, RowKind::Module, -1)).first;
        }
        return it->second;
    };

    // Stack node -> row (-1: outside every row). Parents have smaller ids than their children.
    std::vector<int64_t> row_of_node(stacks.nodeCount(), -1);
    // ByOperator: every operator row on the node's stack, innermost first, each once.
    std::vector<std::vector<int64_t>> rows_on_node(tree ? 0 : stacks.nodeCount());
    for (uint32_t n = 1; n < stacks.nodeCount(); ++n) {
        const Frame& f = stacks.frame(stacks.frameOf(n));
        const int64_t outer = row_of_node[stacks.parent(n)];
        int64_t r = outer;
        if (!tree) {
            if (isCall(f.kind)) {
                auto it = by_name.find(f.name);
                if (it == by_name.end()) {
                    const auto kind =
                        f.kind == FrameKind::Operator ? RowKind::Operator : RowKind::BackwardNode;
                    it = by_name.emplace(f.name, add_row(f.name, kind, -1)).first;
                }
                r = it->second;
            }
            auto& on = rows_on_node[n];
            if (isCall(f.kind)) {
                on.push_back(r);
            }
            for (int64_t outer_row : rows_on_node[stacks.parent(n)]) {
                if (outer_row != r) {
                    on.push_back(outer_row);
                }
            }
        } else if (f.kind == FrameKind::Module) {
            r = module_row(f.name);
        } else if (f.kind == FrameKind::BackwardOf) {
            const std::string module =
                f.name.rfind(kBackwardOf, 0) == 0 ? f.name.substr(kBackwardOf.size()) : f.name;
            const int64_t m = module_row(module);
            auto it = backward_of.find(m);
            if (it == backward_of.end()) {
                it = backward_of.emplace(m, add_row(module, RowKind::Backward, m)).first;
            }
            r = it->second;
        } else if (isCall(f.kind)) {
            const auto key = std::make_pair(outer, f.name);
            auto it = calls_under.find(key);
            if (it == calls_under.end()) {
                const auto kind =
                    f.kind == FrameKind::Operator ? RowKind::Operator : RowKind::BackwardNode;
                it = calls_under.emplace(key, add_row(f.name, kind, outer)).first;
            }
            r = it->second;
        }
        row_of_node[n] = r;
    }
    if (tree) {
        // A module's parent is the module at the longest proper prefix of its path.
        for (auto& [name, r] : by_name) {
            for (auto dot = name.rfind('.'); dot != std::string::npos && dot > 0;
                 dot = name.rfind('.', dot - 1)) {
                auto it = by_name.find(name.substr(0, dot));
                if (it != by_name.end()) {
                    rows[static_cast<size_t>(r)].parent = it->second;
                    break;
                }
            }
        }
    }

    int64_t unattributed = -1;
    auto row_or_unattributed = [&](int64_t r) {
        if (r >= 0) {
            return r;
        }
        if (unattributed < 0) {
            unattributed = add_row(std::string(), RowKind::Unattributed, -1);
        }
        return unattributed;
    };

    // Allocations: each to exactly one row, by the stack of its alloc (or, for allocations
    // present from the start, of its free).
    const auto& events = trace.events;
    const auto& allocations = trace.allocations();
    table.m_rowOfAllocation.assign(allocations.size(), -1);
    if (!tree) {
        table.m_inside.resize(rows.size());
    }
    for (size_t a = 0; a < allocations.size(); ++a) {
        const Allocation& alloc = allocations[a];
        const int64_t e = alloc.event();
        const uint32_t node = e >= 0 ? events.stack[static_cast<size_t>(e)] : StackTable::kEmpty;
        const int64_t r =
            row_or_unattributed(node < row_of_node.size() ? row_of_node[node] : int64_t(-1));
        table.m_rowOfAllocation[a] = r;
        Row& row = rows[static_cast<size_t>(r)];
        row.allocations.push_back(static_cast<int64_t>(a));
        row.self_bytes_allocated += alloc.size;
        if (!tree) {
            if (node < rows_on_node.size() && !rows_on_node[node].empty()) {
                for (int64_t inside : rows_on_node[node]) {
                    rows[static_cast<size_t>(inside)].bytes_allocated += alloc.size;
                    table.m_inside[static_cast<size_t>(inside)].push_back(static_cast<int64_t>(a));
                }
            } else {
                row.bytes_allocated += alloc.size;
            }
        }
    }
    for (size_t i = 0; i < events.count(); ++i) {
        const auto kind = static_cast<EventKind>(events.kind[i]);
        if (kind != EventKind::Alloc && kind != EventKind::Free) {
            continue;
        }
        const uint32_t node = events.stack[i];
        const int64_t r =
            row_or_unattributed(node < row_of_node.size() ? row_of_node[node] : int64_t(-1));
        rows[static_cast<size_t>(r)].self_net_bytes += events.size[i];
    }

    // Calls and times from the spans.
    table.m_nesting = std::make_shared<const SpanNesting>(trace);
    table.m_rowOfSpan.assign(trace.spans.size(), -1);
    std::vector<std::unordered_map<uint32_t, int64_t>> shape_calls(rows.size());
    for (size_t i = 0; i < trace.spans.size(); ++i) {
        const Span& s = trace.spans[i];
        if (s.stack >= row_of_node.size()) {
            continue;
        }
        const Frame& f = stacks.frame(stacks.frameOf(s.stack));
        if (!(isCall(f.kind) || (tree && f.kind == FrameKind::Module))) {
            continue;
        }
        const int64_t r = row_of_node[s.stack];
        table.m_rowOfSpan[i] = r;
        if (r >= 0 && s.shapes != 0 && s.shapes < trace.shape_strings.size()) {
            shape_calls[static_cast<size_t>(r)][s.shapes] += 1;
            const uint64_t key = uint64_t(r) << 32 | s.shapes;
            if (ShapeList::isMatmul(f.name) && table.m_callFlops.count(key) == 0) {
                table.m_callFlops[key] =
                    ShapeList::parse(trace.shape_strings[s.shapes]).matmulFlops(f.name);
            }
        }
    }
    {
        const auto calls = table.countCalls(trace, nullptr, &table.m_covered);
        for (size_t r = 0; r < rows.size(); ++r) {
            rows[r].calls = calls[r].calls;
            rows[r].self_ns = calls[r].self_ns;
            rows[r].total_ns = calls[r].total_ns;
            rows[r].flops = calls[r].flops;
        }
    }
    for (size_t r = 0; r < shape_calls.size(); ++r) {
        auto& list = rows[r].shapes;
        list.assign(shape_calls[r].begin(), shape_calls[r].end());
        std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
    }

    // Runs stored without spans still have the recorder's per-name statistics.
    if (trace.spans.empty()) {
        int64_t covered = 0;
        for (const auto& o : trace.operators) {
            covered += o.self_ns;
        }
        table.m_covered = covered;
    }
    if (!tree) {
        for (const auto& o : trace.operators) {
            if (o.is_module) {
                continue;
            }
            auto it = by_name.find(o.name);
            if (it == by_name.end()) {
                if (!trace.spans.empty()) {
                    continue;
                }
                it = by_name.emplace(o.name, add_row(o.name, RowKind::Operator, -1)).first;
            }
            Row& row = rows[static_cast<size_t>(it->second)];
            row.device_ns = o.device_ns;
            row.bytes_sent = o.bytes_sent;
            if (trace.spans.empty()) {
                row.calls = o.calls;
                row.self_ns = o.self_ns;
                row.total_ns = o.total_ns;
                row.flops = o.flops;
            }
        }
    }
    table.m_inside.resize(tree ? 0 : rows.size());

    // Children lists, tree totals bottom-up, and a default order: most memory first.
    for (size_t r = 0; r < rows.size(); ++r) {
        if (rows[r].parent >= 0) {
            rows[static_cast<size_t>(rows[r].parent)].children.push_back(static_cast<int64_t>(r));
        } else {
            table.m_top.push_back(static_cast<int64_t>(r));
        }
    }
    if (tree) {
        const std::vector<int64_t> order = table.parentsFirst();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            Row& row = rows[static_cast<size_t>(*it)];
            row.bytes_allocated += row.self_bytes_allocated;
            row.total_ns += row.self_ns;
            if (row.parent >= 0) {
                Row& parent = rows[static_cast<size_t>(row.parent)];
                parent.bytes_allocated += row.bytes_allocated;
                parent.total_ns += row.total_ns;
            }
        }
    }
    auto by_memory = [&rows](int64_t a, int64_t b) {
        const Row& x = rows[static_cast<size_t>(a)];
        const Row& y = rows[static_cast<size_t>(b)];
        if (x.bytes_allocated != y.bytes_allocated)
            return x.bytes_allocated > y.bytes_allocated;
        if (x.total_ns != y.total_ns)
            return x.total_ns > y.total_ns;
        return a < b;
    };
    std::sort(table.m_top.begin(), table.m_top.end(), by_memory);
    for (auto& row : rows) {
        std::sort(row.children.begin(), row.children.end(), by_memory);
    }
    return table;
}

std::vector<int64_t> OperatorTable::parentsFirst() const {
    std::vector<int64_t> order;
    order.reserve(m_rows.size());
    std::vector<int64_t> pending(m_top.rbegin(), m_top.rend());
    while (!pending.empty()) {
        const int64_t r = pending.back();
        pending.pop_back();
        order.push_back(r);
        for (int64_t c : m_rows[static_cast<size_t>(r)].children) {
            pending.push_back(c);
        }
    }
    return order;
}

std::vector<OperatorTable::Calls> OperatorTable::countCalls(const Trace& trace,
                                                            const RangeFilter::TimeWindow* window,
                                                            int64_t* covered) const {
    std::vector<Calls> out(m_rows.size());
    const SpanNesting& nesting = *m_nesting;
    int64_t outer = 0;
    for (size_t i = 0; i < trace.spans.size(); ++i) {
        const Span& s = trace.spans[i];
        if (window && !RangeFilter::overlaps(s, *window)) {
            continue;
        }
        // A span's enclosing spans enclose its time too, so they overlap every window it
        // overlaps: the outermost selected spans are the outermost spans.
        if (nesting.parent(i) < 0) {
            outer += s.end_ns - s.begin_ns;
        }
        const int64_t r = m_rowOfSpan[i];
        if (r < 0) {
            continue;
        }
        Calls& c = out[static_cast<size_t>(r)];
        c.calls += 1;
        c.self_ns += nesting.selfNs(i);
        if (m_grouping == Grouping::ByOperator) {
            // A recursive call's time is inside its outer call's already; that outer call is
            // selected whenever this one is (see above).
            bool recursive = false;
            for (int64_t p = nesting.parent(i); p >= 0 && !recursive;
                 p = nesting.parent(size_t(p))) {
                recursive = m_rowOfSpan[size_t(p)] == r;
            }
            if (!recursive) {
                c.total_ns += s.end_ns - s.begin_ns;
            }
        }
        if (s.shapes != 0) {
            const auto it = m_callFlops.find(uint64_t(r) << 32 | s.shapes);
            if (it != m_callFlops.end()) {
                c.flops += it->second;
            }
        }
    }
    if (covered) {
        *covered = outer;
    }
    return out;
}

OperatorTable::CallsInRange OperatorTable::callsIn(const Trace& trace,
                                                   const RangeFilter& filter) const {
    CallsInRange out;
    if (trace.spans.empty() || trace.spans.size() != m_rowOfSpan.size() || !m_nesting) {
        return out;
    }
    const RangeFilter::TimeWindow window = filter.timeWindow(trace);
    out.rows = countCalls(trace, &window, &out.covered_ns);
    if (m_grouping == Grouping::ByModule) {
        const std::vector<int64_t> order = parentsFirst();
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            Calls& c = out.rows[static_cast<size_t>(*it)];
            c.total_ns += c.self_ns;
            const int64_t parent = m_rows[static_cast<size_t>(*it)].parent;
            if (parent >= 0) {
                out.rows[static_cast<size_t>(parent)].total_ns += c.total_ns;
            }
        }
    }
    return out;
}

double OperatorTable::CallsInRange::selfPercent(const Calls& c) const {
    return covered_ns > 0 ? 100.0 * double(c.self_ns) / double(covered_ns) : 0.0;
}

double OperatorTable::CallsInRange::totalPercent(const Calls& c) const {
    return covered_ns > 0 ? 100.0 * double(c.total_ns) / double(covered_ns) : 0.0;
}

int64_t OperatorTable::rowOfAllocation(int64_t allocation) const {
    if (allocation < 0 || allocation >= static_cast<int64_t>(m_rowOfAllocation.size())) {
        return -1;
    }
    return m_rowOfAllocation[static_cast<size_t>(allocation)];
}

void OperatorTable::collectInside(int64_t row, std::vector<int64_t>& out) const {
    const Row& r = m_rows[static_cast<size_t>(row)];
    out.insert(out.end(), r.allocations.begin(), r.allocations.end());
    for (int64_t c : r.children) {
        collectInside(c, out);
    }
}

std::vector<int64_t> OperatorTable::allocationsInside(int64_t row) const {
    if (row < 0 || row >= static_cast<int64_t>(m_rows.size())) {
        return {};
    }
    std::vector<int64_t> out;
    if (m_grouping == Grouping::ByOperator) {
        const auto& inside = m_inside[static_cast<size_t>(row)];
        out = inside.empty() ? m_rows[static_cast<size_t>(row)].allocations : inside;
    } else {
        collectInside(row, out);
    }
    std::sort(out.begin(), out.end());
    return out;
}

double OperatorTable::selfPercent(const Row& row) const {
    return m_covered > 0 ? 100.0 * double(row.self_ns) / double(m_covered) : 0.0;
}

double OperatorTable::totalPercent(const Row& row) const {
    return m_covered > 0 ? 100.0 * double(row.total_ns) / double(m_covered) : 0.0;
}

}  // namespace memscope

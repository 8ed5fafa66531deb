#include "explain/module_table.h"

#include "explain/stack_attribution.h"
#include "run/run_summary.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <unordered_map>

namespace memscope {

namespace {

const std::string kBackwardOfPrefix = "backward of ";
const char* const kNoModule = "(no module)";

// The module path a frame names: a Module frame's name, a "backward of M" frame's M.
std::string modulePathOf(const Frame& frame) {
    if (frame.kind == FrameKind::BackwardOf &&
        frame.name.compare(0, kBackwardOfPrefix.size(), kBackwardOfPrefix) == 0) {
        return frame.name.substr(kBackwardOfPrefix.size());
    }
    return frame.name;
}

// A Role event's owner: its stack is one Module frame (the trainer and the Python recorder name
// a parameter's storages with the module that owns it); "" for a role without one.
std::string ownerOfRole(const StackTable& stacks, uint32_t node) {
    if (node == StackTable::kEmpty || node >= stacks.nodeCount() ||
        stacks.parent(node) != StackTable::kEmpty) {
        return {};
    }
    const Frame& f = stacks.frame(stacks.frameOf(node));
    return f.kind == FrameKind::Module ? f.name : std::string();
}

bool movesBytes(uint8_t kind) {
    return kind == static_cast<uint8_t>(EventKind::Alloc) ||
           kind == static_cast<uint8_t>(EventKind::Free);
}

// Rows by path, built as paths turn up: every dotted prefix of a path is a row too.
class RowIndex {
  public:
    explicit RowIndex(std::vector<ModuleTable::Row>& rows) : m_rows(rows) {}

    int of(const std::string& path) {
        if (path.empty()) {
            return -1;
        }
        auto it = m_byPath.find(path);
        if (it != m_byPath.end()) {
            return it->second;
        }
        const size_t dot = path.rfind('.');
        const int parent = dot == std::string::npos ? -1 : of(path.substr(0, dot));
        ModuleTable::Row row;
        row.path = path;
        row.name = dot == std::string::npos ? path : path.substr(dot + 1);
        row.parent = parent;
        row.depth = parent < 0 ? 0 : m_rows[size_t(parent)].depth + 1;
        m_rows.push_back(std::move(row));
        const int index = int(m_rows.size()) - 1;
        m_byPath.emplace(path, index);
        return index;
    }

  private:
    std::vector<ModuleTable::Row>& m_rows;
    std::unordered_map<std::string, int> m_byPath;
};

int columnOf(const Allocation& a, Phase phase) {
    switch (a.category) {
        case Category::Parameter:
            return ModuleTable::Parameters;
        case Category::Gradient:
            return ModuleTable::Gradients;
        case Category::OptimizerState:
            return ModuleTable::OptimizerState;
        default:
            break;
    }
    if (phase == Phase::Backward) {
        return ModuleTable::Backward;
    }
    if (a.category == Category::Temporary) {
        return ModuleTable::Temporaries;
    }
    if (phase == Phase::Forward) {
        return ModuleTable::Activations;
    }
    return ModuleTable::Other;
}

}  // namespace

int64_t ModuleTable::Row::held() const {
    return std::accumulate(total.begin(), total.end(), int64_t(0));
}

bool ModuleTable::available(const Trace& trace) {
    for (const Frame& f : trace.stacks.frames()) {
        if (f.kind == FrameKind::Module || f.kind == FrameKind::BackwardOf) {
            return true;
        }
    }
    return false;
}

bool ModuleTable::isUnder(const std::string& module, const std::string& path) {
    if (path.empty() || module.size() < path.size() || module.compare(0, path.size(), path) != 0) {
        return false;
    }
    return module.size() == path.size() || module[path.size()] == '.';
}

std::string ModuleTable::moduleOfStack(const StackTable& stacks, uint32_t node) {
    for (uint32_t n = node; n != StackTable::kEmpty && n < stacks.nodeCount();
         n = stacks.parent(n)) {
        const Frame& f = stacks.frame(stacks.frameOf(n));
        if (f.kind == FrameKind::Module || f.kind == FrameKind::BackwardOf) {
            return modulePathOf(f);
        }
    }
    return {};
}

ModuleTable::AllocationModules ModuleTable::modulesOfAllocations(const Trace& trace) {
    const auto& ev = trace.events;
    const auto& allocations = trace.allocations();
    const auto& of_event = trace.allocationOfEvent();
    // Interned as they are found (a string per allocation took 32 bytes each, 2 GB for the 61M
    // allocations of a 10 GB snapshot: issue 52), numbered in allocation order at the end.
    std::vector<std::string> found;
    std::unordered_map<std::string, int32_t> ids;
    auto intern = [&](std::string path) -> int32_t {
        if (path.empty()) {
            return -1;
        }
        auto [it, added] = ids.emplace(std::move(path), int32_t(found.size()));
        if (added) {
            found.push_back(it->first);
        }
        return it->second;
    };
    std::vector<int32_t> of(allocations.size(), -1);
    // The allocating stack's innermost module, looked up once a frame.
    const StackAttribution attribution(trace.stacks);
    std::vector<int32_t> frame_path(trace.stacks.frameCount(), -2);  // -2: not looked up yet
    for (size_t i = 0; i < allocations.size(); ++i) {
        const int64_t e = allocations[i].alloc_event;
        if (e >= 0 && size_t(e) < ev.count()) {
            const int64_t f = attribution.moduleFrame(ev.stack[size_t(e)]);
            if (f >= 0) {
                int32_t& path = frame_path[size_t(f)];
                if (path == -2) {
                    path = intern(modulePathOf(trace.stacks.frame(uint32_t(f))));
                }
                of[i] = path;
            }
        }
    }
    // The module a Role event names an allocation's storage for wins: parameters, gradients and
    // optimizer state belong to the module of their parameter, wherever they were made.
    std::unordered_map<uint64_t, int64_t> live;  // (device, address) -> allocation
    auto key = [&](size_t i) { return ev.addr[i] ^ (uint64_t(uint16_t(ev.device[i])) << 48); };
    for (size_t i = 0; i < ev.count(); ++i) {
        const auto kind = static_cast<EventKind>(ev.kind[i]);
        if (kind == EventKind::Alloc) {
            if (i < of_event.size() && of_event[i] >= 0) {
                live[key(i)] = of_event[i];
            }
        } else if (kind == EventKind::Free) {
            live.erase(key(i));
        } else if (kind == EventKind::Role) {
            std::string owner = ownerOfRole(trace.stacks, ev.stack[i]);
            if (owner.empty()) {
                continue;
            }
            auto it = live.find(key(i));
            if (it != live.end() && size_t(it->second) < of.size()) {
                of[size_t(it->second)] = intern(std::move(owner));
            }
        }
    }
    // Paths numbered by the first allocation attributed to each; none that no allocation keeps.
    AllocationModules out;
    std::vector<int32_t> renumber(found.size(), -1);
    for (int32_t& id : of) {
        if (id < 0) {
            continue;
        }
        if (renumber[size_t(id)] < 0) {
            renumber[size_t(id)] = int32_t(out.paths.size());
            out.paths.push_back(std::move(found[size_t(id)]));
        }
        id = renumber[size_t(id)];
    }
    out.of = std::move(of);
    return out;
}

ModuleTable ModuleTable::compute(const Trace& trace, int64_t event) {
    return compute(trace, event, modulesOfAllocations(trace));
}

ModuleTable ModuleTable::compute(const Trace& trace, int64_t event,
                                 const AllocationModules& modules) {
    ModuleTable table;
    const auto& ev = trace.events;
    const int64_t n = int64_t(ev.count());
    if (n == 0) {
        table.m_rows.push_back(Row{});
        table.m_rows.back().name = kNoModule;
        return table;
    }
    if (event < 0 || event >= n) {
        event = event < 0 ? trace.peakEvent() : n - 1;
    }
    event = std::clamp<int64_t>(event, 0, n - 1);
    table.m_event = event;
    table.m_step = ev.step[size_t(event)];

    std::vector<Row> rows;
    RowIndex index(rows);
    Row none;
    none.name = kNoModule;

    // At the moment.
    std::vector<int> row_of_path(modules.paths.size(), -2);  // -2: no row asked for yet
    const auto& allocations = trace.allocations();
    for (size_t i = 0; i < allocations.size(); ++i) {
        const Allocation& a = allocations[i];
        const bool made = a.alloc_event <= event;
        const bool alive = made && (a.free_event < 0 || a.free_event > event);
        // Every module gets a row, alive or not.
        const int32_t path = modules.of[i];
        int r = -1;
        if (path >= 0) {
            int& row = row_of_path[size_t(path)];
            if (row == -2) {
                row = index.of(modules.paths[size_t(path)]);
            }
            r = row;
        }
        if (!alive || a.size <= 0) {
            continue;
        }
        const Phase phase =
            a.alloc_event >= 0 ? static_cast<Phase>(ev.phase[size_t(a.alloc_event)]) : Phase::Other;
        const int c = columnOf(a, phase);
        table.m_alive += a.size;
        table.m_aliveByColumn[size_t(c)] += a.size;
        Row& own = r < 0 ? none : rows[size_t(r)];
        own.self[size_t(c)] += a.size;
        for (int up = r; up >= 0; up = rows[size_t(up)].parent) {
            rows[size_t(up)].total[size_t(c)] += a.size;
            rows[size_t(up)].allocations += 1;
        }
        if (r < 0) {
            none.total[size_t(c)] += a.size;
            none.allocations += 1;
        }
    }

    // Over the whole run: each module's forward and backward peaks, from runs of consecutive
    // allocation events inside it.
    const StackAttribution attribution(trace.stacks);
    std::vector<int64_t> frame_row(trace.stacks.frameCount(), -2);  // -2: not looked up yet
    auto rowOfNode = [&](uint32_t node) -> int {
        const int64_t f = attribution.moduleFrame(node);
        if (f < 0) {
            return -1;
        }
        int64_t& cached = frame_row[size_t(f)];
        if (cached == -2) {
            cached = index.of(modulePathOf(trace.stacks.frame(uint32_t(f))));
        }
        return int(cached);
    };
    std::vector<int64_t> last_seq, cum;
    std::vector<uint8_t> last_phase;
    int64_t seq = 0;
    for (int64_t i = 0; i < n; ++i) {
        if (!movesBytes(ev.kind[size_t(i)])) {
            continue;
        }
        ++seq;
        const auto phase = static_cast<Phase>(ev.phase[size_t(i)]);
        if (phase != Phase::Forward && phase != Phase::Backward) {
            continue;
        }
        const int r = rowOfNode(ev.stack[size_t(i)]);
        if (r < 0) {
            continue;
        }
        if (last_seq.size() < rows.size()) {
            last_seq.resize(rows.size(), -1);
            cum.resize(rows.size(), 0);
            last_phase.resize(rows.size(), 0xff);
        }
        const int64_t size = ev.size[size_t(i)];
        for (int up = r; up >= 0; up = rows[size_t(up)].parent) {
            const size_t u = size_t(up);
            const bool continues = last_seq[u] == seq - 1 && last_phase[u] == uint8_t(phase);
            cum[u] = continues ? cum[u] + size : size;
            last_seq[u] = seq;
            last_phase[u] = uint8_t(phase);
            int64_t& peak = phase == Phase::Forward ? rows[u].forward_peak : rows[u].backward_peak;
            peak = std::max(peak, cum[u]);
        }
    }

    // Saved for backward in the moment's step (else the first step with a backward).
    auto firstBackward = [&](int32_t step) -> int64_t {
        for (int64_t i = 0; i < n; ++i) {
            if (movesBytes(ev.kind[size_t(i)]) &&
                static_cast<Phase>(ev.phase[size_t(i)]) == Phase::Backward &&
                (step < 0 || ev.step[size_t(i)] == step)) {
                return i;
            }
        }
        return -1;
    };
    int64_t backward_begins = firstBackward(table.m_step);
    if (backward_begins < 0) {
        backward_begins = firstBackward(-1);
    }
    if (backward_begins >= 0) {
        const int32_t step = ev.step[size_t(backward_begins)];
        for (const Allocation& a : allocations) {
            if (a.alloc_event < 0 || a.alloc_event >= backward_begins || a.size <= 0 ||
                ev.step[size_t(a.alloc_event)] != step ||
                static_cast<Phase>(ev.phase[size_t(a.alloc_event)]) != Phase::Forward ||
                (a.free_event >= 0 && a.free_event <= backward_begins)) {
                continue;
            }
            for (int up = rowOfNode(ev.stack[size_t(a.alloc_event)]); up >= 0;
                 up = rows[size_t(up)].parent) {
                rows[size_t(up)].saved_for_backward += a.size;
            }
        }
    }

    // Depth first, siblings by what they hold (stable: ties keep the order paths turned up).
    std::vector<std::vector<int>> children(rows.size());
    std::vector<int> tops;
    for (size_t i = 0; i < rows.size(); ++i) {
        (rows[i].parent < 0 ? tops : children[size_t(rows[i].parent)]).push_back(int(i));
    }
    auto byHeld = [&](std::vector<int>& v) {
        std::stable_sort(v.begin(), v.end(), [&](int a, int b) {
            return rows[size_t(a)].held() > rows[size_t(b)].held();
        });
    };
    std::vector<int> order;
    order.reserve(rows.size());
    std::vector<int> new_index(rows.size(), -1);
    auto visit = [&](auto&& self, int r) -> void {
        new_index[size_t(r)] = int(order.size());
        order.push_back(r);
        byHeld(children[size_t(r)]);
        for (int c : children[size_t(r)]) {
            self(self, c);
        }
    };
    byHeld(tops);
    for (int t : tops) {
        visit(visit, t);
    }
    table.m_rows.reserve(rows.size() + 1);
    for (int r : order) {
        Row row = std::move(rows[size_t(r)]);
        row.parent = row.parent < 0 ? -1 : new_index[size_t(row.parent)];
        table.m_rows.push_back(std::move(row));
    }
    table.m_rows.push_back(std::move(none));
    return table;
}

std::vector<int> ModuleTable::dominantRows(size_t count) const {
    std::vector<int> tops;
    for (size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].parent < 0 && !m_rows[i].path.empty() && m_rows[i].held() > 0) {
            tops.push_back(int(i));
        }
    }
    // Below a single root (the model), its largest descendants on the way down: "which block".
    while (tops.size() == 1) {
        std::vector<int> below;
        for (size_t i = 0; i < m_rows.size(); ++i) {
            if (m_rows[i].parent == tops[0] && m_rows[i].held() > 0) {
                below.push_back(int(i));
            }
        }
        if (below.empty()) {
            break;
        }
        tops = below;
    }
    std::stable_sort(tops.begin(), tops.end(), [&](int a, int b) {
        return m_rows[size_t(a)].held() > m_rows[size_t(b)].held();
    });
    if (tops.size() > count) {
        tops.resize(count);
    }
    return tops;
}

const char* ModuleTable::columnId(int column) {
    static const char* const ids[kColumnCount] = {"parameters",  "gradients",   "optimizer_state",
                                                  "activations", "temporaries", "backward",
                                                  "other"};
    return column >= 0 && column < kColumnCount ? ids[column] : "";
}

const char* ModuleTable::columnName(int column) {
    static const char* const names[kColumnCount] = {"Parameters",  "Gradients",   "Optimizer state",
                                                    "Activations", "Temporaries", "Backward",
                                                    "Other"};
    return column >= 0 && column < kColumnCount ? names[column] : "";
}

nlohmann::json ModuleTable::toJson() const {
    auto bytes = [](const Bytes& b) {
        nlohmann::json j = nlohmann::json::object();
        for (int c = 0; c < kColumnCount; ++c) {
            j[columnId(c)] = b[size_t(c)];
        }
        return j;
    };
    nlohmann::json rows = nlohmann::json::array();
    for (const Row& r : m_rows) {
        rows.push_back({{"path", r.path},
                        {"name", r.name},
                        {"depth", r.depth},
                        {"held", r.held()},
                        {"self", bytes(r.self)},
                        {"total", bytes(r.total)},
                        {"forward_peak", r.forward_peak},
                        {"backward_peak", r.backward_peak},
                        {"saved_for_backward", r.saved_for_backward}});
    }
    return {{"event", m_event},
            {"step", m_step},
            {"alive_bytes", m_alive},
            {"alive", bytes(m_aliveByColumn)},
            {"rows", rows}};
}

std::string ModuleTable::toText(int max_depth) const {
    std::ostringstream out;
    char line[512];
    std::snprintf(line, sizeof line,
                  "%-44s %11s %11s %11s %11s %11s %11s %11s %11s | %11s %11s %11s\n", "Module",
                  "Held", "Params", "Grads", "Optimizer", "Activations", "Temporaries", "Backward",
                  "Other", "Fwd peak", "Bwd peak", "Saved");
    out << line;
    auto cell = [](int64_t v) { return v == 0 ? std::string("-") : formatBytes(v); };
    for (const Row& r : m_rows) {
        if (max_depth >= 0 && r.depth > max_depth) {
            continue;
        }
        std::string label = std::string(size_t(r.depth) * 2, ' ') + r.name;
        if (label.size() > 44) {
            label = label.substr(0, 41) + "...";
        }
        std::snprintf(line, sizeof line,
                      "%-44s %11s %11s %11s %11s %11s %11s %11s %11s | %11s %11s %11s\n",
                      label.c_str(), cell(r.held()).c_str(), cell(r.total[Parameters]).c_str(),
                      cell(r.total[Gradients]).c_str(), cell(r.total[OptimizerState]).c_str(),
                      cell(r.total[Activations]).c_str(), cell(r.total[Temporaries]).c_str(),
                      cell(r.total[Backward]).c_str(), cell(r.total[Other]).c_str(),
                      cell(r.forward_peak).c_str(), cell(r.backward_peak).c_str(),
                      cell(r.saved_for_backward).c_str());
        out << line;
    }
    std::snprintf(line, sizeof line, "%-44s %11s\n", "= alive at the moment",
                  formatBytes(m_alive).c_str());
    out << line;
    const auto dominant = dominantRows(3);
    if (!dominant.empty() && m_alive > 0) {
        out << "Holding the most: ";
        for (size_t i = 0; i < dominant.size(); ++i) {
            const Row& r = m_rows[size_t(dominant[i])];
            int largest = 0;
            for (int c = 1; c < kColumnCount; ++c) {
                if (r.total[size_t(c)] > r.total[size_t(largest)]) {
                    largest = c;
                }
            }
            std::snprintf(line, sizeof line, "%s%s %s (%.1f%%, mostly %s)", i ? "; " : "",
                          r.path.c_str(), formatBytes(r.held()).c_str(),
                          100.0 * double(r.held()) / double(m_alive), columnName(largest));
            out << line;
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace memscope

#include "analysis/table_exporter.h"

#include "explain/module_table.h"

#include "explain/trace_summary.h"
#include "run/run_summary.h"
#include "run/text_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace memscope {

namespace {

using Units = TableExporter::Units;

std::string ms(int64_t ns) {
    return formatFixed(double(ns) / 1e6, 3);
}

std::string bytesCell(int64_t bytes, Units units) {
    return units == Units::Raw ? std::to_string(bytes) : formatBytes(bytes);
}

std::string flopsCell(double flops, Units units) {
    if (units == Units::Raw) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.0f", flops);
        return buf;
    }
    if (flops <= 0) {
        return "";
    }
    const char* unit[] = {"FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP"};
    int u = 0;
    while (flops >= 1000 && u < 5) {
        flops /= 1000;
        ++u;
    }
    return formatFixed(flops, flops < 10 ? 2 : 1) + " " + unit[u];
}

TableExporter::Table makeTable(
    Units units, std::initializer_list<std::tuple<const char*, const char*, bool>> columns) {
    TableExporter::Table t;
    for (const auto& [raw, readable, numeric] : columns) {
        t.columns.push_back(units == Units::Raw ? raw : readable);
        t.numeric.push_back(numeric);
    }
    return t;
}

// ---- summary flattening -------------------------------------------------------------------

bool isByteKey(const std::string& key) {
    const auto ends_with = [&key](const std::string& s) {
        return key.size() >= s.size() && key.compare(key.size() - s.size(), s.size(), s) == 0;
    };
    return ends_with("_bytes") || key.find("_bytes_") != std::string::npos ||
           key.rfind("bytes_by_category_at_peak.", 0) == 0 || key.rfind("peak_by_phase.", 0) == 0 ||
           key == "size";
}

std::string scalarCell(const std::string& key, const nlohmann::json& v, Units units) {
    if (v.is_null()) {
        return units == Units::Raw ? "" : "none";
    }
    if (v.is_boolean()) {
        return v.get<bool>() ? "true" : "false";
    }
    if (v.is_string()) {
        return v.get<std::string>();
    }
    if (v.is_number_integer()) {
        const int64_t n = v.get<int64_t>();
        if (units == Units::Readable && isByteKey(key)) {
            return formatBytes(n) + " (" + std::to_string(n) + " bytes)";
        }
        return std::to_string(n);
    }
    if (v.is_number_unsigned()) {
        return std::to_string(v.get<uint64_t>());
    }
    if (v.is_number_float()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.6g", v.get<double>());
        return buf;
    }
    return v.dump();
}

void flatten(const std::string& prefix, const nlohmann::json& v, Units units,
             std::vector<std::pair<std::string, std::string>>& out) {
    if (v.is_object()) {
        for (const auto& [k, child] : v.items()) {
            flatten(prefix.empty() ? k : prefix + "." + k, child, units, out);
        }
        return;
    }
    if (v.is_array()) {
        bool scalars = true;
        for (const auto& e : v) {
            scalars = scalars && !e.is_structured();
        }
        if (scalars) {
            std::string joined;
            for (const auto& e : v) {
                joined += (joined.empty() ? "" : " ") + scalarCell(prefix, e, Units::Raw);
            }
            out.emplace_back(prefix, joined);
        }
        return;  // lists of records (steps, largest allocations) have tables of their own
    }
    out.emplace_back(prefix, scalarCell(prefix, v, units));
}

}  // namespace

bool TableExporter::parseKind(const std::string& text, Kind& kind) {
    if (text == "operators") {
        kind = Kind::Operators;
    } else if (text == "allocations") {
        kind = Kind::Allocations;
    } else if (text == "summary") {
        kind = Kind::Summary;
    } else if (text == "modules") {
        kind = Kind::Modules;
    } else {
        return false;
    }
    return true;
}

TableExporter::Table TableExporter::make(Kind kind, const Trace& trace, Units units, size_t limit,
                                         int64_t at_event) {
    switch (kind) {
        case Kind::Modules:
            return modules(trace, units, limit, at_event);
        case Kind::Operators:
            return operators(trace, units, limit);
        case Kind::Allocations:
            return allocations(trace, units, limit);
        case Kind::Summary:
            return summary(trace, units);
    }
    return {};
}

TableExporter::Table TableExporter::operators(const Trace& trace, Units units, size_t limit) {
    auto t = makeTable(units, {{"name", "Name", false},
                               {"kind", "Kind", false},
                               {"calls", "Calls", true},
                               {"self_cpu_ms", "Self CPU (ms)", true},
                               {"self_cpu_percent", "Self CPU %", true},
                               {"cpu_total_ms", "CPU total (ms)", true},
                               {"cpu_total_percent", "CPU total %", true},
                               {"bytes_allocated", "Allocated", true},
                               {"self_bytes_allocated", "Self allocated", true},
                               {"self_net_bytes", "Self net", true},
                               {"largest_allocation_bytes", "Largest allocation", true},
                               {"flops", "FLOPs", true}});
    // Collectives' payload: a column only for multi-rank runs, whose c10d ops have one.
    const bool sent = std::any_of(trace.operators.begin(), trace.operators.end(),
                                  [](const OperatorStat& o) { return o.bytes_sent > 0; });
    if (sent) {
        t.columns.push_back(units == Units::Raw ? "bytes_sent" : "Sent");
        t.numeric.push_back(true);
    }
    // Shares are of the profiled time: self times partition it (a module's self time is what
    // its child ops leave), as torch.profiler's "Self CPU %" does.
    double profiled_ns = 0;
    for (const auto& o : trace.operators) {
        profiled_ns += double(o.self_ns);
    }
    std::vector<const OperatorStat*> order;
    for (const auto& o : trace.operators) {
        order.push_back(&o);
    }
    std::stable_sort(order.begin(), order.end(), [](const OperatorStat* a, const OperatorStat* b) {
        if (a->is_module != b->is_module) {
            return !a->is_module;  // operators first
        }
        if (a->bytes_allocated != b->bytes_allocated) {
            return a->bytes_allocated > b->bytes_allocated;
        }
        return a->total_ns > b->total_ns;
    });
    const auto percent = [&](int64_t ns) {
        return profiled_ns > 0 ? formatFixed(100.0 * double(ns) / profiled_ns, 2)
                               : std::string("0.00");
    };
    for (const auto* o : order) {
        if (limit > 0 && t.rows.size() >= limit) {
            break;
        }
        t.rows.push_back({o->name, o->is_module ? "module" : "op", std::to_string(o->calls),
                          ms(o->self_ns), percent(o->self_ns), ms(o->total_ns),
                          percent(o->total_ns), bytesCell(o->bytes_allocated, units),
                          bytesCell(o->self_bytes_allocated, units),
                          bytesCell(o->self_net_bytes, units),
                          bytesCell(o->largest_allocation, units), flopsCell(o->flops, units)});
        if (sent) {
            t.rows.back().push_back(bytesCell(o->bytes_sent, units));
        }
    }
    return t;
}

TableExporter::Table TableExporter::allocations(const Trace& trace, Units units, size_t limit) {
    auto t = units == Units::Raw ? makeTable(units, {{"size_bytes", "", true},
                                                     {"category", "", false},
                                                     {"phase", "", false},
                                                     {"step", "", true},
                                                     {"module", "", false},
                                                     {"op", "", false},
                                                     {"allocated_at_ms", "", true},
                                                     {"freed_at_ms", "", true},
                                                     {"lifetime_ms", "", true},
                                                     {"address", "", false},
                                                     {"stack", "", false}})
                                 : makeTable(units, {{"", "Size", true},
                                                     {"", "Category", false},
                                                     {"", "Phase", false},
                                                     {"", "Step", true},
                                                     {"", "Module", false},
                                                     {"", "Op", false},
                                                     {"", "Allocated at (ms)", true},
                                                     {"", "Freed at (ms)", true},
                                                     {"", "Lifetime (ms)", true}});
    const auto& ev = trace.events;
    const auto& allocs = trace.allocations();
    std::vector<size_t> order(allocs.size());
    for (size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    // Largest first; equal sizes in the order they were made.
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return allocs[a].size > allocs[b].size; });
    const int64_t end_ns = ev.count() > 0 ? ev.time_ns.back() : 0;
    for (const size_t i : order) {
        if (limit > 0 && t.rows.size() >= limit) {
            break;
        }
        const auto& a = allocs[i];
        const bool recorded = a.alloc_event >= 0;
        const size_t e = static_cast<size_t>(recorded ? a.alloc_event : a.free_event);
        const uint32_t stack = ev.stack[e];
        const int64_t begin = recorded ? ev.time_ns[e] : 0;
        const bool freed = a.free_event >= 0;
        const int64_t end = freed ? ev.time_ns[static_cast<size_t>(a.free_event)] : end_ns;
        std::vector<std::string> row{
            bytesCell(a.size, units),
            toString(a.category),
            recorded ? toString(static_cast<Phase>(ev.phase[e])) : "before recording",
            std::to_string(ev.step[e]),
            TraceSummary::moduleOf(trace.stacks, stack),
            TraceSummary::operatorOf(trace.stacks, stack),
            recorded ? ms(begin) : (units == Units::Raw ? "" : "before recording"),
            freed ? ms(end) : (units == Units::Raw ? "" : "live at end"),
            ms(end - begin) + (freed || units == Units::Raw ? "" : "+")};
        if (units == Units::Raw) {
            char addr[32];
            std::snprintf(addr, sizeof addr, "0x%" PRIx64, a.addr);
            row.push_back(addr);
            row.push_back(trace.stacks.describe(stack));
        }
        t.rows.push_back(std::move(row));
    }
    return t;
}

TableExporter::Table TableExporter::modules(const Trace& trace, Units units, size_t limit,
                                            int64_t at_event) {
    auto t = makeTable(units, {{"module", "Module", false},
                               {"depth", "Depth", true},
                               {"held_bytes", "Held", true},
                               {"parameters_bytes", "Parameters", true},
                               {"gradients_bytes", "Gradients", true},
                               {"optimizer_state_bytes", "Optimizer state", true},
                               {"activations_bytes", "Activations", true},
                               {"temporaries_bytes", "Temporaries", true},
                               {"backward_bytes", "Backward", true},
                               {"other_bytes", "Other", true},
                               {"forward_peak_bytes", "Forward peak", true},
                               {"backward_peak_bytes", "Backward peak", true},
                               {"saved_for_backward_bytes", "Saved for backward", true}});
    const ModuleTable table = ModuleTable::compute(trace, at_event);
    for (const auto& r : table.rows()) {
        if (limit > 0 && t.rows.size() >= limit) {
            break;
        }
        // CSV names the full path (a spreadsheet filters on it); Markdown indents the last part.
        // Markdown collapses leading spaces: non-breaking ones keep the tree's indent.
        std::string name = r.path.empty() ? r.name : r.path;
        if (units == Units::Readable) {
            name.clear();
            for (int d = 0; d < r.depth; ++d) {
                name += "\u00a0\u00a0";
            }
            name += r.name;
        }
        std::vector<std::string> row{name, std::to_string(r.depth), bytesCell(r.held(), units)};
        for (int c = 0; c < ModuleTable::kColumnCount; ++c) {
            row.push_back(bytesCell(r.total[size_t(c)], units));
        }
        row.push_back(bytesCell(r.forward_peak, units));
        row.push_back(bytesCell(r.backward_peak, units));
        row.push_back(bytesCell(r.saved_for_backward, units));
        t.rows.push_back(std::move(row));
    }
    return t;
}

TableExporter::Table TableExporter::summary(const Trace& trace, Units units) {
    auto t = makeTable(units, {{"key", "Key", false}, {"value", "Value", false}});
    std::vector<std::pair<std::string, std::string>> rows;
    const auto& m = trace.meta;
    rows.emplace_back("run.source", m.source);
    rows.emplace_back("run.started_at", m.started_at);
    rows.emplace_back("run.device", m.device);
    rows.emplace_back("run.device_name", m.device_name);
    rows.emplace_back("run.threads", std::to_string(m.threads));
    rows.emplace_back("run.torch_version", m.torch_version);
    rows.emplace_back("run.memscope_version", m.memscope_version);
    rows.emplace_back("run.recorded_events", std::to_string(trace.events.count()));
    if (m.max_events > 0) {
        rows.emplace_back("run.max_events", std::to_string(m.max_events));
    }
    if (m.capacity_bytes > 0) {
        rows.emplace_back("run.capacity_bytes",
                          scalarCell("capacity_bytes", nlohmann::json(m.capacity_bytes), units));
    }
    // The stored summary wins; figures it lacks (imported or older files) come from the events.
    nlohmann::json merged = TraceSummary::compute(trace);
    if (trace.summary.is_object()) {
        for (const auto& [k, v] : trace.summary.items()) {
            merged[k] = v;
        }
    }
    if (!merged.contains("config") && m.config.is_object() && !m.config.empty()) {
        merged["config"] = m.config;
    }
    // The figures people look for first, then the rest alphabetically.
    static const char* const kFirst[] = {"peak_allocated_bytes",
                                         "step1_peak_allocated_bytes",
                                         "steady_peak_allocated_bytes",
                                         "avg_allocated_bytes",
                                         "peak_step",
                                         "peak_phase",
                                         "samples_per_s",
                                         "tokens_per_s",
                                         "avg_step_s",
                                         "avg_forward_s",
                                         "avg_backward_s",
                                         "avg_optimizer_s",
                                         "parameters",
                                         "mfu",
                                         "model_tflops_per_s"};
    std::vector<std::pair<std::string, std::string>> flat;
    std::set<std::string> done;
    for (const char* k : kFirst) {
        if (merged.contains(k)) {
            flatten(k, merged[k], units, flat);
            done.insert(k);
        }
    }
    // These repeat the run.* rows above.
    for (const char* k : {"device", "device_name", "threads", "torch_version"}) {
        done.insert(k);
    }
    for (const auto& [k, v] : merged.items()) {
        if (!done.count(k)) {
            flatten(k, v, units, flat);
        }
    }
    rows.insert(rows.end(), flat.begin(), flat.end());
    for (auto& [k, v] : rows) {
        t.rows.push_back({k, v});
    }
    return t;
}

std::string TableExporter::csvField(const std::string& text) {
    const bool quote = text.find_first_of(",\"\r\n") != std::string::npos ||
                       (!text.empty() && (text.front() == ' ' || text.back() == ' '));
    if (!quote) {
        return text;
    }
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"') {
            out += "\"\"";
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string TableExporter::markdownCell(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        switch (c) {
            case '|':
            case '\\':
            case '*':
            case '`':
                out += '\\';
                out += c;
                break;
            case '<':
                out += "&lt;";  // GitHub would swallow "<lambda>" as an HTML tag
                break;
            case '\r':
                break;
            case '\n':
                out += "<br>";
                break;
            default:
                out += c;
        }
    }
    // Leading or trailing blanks are not part of a cell's content in Markdown.
    const auto b = out.find_first_not_of(' ');
    const auto e = out.find_last_not_of(' ');
    return b == std::string::npos ? std::string() : out.substr(b, e - b + 1);
}

std::string TableExporter::toCsv(const Table& table) {
    // RFC 4180: CRLF line ends, fields quoted where needed.
    std::string out;
    const auto line = [&out](const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) {
            out += (i ? "," : "") + csvField(cells[i]);
        }
        out += "\r\n";
    };
    line(table.columns);
    for (const auto& row : table.rows) {
        line(row);
    }
    return out;
}

std::string TableExporter::toMarkdown(const Table& table) {
    std::string out = "|";
    for (const auto& c : table.columns) {
        out += " " + markdownCell(c) + " |";
    }
    out += "\n|";
    for (size_t i = 0; i < table.columns.size(); ++i) {
        const bool numeric = i < table.numeric.size() && table.numeric[i];
        out += numeric ? "---:|" : "---|";
    }
    out += "\n";
    for (const auto& row : table.rows) {
        out += "|";
        for (size_t i = 0; i < table.columns.size(); ++i) {
            out += " " + (i < row.size() ? markdownCell(row[i]) : std::string()) + " |";
        }
        out += "\n";
    }
    return out;
}

}  // namespace memscope

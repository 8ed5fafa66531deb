#include "analysis/run_comparison.h"

#include "explain/trace_summary.h"
#include "run/run_summary.h"
#include "run/text_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace memscope {

namespace {

// The stored summary over the figures computed from the events (imported runs have only those).
nlohmann::json summaryOf(const Trace& t) {
    nlohmann::json s = TraceSummary::compute(t);
    if (t.summary.is_object()) {
        for (const auto& [k, v] : t.summary.items()) {
            s[k] = v;
        }
    }
    return s;
}

bool has(const nlohmann::json& s, const char* key) {
    return s.contains(key) && s[key].is_number();
}

void topRows(std::vector<RunComparison::Row>& out, std::vector<RunComparison::Row> rows,
             size_t top) {
    std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
        return std::fabs(x.delta()) > std::fabs(y.delta());
    });
    size_t kept = 0;
    for (auto& r : rows) {
        if (kept == top || r.delta() == 0) {
            break;
        }
        out.push_back(std::move(r));
        ++kept;
    }
}

}  // namespace

double RunComparison::Row::percent() const {
    return a != 0 ? (b - a) / std::fabs(a) * 100.0 : std::numeric_limits<double>::quiet_NaN();
}

RunComparison RunComparison::compare(const Trace& ta, const Trace& tb, const std::string& name_a,
                                     const std::string& name_b, size_t top) {
    RunComparison c;
    c.name_a = name_a;
    c.name_b = name_b;
    const nlohmann::json sa = summaryOf(ta), sb = summaryOf(tb);

    const auto figure = [&](const std::string& name, Unit unit, const nlohmann::json& ja,
                            const nlohmann::json& jb, const char* key) {
        const bool ia = has(ja, key), ib = has(jb, key);
        if (!ia && !ib) {
            return;
        }
        Row r;
        r.section = Section::Summary;
        r.name = name;
        r.unit = unit;
        r.in_a = ia;
        r.in_b = ib;
        r.a = ia ? ja[key].get<double>() : 0;
        r.b = ib ? jb[key].get<double>() : 0;
        c.rows.push_back(r);
    };
    const char* peak_key = has(sa, "peak_allocated_bytes") && has(sb, "peak_allocated_bytes")
                               ? "peak_allocated_bytes"
                               : "peak_allocated_bytes_recorded";
    figure("Peak allocated", Unit::Bytes, sa, sb, peak_key);
    figure("Peak in step 1", Unit::Bytes, sa, sb, "step1_peak_allocated_bytes");
    figure("Peak in later steps", Unit::Bytes, sa, sb, "steady_peak_allocated_bytes");
    figure("Average allocated", Unit::Bytes, sa, sb, "avg_allocated_bytes");
    const auto empty = nlohmann::json::object();
    const auto& pa = sa.contains("peak_by_phase") ? sa["peak_by_phase"] : empty;
    const auto& pb = sb.contains("peak_by_phase") ? sb["peak_by_phase"] : empty;
    figure("Forward peak", Unit::Bytes, pa, pb, "forward");
    figure("Backward peak", Unit::Bytes, pa, pb, "backward");
    figure("Optimizer peak", Unit::Bytes, pa, pb, "optimizer");
    figure("Time per step", Unit::Seconds, sa, sb, "avg_step_s");
    figure("Samples per second", Unit::PerSecond, sa, sb, "samples_per_s");
    figure("Tokens per second", Unit::PerSecond, sa, sb, "tokens_per_s");

    // Categories live at each run's own peak.
    const auto& ca =
        sa.contains("bytes_by_category_at_peak") ? sa["bytes_by_category_at_peak"] : empty;
    const auto& cb =
        sb.contains("bytes_by_category_at_peak") ? sb["bytes_by_category_at_peak"] : empty;
    for (int i = 0; i < kCategoryCount; ++i) {
        const std::string name = toString(static_cast<Category>(i));
        const bool ia = has(ca, name.c_str()), ib = has(cb, name.c_str());
        const double va = ia ? ca[name].get<double>() : 0, vb = ib ? cb[name].get<double>() : 0;
        if (va == 0 && vb == 0) {
            continue;
        }
        Row r;
        r.section = Section::Category;
        r.name = name;
        r.a = va;
        r.b = vb;
        c.rows.push_back(r);
    }

    // Modules and operators by name (summed over entries of the same name).
    struct Sums {
        double bytes = 0, self_bytes = 0, self_s = 0;
        bool module = false;
    };
    const auto sums = [](const Trace& t) {
        std::map<std::string, Sums> out;
        for (const auto& op : t.operators) {
            auto& s = out[(op.is_module ? "M|" : "O|") + op.name];
            s.module = op.is_module;
            s.bytes += double(op.bytes_allocated);
            s.self_bytes += double(op.self_bytes_allocated);
            s.self_s += double(op.self_ns) * 1e-9;
        }
        return out;
    };
    const auto ma = sums(ta), mb = sums(tb);
    std::set<std::string> keys;
    for (const auto& [k, v] : ma) {
        (void)v;
        keys.insert(k);
    }
    for (const auto& [k, v] : mb) {
        (void)v;
        keys.insert(k);
    }
    std::vector<Row> modules, op_bytes, op_time;
    for (const auto& key : keys) {
        const auto ia = ma.find(key), ib = mb.find(key);
        const Sums za = ia != ma.end() ? ia->second : Sums{};
        const Sums zb = ib != mb.end() ? ib->second : Sums{};
        Row r;
        r.name = key.substr(2);
        r.in_a = ia != ma.end();
        r.in_b = ib != mb.end();
        if (key[0] == 'M') {
            r.section = Section::Module;
            r.a = za.bytes;
            r.b = zb.bytes;
            modules.push_back(r);
        } else {
            r.section = Section::OperatorMemory;
            r.a = za.self_bytes;
            r.b = zb.self_bytes;
            op_bytes.push_back(r);
            r.section = Section::OperatorTime;
            r.unit = Unit::Seconds;
            r.a = za.self_s;
            r.b = zb.self_s;
            op_time.push_back(r);
        }
    }
    topRows(c.rows, std::move(modules), top);
    topRows(c.rows, std::move(op_bytes), top);
    topRows(c.rows, std::move(op_time), top);
    return c;
}

std::string RunComparison::sectionName(Section section) {
    switch (section) {
        case Section::Summary:
            return "summary";
        case Section::Category:
            return "category at peak";
        case Section::Module:
            return "module allocated";
        case Section::OperatorMemory:
            return "operator self allocated";
        case Section::OperatorTime:
            return "operator self time";
    }
    return "";
}

std::string RunComparison::formatValue(double value, Unit unit, bool is_signed) {
    if (std::isnan(value)) {
        return "—";
    }
    const std::string sign = is_signed && value > 0 ? "+" : "";
    switch (unit) {
        case Unit::Bytes:
            return sign + formatBytes(int64_t(std::llround(value)));
        case Unit::Seconds:
            return sign + formatFixed(value, std::fabs(value) >= 10 ? 2 : 4) + " s";
        case Unit::PerSecond:
            return sign + formatFixed(value, 1) + "/s";
    }
    return "";
}

TableExporter::Table RunComparison::toTable(TableExporter::Units units) const {
    TableExporter::Table t;
    const bool raw = units == TableExporter::Units::Raw;
    t.columns = {"Section", "Name", name_a, name_b, "Delta", "Delta %"};
    if (raw) {
        t.columns = {"section", "name", "unit", name_a, name_b, "delta", "delta_percent"};
    }
    t.numeric = raw ? std::vector<bool>{false, false, false, true, true, true, true}
                    : std::vector<bool>{false, false, true, true, true, true};
    for (const auto& r : rows) {
        const double pct = r.percent();
        if (raw) {
            const auto num = [](double v) {
                std::ostringstream s;
                s.precision(12);
                s << v;
                return s.str();
            };
            const char* unit = r.unit == Unit::Bytes     ? "bytes"
                               : r.unit == Unit::Seconds ? "s"
                                                         : "1/s";
            t.rows.push_back({sectionName(r.section), r.name, unit, r.in_a ? num(r.a) : "",
                              r.in_b ? num(r.b) : "", num(r.delta()),
                              std::isnan(pct) ? "" : formatFixed(pct, 2)});
        } else {
            t.rows.push_back(
                {sectionName(r.section), r.name, r.in_a ? formatValue(r.a, r.unit) : "—",
                 r.in_b ? formatValue(r.b, r.unit) : "—", formatValue(r.delta(), r.unit, true),
                 std::isnan(pct) ? "—" : (pct > 0 ? "+" : "") + formatFixed(pct, 1) + "%"});
        }
    }
    return t;
}

std::string RunComparison::toText() const {
    const auto t = toTable(TableExporter::Units::Readable);
    std::vector<size_t> width(t.columns.size(), 0);
    const auto length = [](const std::string& s) {
        // Display width: count UTF-8 lead bytes only ("—" is one column).
        size_t n = 0;
        for (const unsigned char ch : s) {
            n += (ch & 0xC0) != 0x80;
        }
        return n;
    };
    for (size_t c = 0; c < t.columns.size(); ++c) {
        width[c] = length(t.columns[c]);
        for (const auto& row : t.rows) {
            width[c] = std::max(width[c], length(row[c]));
        }
    }
    std::ostringstream out;
    const auto line = [&](const std::vector<std::string>& cells) {
        for (size_t c = 0; c < cells.size(); ++c) {
            const std::string pad(width[c] - length(cells[c]), ' ');
            out << (c ? "  " : "") << (t.numeric[c] ? pad + cells[c] : cells[c] + pad);
        }
        out << "\n";
    };
    line(t.columns);
    std::vector<std::string> rule;
    for (const size_t w : width) {
        rule.push_back(std::string(w, '-'));
    }
    line(rule);
    for (const auto& row : t.rows) {
        line(row);
    }
    return out.str();
}

}  // namespace memscope

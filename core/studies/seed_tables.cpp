#include "studies/seed_tables.h"

#include "run/run_summary.h"
#include "run/text_format.h"
#include "studies/scaling_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace memscope {

namespace {

using SeedTable = TableExporter::Table;
using SeedUnits = TableExporter::Units;

std::string mbCell(int64_t bytes, SeedUnits units) {
    return units == SeedUnits::Raw ? formatFixed(double(bytes) / kBytesPerMiB, 4)
                                   : formatMegabytes(bytes);
}

std::string peakCell(const SweepPointResult& p, SeedUnits units) {
    if (p.status == SweepPointResult::Status::OutOfMemory) {
        return "OOM";
    }
    if (p.status == SweepPointResult::Status::Error) {
        return "error";
    }
    return mbCell(p.peak_bytes, units);
}

std::string rate(double v, SeedUnits units) {
    return formatFixed(v, units == SeedUnits::Raw ? 3 : 1);
}

// The settings of a point except the fields in `free` ("batch", "seq", "profile", "dtype",
// "preset"), as a readable label that doubles as the group key.
std::string setting(const TrainOptions& o, const std::set<std::string>& free) {
    std::vector<std::string> parts;
    if (!free.count("preset")) {
        parts.push_back(SweepSpec::modelName(o));
    }
    if (!free.count("batch"))
        parts.push_back("batch " + std::to_string(o.batch_size));
    if (!free.count("seq"))
        parts.push_back("seq " + std::to_string(o.seq_len));
    if (!free.count("dtype"))
        parts.push_back(toString(o.dtype));
    parts.push_back(toString(o.attention));
    if (o.checkpointing != Checkpointing::None)
        parts.push_back("checkpointing " + toString(o.checkpointing));
    if (o.optimizer != OptimizerKind::AdamW)
        parts.push_back(toString(o.optimizer));
    if (!free.count("profile"))
        parts.push_back(toString(o.profile));
    return joinedNames(parts);
}

// The fields that vary inside one group of a table: the others make its setting.
std::set<std::string> freeFields(SeedTables::Kind kind) {
    switch (kind) {
        case SeedTables::Kind::Seed000Step1:
            return {"batch"};
        case SeedTables::Kind::Seed000Step3:
            return {"batch", "seq"};
        case SeedTables::Kind::Seed002Sizes:
            return {"preset", "batch", "seq"};
        case SeedTables::Kind::Seed003b:
            return {"seq", "profile"};
        case SeedTables::Kind::Seed003c:
            return {"seq", "profile", "dtype"};
        case SeedTables::Kind::Points:
            break;
    }
    return {};
}

// Groups of point indices by setting, in first-seen order.
std::vector<std::pair<std::string, std::vector<size_t>>> groupBy(
    const SweepResult& r, const std::set<std::string>& free,
    const std::function<bool(const SweepPointResult&)>& keep) {
    std::vector<std::pair<std::string, std::vector<size_t>>> groups;
    for (size_t i = 0; i < r.points.size(); ++i) {
        if (!keep(r.points[i])) {
            continue;
        }
        const std::string key = setting(r.points[i].options, free);
        auto it = std::find_if(groups.begin(), groups.end(),
                               [&key](const auto& g) { return g.first == key; });
        if (it == groups.end()) {
            groups.push_back({key, {}});
            it = groups.end() - 1;
        }
        it->second.push_back(i);
    }
    return groups;
}

// Prepends the "Setting" column when there is more than one group.
void addSetting(SeedTable& t, bool several, const std::string& label,
                std::vector<std::string> row) {
    if (several) {
        row.insert(row.begin(), label);
    }
    t.rows.push_back(std::move(row));
}

void finishColumns(SeedTable& t, bool several) {
    if (several) {
        t.columns.insert(t.columns.begin(), "Setting");
        t.numeric.insert(t.numeric.begin(), false);
    }
}

bool training(const SweepPointResult& p) {
    return p.options.profile == ProfileType::Training;
}

size_t distinctValues(const SweepResult& r, const std::vector<size_t>& idx,
                      int64_t TrainOptions::*field) {
    std::set<int64_t> v;
    for (const size_t i : idx) {
        v.insert(r.points[i].options.*field);
    }
    return v.size();
}

SeedTable points(const SweepResult& r, SeedUnits units) {
    SeedTable t;
    t.columns = {"Point",
                 "Batch",
                 "Seq",
                 "Dtype",
                 "Attention",
                 "Checkpointing",
                 "Profile",
                 "Status",
                 "Peak step 1 (MB)",
                 "Peak later steps (MB)",
                 "Avg (MB)",
                 "Samples/s",
                 "Tokens/s",
                 "Peak per token (KiB)",
                 "Input-dependent per token (KiB)",
                 "Run file"};
    t.numeric = {false, true, true, false, false, false, false, false,
                 true,  true, true, true,  true,  true,  true,  false};
    for (const auto& p : r.points) {
        const auto& o = p.options;
        const bool ok = p.ok();
        t.rows.push_back(
            {p.label, std::to_string(o.batch_size), std::to_string(o.seq_len), toString(o.dtype),
             toString(o.attention), toString(o.checkpointing), toString(o.profile),
             toString(p.status),
             ok || p.step1_peak_bytes > 0 ? mbCell(p.step1_peak_bytes, units) : "—",
             ok && p.steady_peak_bytes > 0 ? mbCell(p.steady_peak_bytes, units) : "—",
             ok ? mbCell(p.avg_bytes, units) : "—", ok ? rate(p.samples_per_s, units) : "—",
             ok ? rate(p.tokens_per_s, units) : "—",
             ok ? formatFixed(p.bytesPerToken() / 1024.0, units == SeedUnits::Raw ? 3 : 1) : "—",
             ok ? formatFixed(p.inputBytesPerToken() / 1024.0, units == SeedUnits::Raw ? 3 : 1)
                : "—",
             p.run_file});
    }
    return t;
}

SeedTable seed000Step1(const SweepResult& r, SeedUnits units) {
    SeedTable t;
    t.columns = {"Batch Size", "Peak Memory (MB)", "Avg Memory (MB)",
                 "Training Speed (samples/sec)"};
    t.numeric = {true, true, true, true};
    auto groups = groupBy(r, freeFields(SeedTables::Kind::Seed000Step1), training);
    std::vector<std::pair<std::string, std::vector<size_t>>> kept;
    for (auto& g : groups) {
        if (distinctValues(r, g.second, &TrainOptions::batch_size) >= 2) {
            kept.push_back(g);
        }
    }
    if (kept.empty()) {
        kept = groups;
    }
    const bool several = kept.size() > 1;
    for (auto& [label, idx] : kept) {
        std::stable_sort(idx.begin(), idx.end(), [&r](size_t a, size_t b) {
            return r.points[a].options.batch_size < r.points[b].options.batch_size;
        });
        for (const size_t i : idx) {
            const auto& p = r.points[i];
            addSetting(t, several, label,
                       {std::to_string(p.options.batch_size), peakCell(p, units),
                        p.ok() ? mbCell(p.avg_bytes, units) : "—",
                        p.ok() && p.samples_per_s > 0 ? rate(p.samples_per_s, units) : "—"});
        }
    }
    finishColumns(t, several);
    return t;
}

std::string scalingPattern(const SweepPointResult& a, const SweepPointResult& b) {
    if (!a.ok() || !b.ok() || a.options.seq_len == b.options.seq_len) {
        return "—";
    }
    return ScalingFit::pattern(
        double(a.options.seq_len), double(a.inputDependentBytes()) / double(a.options.batch_size),
        double(b.options.seq_len), double(b.inputDependentBytes()) / double(b.options.batch_size));
}

SeedTable seed000Step3(const SweepResult& r, SeedUnits units) {
    SeedTable t;
    t.columns = {"Seq Length", "Batch Size", "Peak Memory (MB)", "Memory per Token (KiB)",
                 "Scaling Pattern"};
    t.numeric = {true, true, true, true, false};
    auto groups = groupBy(r, freeFields(SeedTables::Kind::Seed000Step3), training);
    std::vector<std::pair<std::string, std::vector<size_t>>> kept;
    for (auto& g : groups) {
        if (distinctValues(r, g.second, &TrainOptions::seq_len) >= 2) {
            kept.push_back(g);
        }
    }
    const bool several = kept.size() > 1;
    for (auto& [label, idx] : kept) {
        // The batch size most sequence lengths were run at.
        std::map<int64_t, std::set<int64_t>> seqs_of_batch;
        for (const size_t i : idx) {
            seqs_of_batch[r.points[i].options.batch_size].insert(r.points[i].options.seq_len);
        }
        int64_t common = 0;
        size_t best = 0;
        for (const auto& [b, s] : seqs_of_batch) {
            if (s.size() > best) {
                best = s.size();
                common = b;
            }
        }
        std::map<int64_t, size_t> row_of_seq;
        for (const size_t i : idx) {
            const auto& o = r.points[i].options;
            const auto it = row_of_seq.find(o.seq_len);
            if (it == row_of_seq.end()) {
                row_of_seq[o.seq_len] = i;
                continue;
            }
            const auto& cur = r.points[it->second].options;
            // Prefer the common batch size, then the largest that ran.
            if (cur.batch_size != common &&
                (o.batch_size == common || o.batch_size > cur.batch_size)) {
                it->second = i;
            }
        }
        const SweepPointResult* previous = nullptr;
        for (const auto& [seq, i] : row_of_seq) {
            const auto& p = r.points[i];
            const bool ok = p.ok();
            addSetting(
                t, several, label,
                {std::to_string(seq), std::to_string(p.options.batch_size), peakCell(p, units),
                 ok ? formatFixed(p.bytesPerToken() / 1024.0, units == SeedUnits::Raw ? 3 : 1)
                    : "—",
                 previous ? scalingPattern(*previous, p) : "baseline"});
            if (ok) {
                previous = &p;
            }
        }
    }
    finishColumns(t, several);
    return t;
}

std::string parameters(int64_t n) {
    if (n >= 1'000'000'000) {
        return formatFixed(double(n) / 1e9, 2) + "B";
    }
    if (n >= 1'000'000) {
        return formatFixed(double(n) / 1e6, 2) + "M";
    }
    return std::to_string(n);
}

SeedTable seed002Sizes(const SweepResult& r, SeedUnits units) {
    SeedTable t;
    t.columns = {"Problem Size", "Parameters", "Throughput (samples/s)", "Memory (MB)",
                 "Time/Iter (s)"};
    t.numeric = {false, true, true, true, true};
    auto groups = groupBy(r, freeFields(SeedTables::Kind::Seed002Sizes), training);
    const bool several = groups.size() > 1;
    for (auto& [label, idx] : groups) {
        std::stable_sort(idx.begin(), idx.end(), [&r](size_t a, size_t b) {
            return r.points[a].parameters < r.points[b].parameters;
        });
        for (const size_t i : idx) {
            const auto& p = r.points[i];
            const auto& o = p.options;
            const std::string size = SweepSpec::modelName(o) + " (batch " +
                                     std::to_string(o.batch_size) + ", seq " +
                                     std::to_string(o.seq_len) + ")";
            addSetting(
                t, several, label,
                {size,
                 units == SeedUnits::Raw ? std::to_string(p.parameters) : parameters(p.parameters),
                 p.ok() ? rate(p.samples_per_s, units) : "—", peakCell(p, units),
                 p.ok() ? formatFixed(p.avg_step_s, units == SeedUnits::Raw ? 5 : 3) : "—"});
        }
    }
    finishColumns(t, several);
    return t;
}

// Rows per context length, one column per (profile, dtype) pair that `columns` names.
SeedTable contextTable(const SweepResult& r, SeedUnits units, const std::set<std::string>& free,
                       const std::vector<std::pair<ProfileType, std::optional<Dtype>>>& columns,
                       const std::vector<std::string>& headers) {
    SeedTable t;
    t.columns = {"Context Length"};
    t.numeric = {true};
    for (const auto& h : headers) {
        t.columns.push_back(h);
        t.numeric.push_back(true);
    }
    auto groups = groupBy(r, free, [](const SweepPointResult&) { return true; });
    const bool several = groups.size() > 1;
    for (auto& [label, idx] : groups) {
        std::map<int64_t, std::vector<std::string>> rows;
        for (const size_t i : idx) {
            const auto& p = r.points[i];
            auto& row = rows[p.options.seq_len];
            row.resize(columns.size(), "—");
            for (size_t c = 0; c < columns.size(); ++c) {
                if (columns[c].first == p.options.profile &&
                    (!columns[c].second || *columns[c].second == p.options.dtype)) {
                    row[c] = peakCell(p, units);
                }
            }
        }
        for (auto& [seq, cells] : rows) {
            std::vector<std::string> row{std::to_string(seq)};
            row.insert(row.end(), cells.begin(), cells.end());
            addSetting(t, several, label, std::move(row));
        }
    }
    finishColumns(t, several);
    return t;
}

}  // namespace

std::vector<SeedTables::Kind> SeedTables::parse(const std::string& name) {
    if (name == "points")
        return {Kind::Points};
    if (name == "seed000")
        return {Kind::Seed000Step1, Kind::Seed000Step3};
    if (name == "seed000-step1")
        return {Kind::Seed000Step1};
    if (name == "seed000-step3")
        return {Kind::Seed000Step3};
    if (name == "seed002")
        return {Kind::Seed002Sizes};
    if (name == "seed003b")
        return {Kind::Seed003b};
    if (name == "seed003c")
        return {Kind::Seed003c};
    return {};
}

std::vector<std::string> SeedTables::names() {
    return {"points",  "seed000",  "seed000-step1", "seed000-step3",
            "seed002", "seed003b", "seed003c"};
}

std::string SeedTables::title(Kind kind) {
    switch (kind) {
        case Kind::Points:
            return "Sweep points";
        case Kind::Seed000Step1:
            return "Workshop exercise 2, step 1: memory usage by batch size";
        case Kind::Seed000Step3:
            return "Workshop exercise 2, step 3: sequence length scaling";
        case Kind::Seed002Sizes:
            return "Performance study (section 6): problem sizes";
        case Kind::Seed003b:
            return "CS336 memory question (b): peak per context length";
        case Kind::Seed003c:
            return "CS336 memory question (c): mixed precision";
    }
    return "";
}

TableExporter::Table SeedTables::make(Kind kind, const SweepResult& result, SeedUnits units) {
    switch (kind) {
        case Kind::Points:
            return points(result, units);
        case Kind::Seed000Step1:
            return seed000Step1(result, units);
        case Kind::Seed000Step3:
            return seed000Step3(result, units);
        case Kind::Seed002Sizes:
            return seed002Sizes(result, units);
        case Kind::Seed003b:
            return contextTable(
                result, units, freeFields(kind),
                {{ProfileType::Forward, std::nullopt}, {ProfileType::Training, std::nullopt}},
                {"Forward Pass Peak (MB)", "Full Training Step Peak (MB)"});
        case Kind::Seed003c:
            return contextTable(result, units, freeFields(kind),
                                {{ProfileType::Forward, Dtype::Float32},
                                 {ProfileType::Forward, Dtype::BFloat16},
                                 {ProfileType::Training, Dtype::Float32},
                                 {ProfileType::Training, Dtype::BFloat16}},
                                {"Forward fp32 (MB)", "Forward bf16 mixed (MB)",
                                 "Training Step fp32 (MB)", "Training Step bf16 mixed (MB)"});
    }
    return {};
}

std::string SeedTables::setting(Kind kind, const TrainOptions& options) {
    return memscope::setting(options, freeFields(kind));
}

std::string SeedTables::note(Kind kind) {
    switch (kind) {
        case Kind::Seed000Step3:
            return "Scaling Pattern: how the memory that depends on the input (the peak minus the "
                   "parameters, gradients and optimizer state live at it), per sample, grows from "
                   "the row above: S^1 is linear, S^2 quadratic (attention scores are B×H×S×S).";
        default:
            return std::string();
    }
}

std::string SeedTables::exponentsText(const SweepResult& result) {
    std::ostringstream out;
    for (const auto axis : {ScalingSeries::Axis::Batch, ScalingSeries::Axis::Seq}) {
        for (const auto& s : ScalingSeries::build(result, axis)) {
            out << "vs " << ScalingSeries::axisName(axis) << " [" << s.label
                << "]: " << s.summaryLine() << "\n";
        }
    }
    return out.str();
}

std::string SeedTables::markdown(const SweepResult& result, const std::vector<Kind>& kinds) {
    std::ostringstream out;
    out << "# Memscope sweep\n\n"
        << result.points.size() << " of " << result.planned_points << " points"
        << (result.cancelled ? " (cancelled: the rest did not run)" : "")
        << (result.device.empty() ? "" : ", on " + result.device)
        << ". Memory is the bytes of live tensors LibTorch's allocators report; MB = 1024² bytes. "
           "Peaks include the model, gradients and optimizer state; \"input-dependent\" is the "
           "peak minus those.\n\n";
    for (const Kind kind : kinds) {
        out << "## " << title(kind) << "\n\n";
        const SeedTable t = make(kind, result, SeedUnits::Readable);
        if (t.rows.empty()) {
            out << "The sweep has no points for this table.\n\n";
            continue;
        }
        out << TableExporter::toMarkdown(t) << "\n";
        if (!note(kind).empty()) {
            out << note(kind) << "\n\n";
        }
    }
    const std::string fits = exponentsText(result);
    if (!fits.empty()) {
        out << "## Fitted exponents\n\n"
            << "Least-squares fits of log memory against log batch size (B) or sequence length "
               "(S), out-of-memory points left out. Linear is about 1, quadratic about 2.\n\n";
        std::istringstream lines(fits);
        std::string line;
        while (std::getline(lines, line)) {
            out << "- " << line << "\n";
        }
        out << "\n";
    }
    return out.str();
}

}  // namespace memscope

#include "predict/program_memory_fit.h"

#include "model/input_error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

namespace memscope {

namespace {

using Sizes = std::map<std::string, int64_t>;

// How far (relative to the phase's peak) a region's fitted peaks may lie from its recorded ones
// at the fitted points for the region to count as one place of the program (exact ones lie
// within rounding).
constexpr double kCoherence = 1e-4;

struct TermDef {
    ProgramMemoryFit::Term term;
    std::vector<std::string> uses;  // the sizes it depends on
    std::function<double(const std::function<double(const char*)>&)> value;
};

const std::vector<TermDef>& termDefs() {
    using V = std::function<double(const char*)>;
    static const std::vector<TermDef> defs = {
        // Parameters, gradients and optimizer state.
        {{"1", "fixed bytes (framework buffers, scalars)"}, {}, [](const V&) { return 1.0; }},
        {{"L", "per layer, fixed (optimizer scalars per tensor)"},
         {"L"},
         [](const V& v) { return v("L"); }},
        {{"d", "weights of width d outside the layers (final norm)"},
         {"d"},
         [](const V& v) { return v("d"); }},
        {{"L*d", "weights of width d per layer (norms, biases)"},
         {"L", "d"},
         [](const V& v) { return v("L") * v("d"); }},
        {{"L*d^2", "attention projections per layer"},
         {"L", "d"},
         [](const V& v) { return v("L") * v("d") * v("d"); }},
        {{"L*d*d_ff", "feed-forward weights per layer"},
         {"L", "d", "d_ff"},
         [](const V& v) { return v("L") * v("d") * v("d_ff"); }},
        {{"vocab", "per token of the vocabulary (output bias)"},
         {"vocab"},
         [](const V& v) { return v("vocab"); }},
        {{"vocab*d", "embedding and LM head"},
         {"vocab", "d"},
         [](const V& v) { return v("vocab") * v("d"); }},
        // Activations (and inputs).
        {{"b*s", "per token (token ids, targets, per-token scalars)"},
         {"b", "s"},
         [](const V& v) { return v("b") * v("s"); }},
        {{"b*s*d", "per token, width d, outside the layers (embedding output, final norm)"},
         {"b", "s", "d"},
         [](const V& v) { return v("b") * v("s") * v("d"); }},
        {{"L*b*s", "per token per layer (norm statistics)"},
         {"L", "b", "s"},
         [](const V& v) { return v("L") * v("b") * v("s"); }},
        {{"L*b*s*d", "activations saved per layer, width d (a)"},
         {"L", "b", "s", "d"},
         [](const V& v) { return v("L") * v("b") * v("s") * v("d"); }},
        {{"L*b*s*d_ff", "activations saved per layer, width d_ff (c)"},
         {"L", "b", "s", "d_ff"},
         [](const V& v) { return v("L") * v("b") * v("s") * v("d_ff"); }},
        {{"L*b*h*s^2", "attention scores and probabilities saved per layer (e)"},
         {"L", "b", "h", "s"},
         [](const V& v) { return v("L") * v("b") * v("h") * v("s") * v("s"); }},
        {{"L*b*h*s", "per head and position per layer (softmax statistics)"},
         {"L", "b", "h", "s"},
         [](const V& v) { return v("L") * v("b") * v("h") * v("s"); }},
        {{"b*s*vocab", "logits and loss (g)"},
         {"b", "s", "vocab"},
         [](const V& v) { return v("b") * v("s") * v("vocab"); }},
        // What lives at a phase's peak only: one layer's temporaries, masks, rotary tables.
        {{"b*s*d_ff", "one layer's feed-forward temporaries"},
         {"b", "s", "d_ff"},
         [](const V& v) { return v("b") * v("s") * v("d_ff"); }},
        {{"b*h*s^2", "one layer's attention temporaries"},
         {"b", "h", "s"},
         [](const V& v) { return v("b") * v("h") * v("s") * v("s"); }},
        {{"b*h*s", "one layer's softmax statistics"},
         {"b", "h", "s"},
         [](const V& v) { return v("b") * v("h") * v("s"); }},
        {{"d^2", "one d x d weight's temporaries (the optimizer's, per parameter)"},
         {"d"},
         [](const V& v) { return v("d") * v("d"); }},
        {{"d*d_ff", "one feed-forward weight's temporaries (the optimizer's, per parameter)"},
         {"d", "d_ff"},
         [](const V& v) { return v("d") * v("d_ff"); }},
        {{"s", "per position (position ids)"}, {"s"}, [](const V& v) { return v("s"); }},
        {{"L*s", "per position per layer"}, {"L", "s"}, [](const V& v) { return v("L") * v("s"); }},
        {{"s^2", "causal mask"}, {"s"}, [](const V& v) { return v("s") * v("s"); }},
        {{"L*s^2", "causal mask per layer"},
         {"L", "s"},
         [](const V& v) { return v("L") * v("s") * v("s"); }},
        {{"s*d/h", "rotary tables (positions x head width)"},
         {"s", "d", "h"},
         [](const V& v) { return v("s") * v("d") / v("h"); }},
        {{"L*s*d/h", "rotary tables per layer"},
         {"L", "s", "d", "h"},
         [](const V& v) { return v("L") * v("s") * v("d") / v("h"); }},
    };
    return defs;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    long double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        sum += static_cast<long double>(a[i]) * b[i];
    }
    return static_cast<double>(sum);
}

// Larger points first: the ones a check by prediction says most about.
double sizeProduct(const Sizes& sizes) {
    double p = 1;
    for (const auto& [name, value] : sizes) {
        p *= double(std::max<int64_t>(value, 1));
    }
    return p;
}

std::string sizesText(const std::set<int64_t>& values) {
    std::string out;
    for (const auto v : values) {
        out += (out.empty() ? "" : ",") + std::to_string(v);
    }
    return out;
}

}  // namespace

const std::vector<std::string>& ProgramMemoryFit::sizeNames() {
    static const std::vector<std::string> names = {"d", "L", "s", "b", "h", "d_ff", "vocab"};
    return names;
}

const std::vector<ProgramMemoryFit::Term>& ProgramMemoryFit::terms() {
    static const std::vector<Term> out = [] {
        std::vector<Term> t;
        for (const auto& d : termDefs()) {
            t.push_back(d.term);
        }
        return t;
    }();
    return out;
}

std::vector<double> ProgramMemoryFit::termValues(const Sizes& sizes) {
    const auto value = [&sizes](const char* name) {
        const auto it = sizes.find(name);
        return it == sizes.end() ? 1.0 : double(it->second);
    };
    std::vector<double> out;
    for (const auto& d : termDefs()) {
        out.push_back(d.value(value));
    }
    return out;
}

ProgramMemoryFit ProgramMemoryFit::fit(const std::vector<Sample>& samples, int held_out) {
    ProgramMemoryFit f;
    if (samples.empty()) {
        throw InputError("no successful sweep point to fit");
    }
    for (const auto& s : samples) {
        for (const auto& [name, value] : s.sizes) {
            if (std::find(sizeNames().begin(), sizeNames().end(), name) == sizeNames().end()) {
                throw InputError("size '" + name +
                                 "' is not one the fit knows (d, L, s, b, h, d_ff, vocab)");
            }
            if (value <= 0) {
                throw InputError(s.label + ": size " + name + " must be positive");
            }
            f.m_swept[name].insert(value);
        }
    }
    std::vector<std::vector<double>> rows;
    for (const auto& s : samples) {
        rows.push_back(termValues(s.sizes));
    }
    const LeastSquares all(rows);
    const size_t n = samples.size();
    if (n <= all.rank()) {
        throw InputError(std::to_string(n) + (n == 1 ? " successful point" : " successful points") +
                         " for " + std::to_string(all.rank()) +
                         " terms the sweep's sizes tell apart: the fit needs at least " +
                         std::to_string(all.rank() + 1) +
                         " (more values per size, or fewer sizes varied)");
    }
    // Leave out the largest points whose absence keeps every direction determined.
    const size_t spare = n - all.rank() - 1;
    size_t want = held_out < 0 ? std::max<size_t>(1, n / 6) : size_t(held_out);
    want = std::min(want, spare);
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return sizeProduct(samples[a].sizes) > sizeProduct(samples[b].sizes);
    });
    std::vector<bool> out(n, false);
    size_t left_out = 0;
    for (const size_t i : order) {
        if (left_out == want) {
            break;
        }
        out[i] = true;
        std::vector<std::vector<double>> kept;
        for (size_t k = 0; k < n; ++k) {
            if (!out[k]) {
                kept.push_back(rows[k]);
            }
        }
        if (LeastSquares(kept).rank() == all.rank()) {
            ++left_out;
        } else {
            out[i] = false;
        }
    }
    std::vector<std::vector<double>> fit_rows;
    std::vector<size_t> fit_index;
    for (size_t k = 0; k < n; ++k) {
        if (!out[k]) {
            fit_rows.push_back(rows[k]);
            fit_index.push_back(k);
        }
    }
    f.m_ls = std::make_shared<LeastSquares>(fit_rows);
    f.m_points = n;
    f.m_heldOut = left_out;

    // Phases and regions every sample has.
    for (const auto& [phase, regions] : samples.front().peaks.regions) {
        for (const auto& [region, peak] : regions) {
            bool everywhere = true;
            for (const auto& s : samples) {
                const auto p = s.peaks.regions.find(phase);
                if (p == s.peaks.regions.end() || p->second.count(region) == 0) {
                    everywhere = false;
                    break;
                }
            }
            if (!everywhere) {
                continue;
            }
            RegionFit rf;
            std::vector<double> y;
            for (const size_t k : fit_index) {
                y.push_back(double(samples[k].peaks.regions.at(phase).at(region).bytes));
            }
            rf.total = f.m_ls->solve(y);
            for (int c = 0; c < kCategoryCount; ++c) {
                bool any = false;
                y.clear();
                for (const size_t k : fit_index) {
                    const auto b =
                        samples[k].peaks.regions.at(phase).at(region).by_category[size_t(c)];
                    any = any || b != 0;
                    y.push_back(double(b));
                }
                if (any) {
                    rf.by_category[size_t(c)] = f.m_ls->solve(y);
                }
            }
            // A region whose own peaks the terms do not follow is not one place of the program
            // at every size (its k-th allocation is another tensor at another number of layers):
            // it is no candidate.
            bool coherent = true;
            for (const size_t k : fit_index) {
                const double measured = double(samples[k].peaks.regions.at(phase).at(region).bytes);
                const auto ph = samples[k].peaks.phases.find(phase);
                const double scale =
                    ph != samples[k].peaks.phases.end() ? double(ph->second.bytes) : measured;
                if (std::fabs(dot(rf.total, rows[k]) - measured) > kCoherence * scale) {
                    coherent = false;
                    break;
                }
            }
            if (!coherent) {
                continue;
            }
            f.m_fits[phase][region] = std::move(rf);
        }
    }
    if (f.m_fits.empty()) {
        throw InputError("the sweep's points share no phase to fit");
    }
    for (size_t k = 0; k < n; ++k) {
        const auto t = termValues(samples[k].sizes);
        for (const auto& [phase, regions] : f.m_fits) {
            const auto measured = samples[k].peaks.phases.find(phase);
            if (measured == samples[k].peaks.phases.end()) {
                continue;
            }
            Residual r;
            r.label = samples[k].label;
            r.phase = phase;
            r.measured = measured->second.bytes;
            r.predicted = f.predictPhase(phase, t).bytes;
            r.held_out = out[k];
            f.m_residuals.push_back(r);
        }
    }
    return f;
}

std::vector<std::string> ProgramMemoryFit::phases() const {
    std::vector<std::string> out;
    for (const char* step : {"first", "steady"}) {
        for (const char* phase : {"forward", "backward", "optimizer"}) {
            const std::string key = std::string(step) + "/" + phase;
            if (m_fits.count(key) != 0) {
                out.push_back(key);
            }
        }
    }
    return out;
}

std::vector<double> ProgramMemoryFit::coefficients(const std::string& phase,
                                                   const std::string& region) const {
    const auto p = m_fits.find(phase);
    if (p == m_fits.end()) {
        return {};
    }
    const auto r = p->second.find(region);
    return r == p->second.end() ? std::vector<double>{} : r->second.total;
}

void ProgramMemoryFit::check(const Sizes& at) const {
    for (const auto& [name, value] : at) {
        if (value <= 0) {
            throw InputError("--at " + name + "=" + std::to_string(value) +
                             ": sizes must be positive");
        }
        if (m_swept.count(name) == 0) {
            std::string named;
            for (const auto& [swept, values] : m_swept) {
                named += (named.empty() ? "" : ", ") + swept;
            }
            throw InputError("--at " + name + ": the sweep did not name " + name +
                             " (its grid named " + named +
                             "), so the fit cannot say how memory changes with it");
        }
    }
    for (const auto& [name, values] : m_swept) {
        if (at.count(name) == 0) {
            throw InputError("--at needs " + name + " (the sweep took " + name + "=" +
                             sizesText(values) + ")");
        }
    }
    // A size the sweep fixed is in every coefficient it touches: another value of it is a
    // direction the data never saw.
    for (const auto& [name, values] : m_swept) {
        if (values.size() == 1 && at.at(name) != *values.begin()) {
            throw InputError("--at " + name + "=" + std::to_string(at.at(name)) +
                             ": outside what the fit can say: the sweep did not vary " + name +
                             " (it took only " + name + "=" + sizesText(values) + "); give " +
                             name + " two or more values in the grid");
        }
    }
    // With two numbers of layers every place's peaks fit some mix of the per-layer terms, also
    // a place that is another tensor at each (the k-th of the optimizer's per-parameter
    // allocations counted from the end is the embedding's at one layer and a layer's at two):
    // only a third number of layers shows which places are one tensor.
    if (const auto layers = m_swept.find("L"); layers != m_swept.end() &&
                                               layers->second.size() == 2 &&
                                               layers->second.count(at.at("L")) == 0) {
        throw InputError("--at L=" + std::to_string(at.at("L")) +
                         ": outside what the fit can say: another number of layers needs at "
                         "least three values of L in the sweep (it took L=" +
                         sizesText(layers->second) + ")");
    }
    if (!m_ls || m_ls->determines(termValues(at))) {
        return;
    }
    // Which sizes take the point off what the sweep saw: those that, put back to a value the
    // sweep took, make it determined.
    std::vector<std::string> blamed;
    for (const auto& [name, values] : m_swept) {
        if (values.count(at.at(name)) != 0) {
            continue;
        }
        for (const auto v : values) {
            Sizes moved = at;
            moved[name] = v;
            if (m_ls->determines(termValues(moved))) {
                blamed.push_back(name);
                break;
            }
        }
    }
    std::string what;
    for (const auto& name : blamed) {
        what += (what.empty() ? "" : "; ") + name + "=" + std::to_string(at.at(name)) +
                " (the sweep took " + name + "=" + sizesText(m_swept.at(name)) + ")";
    }
    if (what.empty()) {
        for (const auto& [name, value] : at) {
            if (m_swept.at(name).count(value) == 0) {
                what += (what.empty() ? "" : ", ") + name + "=" + std::to_string(value);
            }
        }
    }
    throw InputError(
        "--at: outside what the fit can say: " + what +
        ": the sweep did not vary the sizes enough to tell apart the terms this point needs "
        "(give that size more values in the grid, or vary it apart from the others)");
}

ProgramMemoryFit::PhasePrediction ProgramMemoryFit::predictPhase(
    const std::string& phase, const std::vector<double>& t) const {
    PhasePrediction best;
    best.phase = phase;
    bool first = true;
    for (const auto& [region, rf] : m_fits.at(phase)) {
        const double total = dot(rf.total, t);
        if (first || total > double(best.bytes)) {
            first = false;
            best.region = region;
            best.bytes = std::llround(total);
            for (int c = 0; c < kCategoryCount; ++c) {
                const auto& coeff = rf.by_category[size_t(c)];
                best.by_category[size_t(c)] = coeff.empty() ? 0 : std::llround(dot(coeff, t));
            }
        }
    }
    return best;
}

std::vector<ProgramMemoryFit::PhasePrediction> ProgramMemoryFit::predict(const Sizes& at) const {
    check(at);
    const auto t = termValues(at);
    std::vector<PhasePrediction> out;
    for (const auto& phase : phases()) {
        out.push_back(predictPhase(phase, t));
    }
    return out;
}

int64_t ProgramMemoryFit::highest(const std::vector<PhasePrediction>& predictions) {
    int64_t best = 0;
    for (const auto& p : predictions) {
        best = std::max(best, p.bytes);
    }
    return best;
}

Sizes ProgramMemoryFit::completed(Sizes at, std::vector<std::string>* assumed) const {
    for (const auto& [name, values] : m_swept) {
        if (at.count(name) == 0 && values.size() == 1) {
            at[name] = *values.begin();
            if (assumed != nullptr) {
                assumed->push_back(name + "=" + std::to_string(*values.begin()));
            }
        }
    }
    return at;
}

int64_t ProgramMemoryFit::largestBatch(const Sizes& at,
                                       const std::function<bool(int64_t)>& fits) const {
    const auto b = m_swept.find("b");
    if (b == m_swept.end() || b->second.size() < 2) {
        return -1;
    }
    auto fitsAt = [&](int64_t batch) {
        Sizes x = at;
        x["b"] = batch;
        return fits(highest(predict(x)));
    };
    if (!fitsAt(1)) {
        return 0;
    }
    int64_t lo = 1, hi = 2;
    constexpr int64_t kLimit = int64_t(1) << 24;
    while (hi <= kLimit && fitsAt(hi)) {
        lo = hi;
        hi *= 2;
    }
    if (hi > kLimit) {
        return lo;
    }
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        (fitsAt(mid) ? lo : hi) = mid;
    }
    return lo;
}

Sizes ProgramMemoryFit::parseSizes(const std::string& text) {
    Sizes at;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t comma = text.find(',', start);
        std::string item =
            text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        item.erase(0, item.find_first_not_of(" \t"));
        item.erase(item.find_last_not_of(" \t") + 1);
        const size_t eq = item.find('=');
        if (eq == std::string::npos || eq == 0) {
            throw InputError("'" + item + "' is not NAME=VALUE (e.g. d=2560,L=32)");
        }
        const std::string name = item.substr(0, eq);
        const std::string value = item.substr(eq + 1);
        const bool digits = !value.empty() && value.size() < 16 &&
                            std::all_of(value.begin(), value.end(),
                                        [](unsigned char c) { return c >= '0' && c <= '9'; });
        const int64_t v = digits ? std::stoll(value) : 0;
        if (v <= 0) {
            throw InputError(name + ": '" + value + "' is not a positive whole number");
        }
        if (!at.emplace(name, v).second) {
            throw InputError(name + " is given twice");
        }
        if (comma == std::string::npos) {
            break;
        }
        start = comma + 1;
    }
    return at;
}

nlohmann::json ProgramMemoryFit::toJson() const {
    nlohmann::json swept = nlohmann::json::object();
    for (const auto& [name, values] : m_swept) {
        swept[name] = std::vector<int64_t>(values.begin(), values.end());
    }
    nlohmann::json residuals = nlohmann::json::array();
    for (const auto& r : m_residuals) {
        residuals.push_back({{"point", r.label},
                             {"phase", r.phase},
                             {"measured_bytes", r.measured},
                             {"predicted_bytes", r.predicted},
                             {"relative", r.relative()},
                             {"held_out", r.held_out}});
    }
    nlohmann::json terms = nlohmann::json::array();
    for (const auto& t : ProgramMemoryFit::terms()) {
        terms.push_back({{"name", t.name}, {"meaning", t.meaning}});
    }
    return {{"points", m_points}, {"held_out", m_heldOut}, {"rank", rank()},
            {"sizes", swept},     {"terms", terms},        {"residuals", residuals}};
}

}  // namespace memscope

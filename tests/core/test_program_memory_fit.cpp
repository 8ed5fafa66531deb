// ProgramMemoryFit and what it stands on (issue 44), on synthetic sweeps with known memory:
// exact recovery of a program's phases from small sizes, a peak that moves to another region at
// the predicted size, too few points, predictions outside what the sweep can say (a size not
// varied enough, one not named, one missing), a region that is no one place of the program,
// LeastSquares' rank and row-space test, ProgramSweepSpec's grid and placeholders, the sweep
// file's round trip, a run's sizes read back from its command line, and the advice a fit gives a
// run that ran out of memory (ProgramFitAdvice).

#include "analysis/phase_peak_profile.h"
#include "model/config_error.h"
#include "model/input_error.h"
#include "predict/least_squares.h"
#include "predict/program_memory_fit.h"
#include "studies/program_fit_advice.h"
#include "studies/program_sweep.h"
#include "studies/program_sweep_spec.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace memscope;

namespace {

using Sizes = std::map<std::string, int64_t>;

double sz(const Sizes& s, const char* n) {
    const auto it = s.find(n);
    return it == s.end() ? 1.0 : double(it->second);
}

// A transformer's training step, fp32, as the formulas of the issue write it: parameters,
// gradients and AdamW state 4 bytes each per weight; activations saved per layer
// b*s*(a*d + c*d_ff) + b*h*s^2*e; logits b*s*vocab*g.
double params(const Sizes& x) {
    const double d = sz(x, "d"), L = sz(x, "L"), dff = sz(x, "d_ff"), V = sz(x, "vocab");
    return 4.0 * (L * (4 * d * d + 3 * d * dff + 2 * d) + 2 * V * d + d);
}
double activations(const Sizes& x) {
    const double d = sz(x, "d"), L = sz(x, "L"), s = sz(x, "s"), b = sz(x, "b"), h = sz(x, "h"),
                 dff = sz(x, "d_ff");
    return L * (b * s * (34 * d + 12 * dff) + b * h * s * s * 8);
}
double logits(const Sizes& x) {
    return sz(x, "b") * sz(x, "s") * sz(x, "vocab") * 12;
}
// Backward, step 1: at its start all activations and the logits' gradient; at its end all
// gradients and one layer's temporaries. The first dominates at small widths, the second at
// large ones.
double backwardStart(const Sizes& x) {
    return params(x) + activations(x) + logits(x) + 4096;
}
double backwardEnd(const Sizes& x) {
    return 2 * params(x) + 4 * sz(x, "b") * sz(x, "s") * sz(x, "d_ff") + 4096;
}

PhasePeaks::Peak peak(double parameter, double other, Category other_category) {
    PhasePeaks::Peak p;
    p.by_category[size_t(Category::Parameter)] = std::llround(parameter);
    p.by_category[size_t(other_category)] = std::llround(other);
    p.bytes = std::llround(parameter + other);
    return p;
}

ProgramMemoryFit::Sample sample(const Sizes& x) {
    ProgramMemoryFit::Sample s;
    s.sizes = x;
    for (const auto& [name, value] : x) {
        s.label += name + std::to_string(value);
    }
    auto& fwd = s.peaks.regions["first/forward"];
    fwd["after:-|aten::exp#0"] = peak(params(x), activations(x) + logits(x), Category::Activation);
    fwd["last:attn|aten::softmax#0"] = peak(params(x), activations(x), Category::Activation);
    auto& bwd = s.peaks.regions["first/backward"];
    bwd["before:-|LogSoftmaxBackward0#0"] =
        peak(params(x), backwardStart(x) - params(x), Category::Activation);
    bwd["after:embed|EmbeddingBackward0#0"] =
        peak(params(x), backwardEnd(x) - params(x), Category::Gradient);
    for (const auto& [phase, regions] : s.peaks.regions) {
        for (const auto& [name, p] : regions) {
            if (s.peaks.phases[phase].bytes < p.bytes) {
                s.peaks.phases[phase] = p;
            }
        }
    }
    return s;
}

std::vector<ProgramMemoryFit::Sample> grid(std::vector<int64_t> ds, std::vector<int64_t> ls,
                                           std::vector<int64_t> ss, std::vector<int64_t> bs,
                                           const Sizes& fixed = {{"h", 4}, {"vocab", 1000}}) {
    std::vector<ProgramMemoryFit::Sample> out;
    for (const auto d : ds) {
        for (const auto L : ls) {
            for (const auto s : ss) {
                for (const auto b : bs) {
                    Sizes x = fixed;
                    x["d"] = d;
                    x["d_ff"] = 4 * d;
                    x["L"] = L;
                    x["s"] = s;
                    x["b"] = b;
                    out.push_back(sample(x));
                }
            }
        }
    }
    return out;
}

int64_t predicted(const std::vector<ProgramMemoryFit::PhasePrediction>& p, const char* phase) {
    for (const auto& x : p) {
        if (x.phase == phase) {
            return x.bytes;
        }
    }
    return -1;
}

const ProgramMemoryFit::PhasePrediction* find(
    const std::vector<ProgramMemoryFit::PhasePrediction>& p, const char* phase) {
    for (const auto& x : p) {
        if (x.phase == phase) {
            return &x;
        }
    }
    return nullptr;
}

}  // namespace

class TestProgramMemoryFit : public QObject {
    Q_OBJECT

  private slots:
    void leastSquaresRankAndRowSpace() {
        // Columns x, 2x and 1: rank 2; (1, 2, 0) lies in the row space (it is x + ...), (1, 0, 0)
        // does not (the data cannot split x from 2x).
        std::vector<std::vector<double>> rows = {{1, 2, 1}, {2, 4, 1}, {3, 6, 1}};
        const LeastSquares ls(rows);
        QCOMPARE(ls.rank(), size_t(2));
        QVERIFY(ls.determines({1, 2, 0}));
        QVERIFY(ls.determines({5, 10, 3}));
        QVERIFY(!ls.determines({1, 0, 0}));
        const auto c = ls.solve({7, 12, 17});  // y = 5x + 2 -> x coefficient + 2 * 2x's = 5
        QVERIFY(std::fabs(c[0] + 2 * c[1] - 5) < 1e-9);
        QVERIFY(std::fabs(c[2] - 2) < 1e-9);
    }

    void recoversThePhasesExactlyAndPredictsFarOut() {
        const auto samples = grid({32, 64, 128}, {1, 2, 3}, {16, 32, 64}, {1, 2});
        const auto fit = ProgramMemoryFit::fit(samples);
        QCOMPARE(fit.points(), samples.size());
        QVERIFY(fit.heldOutPoints() >= 1);
        for (const auto& r : fit.residuals()) {
            QVERIFY2(std::fabs(r.relative()) < 1e-9,
                     qPrintable(QString::fromStdString(r.label + " " + r.phase)));
        }
        // The course's 2.7B model: 400x the width, 16x the layers, 8x the context.
        const Sizes at = {{"d", 2560}, {"d_ff", 10240}, {"L", 32},      {"s", 512},
                          {"b", 4},    {"h", 4},        {"vocab", 1000}};
        const auto p = fit.predict(at);
        const double fwd = params(at) + activations(at) + logits(at);
        QVERIFY(std::fabs(double(predicted(p, "first/forward")) - fwd) < 1e-6 * fwd);
        const double bwd = std::max(backwardStart(at), backwardEnd(at));
        QVERIFY(std::fabs(double(predicted(p, "first/backward")) - bwd) < 1e-6 * bwd);
        // Categories at the peak come with it.
        const auto* f = find(p, "first/forward");
        QVERIFY(f != nullptr);
        QVERIFY(std::fabs(double(f->by_category[size_t(Category::Parameter)]) - params(at)) <
                1e-6 * params(at));
    }

    void thePeakMovesToTheRegionThatDominatesAtTheSize() {
        const auto samples = grid({32, 64, 128}, {1, 2, 3}, {16, 32, 64}, {1, 2});
        const auto fit = ProgramMemoryFit::fit(samples);
        const Sizes deep = {{"d", 64}, {"d_ff", 256}, {"L", 8},       {"s", 256},
                            {"b", 8},  {"h", 4},      {"vocab", 1000}};
        QVERIFY(backwardStart(deep) > backwardEnd(deep));
        QCOMPARE(find(fit.predict(deep), "first/backward")->region,
                 std::string("before:-|LogSoftmaxBackward0#0"));
        const Sizes wide = {{"d", 4096}, {"d_ff", 16384}, {"L", 2},       {"s", 16},
                            {"b", 1},    {"h", 4},        {"vocab", 1000}};
        QVERIFY(backwardEnd(wide) > backwardStart(wide));
        const auto p = fit.predict(wide);
        const auto* b = find(p, "first/backward");
        QVERIFY(b != nullptr);
        QCOMPARE(b->region, std::string("after:embed|EmbeddingBackward0#0"));
        QVERIFY(std::fabs(double(b->bytes) - backwardEnd(wide)) < 1e-6 * backwardEnd(wide));
        QVERIFY(b->by_category[size_t(Category::Gradient)] > 0);
    }

    void tooFewPointsIsAnError() {
        const auto samples = grid({32, 64}, {1}, {16}, {1});
        try {
            ProgramMemoryFit::fit(samples);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("needs at least"), e.what());
        }
    }

    void refusesWhatTheSweepCannotSay() {
        // s took two values: s^2 and s (and 1) cannot be told apart, so a third s is refused
        // with s named; a value the sweep took is fine.
        const auto fit = ProgramMemoryFit::fit(grid({32, 64, 128}, {1, 2}, {16, 32}, {1, 2}));
        Sizes at = {{"d", 256}, {"d_ff", 1024}, {"L", 2},       {"s", 32},
                    {"b", 4},   {"h", 4},       {"vocab", 1000}};
        fit.predict(at);
        at["s"] = 128;
        try {
            fit.predict(at);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("outside what the fit can say"), e.what());
            QVERIFY2(QString(e.what()).contains("s=128"), e.what());
        }
        // Two numbers of layers cannot tell a place that is one tensor from one that is not.
        at["s"] = 32;
        at["L"] = 4;
        try {
            fit.predict(at);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("three values of L"), e.what());
        }
        // h and vocab were fixed: another h cannot be predicted.
        const auto full = ProgramMemoryFit::fit(grid({32, 64, 128}, {1, 2}, {16, 32, 64}, {1, 2}));
        Sizes other = {{"d", 256}, {"d_ff", 1024}, {"L", 2},       {"s", 32},
                       {"b", 4},   {"h", 32},      {"vocab", 1000}};
        try {
            full.predict(other);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("did not vary h"), e.what());
        }
        // A size the sweep did not name, and one it named that is missing.
        Sizes unknown = other;
        unknown["h"] = 4;
        unknown["experts"] = 8;
        try {
            full.predict(unknown);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("experts"), e.what());
        }
        Sizes missing = other;
        missing["h"] = 4;
        missing.erase("b");
        try {
            full.predict(missing);
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("needs b"), e.what());
        }
    }

    void aRegionThatIsNoOnePlaceIsNoCandidate() {
        // The k-th allocation of a place that is another tensor at another number of layers:
        // its peaks follow no sum of the terms, so it must not become the prediction.
        auto samples = grid({32, 64, 128}, {1, 2}, {16, 32, 64}, {1, 2});
        for (auto& s : samples) {
            const double junk = s.sizes["L"] == 1 ? 3.0e9 / double(s.sizes["d"]) : 1000.0;
            s.peaks.regions["first/forward"]["outside:-|aten::div#7"] =
                peak(0, junk, Category::Temporary);
        }
        const auto fit = ProgramMemoryFit::fit(samples);
        const Sizes at = {{"d", 512}, {"d_ff", 2048}, {"L", 2},       {"s", 64},
                          {"b", 2},   {"h", 4},       {"vocab", 1000}};
        const auto predicted = fit.predict(at);  // find() points into it: it must outlive f
        const auto* f = find(predicted, "first/forward");
        QVERIFY(f != nullptr);
        QVERIFY(f->region != "outside:-|aten::div#7");
    }

    void placesNameTheLayerByPosition() {
        StackTable stacks;
        auto push = [&stacks](uint32_t parent, const char* name, FrameKind kind) {
            Frame f;
            f.name = name;
            f.kind = kind;
            return stacks.child(parent, stacks.internFrame(f));
        };
        const uint32_t model = push(StackTable::kEmpty, "TransformerLM", FrameKind::Module);
        const uint32_t q = push(model, "TransformerLM.layers.3.attn.q_proj", FrameKind::Module);
        const uint32_t einsum = push(q, "aten::einsum", FrameKind::Operator);
        const uint32_t bmm = push(einsum, "aten::bmm", FrameKind::Operator);
        auto p = PhasePeakProfile::placeOf(stacks, bmm);
        QCOMPARE(p.layer, int64_t(3));
        QCOMPARE(p.module, std::string("attn.q_proj"));
        QCOMPARE(p.op, std::string("aten::einsum"));  // the call the program made
        const uint32_t node = push(StackTable::kEmpty, "MulBackward0", FrameKind::BackwardNode);
        const uint32_t of =
            push(node, "backward of TransformerLM.layers.0.ffn", FrameKind::BackwardOf);
        p = PhasePeakProfile::placeOf(stacks, push(of, "aten::mul", FrameKind::Operator));
        QCOMPARE(p.layer, int64_t(0));
        QCOMPARE(p.module, std::string("ffn"));
        const uint32_t head = push(model, "TransformerLM.lm_head", FrameKind::Module);
        p = PhasePeakProfile::placeOf(stacks, head);
        QCOMPARE(p.layer, int64_t(-1));
        QCOMPARE(p.module, std::string("lm_head"));
        p = PhasePeakProfile::placeOf(stacks, StackTable::kEmpty);
        QCOMPARE(p.module, std::string("-"));
    }

    void sweepSpecChecksPlaceholdersAndGrid() {
        ProgramSweepSpec spec;
        spec.program = {"train.py", "--d-model", "{d}", "--d-ff={d_ff}", "--layers", "{L}"};
        spec.axes = {ProgramSweepSpec::parseAxis("d=64,128"), ProgramSweepSpec::parseAxis("L=1,2"),
                     ProgramSweepSpec::parseAxis("d_ff=4*d")};
        spec.check();
        const auto points = spec.points();
        QCOMPARE(points.size(), size_t(4));
        QCOMPARE(points[1].at("d_ff"), int64_t(256));
        const auto args = spec.argumentsAt(points[3]);
        QCOMPARE(args[2], std::string("128"));
        QCOMPARE(args[3], std::string("--d-ff=512"));
        QCOMPARE(spec.labelOf(points[3]), std::string("d128-L2-d_ff512"));

        auto missing = spec;
        missing.program.push_back("{s}");
        try {
            missing.check();
            QFAIL("expected ConfigError");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("{s}"), e.what());
            QCOMPARE(e.option(), std::string("--grid"));
        }
        auto unused = spec;
        unused.axes.push_back(ProgramSweepSpec::parseAxis("b=1,2"));
        try {
            unused.check();
            QFAIL("expected ConfigError");
        } catch (const ConfigError& e) {
            QVERIFY2(QString(e.what()).contains("b is in the grid"), e.what());
        }
        QVERIFY_EXCEPTION_THROWN(ProgramSweepSpec::parseAxis("d=64,x"), ConfigError);
        QVERIFY_EXCEPTION_THROWN(ProgramSweepSpec::parseAxis("d"), ConfigError);
        QVERIFY_EXCEPTION_THROWN(ProgramSweepSpec::parseAxis("d_ff=four*d"), ConfigError);

        Sizes at = {{"d", 2560}};
        spec.completeMultiples(at);
        QCOMPARE(at.at("d_ff"), int64_t(10240));
    }

    void sweepFileRoundTrip() {
        ProgramSweep sweep;
        sweep.spec.program = {"train.py", "--d", "{d}"};
        sweep.spec.axes = {ProgramSweepSpec::parseAxis("d=32,64")};
        ProgramSweep::Point ok;
        ok.label = "d32";
        ok.sizes = {{"d", 32}};
        ok.ok = true;
        ok.run_file = "d32.memscope";
        ok.peaks = sample({{"d", 32}, {"L", 1}}).peaks;
        ProgramSweep::Point failed;
        failed.label = "d64";
        failed.sizes = {{"d", 64}};
        failed.error = "exit status 1: MemoryError";
        sweep.points = {ok, failed};
        const auto back = ProgramSweep::fromJson(sweep.toJson(), "x");
        QCOMPARE(back.points.size(), size_t(2));
        QCOMPARE(back.samples().size(), size_t(1));
        QCOMPARE(back.points[1].error, failed.error);
        QCOMPARE(back.points[0].peaks.regions.at("first/backward").size(), size_t(2));
        QCOMPARE(back.points[0].peaks.phases.at("first/forward").bytes,
                 ok.peaks.phases.at("first/forward").bytes);
        QCOMPARE(back.spec.program, sweep.spec.program);
    }

    void sizesAreReadBackFromTheRunsCommandLine() {
        ProgramSweepSpec spec;
        spec.program = {"train.py",  "--batch-size", "{b}",    "--ctx={s}",
                        "--d-model", "{d}",          "--d-ff", "{d_ff}"};
        spec.axes = {ProgramSweepSpec::parseAxis("b=1,2"), ProgramSweepSpec::parseAxis("s=16,32"),
                     ProgramSweepSpec::parseAxis("d=32"), ProgramSweepSpec::parseAxis("d_ff=4*d")};
        const Sizes at = {{"b", 8}, {"s", 64}, {"d", 32}, {"d_ff", 128}};
        auto command = spec.argumentsAt(at);
        command[0] = "/home/student/a2/train.py";  // the run records the script's full path
        QCOMPARE(spec.sizesIn(command), at);

        auto expectError = [&](std::vector<std::string> words, const char* named) {
            try {
                spec.sizesIn(words);
                QFAIL("expected InputError");
            } catch (const InputError& e) {
                QVERIFY2(QString(e.what()).contains(named), e.what());
            }
        };
        auto wrongWord = command;
        wrongWord[3] = "--context=64";
        expectError(wrongWord, "'--context=64' is not the sweep's '--ctx={s}'");
        auto notANumber = command;
        notANumber[2] = "eight";
        expectError(notANumber, "word 3 'eight'");
        auto otherScript = command;
        otherScript[0] = "other.py";
        expectError(otherScript, "other.py is not the sweep's train.py");
        expectError({"train.py", "--batch-size", "8"}, "3 words");
        ProgramSweepSpec twice;
        twice.program = {"train.py", "{b}", "{b}"};
        try {
            twice.sizesIn({"train.py", "2", "3"});
            QFAIL("expected InputError");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("two values, 2 and 3"), e.what());
        }
    }

    void adviceFromAFitFitsTheLimitWithTheFitsMargin() {
        ProgramSweep sweep;
        sweep.spec.program = {"train.py", "--batch-size", "{b}", "--context-length", "{s}"};
        sweep.spec.axes = {ProgramSweepSpec::parseAxis("s=16,24,32,48"),
                           ProgramSweepSpec::parseAxis("b=1,2,3,4")};
        const Sizes fixed = {{"d", 64}, {"d_ff", 256}, {"L", 2}, {"h", 4}, {"vocab", 1000}};
        for (const auto& sample : grid({64}, {2}, {16, 24, 32, 48}, {1, 2, 3, 4}, fixed)) {
            ProgramSweep::Point p;
            p.label = sample.label;
            p.sizes = {{"b", sample.sizes.at("b")}, {"s", sample.sizes.at("s")}};
            p.ok = true;
            p.peaks = sample.peaks;
            sweep.points.push_back(p);
        }
        const auto fit = ProgramMemoryFit::fit(sweep.samples());
        const std::vector<std::string> command = {"/tmp/train.py", "--batch-size", "16",
                                                  "--context-length", "128"};
        auto peakAt = [&](int64_t b, int64_t s) {
            return ProgramMemoryFit::highest(fit.predict({{"b", b}, {"s", s}}));
        };
        // A limit between b=6 and b=7 at the run's context.
        const int64_t limit = (peakAt(6, 128) + peakAt(7, 128)) / 2;
        const auto advice = ProgramFitAdvice::advise(sweep, fit, command, limit);
        QCOMPARE(advice.sizes.at("b"), int64_t(16));
        QCOMPARE(advice.predicted_peak, peakAt(16, 128));
        QVERIFY(advice.margin >= 0.005);
        QCOMPARE(advice.suggestions.size(), size_t(2));
        for (const auto& s : advice.suggestions) {
            // The largest value whose peak leaves the margin: one more does not.
            QVERIFY(double(s.predicted_peak) * (1 + advice.margin) <= double(limit));
            const int64_t next = s.size == "b" ? peakAt(s.to + 1, 128) : peakAt(16, s.to + 1);
            QVERIFY(double(next) * (1 + advice.margin) > double(limit));
            QCOMPARE(s.headroom, limit - s.predicted_peak);
        }
        const auto& batch = advice.suggestions[0];
        QCOMPARE(batch.size, std::string("b"));
        QVERIFY(batch.to <= 6 && batch.to >= 5);
        QCOMPARE(batch.command,
                 (std::vector<std::string>{"/tmp/train.py", "--batch-size",
                                           std::to_string(batch.to), "--context-length", "128"}));
        QCOMPARE(advice.suggestions[1].size, std::string("s"));
        QVERIFY(advice.suggestions[1].to < 128);
        const auto text = QString::fromStdString(ProgramFitAdvice::toText(advice));
        QVERIFY2(text.contains(QString("b=%1 (was 16, the batch)").arg(batch.to)),
                 qPrintable(text));
        const auto json = ProgramFitAdvice::toJson(advice);
        QCOMPARE(json["suggestions"].size(), size_t(2));
        QCOMPARE(json["source"].get<std::string>(), std::string("fit"));

        // A limit nothing fits: notes, no suggestion. No limit: the prediction only.
        const auto none = ProgramFitAdvice::advise(sweep, fit, command, 1000);
        QVERIFY(none.suggestions.empty());
        QCOMPARE(none.notes.size(), size_t(2));
        QVERIFY(QString::fromStdString(none.notes[0]).contains("even b=1"));
        QVERIFY(ProgramFitAdvice::advise(sweep, fit, command, 0).suggestions.empty());
        // A batch of 1 already has no smaller one: said so, not "over the limit".
        const auto single = ProgramFitAdvice::advise(
            sweep, fit, {"/tmp/train.py", "--batch-size", "1", "--context-length", "4096"}, limit);
        QVERIFY(!single.notes.empty());
        QVERIFY2(QString::fromStdString(single.notes[0]).contains("b is 1 already"),
                 single.notes[0].c_str());

        // The run's command line as a run file records it.
        const nlohmann::json config = {
            {"program",
             {{"script", "/tmp/train.py"},
              {"argv", {"--batch-size", "16", "--context-length", "128"}}}}};
        QCOMPARE(ProgramFitAdvice::commandOf(config), command);
        QVERIFY_EXCEPTION_THROWN(ProgramFitAdvice::commandOf(nlohmann::json::object()), InputError);
    }
};

QTEST_APPLESS_MAIN(TestProgramMemoryFit)
#include "test_program_memory_fit.moc"

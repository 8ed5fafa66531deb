#include "predict_command.h"

#include "analysis/phase_peak_profile.h"
#include "cli_support.h"
#include "fit_report.h"
#include "model/input_error.h"
#include "predict/device_database.h"
#include "run/run_summary.h"
#include "run/text_format.h"
#include "studies/program_sweep.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>

namespace memscope::cli {

namespace {

using Sizes = std::map<std::string, int64_t>;

std::string phaseName(const std::string& phase) {
    if (phase == "forward") {
        return "forward (autograd on)";
    }
    return phase;
}

}  // namespace

int PredictCommand::runFit() {
    if (m_at.empty()) {
        return reportUsageError(
            "--fit needs --at with the sizes to predict (e.g. --at "
            "d=2560,L=32,s=512,b=4)");
    }
    Sizes at;
    try {
        at = ProgramMemoryFit::parseSizes(m_at);
    } catch (const InputError& e) {
        return reportUsageError(std::string("--at: ") + e.what());
    }
    ProgramSweep sweep;
    try {
        sweep = ProgramSweep::load(m_fit);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    ProgramMemoryFit fit;
    try {
        fit = ProgramMemoryFit::fit(sweep.samples());
    } catch (const std::exception& e) {
        return fail(std::string("--fit ") + m_fit + ": cannot fit the sweep: " + e.what());
    }
    // Multiples of the grid (d_ff=4*d) and the sizes the sweep fixed fill what --at leaves out.
    sweep.spec.completeMultiples(at);
    std::vector<std::string> assumed;
    at = fit.completed(at, &assumed);
    std::vector<ProgramMemoryFit::PhasePrediction> predictions;
    try {
        predictions = fit.predict(at);
    } catch (const InputError& e) {
        return reportUsageError(e.what());
    }
    const DeviceSpec* device = nullptr;
    DeviceDatabase db;
    if (m_gpuType) {
        try {
            db = DeviceDatabase::loadDefault(m_deviceDb);
        } catch (const std::exception& e) {
            return reportUsageError(e.what());
        }
        device = db.find(*m_gpuType);
        if (device == nullptr) {
            return reportUsageError("--gpu-type: '" + *m_gpuType +
                                    "' is not in the device database (" + joinedNames(db.names()) +
                                    ")");
        }
    }

    // The largest batch that fits, where the sweep varied the batch.
    int64_t max_batch = -1;
    if (device != nullptr) {
        max_batch = fit.largestBatch(
            at, [device](int64_t peak) { return device->heldFor(peak) <= device->usableBytes(); });
    }

    if (m_format == "json") {
        nlohmann::json phases = nlohmann::json::array();
        for (const auto& p : predictions) {
            nlohmann::json by = nlohmann::json::object();
            for (int c = 0; c < kCategoryCount; ++c) {
                if (p.by_category[size_t(c)] != 0) {
                    by[toString(static_cast<Category>(c))] = p.by_category[size_t(c)];
                }
            }
            phases.push_back({{"phase", p.phase},
                              {"peak_bytes", p.bytes},
                              {"region", p.region},
                              {"by_category", by}});
        }
        nlohmann::json out = {{"fit", m_fit},
                              {"at", at},
                              {"phases", phases},
                              {"peak_bytes", ProgramMemoryFit::highest(predictions)},
                              {"check", fit.toJson()}};
        if (device != nullptr) {
            const int64_t need = device->heldFor(ProgramMemoryFit::highest(predictions));
            out["device"] = {{"name", device->name},
                             {"reserved_bytes", need},
                             {"usable_bytes", device->usableBytes()},
                             {"fits", need <= device->usableBytes()}};
            if (max_batch >= 0) {
                out["device"]["largest_batch"] = max_batch;
            }
        }
        std::cout << out.dump(2) << "\n";
        return 0;
    }

    std::cout << "Fit of " << m_fit << " (" << sweep.spec.program[0] << ": " << fit.points()
              << " points, " << fit.heldOutPoints() << " left out to check it)\n";
    std::cout << "At " << FitReport::sizesText(at);
    if (!assumed.empty()) {
        std::cout << " (" << joinedNames(assumed) << ": as the sweep fixed)";
    }
    std::cout << "\n\nPeak by phase          step 1        steady\n";
    for (const char* phase : {"forward", "backward", "optimizer"}) {
        std::string first = "-", steady = "-";
        for (const auto& p : predictions) {
            if (p.phase == std::string("first/") + phase) {
                first = formatBytes(p.bytes);
            } else if (p.phase == std::string("steady/") + phase) {
                steady = formatBytes(p.bytes);
            }
        }
        std::string name = phaseName(phase);
        name.resize(std::max<size_t>(name.size(), 22), ' ');
        std::string f = first;
        f.resize(std::max<size_t>(f.size(), 14), ' ');
        std::cout << "  " << name << " " << f << steady << "\n";
    }
    std::cout << "  (forward: the training step's forward, autograd on, every activation kept; "
                 "not inference under torch.no_grad)\n";
    std::cout << "\nCategories at each phase's peak:\n";
    for (const auto& p : predictions) {
        std::cout << "  " << p.phase << " (" << formatBytes(p.bytes) << ", at " << p.region << "):";
        for (int c = 0; c < kCategoryCount; ++c) {
            const int64_t b = p.by_category[size_t(c)];
            if (std::llabs(b) >= 1024) {
                std::cout << " " << toString(static_cast<Category>(c)) << " " << formatBytes(b);
            }
        }
        std::cout << "\n";
    }
    const int64_t peak = ProgramMemoryFit::highest(predictions);
    std::cout << "\nPeak: " << formatBytes(peak) << " (" << withThousands(peak) << " bytes)\n";
    std::cout << FitReport::checkLine(fit) << "\n";
    if (device != nullptr) {
        const int64_t need = device->heldFor(peak);
        std::cout << "On " << device->name << ": about " << formatBytes(need)
                  << " reserved (allocator x" << formatFixed(device->reserved_factor, 2) << " + "
                  << formatBytes(device->context_bytes) << " context) of "
                  << formatBytes(device->usableBytes())
                  << " usable: " << (need <= device->usableBytes() ? "fits" : "does NOT fit")
                  << "\n";
        if (max_batch > 0) {
            std::cout << "Largest batch that fits: " << max_batch << "\n";
        } else if (max_batch == 0) {
            std::cout << "Largest batch that fits: none (batch 1 does not fit)\n";
        } else {
            std::cout << "Largest batch that fits: unknown (the sweep did not vary b)\n";
        }
    }
    int status = 0;
    if (!m_check.empty()) {
        try {
            // Through RunSource, as every command opens a run: a run file, a snapshot, a
            // journal, a run directory's first rank.
            Trace trace = loadRun(m_check, RunRange{});
            if (trace.allocations().empty()) {
                trace.finalize();
            }
            const PhasePeaks recorded = PhasePeakProfile::measure(trace);
            std::cout << "\nAgainst " << m_check << ":\n";
            for (const auto& p : predictions) {
                const auto it = recorded.phases.find(p.phase);
                if (it == recorded.phases.end()) {
                    std::cout << "  " << p.phase << ": not in the recording\n";
                    continue;
                }
                const double rel = it->second.bytes > 0 ? double(p.bytes - it->second.bytes) /
                                                              double(it->second.bytes)
                                                        : 0.0;
                std::cout << "  " << p.phase << ": recorded " << withThousands(it->second.bytes)
                          << " bytes, predicted " << withThousands(p.bytes) << " ("
                          << (rel >= 0 ? "+" : "") << formatFixed(100.0 * rel, 3) << "%)\n";
            }
        } catch (const std::exception& e) {
            status = fail("--check: " + std::string(e.what()));
        }
    }
    if (m_verbose) {
        std::cout << "\n";
        FitReport::printResiduals(fit, std::cout);
        FitReport::printCoefficients(fit, at, std::cout);
    }
    return status;
}

}  // namespace memscope::cli

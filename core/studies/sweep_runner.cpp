#include "studies/sweep_runner.h"

#include "capture/recording_session.h"
#include "io/file_error.h"
#include "io/run_file.h"
#include "run/text_format.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <thread>

namespace memscope {

namespace {

int64_t jsonInt64(const nlohmann::json& j, const char* key) {
    return j.contains(key) && j[key].is_number() ? j[key].get<int64_t>() : 0;
}

// The point's figures from the summary RecordingSession stored in its trace.
void collect(const Trace& trace, const RunSummary& summary, SweepPointResult& p) {
    const nlohmann::json& s = trace.summary;
    p.parameters = summary.parameters;
    p.peak_bytes = summary.peak_allocated_bytes;
    p.step1_peak_bytes = summary.step1PeakAllocated();
    p.steady_peak_bytes = summary.steadyPeakAllocated();
    p.avg_bytes = jsonInt64(s, "avg_allocated_bytes");
    if (s.contains("bytes_by_category_at_peak") && s["bytes_by_category_at_peak"].is_object()) {
        for (const auto& [name, bytes] : s["bytes_by_category_at_peak"].items()) {
            if (bytes.is_number()) {
                p.bytes_by_category_at_peak[name] = bytes.get<int64_t>();
            }
        }
    }
    const auto category = [&p](const char* name) {
        const auto it = p.bytes_by_category_at_peak.find(name);
        return it == p.bytes_by_category_at_peak.end() ? int64_t(0) : it->second;
    };
    p.static_bytes = category("PARAMETER") + category("GRADIENT") + category("OPTIMIZER_STATE");
    p.steps = summary.timedSteps();
    p.avg_step_s = summary.avgStep();
    p.samples_per_s = summary.samplesPerSecond();
    p.tokens_per_s = summary.tokensPerSecond();
    if (s.contains("oom") && s["oom"].is_object()) {
        p.oom_requested_bytes = jsonInt64(s["oom"], "requested_bytes");
        p.capacity_bytes = jsonInt64(s["oom"], "capacity_bytes");
    }
    if (p.capacity_bytes == 0) {
        p.capacity_bytes = trace.meta.capacity_bytes;
    }
}

}  // namespace

SweepRunner::SweepRunner(SweepSpec spec, std::string out_dir)
    : m_spec(std::move(spec)), m_outDir(std::move(out_dir)) {}

SweepResult SweepRunner::run(const CancellationToken* cancel) {
    const std::vector<SweepPoint> points = m_spec.points();
    std::error_code ec;
    std::filesystem::create_directories(m_outDir, ec);
    if (ec || !std::filesystem::is_directory(m_outDir)) {
        throw FileError(m_outDir, std::string("cannot create the sweep directory") +
                                      (ec ? " (" + ec.message() + ")" : std::string()));
    }

    SweepResult result;
    result.spec = m_spec;
    result.planned_points = int64_t(points.size());
    result.started_at = utcTimestampNow();
    result.save(m_outDir);

    const auto report = [this](const Progress& p) {
        if (m_progress) {
            m_progress(p);
        }
    };
    for (size_t i = 0; i < points.size(); ++i) {
        if (cancel && cancel->requested()) {
            result.cancelled = true;
            break;
        }
        const SweepPoint& point = points[i];
        Progress progress;
        progress.index = i;
        progress.total = points.size();
        progress.label = point.label;
        progress.steps = point.options.num_steps + point.options.warmup_steps;
        progress.stage = Progress::Stage::PointStarted;
        report(progress);

        RecordingSession session(point.options);
        session.setMeasurePeakFlops(m_measurePeak);
        session.setStepCallback(
            [&report, &session, cancel, progress](const StepMetrics& m) mutable {
                progress.stage = Progress::Stage::Step;
                progress.step = m.step;
                report(progress);
                // Checked here too, on the training thread: a short point would otherwise finish
                // before the polling loop below sees the request.
                if (cancel && cancel->requested()) {
                    session.cancel();
                }
            });
        session.start();
        bool cancelled = false;
        while (session.running()) {
            session.poll();
            if (cancel && cancel->requested() && !cancelled) {
                session.cancel();
                cancelled = true;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(m_pollMs));
        }
        SweepPointResult p;
        p.label = point.label;
        p.options = point.options;
        try {
            const RunSummary& summary = session.finish();
            if (cancelled || summary.cancelled) {
                result.cancelled = true;
                break;  // a half-run point says nothing: drop it
            }
            Trace& trace = session.trace();
            if (result.device.empty()) {
                result.device =
                    trace.meta.device_name.empty() ? trace.meta.device : trace.meta.device_name;
            }
            collect(trace, summary, p);
            if (summary.out_of_memory) {
                p.status = SweepPointResult::Status::OutOfMemory;
                p.error = summary.error;
            } else if (!summary.error.empty()) {
                p.status = SweepPointResult::Status::Error;
                p.error = summary.error;
            }
            p.run_file = point.label + ".memscope";
            RunFile::save(trace, (std::filesystem::path(m_outDir) / p.run_file).string());
        } catch (const std::exception& e) {
            p.status = SweepPointResult::Status::Error;
            p.error = e.what();
        }
        result.points.push_back(std::move(p));
        result.save(m_outDir);
        progress.stage = Progress::Stage::PointFinished;
        progress.result = &result.points.back();
        report(progress);
    }
    result.save(m_outDir);
    Progress done;
    done.stage = Progress::Stage::Done;
    done.index = result.points.size();
    done.total = points.size();
    report(done);
    return result;
}

}  // namespace memscope

#include "sweep_command.h"

#include "cli_support.h"
#include "io/atomic_file.h"
#include "model/cancellation.h"
#include "model/config_error.h"
#include "model/train_option_table.h"
#include "run/byte_size.h"
#include "run/run_summary.h"
#include "studies/seed_tables.h"
#include "studies/sweep_runner.h"

#include <filesystem>
#include <iomanip>
#include <iostream>

namespace memscope::cli {

int SweepCommand::run() {
    SweepSpec spec;
    std::vector<SweepPoint> points;
    try {
        spec.base = m_options.resolve();
        if (m_config) {
            spec.mergeYamlFile(*m_config);
        }
        if (m_batchSizes)
            spec.batch_sizes = SweepSpec::parseSizes("--batch-sizes", *m_batchSizes, "batch_size");
        if (m_seqLens)
            spec.seq_lens = SweepSpec::parseSizes("--seq-lens", *m_seqLens, "seq_len");
        if (m_presets)
            spec.presets = SweepSpec::parsePresets("--presets", *m_presets);
        if (m_dtypes)
            spec.dtypes = SweepSpec::parseDtypes("--dtypes", *m_dtypes);
        if (m_attention)
            spec.attentions =
                SweepSpec::parseAttentions(TrainOptionTable::flag("attention"), *m_attention);
        if (m_checkpointing)
            spec.checkpointing = SweepSpec::parseCheckpointing(
                TrainOptionTable::flag("checkpointing"), *m_checkpointing);
        if (m_profiles)
            spec.profiles = SweepSpec::parseProfiles("--profile-types", *m_profiles);
        if (m_steps)
            spec.steps = *m_steps;
        if (m_capacity) {
            const auto bytes = parseByteSize(*m_capacity);
            if (!bytes || *bytes <= 0) {
                throw ConfigError("--capacity",
                                  "'" + *m_capacity + "' is not a size (try 512MiB or 2GiB)");
            }
            spec.capacity_bytes = *bytes;
        }
        if (m_mode)
            spec.mode = *m_mode == "axes" ? SweepSpec::Mode::Axes : SweepSpec::Mode::Grid;
        if (m_axes)
            spec.mode = SweepSpec::Mode::Axes;
        points = spec.points();
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    }
    std::vector<SeedTables::Kind> kinds;
    for (const auto& name :
         m_tables.empty() ? std::vector<std::string>{"points", "seed000"} : m_tables) {
        for (const auto kind : SeedTables::parse(name)) {
            if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
                kinds.push_back(kind);
            }
        }
    }

    std::cout << "Sweep: " << points.size() << (points.size() == 1 ? " point" : " points") << " ("
              << toString(spec.mode) << "), " << (spec.steps > 0 ? spec.steps : spec.base.num_steps)
              << " steps each, run files in " << m_out << "/";
    if (spec.capacity_bytes > 0) {
        std::cout << ", capacity " << formatBytes(spec.capacity_bytes);
    }
    std::cout << "\n";

    CancellationToken cancel;
    InterruptForwarder interrupt([&cancel] { cancel.request(); });
    SweepRunner runner(spec, m_out);
    runner.setProgressCallback([](const SweepRunner::Progress& p) {
        using Stage = SweepRunner::Progress::Stage;
        if (p.stage == Stage::PointStarted) {
            std::cout << "[" << p.index + 1 << "/" << p.total << "] " << p.label << " ..."
                      << std::flush;
        } else if (p.stage == Stage::PointFinished && p.result) {
            const auto& r = *p.result;
            if (r.status == SweepPointResult::Status::Ok) {
                std::cout << " peak " << formatBytes(r.peak_bytes) << ", avg "
                          << formatBytes(r.avg_bytes) << ", " << std::fixed << std::setprecision(1)
                          << r.samples_per_s << " samples/s\n"
                          << std::defaultfloat;
            } else if (r.status == SweepPointResult::Status::OutOfMemory) {
                std::cout << " OUT OF MEMORY (" << formatBytes(r.oom_requested_bytes)
                          << " requested at " << formatBytes(r.peak_bytes) << " of "
                          << formatBytes(r.capacity_bytes) << ")\n";
            } else {
                std::cout << " ERROR: " << r.error << "\n";
            }
        }
    });
    SweepResult result;
    try {
        result = runner.run(&cancel);
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    if (result.cancelled) {
        std::cout << " interrupted\nKept " << result.points.size() << " finished point(s) in "
                  << m_out << "/sweep.json\n";
    }

    std::cout << "\n";
    for (const auto kind : kinds) {
        std::cout << "## " << SeedTables::title(kind) << "\n\n";
        const auto t = SeedTables::make(kind, result, TableExporter::Units::Readable);
        if (t.rows.empty()) {
            std::cout << "(no points for this table)\n\n";
        } else {
            std::cout << TableExporter::toMarkdown(t) << "\n";
        }
    }
    const std::string fits = SeedTables::exponentsText(result);
    if (!fits.empty()) {
        std::cout << "Fitted exponents (log-log least squares):\n" << fits;
    }

    int status = 0;
    try {
        if (!m_csv.empty()) {
            std::vector<std::pair<std::string, SeedTables::Kind>> csv;
            for (const auto& name :
                 m_tables.empty() ? std::vector<std::string>{"points"} : m_tables) {
                const auto ks = SeedTables::parse(name);
                for (size_t i = 0; i < ks.size(); ++i) {
                    csv.emplace_back(ks.size() > 1 ? name + "-step" + (i == 0 ? "1" : "3") : name,
                                     ks[i]);
                }
            }
            std::filesystem::path base(m_csv);
            for (const auto& [name, kind] : csv) {
                std::filesystem::path path = base;
                if (csv.size() > 1) {
                    path = base.parent_path() / (base.stem().string() + "-" + name +
                                                 (base.has_extension() ? base.extension().string()
                                                                       : std::string(".csv")));
                }
                const auto text =
                    TableExporter::toCsv(SeedTables::make(kind, result, TableExporter::Units::Raw));
                writeFileAtomically(path.string(), [&text](std::ostream& out) { out << text; });
                std::cout << "Wrote " << path.string() << "\n";
            }
        }
        if (!m_markdown.empty()) {
            const auto text = SeedTables::markdown(result, kinds);
            writeFileAtomically(m_markdown, [&text](std::ostream& out) { out << text; });
            std::cout << "Wrote " << m_markdown << "\n";
        }
    } catch (const std::exception& e) {
        status = fail(e.what());
    }
    if (result.cancelled) {
        return 130;
    }
    for (const auto& p : result.points) {
        if (p.status == SweepPointResult::Status::Error) {
            status = 1;
        }
    }
    return status;
}

}  // namespace memscope::cli

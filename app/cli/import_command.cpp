#include "import_command.h"

#include "cli_support.h"
#include "interchange/snapshot_importer.h"
#include "io/run_file.h"
#include "io/run_file_error.h"
#include "run/run_range.h"
#include "run/run_summary.h"
#include "run/text_format.h"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
#include <iostream>

namespace memscope::cli {

ImportCommand::ImportCommand(CLI::App& parent) {
    m_app = parent.add_subcommand("import", "Convert a PyTorch memory snapshot to a run file");
    m_app->add_option("snapshot", m_snapshot, "A memory snapshot pickle (protocols 2 to 5)")
        ->required();
    m_app->add_option("--out,-o", m_out, "Run file to write")->required();
    m_app->add_option("--device", m_device,
                      "What to import: a CUDA device index, or host for the pinned host memory "
                      "that PyTorch 2.15+ records with record_pinned_host_memory=True (default: "
                      "the first device with trace entries)");
    m_app->add_option("--range", m_range,
                      "Import only part of the trace: event indices A:B of the imported run "
                      "(1000000:2000000) or times since its first entry with a unit (2.5s:4s, "
                      "300ms:, :1.5min); allocations live at A count as present from the start");
    m_app->add_option("--config", m_config,
                      "The configuration the snapshot's job ran with, as JSON of a run's config "
                      "keys (preset, batch_size, seq_len, dtype, profile_type, ...; a known preset "
                      "first fills the model's shape): report then places the run in its tables "
                      "by model, batch, context length, dtype and profile");
}

namespace {

// --device: a CUDA device index (0 to 32767), or "host" (SnapshotImporter::kHostDevice).
bool parseDevice(const std::string& text, int& device) {
    if (text == SnapshotImporter::kHostLaneKey) {
        device = SnapshotImporter::kHostDevice;
        return true;
    }
    if (text.empty() || text.size() > 5 ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return false;
    }
    device = std::stoi(text);
    return device <= 32767;
}

}  // namespace

int ImportCommand::run() {
    int device = -1;
    if (!m_device.empty() && !parseDevice(m_device, device)) {
        return reportUsageError("--device: '" + m_device +
                                "' is neither a CUDA device index (0 to 32767) nor host");
    }
    RunRange range;
    int status = 0;
    if (!parseRangeOption(m_range, range, status)) {
        return status;
    }
    // The configuration, read before the output is probed and the snapshot read:
    // a bad file costs nothing and leaves nothing.
    nlohmann::json config;
    std::optional<TrainOptions> options;
    if (!m_config.empty()) {
        try {
            options = optionsFromJson("--config", m_config, readJsonObject("--config", m_config));
            config = options->toJson();
            config.erase("threads");  // the snapshot's job's, which it does not tell
        } catch (const std::exception& e) {
            return reportUsageError(e.what());
        }
    }
    const bool existed = std::ifstream(m_out).good();
    {
        // Check the output before reading a snapshot that may take seconds.
        std::ofstream probe(m_out, std::ios::app);
        if (!probe) {
            return reportUsageError("--out: cannot write '" + m_out + "'");
        }
    }
    Trace trace;
    try {
        // Through RunSource, as every command opens runs: the percentage of the import on
        // stderr when it is a terminal and Ctrl-C cancelling (RunFileCancelled).
        const RunSource source(m_snapshot);
        if (source.kind() != RunSource::Kind::Snapshot) {
            throw RunFileError(m_snapshot,
                               source.kind() == RunSource::Kind::RunFile
                                   ? std::string("not a PyTorch memory snapshot (a pickle starts "
                                                 "with byte 0x80)")
                                   : std::string("a ") + RunSource::kindName(source.kind()) +
                                         ", not a PyTorch memory snapshot: nothing to import");
        }
        RunSource::Options options;
        options.range = range;
        options.device = device;
        trace = loadRun(source, options);
        if (!config.is_null()) {
            trace.meta.config = config;
        }
        RunFile::save(trace, m_out);
    } catch (const std::exception& e) {
        if (!existed) {
            std::remove(m_out.c_str());  // no empty run file left behind by the probe
        }
        std::string line = e.what();
        if (const auto nl = line.find('\n'); nl != std::string::npos) {
            line.resize(nl);
        }
        return fail(line);
    }

    std::string devices;
    for (const auto& d : trace.summary.value("devices", nlohmann::json::array())) {
        // Device indices, and "host" for the pinned host memory.
        devices += (devices.empty() ? "" : ", ") +
                   (d.is_string() ? d.get<std::string>() : std::to_string(d.get<int>()));
    }
    int64_t allocs = 0;
    int64_t frees = 0;
    for (const uint8_t kind : trace.events.kind) {
        allocs += kind == static_cast<uint8_t>(EventKind::Alloc);
        frees += kind == static_cast<uint8_t>(EventKind::Free);
    }
    const int64_t peak_event = trace.peakEvent();
    const int64_t peak = peak_event >= 0 ? trace.events.allocated[size_t(peak_event)] : 0;

    std::cout << "Imported " << m_snapshot << " (" << trace.meta.device << ")\n";
    std::cout << "  events        " << withThousands(int64_t(trace.events.count())) << " ("
              << withThousands(allocs) << " allocs, " << withThousands(frees) << " frees)\n";
    std::cout << "  allocations   " << withThousands(int64_t(trace.allocations().size())) << "\n";
    std::cout << "  peak          " << formatBytes(peak) << " (" << withThousands(peak)
              << " bytes)\n";
    std::cout << "  skipped       "
              << withThousands(trace.summary.value("skipped_entries", int64_t(0)))
              << " trace entries (snapshot markers, annotations, incomplete)\n";
    std::cout << "  devices       " << (devices.empty() ? "none" : devices) << "\n";
    // What the import made of the frames: cleaned stacks (the raw ones kept in the run file),
    // and how many steps and phase intervals it could tell.
    std::cout << "  stacks        " << withThousands(int64_t(trace.stacks.nodeCount()) - 1)
              << " cleaned, from " << withThousands(int64_t(trace.raw_stacks.nodeCount()) - 1)
              << " raw (kept)\n";
    int32_t last_step = 0;
    for (const PhaseInterval& p : trace.phases) {
        last_step = std::max(last_step, p.step);
    }
    std::cout << "  phases        ";
    if (trace.phases.empty()) {
        std::cout << "unknown (nothing in the snapshot tells them)\n";
    } else {
        std::cout << "inferred: " << trace.phases.size() << " intervals";
        if (last_step > 0) {
            std::cout << " in " << last_step << (last_step == 1 ? " step" : " steps");
        }
        std::cout << "; categories inferred from them\n";
    }
    if (options) {
        std::cout << "  config        " << options->preset << ", batch " << options->batch_size
                  << ", seq " << options->seq_len << ", " << toString(options->dtype) << ", "
                  << toString(options->profile) << " (from " << m_config << ")\n";
    }
    std::cout << "Wrote " << m_out << "\n";
    return 0;
}

}  // namespace memscope::cli

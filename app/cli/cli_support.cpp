#include "cli_support.h"

#include "model/config_error.h"
#include "model/input_error.h"
#include "model/preset.h"
#include "model/train_option_table.h"
#include "run/run_range.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#ifndef _WIN32
#include <unistd.h>
#endif

namespace memscope::cli {

namespace {
std::function<void()> g_cancel;

extern "C" void onInterrupt(int) {
    if (g_cancel) {
        g_cancel();
    }
}
}  // namespace

int fail(const std::string& message, int status, std::ostream& err) {
    std::string line = message;
    if (const auto nl = line.find('\n'); nl != std::string::npos) {
        line.resize(nl);  // c10 errors carry a backtrace after their first line
    }
    err << "memscope-cli: error: " << line << "\n";
    return status;
}

int reportUsageError(const std::string& message) {
    return fail(message, 2);
}

int reportUsageError(const std::string& message, std::ostream& err) {
    return fail(message, 2, err);
}

const char* const kRangeOptionHelp =
    "Load only part of the run: event indices A:B (1000000:2000000) or times since the start "
    "with a unit (2.5s:4s, 300ms:, :1.5min); allocations live at A count as present from the "
    "start";

bool parseRangeOption(const std::string& text, RunRange& range, int& exit_status) {
    try {
        range = RunRange::parse(text);
        return true;
    } catch (const InputError& e) {
        exit_status = reportUsageError(std::string("--range: ") + e.what());
        return false;
    }
}

Trace withTerminalPercent(const char* verb, const std::string& path, const TerminalLoad& load) {
    static std::atomic<bool> cancel{false};  // static: the signal handler may only store to it
    cancel = false;
    InterruptForwarder forward([] { cancel = true; });
#ifndef _WIN32
    const bool terminal = isatty(fileno(stderr)) != 0;
#else
    const bool terminal = false;
#endif
    int shown = -1;
    std::function<void(double)> progress;
    if (terminal) {
        progress = [&](double fraction) {
            const int percent = int(fraction * 100);
            if (percent != shown) {
                shown = percent;
                std::fprintf(stderr, "\r%s %s: %3d%%", verb, path.c_str(), percent);
                std::fflush(stderr);
            }
        };
    }
    auto clear = [&] {
        if (shown >= 0) {
            std::fprintf(stderr, "\r\033[K");
            std::fflush(stderr);
        }
    };
    try {
        Trace trace = load(progress, &cancel);
        clear();
        return trace;
    } catch (...) {
        clear();
        throw;
    }
}

namespace {

// The usage error of --rank RANK for `source` (empty when it fits or RANK is -1).
std::string rankOptionProblem(const RunSource& source, int rank) {
    if (rank < 0) {
        return {};
    }
    if (!source.isMultiRank()) {
        return "--rank: '" + source.path() + "' is a single run, not a multi-rank run directory";
    }
    if (rank >= source.worldSize()) {
        return "--rank: " + std::to_string(rank) + " is not a rank of this " +
               std::to_string(source.worldSize()) + "-rank run";
    }
    return {};
}

}  // namespace

Trace loadRun(const RunSource& source, RunSource::Options options) {
    const char* verb = source.kind() == RunSource::Kind::Snapshot  ? "importing"
                       : source.kind() == RunSource::Kind::Journal ? "recovering"
                                                                   : "loading";
    return withTerminalPercent(
        verb, source.path(),
        [&](const std::function<void(double)>& progress, const std::atomic<bool>* cancel) {
            options.cancel = cancel;
            options.progress = progress;
            return source.open(options);
        });
}

Trace loadRun(const std::string& path, const RunRange& range) {
    RunSource::Options options;
    options.range = range;
    return loadRun(RunSource(path), options);
}

int loadRankOf(const RunSource& source, int rank, const RunRange& range, Trace& trace) {
    if (const std::string problem = rankOptionProblem(source, rank); !problem.empty()) {
        return reportUsageError(problem);
    }
    RunSource::Options options;
    options.range = range;
    options.rank = rank;
    try {
        trace = loadRun(source, options);
    } catch (const std::exception& e) {
        return fail(e.what());
    }
    return 0;
}

InterruptForwarder::InterruptForwarder(std::function<void()> cancel) {
    g_cancel = std::move(cancel);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
}

InterruptForwarder::~InterruptForwarder() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    g_cancel = nullptr;
}

nlohmann::json readJsonObject(const std::string& option, const std::string& file) {
    std::ifstream in(file);
    if (!in) {
        throw ConfigError(option, "cannot read " + file);
    }
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw ConfigError(option, file + " is not JSON: " + e.what());
    }
    if (!json.is_object()) {
        throw ConfigError(option, file + " holds no object of options");
    }
    return json;
}

TrainOptions optionsFromJson(const std::string& option, const std::string& file,
                             const nlohmann::json& json) {
    try {
        TrainOptions base;
        if (json.contains("preset") && json["preset"].is_string() &&
            Preset::find(json["preset"].get<std::string>())) {
            base = TrainOptions::fromPreset(json["preset"].get<std::string>());
        }
        return TrainOptions::fromJson(json, base);
    } catch (const ConfigError& e) {
        // fromJson names the option by its flag ("--hidden-dim"): here it is a JSON field, with
        // the reason the flag gives ("must be between 1 and 65536, got 100000").
        const TrainOptionRow* row = TrainOptionTable::find(e.option());
        const std::string field = row != nullptr ? std::string(row->key) : e.option();
        throw ConfigError(option, file + ": field " + field + " " + e.reason());
    }
}

}  // namespace memscope::cli

#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>

#include "memscope_version.h"

#include "run/train_options.h"
#include "source/run_source.h"

#include <nlohmann/json.hpp>

namespace memscope::cli {

// Help of the --range option of the commands that open runs (info, export, report).
extern const char* const kRangeOptionHelp;

// Parses a --range value; on a bad one prints the usage error and sets `exit_status` to 2.
bool parseRangeOption(const std::string& text, RunRange& range, int& exit_status);

// Opens a run as the commands that read runs do, through RunSource (a run file, a snapshot, a
// journal, a rank of a run directory): options.range and options.rank of it, with a percentage
// on stderr while it loads when stderr is a terminal, and Ctrl-C cancelling the load
// (RunFileCancelled). Throws RunFileError naming the file.
Trace loadRun(const RunSource& source, RunSource::Options options);
Trace loadRun(const std::string& path, const RunRange& range);
// The one trace a command reads: `--rank` RANK of a run directory (-1: the first readable) and
// `--range` RANGE, loaded as loadRun does, into `trace`. Returns 0, or the exit status after
// saying what is wrong: 2 for a rank the run does not have (or any rank of a single run), 1
// when the run cannot be read.
int loadRankOf(const RunSource& source, int rank, const RunRange& range, Trace& trace);
// Runs `load` as a long read from the terminal: a percentage on stderr when it is a terminal
// ("VERB PATH: NN%"; `load` reports the fraction done through the callback it gets, which is
// empty otherwise), the line cleared afterwards, also when `load` throws, and Ctrl-C (SIGINT,
// SIGTERM) setting the flag `load` gets, which the reader answers with RunFileCancelled. Used by
// loadRun and memscope-cli import.
using TerminalLoad = std::function<Trace(const std::function<void(double)>& progress,
                                         const std::atomic<bool>* cancel)>;
Trace withTerminalPercent(const char* verb, const std::string& path, const TerminalLoad& load);

// The CLI's one way out on an error: prints "memscope-cli: error: MESSAGE" (its first line) to
// `err` and returns `status` (1: the run, file or device failed; 2: bad options).
int fail(const std::string& message, int status = 1, std::ostream& err = std::cerr);
// fail(message, 2): a usage error.
int reportUsageError(const std::string& message);
int reportUsageError(const std::string& message, std::ostream& err);

// The JSON object in FILE, given with `option` (--options, --config). Throws ConfigError naming
// the option and the file: it cannot be read, is not JSON, or holds no object.
nlohmann::json readJsonObject(const std::string& option, const std::string& file);
// A run's options from a JSON object of TrainOptions' keys: a known "preset" first gives the
// model's shape, batch and sequence, the other keys override it. Throws ConfigError naming
// `option`, the file and the field.
TrainOptions optionsFromJson(const std::string& option, const std::string& file,
                             const nlohmann::json& json);

// While alive, SIGINT/SIGTERM call `cancel` (which must be async-signal-safe: an atomic store)
// instead of killing the process, so an interrupted run still prints its partial summary.
class InterruptForwarder {
  public:
    explicit InterruptForwarder(std::function<void()> cancel);
    ~InterruptForwarder();
    InterruptForwarder(const InterruptForwarder&) = delete;
    InterruptForwarder& operator=(const InterruptForwarder&) = delete;
};

}  // namespace memscope::cli

#include "io/journal_recovery.h"

#include "explain/trace_summary.h"
#include "io/journal_reader.h"
#include "io/run_file.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"
#include "trace/program_stack_order.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace memscope {

using json = nlohmann::json;

std::string JournalRecovery::Result::describe() const {
    std::ostringstream out;
    out << "recovered " << events << " events (" << steps << (steps == 1 ? " step" : " steps")
        << " finished) from " << chunks << (chunks == 1 ? " chunk" : " chunks");
    if (bytes_dropped > 0) {
        out << "; dropped the last " << bytes_dropped << " bytes: " << dropped_reason;
    }
    return out.str();
}

JournalRecovery::Result JournalRecovery::recover(const std::string& path) {
    if (!std::ifstream(path, std::ios::binary)) {
        throw RunFileError(path, "cannot open the journal");
    }
    JournalReader reader(path);
    reader.poll();  // the whole file: its run is gone
    if (reader.bytesKept() < int64_t(RunJournal::kFileHeaderSize)) {
        throw RunFileError(path, "not a Memscope journal (the file does not start with " +
                                     std::string(RunJournal::kMagic) + ")");
    }
    Result result;
    result.chunks = reader.chunks();
    result.bytes_kept = reader.bytesKept();
    result.bytes_dropped = reader.bytesRead() - reader.bytesKept();
    result.dropped_reason = reader.stopReason();
    if (result.chunks == 0 || !reader.hasRun()) {
        throw RunFileError(path,
                           "nothing can be recovered from the journal" +
                               (result.dropped_reason.empty() ? std::string(": it holds no chunks")
                                                              : ": " + result.dropped_reason));
    }
    Trace& trace = result.trace;
    trace = reader.takeTrace();
    trace.meta.source = "recovered from an unfinished journal";
    if (ProgramStackOrder::applies(trace)) {  // a Python program's: stacks in reading order
        ProgramStackOrder::apply(trace);
        trace.finalize();
    }
    json summary = TraceSummary::compute(trace);
    // The trainer's own summary died with the run; its peak is the recorder's (CPU runs).
    if (summary.contains("peak_allocated_bytes_recorded")) {
        summary["peak_allocated_bytes"] = summary["peak_allocated_bytes_recorded"];
    }
    summary["recovered"] = true;
    summary["steps_completed"] = trace.steps.size();
    trace.summary = std::move(summary);
    result.events = static_cast<int64_t>(trace.events.count());
    result.steps = static_cast<int64_t>(trace.steps.size());
    return result;
}

JournalRecovery::Result JournalRecovery::saveProgramRun(const std::string& journal,
                                                        const std::string& out,
                                                        const std::string& ending,
                                                        int exit_status) {
    Result result = recover(journal);
    result.trace.summary["program"] = {{"ending", ending + " (recovered from the journal)"},
                                       {"exit_status", exit_status}};
    RunFile::save(result.trace, out);
    std::error_code ec;
    std::filesystem::remove(journal, ec);
    return result;
}

std::vector<std::string> JournalRecovery::findJournals(const std::string& dir) {
    namespace fs = std::filesystem;
    std::vector<std::pair<fs::file_time_type, std::string>> found;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string p = it->path().string();
        if (it->is_regular_file(ec) && RunJournal::isJournalPath(p)) {
            found.emplace_back(it->last_write_time(ec), p);
        }
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (auto& f : found) {
        out.push_back(std::move(f.second));
    }
    return out;
}

}  // namespace memscope

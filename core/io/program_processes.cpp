#include "io/program_processes.h"

#include "io/journal_recovery.h"
#include "io/run_directory.h"
#include "io/run_file.h"
#include "io/run_file_error.h"
#include "io/run_journal.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace memscope {

namespace fs = std::filesystem;

namespace {

// The pid in "proc-PID.memscope" (and its journal and sidecar), or -1.
int64_t pidOfStagedName(const std::string& name) {
    if (name.rfind("proc-", 0) != 0) {
        return -1;
    }
    size_t end = 5;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9') {
        ++end;
    }
    if (end == 5 || end > 5 + 12) {
        return -1;
    }
    return std::stoll(name.substr(5, end - 5));
}

nlohmann::json readSidecar(const fs::path& path) {
    std::ifstream in(path);
    if (!in) {
        return nlohmann::json::object();
    }
    auto json = nlohmann::json::parse(in, nullptr, false);
    return json.is_object() ? json : nlohmann::json::object();
}

// Not std::filesystem::remove_all: a pip wheel's libtorch.so exports a copy of its own, built
// against a newer libstdc++ than Debian 12's, which calls a recursive_directory_iterator member
// that libstdc++ 3.4.30 lacks through a null pointer (torch 2.11); whatever links libtorch
// binds to that copy.
void removeTree(const fs::path& dir) {
    std::error_code ec;
    std::vector<fs::path> items;
    for (const auto& item : fs::directory_iterator(dir, ec)) {
        items.push_back(item.path());
    }
    for (const auto& path : items) {
        if (fs::is_directory(fs::symlink_status(path, ec))) {
            removeTree(path);
        } else {
            fs::remove(path, ec);
        }
    }
    fs::remove(dir, ec);
}

// The allocations a process made itself: a forked child's inheritance (allocated before
// recording) is its parent's.
int64_t ownAllocations(const Trace& trace) {
    int64_t n = 0;
    for (const Allocation& a : trace.allocations()) {
        n += a.alloc_event >= 0 && trace.events.step[size_t(a.alloc_event)] >= 0 ? 1 : 0;
    }
    return n;
}

int64_t allocationEventsOf(const std::string& run) {
    return ownAllocations(RunFile::load(run));
}

std::string entryText(const ProgramProcesses::Entry& e) {
    std::string text = e.role + ", pid " + std::to_string(e.pid);
    if (e.group_rank >= 0) {
        text +=
            ", group rank " + std::to_string(e.group_rank) + " of " + std::to_string(e.group_size);
    }
    return text;
}

}  // namespace

std::string ProgramProcesses::stagingDirOf(const std::string& out) {
    return out + ".procs";
}

std::string ProgramProcesses::Result::describe(const std::string& out) const {
    std::ostringstream text;
    if (directory) {
        text << ranks.size() << " processes recorded into the run directory " << out << ":";
        for (size_t i = 0; i < ranks.size(); ++i) {
            text << (i ? "," : "") << " rank " << i << " (" << entryText(ranks[i]) << ")";
        }
    }
    for (const auto& d : dropped) {
        text << (text.tellp() > 0 ? "; " : "") << d.role << " process " << d.pid
             << " allocated no tensor (not a rank)";
    }
    for (const auto& p : problems) {
        text << (text.tellp() > 0 ? "; " : "") << p;
    }
    return text.str();
}

ProgramProcesses::Result ProgramProcesses::assemble(const std::string& out, int64_t first_pid) {
    Result result;
    const fs::path staging = stagingDirOf(out);
    std::error_code ec;
    if (!fs::is_directory(staging, ec)) {
        return result;
    }
    // Every staged process by pid: its run file (recovered from the journal when it died) and
    // what its sidecar says.
    std::map<int64_t, Entry> staged;
    std::vector<fs::path> names;
    for (const auto& item : fs::directory_iterator(staging, ec)) {
        names.push_back(item.path());
    }
    std::sort(names.begin(), names.end());
    const std::string journal_suffix = RunJournal::pathFor("");
    for (const auto& path : names) {
        const std::string name = path.filename().string();
        const int64_t pid = pidOfStagedName(name);
        if (pid < 0) {
            continue;
        }
        Entry& e = staged[pid];
        e.pid = pid;
        if (name.size() > journal_suffix.size() &&
            name.compare(name.size() - journal_suffix.size(), journal_suffix.size(),
                         journal_suffix) == 0) {
            const std::string run =
                path.string().substr(0, path.string().size() - journal_suffix.size());
            try {
                const auto recovered = JournalRecovery::saveProgramRun(
                    path.string(), run, "ended before it saved its recording", -1);
                e.events = ownAllocations(recovered.trace);
                e.ending = "recovered from its journal";
            } catch (const std::exception& error) {
                result.problems.push_back("process " + std::to_string(pid) +
                                          ": its journal could not be recovered: " + error.what());
                staged.erase(pid);
            }
        }
    }
    for (auto it = staged.begin(); it != staged.end();) {
        Entry& e = it->second;
        const fs::path run = staging / ("proc-" + std::to_string(e.pid) + ".memscope");
        const auto sidecar = readSidecar(staging / ("proc-" + std::to_string(e.pid) + ".json"));
        e.role = sidecar.value("role", std::string("process"));
        e.group_rank = sidecar.value("group_rank", -1);
        e.group_size = sidecar.value("group_size", 0);
        if (e.ending.empty()) {
            e.ending = sidecar.value("ending", std::string());
        }
        if (!fs::is_regular_file(run, ec)) {
            it = staged.erase(it);  // a sidecar alone: the process never imported torch
            continue;
        }
        if (e.ending != "recovered from its journal") {
            e.events = sidecar.contains("events") && sidecar["events"].is_number_integer()
                           ? sidecar["events"].get<int64_t>()
                           : allocationEventsOf(run.string());
        }
        ++it;
    }
    // The first process: its recording is OUT; its sidecar, where it joined a process group.
    Entry first;
    first.role = "parent";
    first.pid = first_pid;
    first.ending = "the program's first process";
    {
        const auto sidecar = readSidecar(staging / ("proc-" + std::to_string(first_pid) + ".json"));
        first.group_rank = sidecar.value("group_rank", -1);
        first.group_size = sidecar.value("group_size", 0);
        staged.erase(first_pid);
        if (fs::is_regular_file(out, ec)) {
            first.events = allocationEventsOf(out);
        }
    }
    std::vector<Entry> members;
    std::vector<Entry> others;
    for (const auto& [pid, e] : staged) {
        if (e.events <= 0) {
            result.dropped.push_back(e);
        } else if (e.group_rank >= 0) {
            members.push_back(e);
        } else {
            others.push_back(e);
        }
    }
    if (members.empty() && others.empty()) {
        removeTree(staging);
        return result;
    }
    if (first.events > 0 && first.group_rank >= 0) {
        members.push_back(first);
    } else if (first.events > 0) {
        // Outside a group, the first process comes before the others: a program whose
        // DataLoader forks its workers reads as the program, then its workers.
        others.insert(others.begin(), first);
    } else {
        result.dropped.push_back(first);
    }
    std::stable_sort(members.begin(), members.end(),
                     [](const Entry& a, const Entry& b) { return a.group_rank < b.group_rank; });
    result.ranks = members;
    result.ranks.insert(result.ranks.end(), others.begin(), others.end());

    // Laid out beside OUT, then put in its place.
    const fs::path building = out + ".assembling";
    removeTree(building);
    if (!fs::create_directories(building, ec)) {
        throw RunFileError(building.string(), "cannot make the run directory: " + ec.message());
    }
    RunDirectory dir;
    dir.world_size = static_cast<int>(result.ranks.size());
    for (size_t i = 0; i < result.ranks.size(); ++i) {
        const Entry& e = result.ranks[i];
        const fs::path from = e.pid == first_pid
                                  ? fs::path(out)
                                  : staging / ("proc-" + std::to_string(e.pid) + ".memscope");
        const std::string file = RunDirectory::rankFileName(static_cast<int>(i));
        fs::rename(from, building / file, ec);
        if (ec) {
            throw RunFileError(from.string(), "cannot move it into the run directory " +
                                                  building.string() + ": " + ec.message());
        }
        dir.rank_files.push_back(file);
        dir.processes.push_back({e.role, e.pid, e.group_rank, e.group_size});
    }
    dir.save(building.string());
    fs::remove(out, ec);  // the first process's file, when it allocated nothing
    if (fs::is_directory(out, ec)) {
        if (!RunDirectory::isRunDirectory(out)) {
            throw RunFileError(out,
                               "is a folder that is not a Memscope run directory; the run "
                               "is kept in " +
                                   building.string());
        }
        removeTree(out);  // an earlier run's directory at the same path
    }
    fs::rename(building, out, ec);
    if (ec) {
        throw RunFileError(out, "cannot put the run directory in place (it is kept in " +
                                    building.string() + "): " + ec.message());
    }
    removeTree(staging);
    result.directory = true;
    return result;
}

}  // namespace memscope

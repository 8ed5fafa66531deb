#include "python_record.h"

#include "analysis/program_fit_advice.h"
#include "cli_support.h"
#include "io/journal_recovery.h"
#include "io/program_processes.h"
#include "io/run_file.h"
#include "io/run_journal.h"
#include "model/config_error.h"
#include "model/train_option_table.h"
#include "run/run_summary.h"
#include "run/train_options.h"
#include "trace/oom_explanation.h"
#include "trace/trace_summary.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace memscope::cli {

namespace {

namespace fs = std::filesystem;

std::atomic<pid_t> g_programPid{0};

// A signal sent by another process (kill(2): a GUI's Stop) goes on to the program; one the
// terminal sent (Ctrl-C: si_code SI_KERNEL) has reached the program's process group already.
void forwardToProgram(int signal, siginfo_t* info, void*) {
    const pid_t pid = g_programPid.load();
    if (pid > 0 && info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) {
        kill(pid, signal);
    }
}

std::optional<fs::file_time_type> modifiedAt(const std::string& path) {
    std::error_code ec;
    const auto t = fs::last_write_time(path, ec);
    if (ec) {
        return std::nullopt;
    }
    return t;
}

bool holdsMemscopePackage(const fs::path& dir) {
    std::error_code ec;
    return fs::is_regular_file(dir / "memscope" / "run.py", ec);
}

std::string signalNameOf(int sig) {
    const char* name = sigabbrev_np(sig);
    return name != nullptr ? std::string("SIG") + name : "signal " + std::to_string(sig);
}

// What the program's processes recorded (io/program_processes.h), when anything is left staged.
void assembleProcesses(const std::string& out, pid_t first_pid) {
    std::error_code ec;
    if (!fs::is_directory(ProgramProcesses::stagingDirOf(out), ec)) {
        return;
    }
    try {
        const auto result = ProgramProcesses::assemble(out, first_pid);
        const std::string text = result.describe(out);
        if (!text.empty()) {
            std::cerr << "memscope-cli: " << text << "\n";
        }
    } catch (const std::exception& e) {
        std::cerr << "memscope-cli: the program's processes could not be put together: " << e.what()
                  << "\n";
    }
}

struct PythonRecordOptions {
    std::string out = "run.memscope";
    std::string python = "python3";
    std::string frames = "4";
    std::string poll_ms = "50";
    std::string comm_timeout;          // seconds; empty: PyTorch's own
    std::string memory_limit;          // a size; empty: none
    std::string fit;                   // --fit SWEEPDIR: a sweep of this program
    bool check_advice = false;         // --check-advice: rerun the fit's first suggestion
    std::vector<std::string> program;  // [SCRIPT, ARGS...] or ["-m", MODULE, ARGS...]
};

// Throws std::invalid_argument with the message for the user.
PythonRecordOptions parsePythonRecord(const std::vector<std::string>& args) {
    PythonRecordOptions o;
    size_t i = 0;
    for (; i < args.size() && args[i] != "--python"; ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size() || args[i + 1] == "--python") {
                throw std::invalid_argument(a + " needs a value");
            }
            return args[++i];
        };
        auto number = [&](int max) {
            const std::string v = value();
            char* end = nullptr;
            errno = 0;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || errno != 0 || n < 0 || n > max) {
                throw std::invalid_argument(a + ": '" + v + "' is not a whole number from 0 to " +
                                            std::to_string(max));
            }
            return std::to_string(n);
        };
        if (a == "--out" || a == "-o") {
            o.out = value();
        } else if (a == "--python-exe") {
            o.python = value();
        } else if (a == "--python-frames") {
            o.frames = number(64);
        } else if (a == "--poll-ms") {
            o.poll_ms = number(10000);
            if (o.poll_ms == "0") {
                throw std::invalid_argument("--poll-ms: must be at least 1");
            }
        } else if (a == TrainOptionTable::flag("device_memory_limit")) {
            o.memory_limit = value();
            try {
                TrainOptions::parseValue(TrainOptionTable::row("device_memory_limit"),
                                         o.memory_limit);
            } catch (const ConfigError& e) {
                throw std::invalid_argument(e.what());
            }
        } else if (a == "--comm-timeout") {
            o.comm_timeout = number(100000);
            if (o.comm_timeout == "0") {
                throw std::invalid_argument("--comm-timeout: must be at least 1 (seconds)");
            }
        } else if (a == "--check-advice") {
            o.check_advice = true;
        } else if (a == "--fit") {
            o.fit = value();
        } else {
            throw std::invalid_argument(
                "record --python takes --out, --python-exe, --python-frames, --poll-ms, "
                "--comm-timeout, " +
                TrainOptionTable::flag("device_memory_limit") +
                ", --fit and --check-advice before --python; '" + a + "' is not one of them");
        }
    }
    o.program.assign(args.begin() + static_cast<std::ptrdiff_t>(std::min(i + 1, args.size())),
                     args.end());
    if (o.program.empty() || (o.program[0] == "-m" && o.program.size() < 2)) {
        throw std::invalid_argument(
            "--python needs a program: --python SCRIPT.py [ARGS...] or --python -m MODULE "
            "[ARGS...]");
    }
    if (o.check_advice && o.fit.empty()) {
        throw std::invalid_argument(
            "--check-advice for a Python program needs --fit SWEEPDIR, a sweep of the program "
            "(memscope-cli sweep --python ...): the planner's own model is not the program's");
    }
    if (o.check_advice && o.memory_limit.empty()) {
        throw std::invalid_argument("--check-advice needs " +
                                    TrainOptionTable::flag("device_memory_limit") +
                                    ": the advice is what fits that limit");
    }
    return o;
}

// --check-advice: the run ran out under the limit; the fit's first suggestion is rerun under the
// same limit into OUT.advice.memscope, its measured peak beside the prediction.
int checkProgramAdvice(const PythonRecordOptions& o, const ProgramSweep& sweep,
                       const ProgramMemoryFit& fit, int status) {
    Trace trace;
    try {
        trace = RunFile::load(o.out);
    } catch (const std::exception& e) {
        return fail(std::string("--check-advice: ") + e.what());
    }
    const auto oom = OomExplanation::explain(trace);
    if (!oom || oom->capacity() <= 0) {
        std::cout << "The program did not run out of memory under the limit: no advice to check.\n";
        return status;
    }
    ProgramFitAdvice::Advice advice;
    try {
        advice = ProgramFitAdvice::advise(
            sweep, fit, ProgramFitAdvice::commandOf(trace.meta.config), oom->capacity());
    } catch (const std::exception& e) {
        return fail("--fit " + o.fit + ": " + e.what());
    }
    std::cout << "\n" << ProgramFitAdvice::toText(advice);
    if (advice.suggestions.empty()) {
        std::cout << "No suggestion to check.\n";
        return status;
    }
    const auto& top = advice.suggestions.front();
    const fs::path path(o.out);
    const std::string advice_out =
        (path.parent_path() / (path.stem().string() + ".advice" + path.extension().string()))
            .string();
    std::cout << "\nChecking " << top.size << "=" << top.to << " under the same limit ("
              << advice_out << ")...\n";
    std::vector<std::string> args = {
        "--out",       advice_out,        "--python-exe",
        o.python,      "--python-frames", o.frames,
        "--poll-ms",   o.poll_ms,         TrainOptionTable::flag("device_memory_limit"),
        o.memory_limit};
    if (!o.comm_timeout.empty()) {
        args.insert(args.end(), {"--comm-timeout", o.comm_timeout});
    }
    args.push_back("--python");
    args.insert(args.end(), top.command.begin(), top.command.end());
    const int rerun = PythonRecord::run(args);
    Trace checked;
    try {
        checked = RunFile::load(advice_out);
    } catch (const std::exception& e) {
        return fail(std::string("--check-advice: the rerun left no run: ") + e.what());
    }
    if (const auto again = OomExplanation::explain(checked)) {
        std::cout << "The suggestion ran out of memory too: " << formatBytes(again->request().bytes)
                  << " requested with " << formatBytes(again->allocated()) << " allocated.\n";
        return rerun != 0 ? rerun : 1;
    }
    const auto peak =
        TraceSummary::compute(checked).value("peak_allocated_bytes_recorded", int64_t(0));
    char line[64];
    std::snprintf(line, sizeof line, "%+.2f%%",
                  top.predicted_peak > 0
                      ? 100.0 * double(peak - top.predicted_peak) / double(top.predicted_peak)
                      : 0.0);
    std::cout << "Measured peak " << formatBytes(peak) << " (" << peak
              << " bytes) beside the predicted " << formatBytes(top.predicted_peak) << " ("
              << top.predicted_peak << " bytes): " << line << ", headroom "
              << formatBytes(oom->capacity() - peak) << " under " << formatBytes(oom->capacity())
              << ".\nWrote " << advice_out << "\n";
    return rerun;
}

}  // namespace

bool PythonRecord::requested(const std::vector<std::string>& args) {
    for (const auto& a : args) {
        if (a == "--python") {
            return true;
        }
        if (a == "--help" || a == "-h") {
            return false;
        }
    }
    return false;
}

std::string PythonRecord::packageDir() {
    if (const char* env = std::getenv("MEMSCOPE_PYTHONPATH"); env != nullptr && *env != '\0') {
        return holdsMemscopePackage(env) ? std::string(env) : std::string();
    }
#ifdef MEMSCOPE_PYTHON_PACKAGE_DIR
    if (holdsMemscopePackage(MEMSCOPE_PYTHON_PACKAGE_DIR)) {
        return MEMSCOPE_PYTHON_PACKAGE_DIR;
    }
#endif
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "lib" / "memscope" / "python";
        if (holdsMemscopePackage(installed)) {
            return installed.string();
        }
    }
    return {};
}

int PythonRecord::run(const std::vector<std::string>& args) {
    // First: a front end can ask whether this build has the recorder with a bare `record
    // --python` (this message, or the one that says a program is needed).
    const std::string package = packageDir();
    if (package.empty()) {
        return fail(
            "--python: this memscope-cli was built without the Python recorder (configure "
            "found no interpreter whose torch is its LibTorch; see README, \"Recording a Python "
            "program\")",
            2);
    }
    PythonRecordOptions o;
    try {
        o = parsePythonRecord(args);
    } catch (const std::invalid_argument& e) {
        return reportUsageError(e.what());
    }
    if (o.program[0] != "-m") {
        std::error_code ec;
        if (!fs::exists(o.program[0], ec)) {
            return fail("--python " + o.program[0] + ": no such file", 2);
        }
        if (!fs::is_regular_file(o.program[0], ec)) {
            return fail("--python " + o.program[0] + ": not a file", 2);
        }
    }
    {
        std::error_code ec;
        const bool existed = fs::exists(o.out, ec);
        std::ofstream probe(o.out, std::ios::app);
        if (!probe) {
            return fail("--out: cannot write '" + o.out + "'", 2);
        }
        probe.close();
        if (!existed) {
            fs::remove(o.out, ec);
        }
    }
    const std::string journal = RunJournal::pathFor(o.out);
    if (std::error_code ec; fs::exists(journal, ec)) {
        // Left by an earlier run that died: this run would overwrite it, and a journal found
        // after this run could be either.
        return fail("--out " + o.out + ": " + journal +
                        " exists, from an earlier run that was not recovered: `memscope-cli "
                        "recover " +
                        journal + "` first, or remove it",
                    2);
    }
    const std::string staging = ProgramProcesses::stagingDirOf(o.out);
    if (std::error_code ec; fs::exists(staging, ec)) {
        return fail("--out " + o.out + ": " + staging +
                        " exists, left by an earlier run whose processes were not put together: "
                        "remove it",
                    2);
    }
    // --fit: the sweep is read, fitted and matched to this command line before the program runs.
    ProgramSweep sweep;
    ProgramMemoryFit fit;
    if (!o.fit.empty()) {
        try {
            sweep = ProgramSweep::load(o.fit);
            fit = ProgramMemoryFit::fit(sweep.samples());
            fit.check(fit.completed(sweep.spec.sizesIn(o.program)));
        } catch (const std::exception& e) {
            return fail("--fit " + o.fit + ": " + e.what(), 2);
        }
    }
    const auto out_before = modifiedAt(o.out);

    std::vector<std::string> argv = {o.python,          "-m",     "memscope.run", "--out",  o.out,
                                     "--python-frames", o.frames, "--poll-ms",    o.poll_ms};
    if (!o.comm_timeout.empty()) {
        argv.insert(argv.end(), {"--comm-timeout", o.comm_timeout});
    }
    if (!o.memory_limit.empty()) {
        argv.insert(argv.end(), {TrainOptionTable::flag("device_memory_limit"), o.memory_limit});
    }
    if (o.program[0] != "-m") {
        argv.push_back("--");
    }
    argv.insert(argv.end(), o.program.begin(), o.program.end());
    std::string pythonpath = package;
    if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') {
        pythonpath += ":" + std::string(old);
    }

    // exec's failure comes back through a close-on-exec pipe.
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        return fail(std::string("cannot start the program: ") + std::strerror(errno));
    }
    std::cout << "Recording " << (o.program[0] == "-m" ? "-m " + o.program[1] : o.program[0])
              << " with " << o.python << " into " << o.out << "..." << std::endl;
    const pid_t pid = fork();
    if (pid < 0) {
        return fail(std::string("cannot start the program: ") + std::strerror(errno));
    }
    if (pid == 0) {
        close(pipefd[0]);
        setenv("PYTHONPATH", pythonpath.c_str(), 1);
        std::vector<char*> cargs;
        for (auto& a : argv) {
            cargs.push_back(a.data());
        }
        cargs.push_back(nullptr);
        execvp(cargs[0], cargs.data());
        const int err = errno;
        (void)!write(pipefd[1], &err, sizeof err);
        _exit(127);
    }
    close(pipefd[1]);
    g_programPid = pid;
    struct sigaction action {};
    action.sa_sigaction = forwardToProgram;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    struct sigaction old_int {
    }, old_term{};
    sigaction(SIGINT, &action, &old_int);
    sigaction(SIGTERM, &action, &old_term);
    int exec_error = 0;
    ssize_t got = 0;
    do {
        got = read(pipefd[0], &exec_error, sizeof exec_error);
    } while (got < 0 && errno == EINTR);
    close(pipefd[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_programPid = 0;
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (got == static_cast<ssize_t>(sizeof exec_error)) {
        return fail("--python-exe " + o.python + ": cannot run it: " + std::strerror(exec_error),
                    2);
    }

    int code = 0;
    std::string how;
    if (WIFEXITED(status)) {
        code = WEXITSTATUS(status);
        how = "exit status " + std::to_string(code);
    } else if (WIFSIGNALED(status)) {
        code = 128 + WTERMSIG(status);
        how = "killed by " + signalNameOf(WTERMSIG(status));
    }
    std::error_code ec;
    if (fs::exists(journal, ec)) {
        // The program ended before its recording was saved: rebuild the run from the journal.
        try {
            const auto result = JournalRecovery::saveProgramRun(journal, o.out, how, code);
            std::cerr << "memscope-cli: the program ended (" << how
                      << ") before its recording was saved; " << result.describe() << " into "
                      << o.out << "\n";
        } catch (const std::exception& e) {
            std::cerr << "memscope-cli: the program ended (" << how
                      << "); its journal could not be recovered: " << e.what()
                      << " (kept: " << journal << ")\n";
            return code != 0 ? code : 1;
        }
        assembleProcesses(o.out, pid);
        return code;
    }
    // The program's first process puts its processes together itself; when it died first, the
    // others' recordings are still staged.
    assembleProcesses(o.out, pid);
    if (std::error_code dir_ec; fs::is_directory(o.out, dir_ec)) {
        if (o.check_advice) {
            std::cout << "--check-advice: the program ran as several processes; the advice is "
                         "checked on a program of one process.\n";
        }
        return code;  // a run directory of the program's processes
    }
    const auto out_after = modifiedAt(o.out);
    if (!out_after || out_after == out_before) {
        // The runner refused before it recorded (it said why) or died before it began.
        if (code == 0) {
            return fail("the program ended (" + how + ") and nothing was recorded");
        }
        if (code != 2) {  // 2: memscope.run refused to start, and its one line said why
            std::cerr << "memscope-cli: nothing was recorded (" << how << ")\n";
        }
        return code;
    }
    if (o.check_advice) {
        return checkProgramAdvice(o, sweep, fit, code);
    }
    return code;
}

}  // namespace memscope::cli

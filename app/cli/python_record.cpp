#include "python_record.h"

#include "cli_support.h"
#include "explain/oom_explanation.h"
#include "explain/trace_summary.h"
#include "io/run_file.h"
#include "model/config_error.h"
#include "model/train_option_table.h"
#include "run/recorder_option_table.h"
#include "run/run_summary.h"
#include "studies/program_fit_advice.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

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

bool holdsMemscopePackage(const fs::path& dir) {
    std::error_code ec;
    return fs::is_regular_file(dir / "memscope" / "run.py", ec);
}

struct PythonRecordOptions {
    std::string out;
    std::string python = "python3";
    // The recorder's own options (run/recorder_option_table.h), checked here and handed on to
    // the package's supervisor as given.
    std::vector<std::string> recorder;
    std::string memory_limit;          // --device-memory-limit as given; empty: none
    std::string fit;                   // --fit SWEEPDIR: a sweep of this program
    bool check_advice = false;         // --check-advice: rerun the fit's first suggestion
    std::vector<std::string> program;  // [SCRIPT, ARGS...] or ["-m", MODULE, ARGS...]
};

// Throws std::invalid_argument with the message for the user.
PythonRecordOptions parsePythonRecord(const std::vector<std::string>& args) {
    PythonRecordOptions o;
    o.out = RecorderOptionTable::find("--out")->fallback;
    size_t i = 0;
    for (; i < args.size() && args[i] != "--python"; ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= args.size() || args[i + 1] == "--python") {
                throw std::invalid_argument(a + " needs a value");
            }
            return args[++i];
        };
        const std::string flag = a == "-o" ? std::string("--out") : a;
        if (const auto* row = RecorderOptionTable::find(flag)) {
            const std::string text = value();
            try {
                RecorderOptionTable::parse(*row, text);
            } catch (const ConfigError& e) {
                throw std::invalid_argument(e.what());  // the line, naming the flag
            }
            o.recorder.insert(o.recorder.end(), {flag, text});
            if (flag == "--out") {
                o.out = text;
            } else if (flag == TrainOptionTable::flag("device_memory_limit")) {
                o.memory_limit = text;
            }
        } else if (a == "--python-exe") {
            o.python = value();
        } else if (a == "--check-advice") {
            o.check_advice = true;
        } else if (a == "--fit") {
            o.fit = value();
        } else {
            std::string flags;
            for (const auto& row : RecorderOptionTable::rows()) {
                flags += std::string(row.flag) + ", ";
            }
            throw std::invalid_argument(
                "record --python takes " + flags +
                "--python-exe, --fit and --check-advice before --python; '" + a +
                "' is not one of them");
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
    std::vector<std::string> args = {"--python-exe", o.python};
    for (size_t i = 0; i + 1 < o.recorder.size(); i += 2) {
        args.insert(args.end(),
                    {o.recorder[i], o.recorder[i] == "--out" ? advice_out : o.recorder[i + 1]});
    }
    if (std::find(args.begin(), args.end(), "--out") == args.end()) {
        args.insert(args.end(), {"--out", advice_out});
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
    // The package's supervisor (python/memscope/_record.py) runs the program: it checks the
    // rest, forwards signals, recovers a journal and puts the processes together.
    std::vector<std::string> argv = {o.python, "-m", "memscope", "record"};
    argv.insert(argv.end(), o.recorder.begin(), o.recorder.end());
    if (o.program[0] != "-m") {
        argv.push_back("--");
    }
    argv.insert(argv.end(), o.program.begin(), o.program.end());
    std::string pythonpath = package;
    if (const char* old = std::getenv("PYTHONPATH"); old != nullptr && *old != '\0') {
        pythonpath += ":" + std::string(old);
    }
#ifdef MEMSCOPE_SANITIZER_PRELOAD
    // An AddressSanitizer build (the asan preset): its recorder loads into the uninstrumented
    // interpreter only after the sanitizer's runtimes, and CPython keeps its objects at exit, so
    // the interpreter runs without the leak check (what the recorder does is still checked).
    std::string asan_options = "detect_leaks=0";
    if (const char* old = std::getenv("ASAN_OPTIONS"); old != nullptr && *old != '\0') {
        asan_options = std::string(old) + ":" + asan_options;
    }
#endif

    // exec's failure comes back through a close-on-exec pipe.
    int pipefd[2];
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        return fail(std::string("cannot start the program: ") + std::strerror(errno));
    }
    std::cout << std::flush;
    const pid_t pid = fork();
    if (pid < 0) {
        return fail(std::string("cannot start the program: ") + std::strerror(errno));
    }
    if (pid == 0) {
        close(pipefd[0]);
        setenv("PYTHONPATH", pythonpath.c_str(), 1);
#ifdef MEMSCOPE_SANITIZER_PRELOAD
        setenv("LD_PRELOAD", MEMSCOPE_SANITIZER_PRELOAD, 1);
        setenv("ASAN_OPTIONS", asan_options.c_str(), 1);
#endif
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
    if (WIFEXITED(status)) {
        code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        code = 128 + WTERMSIG(status);
    }
    if (!o.check_advice || code == 2) {
        return code;
    }
    if (std::error_code ec; fs::is_directory(o.out, ec)) {
        std::cout << "--check-advice: the program ran as several processes; the advice is "
                     "checked on a program of one process.\n";
        return code;  // a run directory of the program's processes
    }
    if (std::error_code ec; !fs::exists(o.out, ec)) {
        return code;
    }
    if (o.check_advice) {
        return checkProgramAdvice(o, sweep, fit, code);
    }
    return code;
}

}  // namespace memscope::cli

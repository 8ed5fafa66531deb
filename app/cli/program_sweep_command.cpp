#include "program_sweep_command.h"

#include "analysis/phase_peak_profile.h"
#include "cli_support.h"
#include "fit_report.h"
#include "io/run_file.h"
#include "model/config_error.h"
#include "python_record.h"
#include "run/run_summary.h"
#include "run/text_format.h"
#include "studies/program_sweep.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace memscope::cli {

namespace {

namespace fs = std::filesystem;

struct ProgramSweepOptions {
    ProgramSweepSpec spec;
    std::string out = "sweep";
    int held_out = -1;
};

bool isGridItem(const std::string& word) {
    return word.find('=') != std::string::npos && word.rfind("-", 0) != 0;
}

// Throws ConfigError with the message for the user.
ProgramSweepOptions parseProgramSweep(const std::vector<std::string>& args) {
    ProgramSweepOptions o;
    size_t python_at = args.size();
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--python") {
            python_at = i;
            break;
        }
    }
    // The program's words end at the last --grid after --python.
    size_t grid_at = args.size();
    for (size_t i = args.size(); i-- > python_at + 1;) {
        if (args[i] == "--grid") {
            grid_at = i;
            break;
        }
    }
    std::vector<std::string> own(args.begin(),
                                 args.begin() + static_cast<std::ptrdiff_t>(python_at));
    if (python_at < args.size()) {
        o.spec.program.assign(args.begin() + static_cast<std::ptrdiff_t>(python_at + 1),
                              args.begin() + static_cast<std::ptrdiff_t>(grid_at));
    }
    if (grid_at < args.size()) {
        own.insert(own.end(), args.begin() + static_cast<std::ptrdiff_t>(grid_at), args.end());
    }
    for (size_t i = 0; i < own.size(); ++i) {
        const std::string& a = own[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= own.size()) {
                throw ConfigError(a, "needs a value");
            }
            return own[++i];
        };
        if (a == "--grid") {
            bool any = false;
            while (i + 1 < own.size() && isGridItem(own[i + 1])) {
                o.spec.axes.push_back(ProgramSweepSpec::parseAxis(own[++i]));
                any = true;
            }
            if (!any) {
                throw ConfigError("--grid", "needs NAME=VALUES items (e.g. --grid d=64,128 L=1,2)");
            }
        } else if (a == "--out" || a == "-o") {
            o.out = value();
        } else if (a == "--python-exe") {
            o.spec.python = value();
        } else if (a == "--held-out") {
            const std::string v = value();
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end != '\0' || n < 0 || n > 1000) {
                throw ConfigError("--held-out", "'" + v + "' is not a whole number from 0 to 1000");
            }
            o.held_out = int(n);
        } else {
            throw ConfigError(a,
                              "sweep --python takes --out, --python-exe, --held-out and --grid "
                              "besides the program; '" +
                                  a + "' is not one of them");
        }
    }
    o.spec.check();
    return o;
}

// The last non-empty lines of a point's log: what the program or the recorder said last.
std::string tailOf(const std::string& path, size_t lines) {
    std::ifstream in(path);
    std::vector<std::string> all;
    for (std::string line; std::getline(in, line);) {
        if (!trimmedText(line, true).empty()) {
            all.push_back(line);
        }
    }
    std::string out;
    for (size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) {
        out += (out.empty() ? "" : "\n") + all[i];
    }
    return out;
}

std::atomic<pid_t> g_pointPid{0};

// While a point runs: Ctrl-C at the terminal reaches the point's process group already (the
// point saves its run and exits 130, which stops the sweep); a SIGINT or SIGTERM another
// process sent goes on to the point.
void forwardToPoint(int signal, siginfo_t* info, void*) {
    const pid_t pid = g_pointPid.load();
    if (pid > 0 && info != nullptr && (info->si_code == SI_USER || info->si_code == SI_QUEUE)) {
        kill(pid, signal);
    }
}

// Starts this executable as `record --out RUN --python-exe EXE --python ARGS...` with its
// output in LOG; returns its exit status (128 + N for signal N), or -1 with `error` set when it
// could not start.
int recordPoint(const std::string& run, const std::string& log, const std::string& python,
                const std::vector<std::string>& program, std::string& error) {
    std::error_code ec;
    const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
    if (ec) {
        error = "cannot find memscope-cli itself: " + ec.message();
        return -1;
    }
    std::vector<std::string> argv = {self,           "record", "--out",   run,
                                     "--python-exe", python,   "--python"};
    argv.insert(argv.end(), program.begin(), program.end());
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        error = "cannot write " + log + ": " + std::strerror(errno);
        return -1;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        error = std::string("cannot start the recorder: ") + std::strerror(errno);
        ::close(fd);
        return -1;
    }
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        std::vector<char*> cargs;
        for (auto& a : argv) {
            cargs.push_back(a.data());
        }
        cargs.push_back(nullptr);
        // /proc/self/exe: this very executable, even when a build has replaced the file since.
        execv("/proc/self/exe", cargs.data());
        const std::string why =
            std::string("memscope-cli: cannot start itself again (") + std::strerror(errno) + ")\n";
        (void)!write(STDERR_FILENO, why.data(), why.size());
        _exit(127);
    }
    ::close(fd);
    g_pointPid = pid;
    struct sigaction action {};
    action.sa_sigaction = forwardToPoint;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    struct sigaction old_int {
    }, old_term{};
    sigaction(SIGINT, &action, &old_int);
    sigaction(SIGTERM, &action, &old_term);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    g_pointPid = 0;
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

}  // namespace

bool ProgramSweepCommand::requested(const std::vector<std::string>& args) {
    // The same test as record's: --python before any --help.
    return PythonRecord::requested(args);
}

int ProgramSweepCommand::run(const std::vector<std::string>& args) {
    ProgramSweepOptions o;
    try {
        o = parseProgramSweep(args);
    } catch (const ConfigError& e) {
        return reportUsageError(e.what());
    }
    if (o.spec.program[0] != "-m" && !fs::is_regular_file(o.spec.program[0])) {
        return fail("--python " + o.spec.program[0] + ": no such file", 2);
    }
    std::error_code ec;
    fs::create_directories(o.out, ec);
    if (ec || !fs::is_directory(o.out)) {
        return fail("--out " + o.out + ": cannot create the directory", 2);
    }
    ProgramSweep sweep;
    sweep.spec = o.spec;
    sweep.started_at = utcTimestampNow();
    const auto points = o.spec.points();
    std::cout << "Sweep of " << o.spec.program[0] << ": " << points.size()
              << (points.size() == 1 ? " point" : " points") << ", run files in " << o.out << "/"
              << std::endl;
    bool failed = false;
    for (size_t i = 0; i < points.size(); ++i) {
        ProgramSweep::Point p;
        p.sizes = points[i];
        p.label = o.spec.labelOf(points[i]);
        const std::string run_name = p.label + ".memscope";
        const std::string run = (fs::path(o.out) / run_name).string();
        const std::string log = (fs::path(o.out) / (p.label + ".log")).string();
        std::cout << "[" << i + 1 << "/" << points.size() << "] " << p.label << " ..."
                  << std::flush;
        fs::remove(run, ec);
        std::string error;
        const int status =
            recordPoint(run, log, o.spec.python, o.spec.argumentsAt(points[i]), error);
        if (status == 128 + SIGINT || status == 128 + SIGTERM) {
            try {
                sweep.save(o.out);
            } catch (const std::exception& e) {
                return fail(e.what());
            }
            std::cout << " interrupted\nKept " << sweep.points.size() << " finished point(s) in "
                      << (fs::path(o.out) / ProgramSweep::kFileName).string() << "\n";
            return 130;
        }
        if (status != 0) {
            p.error = !error.empty()
                          ? error
                          : "exit status " + std::to_string(status) + ": " + tailOf(log, 3);
        } else {
            try {
                Trace trace = RunFile::load(run);
                if (trace.allocations().empty()) {
                    trace.finalize();
                }
                p.peaks = PhasePeakProfile::measure(trace);
                p.run_file = run_name;
                p.ok = true;
            } catch (const std::exception& e) {
                p.error = run + ": " + e.what();
            }
        }
        if (p.ok) {
            const auto& ph = p.peaks.phases;
            std::cout << " peaks (step 1) forward "
                      << formatBytes(ph.count("first/forward") ? ph.at("first/forward").bytes : 0)
                      << ", backward "
                      << formatBytes(ph.count("first/backward") ? ph.at("first/backward").bytes : 0)
                      << ", optimizer "
                      << formatBytes(ph.count("first/optimizer") ? ph.at("first/optimizer").bytes
                                                                 : 0)
                      << std::endl;
        } else {
            failed = true;
            std::cout << " FAILED\n";
            std::cerr << "memscope-cli: point " << p.label << " failed: " << p.error
                      << "\n  (its output: " << log << ")\n";
        }
        sweep.points.push_back(std::move(p));
        try {
            sweep.save(o.out);
        } catch (const std::exception& e) {
            return fail(e.what());
        }
    }
    std::cout << "Wrote " << (fs::path(o.out) / ProgramSweep::kFileName).string() << "\n\n";
    try {
        const auto samples = sweep.samples();
        const auto fit = ProgramMemoryFit::fit(samples, o.held_out);
        FitReport::printResiduals(fit, std::cout);
        // Coefficients at the largest point of the sweep.
        const auto largest =
            std::max_element(samples.begin(), samples.end(), [](const auto& a, const auto& b) {
                double pa = 1, pb = 1;
                for (const auto& [n, v] : a.sizes)
                    pa *= double(v);
                for (const auto& [n, v] : b.sizes)
                    pb *= double(v);
                return pa < pb;
            });
        FitReport::printCoefficients(fit, largest->sizes, std::cout);
        std::cout << "Predict a size: memscope-cli predict --fit " << o.out << " --at "
                  << "NAME=VALUE,...\n";
    } catch (const std::exception& e) {
        return fail(std::string("cannot fit the sweep: ") + e.what());
    }
    return failed ? 1 : 0;
}

}  // namespace memscope::cli

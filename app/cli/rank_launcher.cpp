#include "rank_launcher.h"

#include "cli_support.h"
#include "model/config_error.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <optional>
#include <sstream>
#include <thread>

namespace memscope::cli {

std::vector<std::string> RankLauncher::s_arguments;

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
std::vector<pid_t> g_children;

extern "C" void forwardSignal(int sig) {
    g_interrupted = 1;
    for (pid_t pid : g_children) {
        if (pid > 0) {
            ::kill(pid, sig);
        }
    }
}

// Binds 127.0.0.1:port (0: any); returns the bound port or -1.
int bindLoopback(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        return -1;
    }
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    int result = -1;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        socklen_t len = sizeof addr;
        if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
            result = ntohs(addr.sin_port);
        }
    }
    ::close(fd);
    return result;
}

std::string describeStatus(int status) {
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        return "was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
    return "exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

void RankLauncher::setArguments(int argc, char** argv) {
    s_arguments.assign(argv, argv + argc);
}

int RankLauncher::freePort() {
    return bindLoopback(0);
}

int RankLauncher::run(int nproc, int master_port, double comm_timeout_s) {
    int port = master_port;
    if (port > 0) {
        if (bindLoopback(port) != port) {
            throw ConfigError("--master-port",
                              "port " + std::to_string(port) + " on 127.0.0.1 is in use");
        }
    } else {
        port = freePort();
        if (port <= 0) {
            throw ConfigError("--master-port", "found no free port on 127.0.0.1");
        }
    }
    std::vector<char*> argv;
    for (auto& a : s_arguments) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    std::cout.flush();
    std::cerr.flush();

    g_children.assign(size_t(nproc), -1);
    auto old_int = std::signal(SIGINT, forwardSignal);
    auto old_term = std::signal(SIGTERM, forwardSignal);
    for (int r = 0; r < nproc; ++r) {
        const pid_t pid = ::fork();
        if (pid < 0) {
            const int error = errno;
            fail("cannot start rank " + std::to_string(r) + ": " + std::strerror(error));
            forwardSignal(SIGTERM);
            break;
        }
        if (pid == 0) {
            std::signal(SIGINT, SIG_DFL);
            std::signal(SIGTERM, SIG_DFL);
            ::setenv("RANK", std::to_string(r).c_str(), 1);
            ::setenv("LOCAL_RANK", std::to_string(r).c_str(), 1);
            ::setenv("WORLD_SIZE", std::to_string(nproc).c_str(), 1);
            ::setenv("LOCAL_WORLD_SIZE", std::to_string(nproc).c_str(), 1);
            ::setenv("MASTER_ADDR", "127.0.0.1", 1);
            ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
            ::execv("/proc/self/exe", argv.data());
            const int error = errno;
            fail("cannot start rank " + std::to_string(r) + ": " + std::strerror(error));
            ::_exit(127);
        }
        g_children[size_t(r)] = pid;
    }

    using Clock = std::chrono::steady_clock;
    const auto grace = std::chrono::milliseconds(int64_t((comm_timeout_s + 15) * 1000));
    std::optional<Clock::time_point> kill_at;
    bool usage_error = false, failed = false;
    int running = 0;
    for (pid_t pid : g_children) {
        running += pid > 0 ? 1 : 0;
    }
    while (running > 0) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno != EINTR) {
            break;
        }
        if (pid <= 0) {
            if (kill_at && Clock::now() > *kill_at) {
                fail("ranks still running " + std::to_string(int(comm_timeout_s + 15)) +
                     " s after a rank failed; killing them");
                forwardSignal(SIGKILL);
                kill_at.reset();
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            continue;
        }
        int rank = -1;
        for (size_t r = 0; r < g_children.size(); ++r) {
            if (g_children[r] == pid) {
                rank = int(r);
                g_children[r] = -1;
            }
        }
        if (rank < 0) {
            continue;
        }
        --running;
        const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (ok) {
            continue;
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == 2) {
            // Bad options or no rendezvous: the rank said why; the others would only wait.
            usage_error = true;
            forwardSignal(SIGTERM);
            continue;
        }
        if (g_interrupted &&
            (!WIFSIGNALED(status) || WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM)) {
            continue;
        }
        if (!failed) {
            std::ostringstream message;
            message << "rank " << rank << " (pid " << pid << ") " << describeStatus(status)
                    << "; the other ranks stop at their next collective (within --comm-timeout "
                    << comm_timeout_s << " s)";
            fail(message.str());
        }
        failed = true;
        if (!kill_at) {
            kill_at = Clock::now() + grace;
        }
    }
    std::signal(SIGINT, old_int);
    std::signal(SIGTERM, old_term);
    g_children.clear();
    if (usage_error) {
        return 2;
    }
    if (g_interrupted) {
        return 130;
    }
    return failed ? 1 : 0;
}

}  // namespace memscope::cli

#pragma once

#include <CLI/App.hpp>

#include <iosfwd>
#include <memory>
#include <optional>

namespace memscope::cli {

// memscope-cli's command line: the CLI11 app with every command registered. main() parses and
// runs; tests/cli/fuzz_cli_options.cpp parses random argument vectors in-process.
class CliApp {
  public:
    CliApp();
    ~CliApp();
    CliApp(const CliApp&) = delete;
    CliApp& operator=(const CliApp&) = delete;

    // Parses the arguments. nullopt: a command was chosen, run() it. Otherwise the exit status:
    // 0 after --help or --version (printed to `out`), 2 after a usage error (one line on `err`,
    // "memscope-cli: error: ...").
    std::optional<int> parse(int argc, const char* const* argv, std::ostream& out,
                             std::ostream& err);
    // Runs the chosen command; its exit status.
    int run();

    CLI::App& app() { return m_app; }

  private:
    struct Commands;
    CLI::App m_app;
    std::unique_ptr<Commands> m_commands;
};

}  // namespace memscope::cli

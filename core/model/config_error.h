#pragma once

#include <stdexcept>
#include <string>

namespace memscope {

// A configuration that cannot be run. option() is the command-line spelling of the field
// (for example "--num-heads") so the CLI and the GUI can point at it.
class ConfigError : public std::invalid_argument {
  public:
    ConfigError(std::string option, const std::string& message)
        : std::invalid_argument(option + ": " + message), m_option(std::move(option)) {}

    const std::string& option() const { return m_option; }

  private:
    std::string m_option;
};

}  // namespace memscope

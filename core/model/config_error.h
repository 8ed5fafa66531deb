#pragma once

#include "model/error.h"

#include <string>
#include <utility>

namespace memscope {

// A configuration that cannot be run. option() is the command-line spelling of the field
// (for example "--num-heads") so the CLI and the GUI can point at it.
class ConfigError : public Error {
  public:
    ConfigError(std::string option, const std::string& message)
        : Error(option + ": " + message), m_option(std::move(option)) {}

    const std::string& option() const { return m_option; }

  private:
    std::string m_option;
};

}  // namespace memscope

#pragma once

#include "model/error.h"

#include <string>
#include <utility>

namespace memscope {

// A configuration that cannot be run. option() is the command-line spelling of the field
// (for example "--num-heads") so the CLI and the GUI can point at it; reason() is the message
// without it, for a caller that names the value another way (a JSON field, a YAML key).
class ConfigError : public Error {
  public:
    ConfigError(std::string option, const std::string& message)
        : Error(option + ": " + message), m_option(std::move(option)), m_reason(message) {}

    const std::string& option() const { return m_option; }
    const std::string& reason() const { return m_reason; }

  private:
    std::string m_option;
    std::string m_reason;
};

}  // namespace memscope

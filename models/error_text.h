#pragma once

#include <QString>

#include <exception>
#include <string>

namespace memscope {

// The GUI's one conversion of an error's text into a QString (issue 30: the GUI converts once,
// in one encoding). core/'s messages are UTF-8 (they quote file paths, which are UTF-8 on Linux,
// and the user's own text), so every e.what() and every error message a result struct carries
// as std::string becomes text here, and nowhere else (scripts/check_errors.py holds it).
QString errorText(const std::exception& error);
QString errorText(const std::string& message);

}  // namespace memscope

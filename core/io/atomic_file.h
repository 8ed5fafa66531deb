#pragma once

#include <functional>
#include <ostream>
#include <string>

namespace memscope {

// Writes PATH through PATH.tmp and a rename, so that a failed or interrupted export never leaves
// a half-written file under the real name. Throws FileError naming PATH.
void writeFileAtomically(const std::string& path, const std::function<void(std::ostream&)>& body);

}  // namespace memscope

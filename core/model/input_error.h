#pragma once

#include "model/error.h"

#include <string>

namespace memscope {

// Input that does not have the form it should or asks for what core cannot do: text that does
// not parse (a range, an event), a field of a file with the wrong type or size, a value outside
// what core supports (a pickle protocol, a journal version, a run too large to lay out). what()
// names the input and what is wrong with it.
class InputError : public Error {
  public:
    explicit InputError(const std::string& message) : Error(message) {}
};

}  // namespace memscope

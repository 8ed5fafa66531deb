#pragma once

#include <stdexcept>
#include <string>

namespace memscope {

// The one family of errors core/ throws (issue 30: one error convention per boundary). What core
// throws for bad input, a failed read or write, a configuration it cannot run or a cancelled
// run derives from Error, and what() is one line ready to show a user (UTF-8): the GUI turns it
// into text once (models/error_text.h), the CLI prints it with fail(). Error itself is thrown as
// is for a failure no subclass names (a collective operation between ranks that failed).
//
// The subclasses: ConfigError (a field or option that cannot be used), InputError (input that
// does not have the form it should), RunCancelled, and in io/ FileError (a file that cannot be
// read or written, RunFileError the run files') and PickleError (a pickle that cannot be read).
//
// std::logic_error (not an Error) is for programming errors: a broken invariant or a call in the
// wrong order, never for what a user gave. std::bad_alloc stays what it is.
// scripts/check_errors.py holds this: core/ throws no other std:: type.
class Error : public std::runtime_error {
  public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace memscope

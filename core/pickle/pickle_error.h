#pragma once

#include "model/error.h"

#include <cstdint>
#include <string>

namespace memscope {

// A pickle (or the memory snapshot inside it) could not be read. what() is one line ready to
// show a user, naming the file, and for byte-level problems the offset and the opcode:
//   "run.pickle: unsupported pickle opcode GLOBAL (0x63) at offset 2"
//   "run.pickle: BINUNICODE (0x58) at offset 7: declared length 4294967295 runs past the end
//    of the file (12 bytes)"
//   "run.pickle: not a memory snapshot: the pickle holds an int"
// reason() is the part after the location, for callers that lay the message out themselves.
class PickleError : public Error {
  public:
    static constexpr int64_t kNoOffset = -1;
    static constexpr int kNoOpcode = -1;

    // A problem at a byte offset, inside the opcode that starts there (kNoOpcode: none, e.g.
    // the data ended before STOP).
    PickleError(const std::string& path, int64_t offset, int opcode, const std::string& opcode_name,
                const std::string& reason)
        : Error(compose(path, offset, opcode, opcode_name, reason)),
          m_path(path),
          m_offset(offset),
          m_opcode(opcode),
          m_reason(reason) {}

    // A problem with the file as a whole or with what the pickle holds.
    PickleError(const std::string& path, const std::string& reason)
        : PickleError(path, kNoOffset, kNoOpcode, {}, reason) {}

    // "PATH: unsupported pickle opcode GLOBAL (0x63) at offset N": the opcodes that build
    // arbitrary Python objects (GLOBAL, REDUCE, BUILD, ...), which memory_viz refuses too.
    static PickleError unsupportedOpcode(const std::string& path, int64_t offset, int opcode,
                                         const std::string& opcode_name) {
        const std::string reason =
            "unsupported pickle opcode " + describeOpcode(opcode, opcode_name);
        return PickleError(path + ": " + reason + " at offset " + std::to_string(offset), path,
                           offset, opcode, reason);
    }

    const std::string& path() const { return m_path; }
    int64_t offset() const { return m_offset; }
    int opcode() const { return m_opcode; }
    const std::string& reason() const { return m_reason; }

    // "NAME (0x63)"
    static std::string describeOpcode(int opcode, const std::string& name) {
        static const char* hex = "0123456789abcdef";
        std::string text = name.empty() ? std::string("opcode") : name;
        text += " (0x";
        text += hex[(opcode >> 4) & 0xf];
        text += hex[opcode & 0xf];
        text += ')';
        return text;
    }

  private:
    PickleError(const std::string& message, const std::string& path, int64_t offset, int opcode,
                const std::string& reason)
        : Error(message), m_path(path), m_offset(offset), m_opcode(opcode), m_reason(reason) {}

    static std::string compose(const std::string& path, int64_t offset, int opcode,
                               const std::string& opcode_name, const std::string& reason) {
        std::string text = path + ": ";
        if (offset == kNoOffset) {
            return text + reason;
        }
        if (opcode == kNoOpcode) {
            return text + "at offset " + std::to_string(offset) + ": " + reason;
        }
        return text + describeOpcode(opcode, opcode_name) + " at offset " + std::to_string(offset) +
               ": " + reason;
    }

    std::string m_path;
    int64_t m_offset;
    int m_opcode;
    std::string m_reason;
};

}  // namespace memscope

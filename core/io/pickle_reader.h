#pragma once

// Reads Python pickles of plain data (protocols 0 to 5, as written by Python's pickle module and
// by PyTorch's C++ snapshot writer) into a PickleValue tree.
//
// Supported: PROTO, FRAME, MARK, STOP, POP, POP_MARK, DUP, NONE, NEWTRUE, NEWFALSE, INT, LONG,
// BININT, BININT1, BININT2, LONG1, LONG4, FLOAT, BINFLOAT, SHORT_BINUNICODE, BINUNICODE,
// BINUNICODE8, SHORT_BINSTRING, BINSTRING, SHORT_BINBYTES, BINBYTES, BINBYTES8, BYTEARRAY8,
// EMPTY_DICT, EMPTY_LIST, EMPTY_TUPLE, DICT, LIST, TUPLE, TUPLE1-3, APPEND, APPENDS, SETITEM,
// SETITEMS, MEMOIZE, PUT, BINPUT, LONG_BINPUT, GET, BINGET, LONG_BINGET.
// Refused: everything that names or builds Python objects (GLOBAL, STACK_GLOBAL, REDUCE, BUILD,
// INST, OBJ, NEWOBJ, EXT1/2/4, PERSID, sets, out-of-band buffers): memory_viz refuses them too,
// and a reader that never constructs objects cannot be made to run code.
//
// Built for hostile input: every declared length is checked against the bytes left before
// anything is allocated for it, MARKs and container nesting are limited to kMaxDepth, integers
// to kMaxLongBytes bytes, a memo index that was never stored is an error, and a container is
// never changed after it was put inside another one (which rules out cycles, so values can be
// shared, walked and destroyed without cycle checks). Every failure is a PickleError naming the
// source, the byte offset and the opcode.

#include "io/pickle_error.h"
#include "io/pickle_value.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace memscope {

class PickleReader {
  public:
    // Deepest nesting of containers, and most MARKs open at once. PyTorch snapshots nest about
    // six deep; Python's own unpickler recurses no deeper than about 1000 either.
    static constexpr int kMaxDepth = 1000;
    // Widest integer (LONG4) accepted: 4096 bytes is about 9,900 decimal digits, beyond the
    // 4,300 digits Python itself converts to text by default.
    static constexpr size_t kMaxLongBytes = 4096;
    // Highest protocol understood.
    static constexpr int kMaxProtocol = 5;

    // source_name is what error messages call the data (usually the file path).
    explicit PickleReader(std::string source_name = "<memory>");

    // Parses one pickle from data[0, size). Bytes after STOP are ignored, as Python does.
    PickleValue parse(const void* data, size_t size);
    PickleValue parse(const std::vector<uint8_t>& bytes) {
        return parse(bytes.data(), bytes.size());
    }

    // Reads the whole file and parses it; PickleError (naming the path) when it cannot be read.
    static PickleValue readFile(const std::string& path);
    static std::vector<uint8_t> readBytes(const std::string& path);

    // Protocol named by the PROTO opcode of the last parse (0 when there was none).
    int protocol() const { return m_protocol; }

    // Name of an opcode byte ("BINUNICODE"), or nullptr for bytes that are not opcodes.
    static const char* opcodeName(int opcode);

  private:
    [[noreturn]] void fail(const std::string& reason) const;
    [[noreturn]] void failUnsupported() const;
    [[noreturn]] void failShort(size_t n) const;
    const uint8_t* take(size_t n) {
        if (n > m_size - m_pos) {
            failShort(n);
        }
        const uint8_t* p = m_data + m_pos;
        m_pos += n;
        return p;
    }
    const uint8_t* takeDeclared(uint64_t length);
    uint8_t readU8() { return *take(1); }
    uint16_t readU16();
    uint32_t readU32();
    uint64_t readU64();
    std::string readLine();

    size_t fence() const { return m_marks.empty() ? 0 : m_marks.back(); }
    void push(PickleValue value) { m_stack.push_back(std::move(value)); }
    PickleValue pop();
    PickleValue& top();
    size_t popMark();

    PickleValue makeText(const uint8_t* bytes, size_t n, bool is_bytes);
    PickleValue parseDecimal(const std::string& text);
    PickleValue makeSequence(size_t first, bool tuple);
    void checkChild(const PickleValue& child, int& depth) const {
        const int d = child.depth() + 1;
        if (d > depth) {
            if (d > kMaxDepth) {
                failDepth();
            }
            depth = d;
        }
    }
    [[noreturn]] void failDepth() const;
    void checkMutable(const PickleValue& container, const char* what) const;
    void appendItems(PickleValue& list, size_t first);
    void setItems(PickleValue& dict, size_t first);

    void memoPut(uint64_t index);
    void memoGet(uint64_t index);

    std::string m_source;
    const uint8_t* m_data = nullptr;
    size_t m_size = 0;
    size_t m_pos = 0;
    size_t m_opStart = 0;
    int m_opcode = -1;
    int m_protocol = 0;
    std::vector<PickleValue> m_stack;
    std::vector<size_t> m_marks;  // stack sizes at each open MARK
    // The memo, dense by index as Python's pickler writes it (0, 1, 2, ...); an index far beyond
    // the dense part goes to the sparse map, so LONG_BINPUT 4000000000 allocates nothing big.
    std::vector<PickleValue> m_memo;
    std::vector<uint8_t> m_memoSet;
    std::unordered_map<uint64_t, PickleValue> m_sparseMemo;
    size_t m_memoCount = 0;  // distinct indices stored: where MEMOIZE puts the next one
};

}  // namespace memscope

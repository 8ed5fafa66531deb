#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace memscope {

// Streams a Python pickle of plain data (dict, list, tuple, str, int, float, bool, None) to an
// ostream, in protocol 2 or 4, using only opcodes that both Python's pickle module and
// pytorch.org/memory_viz's own JavaScript unpickler understand: never GLOBAL/REDUCE, never
// BINUNICODE8 or MEMOIZE-only tricks. Protocol 4 output is cut into FRAMEs of about 64 KiB at
// opcode boundaries, as Python's pickler does.
//
// Values are written in document order: begin a container, write its items (for a dict: key,
// value, key, value, ...), end it. Items are batched by 1000 (MARK ... APPENDS / SETITEMS) like
// Python does; memory_viz spreads a batch into a JavaScript call, which fails on huge batches.
//
// Sharing: memoize() right after a value is complete stores it in the pickle memo and returns
// its id; get(id) writes a reference to it, so a frame list used by a million events is written
// once. The unpickled objects are then shared (the same Python object), as in PyTorch's files.
class PickleWriter {
  public:
    // Writes the PROTO opcode. protocol must be 2 or 4 (throws InputError otherwise).
    PickleWriter(std::ostream& out, int protocol);
    ~PickleWriter();
    PickleWriter(const PickleWriter&) = delete;
    PickleWriter& operator=(const PickleWriter&) = delete;

    int protocol() const { return m_protocol; }

    void none();
    void boolean(bool value);
    void integer(int64_t value);
    void unsignedInteger(uint64_t value);
    void real(double value);
    void string(std::string_view value);
    // A string that is likely to repeat (dict keys, enum-like values): written once, then
    // referenced from the memo. The first kInternedIds of them get memo ids below 256, whose
    // references take two bytes instead of five however many lists were memoized before.
    void internedString(std::string_view value);
    static constexpr uint32_t kInternedIds = 128;

    void beginDict();
    void endDict();
    void beginList();
    void endList();
    void beginTuple();
    void endTuple();

    // Stores the value just completed in the memo; returns its id for get().
    uint32_t memoize();
    void get(uint32_t memo_id);

    // Writes STOP and flushes. Every container must be closed. Throws std::logic_error if not.
    void finish();

    // Bytes handed to the stream so far.
    uint64_t bytesWritten() const { return m_written; }

  private:
    enum class Container : uint8_t { List, Dict, Tuple };
    struct Open {
        Container kind;
        uint32_t pending = 0;  // items since the last MARK (lists and dicts only)
    };

    void beforeItem();
    void flushBatch(Open& open);
    void op(uint8_t opcode);
    void bytes(const void* data, size_t n);
    void commitFrameIfFull();
    void commitFrame();

    std::ostream& m_out;
    int m_protocol;
    std::string m_frame;  // current frame (protocol 4) or write buffer (protocol 2)
    std::vector<Open> m_open;
    void put(uint32_t id);
    uint32_t m_nextMemo = kInternedIds;  // memoize(); ids below are internedString()'s
    uint32_t m_nextInterned = 0;
    std::map<std::string, uint32_t, std::less<>> m_strings;  // finds by string_view
    uint64_t m_written = 0;
    bool m_finished = false;
};

}  // namespace memscope

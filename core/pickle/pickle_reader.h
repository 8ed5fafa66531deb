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

#include "pickle/pickle_error.h"
#include "pickle/pickle_memo.h"
#include "pickle/pickle_value.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace memscope {

// Streaming: receives the items of chosen lists as they are parsed, so that a list of millions
// of entries (a snapshot's device trace) never exists as one tree. The list itself stays in the
// tree, empty.
class PickleListSink {
  public:
    virtual ~PickleListSink() = default;
    // Asked once for each new list, with the reader's stack below it (the containers being
    // built and the keys leading to them; stack[0, size)). A tag >= 0 streams the list's items
    // to item(); -1 builds it as usual.
    virtual int streamList(const std::vector<PickleValue>& stack, size_t size) = 0;
    // One complete item of a streamed list, in order. It counts as inside the list (sealed); a
    // later memo reference to it (which PyTorch's files never make) is a PickleError.
    virtual void item(int tag, PickleValue&& value) = 0;
    // Whether the sink takes an item that is a flat dict through dictItem() instead: the
    // reader's fast path for trace entries (issue 52). Such a dict (keys that are memoized
    // strings, values that are numbers, None, bools or memo references, at most
    // PickleReader::kMaxDictItemPairs of them, no key twice) is read straight from the bytes
    // into pairs, and no dict is built for it; any other item still comes through item().
    virtual bool takesDictItems() const { return false; }
    // One such item, in the same order as item() would have had it: pairs[0, n) are its keys
    // and values in the file's order, each value sealed as if it were inside the dict.
    virtual void dictItem(int tag, const std::pair<PickleValue, PickleValue>* pairs, size_t n) {
        (void)tag, (void)pairs, (void)n;
    }
};

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
    // Most keys of a dict item read on the fast path (PickleListSink::dictItem); a trace entry
    // has 6 to 9.
    static constexpr size_t kMaxDictItemPairs = 16;

    // source_name is what error messages call the data (usually the file path).
    explicit PickleReader(std::string source_name = "<memory>");

    // Parses one pickle from data[0, size). Bytes after STOP are ignored, as Python does.
    // With a sink, the lists it chooses are streamed to it (see PickleListSink).
    PickleValue parse(const void* data, size_t size, PickleListSink* sink = nullptr);
    PickleValue parse(const std::vector<uint8_t>& bytes, PickleListSink* sink = nullptr) {
        return parse(bytes.data(), bytes.size(), sink);
    }
    // Parses the file at path, read in buffered chunks of kChunkBytes (never the whole file at
    // once; a string longer than a chunk is read whole). PickleError naming the path when it
    // cannot be read.
    PickleValue parseFile(const std::string& path, PickleListSink* sink = nullptr);
    static constexpr size_t kChunkBytes = size_t(1) << 20;

    // Progress and cancellation of parseFile, both looked at only when the next chunk of the
    // file is read (about once per kChunkBytes, so nothing per opcode).
    struct FileOptions {
        // Called on the parsing thread with the bytes consumed so far (never decreasing) and the
        // file's size (0 when it is not known); once more with (size, size) after STOP.
        std::function<void(uint64_t bytes, uint64_t size)> progress;
        // When set (by any thread), parsing stops at the next chunk and throws RunFileCancelled
        // naming the path; the partial tree, memo and buffer are freed as the exception leaves.
        const std::atomic<bool>* cancel = nullptr;
        // When set, a PickleError (a file cut short or damaged) first leaves here the top-level
        // value as far as it was read (issue 52): the bottom of the stack, with the key/value
        // pairs read above its open MARK set into it when it is a dict (Python's pickler sets
        // a dict's items at the end of each batch of 1000), or the values appended when it is
        // a list. Streamed items handed to the sink before the damage stay handed. None when
        // nothing was read.
        PickleValue* salvage = nullptr;
    };
    PickleValue parseFile(const std::string& path, PickleListSink* sink,
                          const FileOptions& options);

    // Reads and parses a file (parseFile with the path as the source name).
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
            refill(n);
        }
        const uint8_t* p = m_data + m_pos;
        m_pos += n;
        return p;
    }
    const uint8_t* takeDeclared(uint64_t length);
    // Makes n bytes from m_pos available (reading the file) or fails; more() reads at least
    // one more byte, false at the end of the data.
    void refill(size_t n);
    bool more();
    // Bytes left in the data after m_pos (the file's size when streaming from one).
    uint64_t bytesLeft() const;
    PickleValue run();
    PickleValue salvaged();
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

    // Streaming (see PickleListSink).
    int streamedTag(const PickleValue& list) const;
    void newList(PickleValue list, size_t below);
    bool topIsStreamedItem() const;
    void flushStreamed();
    void handOver(int tag, size_t first);
    // The fast path for a dict item of a streamed list, at the byte after its EMPTY_DICT: true
    // when the dict was read and handed to the sink, false (nothing consumed, nothing changed)
    // when the general path must read it.
    bool readDictItem(int tag);
    bool scanMemoRef(size_t& p, PickleValue& out) const;
    bool scanValue(size_t& p, PickleValue& out) const;

    std::string m_source;
    // The bytes: all of them (parse) or a window of the file (parseFile), which starts at
    // offset m_base of the data. m_pos and m_size index the window; offsets in messages are
    // m_base + position.
    const uint8_t* m_data = nullptr;
    size_t m_size = 0;
    size_t m_pos = 0;
    uint64_t m_base = 0;
    size_t m_opStart = 0;  // offset in the data
    std::FILE* m_file = nullptr;
    uint64_t m_fileSize = 0;  // at open; UINT64_MAX when unknown
    bool m_eof = false;
    // A FRAME that declares more bytes than the file has (a file cut inside a frame): its
    // offset, or -1. Reading goes on up to the cut, and the error there says so.
    int64_t m_cutFrame = -1;
    uint64_t m_cutFrameLength = 0;
    const FileOptions* m_fileOptions = nullptr;  // during parseFile
    std::vector<uint8_t> m_buffer;
    PickleListSink* m_sink = nullptr;
    bool m_dictItems = false;  // m_sink takes dict items (PickleListSink::takesDictItems)
    std::pair<PickleValue, PickleValue> m_dictPairs[kMaxDictItemPairs];  // readDictItem's
    std::vector<std::pair<const void*, int>> m_streamed;                 // list node -> tag
    std::vector<int> m_markTags;  // per open MARK: the tag of the streamed list under it, or -1
    std::vector<uint64_t> m_itemMemo;  // memo indices of streamed items not yet handed over
    int m_opcode = -1;
    int m_protocol = 0;
    std::vector<PickleValue> m_stack;
    std::vector<size_t> m_marks;  // stack sizes at each open MARK
    PickleMemo m_memo;
};

}  // namespace memscope

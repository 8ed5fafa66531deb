#include "pickle/pickle_writer.h"

#include "model/input_error.h"

#include <cstring>
#include <stdexcept>

namespace memscope {

namespace {

// Opcodes (Python's Lib/pickle.py names). Only these are ever written.
constexpr uint8_t kProto = 0x80;
constexpr uint8_t kFrame = 0x95;
constexpr uint8_t kStop = '.';
constexpr uint8_t kMark = '(';
constexpr uint8_t kNone = 'N';
constexpr uint8_t kNewTrue = 0x88;
constexpr uint8_t kNewFalse = 0x89;
constexpr uint8_t kBinInt = 'J';
constexpr uint8_t kBinInt1 = 'K';
constexpr uint8_t kBinInt2 = 'M';
constexpr uint8_t kLong1 = 0x8a;
constexpr uint8_t kBinFloat = 'G';
constexpr uint8_t kShortBinUnicode = 0x8c;  // protocol 4
constexpr uint8_t kBinUnicode = 'X';
constexpr uint8_t kEmptyDict = '}';
constexpr uint8_t kEmptyList = ']';
constexpr uint8_t kTuple = 't';
constexpr uint8_t kAppends = 'e';
constexpr uint8_t kSetItems = 'u';
constexpr uint8_t kBinPut = 'q';
constexpr uint8_t kLongBinPut = 'r';
constexpr uint8_t kBinGet = 'h';
constexpr uint8_t kLongBinGet = 'j';

// Python's pickler: frames of about 64 KiB, batches of 1000 items.
constexpr size_t kFrameTarget = 64 * 1024;
constexpr uint32_t kBatch = 1000;

void putLe32(std::string& s, uint32_t v) {
    for (int i = 0; i < 4; ++i) {
        s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
}

}  // namespace

PickleWriter::PickleWriter(std::ostream& out, int protocol) : m_out(out), m_protocol(protocol) {
    if (protocol != 2 && protocol != 4) {
        throw InputError("pickle protocol must be 2 or 4, not " + std::to_string(protocol));
    }
    // PROTO stands before the first frame, as Python writes it.
    const char proto[2] = {static_cast<char>(kProto), static_cast<char>(protocol)};
    m_out.write(proto, 2);
    m_written += 2;
    m_frame.reserve(kFrameTarget + 1024);
}

PickleWriter::~PickleWriter() = default;

void PickleWriter::op(uint8_t opcode) {
    m_frame.push_back(static_cast<char>(opcode));
}

void PickleWriter::bytes(const void* data, size_t n) {
    m_frame.append(static_cast<const char*>(data), n);
}

void PickleWriter::commitFrame() {
    if (m_frame.empty()) {
        return;
    }
    if (m_protocol >= 4) {
        std::string header;
        header.push_back(static_cast<char>(kFrame));
        uint64_t n = m_frame.size();
        for (int i = 0; i < 8; ++i) {
            header.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
        }
        m_out.write(header.data(), static_cast<std::streamsize>(header.size()));
        m_written += header.size();
    }
    m_out.write(m_frame.data(), static_cast<std::streamsize>(m_frame.size()));
    m_written += m_frame.size();
    m_frame.clear();
}

// Called before every opcode sequence that starts a value or closes a batch, so no opcode ever
// straddles two frames (Python's unpickler refuses that).
void PickleWriter::commitFrameIfFull() {
    if (m_frame.size() >= kFrameTarget) {
        commitFrame();
    }
}

void PickleWriter::flushBatch(Open& open) {
    if (open.pending == 0) {
        return;
    }
    op(open.kind == Container::Dict ? kSetItems : kAppends);
    open.pending = 0;
}

// Bookkeeping for the container the next value goes into: close a full batch, open a new one.
void PickleWriter::beforeItem() {
    commitFrameIfFull();
    if (m_finished) {
        throw std::logic_error("PickleWriter: value written after finish()");
    }
    if (m_open.empty()) {
        return;
    }
    Open& top = m_open.back();
    if (top.kind == Container::Tuple) {
        return;  // a tuple's MARK was written by beginTuple()
    }
    const uint32_t limit = top.kind == Container::Dict ? 2 * kBatch : kBatch;
    if (top.pending == limit) {
        flushBatch(top);
    }
    if (top.pending == 0) {
        op(kMark);
    }
    ++top.pending;
}

void PickleWriter::none() {
    beforeItem();
    op(kNone);
}

void PickleWriter::boolean(bool value) {
    beforeItem();
    op(value ? kNewTrue : kNewFalse);
}

void PickleWriter::integer(int64_t value) {
    beforeItem();
    if (value >= 0 && value < 256) {
        op(kBinInt1);
        m_frame.push_back(static_cast<char>(value));
    } else if (value >= 0 && value < 65536) {
        op(kBinInt2);
        m_frame.push_back(static_cast<char>(value & 0xff));
        m_frame.push_back(static_cast<char>((value >> 8) & 0xff));
    } else if (value >= INT32_MIN && value <= INT32_MAX) {
        op(kBinInt);
        putLe32(m_frame, static_cast<uint32_t>(static_cast<int32_t>(value)));
    } else {
        // LONG1: the shortest little-endian two's complement that keeps the sign.
        unsigned char buf[8];
        const uint64_t u = static_cast<uint64_t>(value);
        for (int i = 0; i < 8; ++i) {
            buf[i] = static_cast<unsigned char>((u >> (8 * i)) & 0xff);
        }
        int n = 8;
        while (n > 1) {
            const unsigned char top = buf[n - 1];
            const unsigned char next_sign = buf[n - 2] & 0x80;
            if ((top == 0x00 && next_sign == 0) || (top == 0xff && next_sign != 0)) {
                --n;
            } else {
                break;
            }
        }
        op(kLong1);
        m_frame.push_back(static_cast<char>(n));
        bytes(buf, static_cast<size_t>(n));
    }
}

void PickleWriter::unsignedInteger(uint64_t value) {
    if (value <= static_cast<uint64_t>(INT64_MAX)) {
        integer(static_cast<int64_t>(value));
        return;
    }
    // 2^63 and above: nine bytes, the last a zero sign byte.
    beforeItem();
    op(kLong1);
    m_frame.push_back(9);
    for (int i = 0; i < 8; ++i) {
        m_frame.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
    }
    m_frame.push_back(0);
}

void PickleWriter::real(double value) {
    beforeItem();
    op(kBinFloat);
    uint64_t bits;
    std::memcpy(&bits, &value, 8);
    for (int i = 7; i >= 0; --i) {  // big-endian
        m_frame.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
    }
}

void PickleWriter::string(std::string_view value) {
    beforeItem();
    if (m_protocol >= 4 && value.size() < 256) {
        op(kShortBinUnicode);
        m_frame.push_back(static_cast<char>(value.size()));
    } else {
        if (value.size() > UINT32_MAX) {
            throw InputError("PickleWriter: string longer than 4 GiB");
        }
        op(kBinUnicode);
        putLe32(m_frame, static_cast<uint32_t>(value.size()));
    }
    bytes(value.data(), value.size());
}

void PickleWriter::internedString(std::string_view value) {
    if (auto it = m_strings.find(value); it != m_strings.end()) {
        get(it->second);
        return;
    }
    string(value);
    const uint32_t id = m_nextInterned < kInternedIds ? m_nextInterned++ : m_nextMemo++;
    put(id);
    m_strings.emplace(std::string(value), id);
}

void PickleWriter::beginDict() {
    beforeItem();
    op(kEmptyDict);
    m_open.push_back({Container::Dict, 0});
}

void PickleWriter::endDict() {
    if (m_open.empty() || m_open.back().kind != Container::Dict) {
        throw std::logic_error("PickleWriter: endDict() without beginDict()");
    }
    if (m_open.back().pending % 2 != 0) {
        throw std::logic_error("PickleWriter: dict key without a value");
    }
    commitFrameIfFull();
    flushBatch(m_open.back());
    m_open.pop_back();
}

void PickleWriter::beginList() {
    beforeItem();
    op(kEmptyList);
    m_open.push_back({Container::List, 0});
}

void PickleWriter::endList() {
    if (m_open.empty() || m_open.back().kind != Container::List) {
        throw std::logic_error("PickleWriter: endList() without beginList()");
    }
    commitFrameIfFull();
    flushBatch(m_open.back());
    m_open.pop_back();
}

void PickleWriter::beginTuple() {
    beforeItem();
    op(kMark);
    m_open.push_back({Container::Tuple, 0});
}

void PickleWriter::endTuple() {
    if (m_open.empty() || m_open.back().kind != Container::Tuple) {
        throw std::logic_error("PickleWriter: endTuple() without beginTuple()");
    }
    commitFrameIfFull();
    op(kTuple);
    m_open.pop_back();
}

// Memo ids need not be dense: Python's memo is a dict, memory_viz's a JavaScript array.
void PickleWriter::put(uint32_t id) {
    if (id < 256) {
        op(kBinPut);
        m_frame.push_back(static_cast<char>(id));
    } else {
        op(kLongBinPut);
        putLe32(m_frame, id);
    }
}

uint32_t PickleWriter::memoize() {
    const uint32_t id = m_nextMemo++;
    put(id);
    return id;
}

void PickleWriter::get(uint32_t memo_id) {
    if (memo_id >= m_nextMemo || (memo_id < kInternedIds && memo_id >= m_nextInterned)) {
        throw std::logic_error("PickleWriter: get() of a memo id never stored");
    }
    beforeItem();
    if (memo_id < 256) {
        op(kBinGet);
        m_frame.push_back(static_cast<char>(memo_id));
    } else {
        op(kLongBinGet);
        putLe32(m_frame, memo_id);
    }
}

void PickleWriter::finish() {
    if (m_finished) {
        return;
    }
    if (!m_open.empty()) {
        throw std::logic_error("PickleWriter: finish() with a container still open");
    }
    commitFrameIfFull();
    op(kStop);
    commitFrame();
    m_out.flush();
    m_finished = true;
}

}  // namespace memscope

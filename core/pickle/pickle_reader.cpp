#include "pickle/pickle_reader.h"

#include "io/run_file_cancelled.h"
#include "pickle/pickle_opcodes.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace memscope {

namespace {

using namespace pickle_opcodes;

// UTF-8 as Python's pickle writes it: well-formed sequences, plus encoded surrogates
// (U+D800..U+DFFF), which Python writes and reads with "surrogatepass".
bool validUtf8(const uint8_t* p, size_t n) {
    size_t i = 0;
    while (i < n) {
        // Skip ASCII eight bytes at a time: almost all snapshot text is ASCII.
        while (i + 8 <= n) {
            uint64_t word;
            std::memcpy(&word, p + i, 8);
            if (word & 0x8080808080808080ULL) {
                break;
            }
            i += 8;
        }
        if (i >= n) {
            break;
        }
        const uint8_t c = p[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        size_t len;
        uint32_t cp;
        if (c >= 0xc2 && c <= 0xdf) {
            len = 2, cp = c & 0x1f;
        } else if (c >= 0xe0 && c <= 0xef) {
            len = 3, cp = c & 0x0f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4, cp = c & 0x07;
        } else {
            return false;
        }
        if (i + len > n) {
            return false;
        }
        for (size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xc0) != 0x80) {
                return false;
            }
            cp = (cp << 6) | (p[i + k] & 0x3f);
        }
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
            return false;  // overlong or beyond Unicode
        }
        i += len;
    }
    return true;
}

}  // namespace

uint64_t PickleReader::bytesLeft() const {
    if (!m_file) {
        return m_size - m_pos;
    }
    if (m_fileSize == UINT64_MAX) {
        return UINT64_MAX;
    }
    const uint64_t at = m_base + m_pos;
    return at < m_fileSize ? m_fileSize - at : uint64_t(m_size - m_pos);
}

const uint8_t* PickleReader::takeDeclared(uint64_t length) {
    if (length > bytesLeft()) {
        fail("declared length " + std::to_string(length) + " runs past the end of the file (" +
             std::to_string(m_file ? m_fileSize : m_size) + " bytes)");
    }
    return take(static_cast<size_t>(length));
}

bool PickleReader::more() {
    if (!m_file || m_eof) {
        return false;
    }
    if (m_fileOptions) {
        if (m_fileOptions->cancel && m_fileOptions->cancel->load(std::memory_order_relaxed)) {
            throw RunFileCancelled(m_source);
        }
        if (m_fileOptions->progress) {
            m_fileOptions->progress(m_base + m_pos, m_fileSize == UINT64_MAX ? 0 : m_fileSize);
        }
    }
    const size_t have = m_size - m_pos;
    // Keep what is unread, at the front of the buffer, and fill the rest from the file.
    if (m_pos > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_pos, have);
        m_base += m_pos;
        m_size = have;
        m_pos = 0;
    }
    if (m_buffer.size() - m_size < kChunkBytes / 2) {
        m_buffer.resize(std::max(m_buffer.size() * 2, m_size + kChunkBytes));
    }
    m_data = m_buffer.data();
    const size_t got = std::fread(m_buffer.data() + m_size, 1, m_buffer.size() - m_size, m_file);
    if (got == 0) {
        if (std::ferror(m_file)) {
            m_opStart = m_base + m_pos;
            m_opcode = -1;
            fail(std::string("cannot read: ") + std::strerror(errno));
        }
        m_eof = true;
        return false;
    }
    m_size += got;
    return true;
}

void PickleReader::refill(size_t n) {
    // Only reached when the window holds fewer than n bytes. A declared length was checked
    // against the file's size already, so the buffer never grows past the file.
    while (n > m_size - m_pos) {
        if (!more()) {
            failShort(n);
        }
    }
}

uint16_t PickleReader::readU16() {
    const uint8_t* p = take(2);
    return static_cast<uint16_t>(p[0] | (p[1] << 8));
}

uint32_t PickleReader::readU32() {
    const uint8_t* p = take(4);
    return uint32_t(p[0]) | (uint32_t(p[1]) << 8) | (uint32_t(p[2]) << 16) | (uint32_t(p[3]) << 24);
}

uint64_t PickleReader::readU64() {
    const uint8_t* p = take(8);
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) {
        v = (v << 8) | p[i];
    }
    return v;
}

std::string PickleReader::readLine() {
    const void* nl = std::memchr(m_data + m_pos, '\n', m_size - m_pos);
    while (!nl) {
        const size_t searched = m_size - m_pos;
        if (!more()) {
            fail("the line argument has no end of line before the end of the file");
        }
        nl = std::memchr(m_data + m_pos + searched, '\n', m_size - m_pos - searched);
    }
    const size_t n = static_cast<size_t>(static_cast<const uint8_t*>(nl) - (m_data + m_pos));
    std::string line(reinterpret_cast<const char*>(m_data + m_pos), n);
    m_pos += n + 1;
    if (!line.empty() && line.back() == '\r') {
        line.pop_back();
    }
    return line;
}

PickleValue PickleReader::pop() {
    if (m_stack.size() <= fence()) {
        fail("the stack is empty");
    }
    PickleValue v = std::move(m_stack.back());
    m_stack.pop_back();
    return v;
}

PickleValue& PickleReader::top() {
    if (m_stack.size() <= fence()) {
        fail("the stack is empty");
    }
    return m_stack.back();
}

size_t PickleReader::popMark() {
    if (m_marks.empty()) {
        fail("no MARK is open");
    }
    const size_t k = m_marks.back();
    m_marks.pop_back();
    m_markTags.pop_back();
    return k;
}

int PickleReader::streamedTag(const PickleValue& list) const {
    if (!list.isList()) {
        return -1;
    }
    for (const auto& [node, tag] : m_streamed) {
        if (node == list.node()) {
            return tag;
        }
    }
    return -1;
}

void PickleReader::newList(PickleValue list, size_t below) {
    if (m_sink) {
        if (const int tag = m_sink->streamList(m_stack, below); tag >= 0) {
            m_streamed.emplace_back(list.node(), tag);
        }
    }
    push(std::move(list));
}

// Whether the value on top of the stack is an item of a streamed list: right above the list,
// or above the MARK opened over it.
bool PickleReader::topIsStreamedItem() const {
    if (m_streamed.empty() || m_stack.empty()) {
        return false;
    }
    if (!m_markTags.empty() && m_markTags.back() >= 0 && m_stack.size() > m_marks.back()) {
        return true;
    }
    return m_stack.size() >= 2 && m_stack.size() - 2 >= fence() &&
           streamedTag(m_stack[m_stack.size() - 2]) >= 0;
}

// A new item begins above a streamed list's MARK: the ones before it are complete. Unless a
// list is on top: the new value may be its one item (Python appends a single item with APPEND,
// without a MARK), as in a streamed list of lists (a nested host_traces); then nothing is
// handed over before the list's APPENDS.
void PickleReader::flushStreamed() {
    if (!m_markTags.empty() && m_markTags.back() >= 0 && m_stack.size() > m_marks.back() &&
        !m_stack.back().isList()) {
        handOver(m_markTags.back(), m_marks.back());
    }
}

// Gives m_stack[first, end) to the sink as items of the streamed list `tag`, and forgets the
// memo's references to them, so that each is freed once the sink is done with it.
void PickleReader::handOver(int tag, size_t first) {
    for (size_t i = first; i < m_stack.size(); ++i) {
        if (m_stack[i].depth() + 1 > kMaxDepth) {
            failDepth();
        }
        m_stack[i].seal();
        if (m_stack[i].isList()) {
            // A streamed list that is itself an item (a nested host_traces): once handed over
            // it may be freed, and its node reused by a list that is not streamed.
            const void* node = m_stack[i].node();
            m_streamed.erase(std::remove_if(m_streamed.begin(), m_streamed.end(),
                                            [node](const auto& s) { return s.first == node; }),
                             m_streamed.end());
        }
        m_sink->item(tag, std::move(m_stack[i]));
    }
    m_stack.resize(first);
    for (const uint64_t index : m_itemMemo) {
        m_memo.markStreamed(index);
    }
    m_itemMemo.clear();
}

bool PickleReader::scanMemoRef(size_t& p, PickleValue& out) const {
    uint64_t index;
    if (m_data[p] == BINGET && m_size - p >= 2) {
        index = m_data[p + 1];
        p += 2;
    } else if (m_data[p] == LONG_BINGET && m_size - p >= 5) {
        const uint8_t* b = m_data + p + 1;
        index = uint32_t(b[0]) | (uint32_t(b[1]) << 8) | (uint32_t(b[2]) << 16) |
                (uint32_t(b[3]) << 24);
        p += 5;
    } else {
        return false;
    }
    bool streamed = false;
    const PickleValue* value = m_memo.get(index, &streamed);
    if (!value) {
        return false;  // the general path names the error
    }
    // `out` is one of readDictItem's released pairs (no node): a copy without the assignment's
    // release of the old value.
    out.m_type = value->m_type;
    out.m_unsigned = value->m_unsigned;
    std::memcpy(&out.m_int, &value->m_int, sizeof out.m_int);
    out.retain();
    return true;
}

bool PickleReader::scanValue(size_t& p, PickleValue& out) const {
    const size_t left = m_size - p;
    const uint8_t* b = m_data + p;
    switch (b[0]) {
        case BININT1:
            if (left < 2) {
                return false;
            }
            out = PickleValue::fromInt(b[1]);
            p += 2;
            return true;
        case BININT2:
            if (left < 3) {
                return false;
            }
            out = PickleValue::fromInt(b[1] | (b[2] << 8));
            p += 3;
            return true;
        case BININT:
            if (left < 5) {
                return false;
            }
            out = PickleValue::fromInt(static_cast<int32_t>(uint32_t(b[1]) | (uint32_t(b[2]) << 8) |
                                                            (uint32_t(b[3]) << 16) |
                                                            (uint32_t(b[4]) << 24)));
            p += 5;
            return true;
        case LONG1: {
            if (left < 2 || left - 2 < b[1]) {
                return false;
            }
            const size_t n = b[1];
            if (n > 0 && n <= 8) {
                // Addresses and times: sign-extend the little-endian bytes here.
                uint64_t v = (b[2 + n - 1] & 0x80) ? ~uint64_t(0) : 0;
                for (size_t i = n; i-- > 0;) {
                    v = (v << 8) | b[2 + i];
                }
                out = PickleValue::fromInt(static_cast<int64_t>(v));
            } else {
                out = PickleValue::fromTwosComplement(b + 2, n);
            }
            p += 2 + n;
            return true;
        }
        case BINFLOAT: {
            if (left < 9) {
                return false;
            }
            uint64_t bits = 0;
            for (int i = 1; i <= 8; ++i) {
                bits = (bits << 8) | b[i];  // big-endian
            }
            double v;
            std::memcpy(&v, &bits, sizeof v);
            out = PickleValue::fromDouble(v);
            p += 9;
            return true;
        }
        case NONE:
            out = PickleValue();
            p += 1;
            return true;
        case NEWTRUE:
        case NEWFALSE:
            out = PickleValue::fromBool(b[0] == NEWTRUE);
            p += 1;
            return true;
        case BINGET:
        case LONG_BINGET:
            return scanMemoRef(p, out);
        default:
            return false;
    }
}

// A trace entry as Python's pickler writes it: EMPTY_DICT, its memo put, MARK, the keys (memo
// references to strings written once) and values (numbers, memo references to shared frame
// lists and strings), SETITEMS; then the next entry's EMPTY_DICT or the batch's APPENDS. Anything
// else (a string or frame list seen for the first time, a FRAME boundary inside the entry, the
// window's end) leaves it to the general path, which reads it the same way into a dict.
bool PickleReader::readDictItem(int tag) {
    // A usual entry is about 60 bytes: make sure the window holds a few KiB, so that it is
    // rarely cut (a cut entry takes the general path).
    constexpr size_t kWant = 4096;
    while (m_size - m_pos < kWant && more()) {
    }
    size_t p = m_pos;
    if (p >= m_size) {
        return false;
    }
    // The dict's own memo index.
    bool has_memo = true;
    uint64_t memo_index = 0;
    if (m_data[p] == MEMOIZE) {
        memo_index = m_memo.count();
        p += 1;
    } else if (m_data[p] == BINPUT && m_size - p >= 2) {
        memo_index = m_data[p + 1];
        p += 2;
    } else if (m_data[p] == LONG_BINPUT && m_size - p >= 5) {
        const uint8_t* b = m_data + p + 1;
        memo_index = uint32_t(b[0]) | (uint32_t(b[1]) << 8) | (uint32_t(b[2]) << 16) |
                     (uint32_t(b[3]) << 24);
        p += 5;
    } else {
        has_memo = false;
    }
    if (has_memo && !m_memo.dense(memo_index)) {
        return false;
    }
    if (p >= m_size) {
        return false;
    }
    const bool batch = m_data[p] == MARK;
    if (batch) {
        ++p;
    }
    // The pairs live in the reader (not zeroed per entry); whatever was put in them is
    // released however this returns.
    std::pair<PickleValue, PickleValue>* pairs = m_dictPairs;
    size_t n = 0;
    struct Release {
        std::pair<PickleValue, PickleValue>* pairs;
        const size_t& n;
        ~Release() {
            for (size_t i = 0; i <= n && i < kMaxDictItemPairs; ++i) {
                pairs[i].first.release();
                pairs[i].second.release();
            }
        }
    } release{pairs, n};
    size_t key_hash[kMaxDictItemPairs];
    for (;;) {
        if (p >= m_size) {
            return false;
        }
        if (batch && m_data[p] == SETITEMS) {
            ++p;
            break;
        }
        if (n == kMaxDictItemPairs || !scanMemoRef(p, pairs[n].first) ||
            !pairs[n].first.isString() || p >= m_size || !scanValue(p, pairs[n].second) ||
            pairs[n].second.depth() + 2 > kMaxDepth) {
            return false;
        }
        key_hash[n] = pairs[n].first.hash();
        ++n;
        if (!batch) {
            if (p >= m_size || m_data[p] != SETITEM) {
                return false;
            }
            ++p;
            break;
        }
    }
    // Nothing after it may change the dict: the next item, or the end of the batch.
    if (p >= m_size || (m_data[p] != EMPTY_DICT && m_data[p] != APPENDS)) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < i; ++j) {
            if (key_hash[i] == key_hash[j] && (pairs[i].first.node() == pairs[j].first.node() ||
                                               pairs[i].first == pairs[j].first)) {
                return false;  // a key given twice: the general path keeps the last value
            }
        }
    }
    m_pos = p;
    if (has_memo) {
        m_memo.markStreamed(memo_index);
    }
    for (size_t i = 0; i < n; ++i) {
        if (pairs[i].second.isContainer()) {
            pairs[i].second.seal();
        }
    }
    m_sink->dictItem(tag, pairs, n);
    return true;
}

PickleValue PickleReader::makeText(const uint8_t* bytes, size_t n, bool is_bytes) {
    std::string text(reinterpret_cast<const char*>(bytes), n);
    if (is_bytes) {
        return PickleValue::bytes(std::move(text));
    }
    if (!validUtf8(bytes, n)) {
        fail("the string is not valid UTF-8");
    }
    return PickleValue::string(std::move(text));
}

void PickleReader::checkMutable(const PickleValue& container, const char* what) const {
    if (container.sealed()) {
        fail(std::string("changes a ") + what +
             " that is already inside another container (recursive structures are not "
             "supported)");
    }
}

PickleValue PickleReader::makeSequence(size_t first, bool tuple) {
    PickleValue v = PickleValue::list();
    auto& node = *v.sequenceNode();
    node.items.reserve(m_stack.size() - first);
    for (size_t i = first; i < m_stack.size(); ++i) {
        checkChild(m_stack[i], node.depth);
        m_stack[i].seal();
        node.items.push_back(std::move(m_stack[i]));
    }
    m_stack.resize(first);
    if (tuple) {
        v.m_type = PickleValue::Type::Tuple;
        PickleValue::finishTuple(node);
    }
    return v;
}

void PickleReader::appendItems(PickleValue& list, size_t first) {
    if (!list.isList()) {
        fail(std::string("appends to a ") + list.typeName() + ", not a list");
    }
    checkMutable(list, "list");
    auto& node = *list.sequenceNode();
    const size_t needed = node.items.size() + (m_stack.size() - first);
    if (needed > node.items.capacity()) {
        // Geometric growth: Python appends in batches of 1000, and an exact reserve per batch
        // would copy a million-entry list a thousand times.
        node.items.reserve(std::max(needed, node.items.capacity() * 2));
    }
    for (size_t i = first; i < m_stack.size(); ++i) {
        if (m_stack[i].node() == list.node()) {
            fail("appends a list to itself (recursive structures are not supported)");
        }
        checkChild(m_stack[i], node.depth);
        m_stack[i].seal();
        node.items.push_back(std::move(m_stack[i]));
    }
    m_stack.resize(first);
}

void PickleReader::setItems(PickleValue& dict, size_t first) {
    if (!dict.isDict()) {
        fail(std::string("sets items on a ") + dict.typeName() + ", not a dict");
    }
    checkMutable(dict, "dict");
    if ((m_stack.size() - first) % 2 != 0) {
        fail("an odd number of values for key/value pairs");
    }
    auto& node = *dict.dictNode();
    const size_t needed = node.items.size() + (m_stack.size() - first) / 2;
    if (needed > node.items.capacity()) {
        node.items.reserve(std::max(needed, node.items.capacity() * 2));
    }
    for (size_t i = first; i < m_stack.size(); i += 2) {
        PickleValue& key = m_stack[i];
        PickleValue& value = m_stack[i + 1];
        if (value.node() == dict.node()) {
            fail("puts a dict into itself (recursive structures are not supported)");
        }
        if (!key.isHashable()) {
            fail(std::string("a dict key of type ") + key.typeName() + " is unhashable");
        }
        if (key.weight() > PickleValue::kMaxKeyWeight) {
            // Comparing keys walks them; shared tuples can make that exponential.
            fail("a tuple dict key holds more than " + std::to_string(PickleValue::kMaxKeyWeight) +
                 " values");
        }
        checkChild(key, node.depth);
        checkChild(value, node.depth);
        key.seal();
        value.seal();
        const size_t h = key.hash();
        PickleValue::insertItem(node, std::move(key), h, std::move(value));
    }
    m_stack.resize(first);
}

void PickleReader::memoPut(uint64_t index) {
    m_memo.put(index, top());
    if (topIsStreamedItem()) {
        m_itemMemo.push_back(index);
    }
}

void PickleReader::memoGet(uint64_t index) {
    bool streamed = false;
    if (const PickleValue* value = m_memo.get(index, &streamed)) {
        push(*value);
        return;
    }
    if (streamed) {
        fail("memo index " + std::to_string(index) +
             " refers to an item of a streamed list (a trace entry), which is not kept");
    }
    fail("memo index " + std::to_string(index) + " was never stored (the memo holds " +
         std::to_string(m_memo.count()) + " values)");
}

PickleValue PickleReader::run() {
    m_opcode = -1;
    m_protocol = 0;
    m_stack.clear();
    m_marks.clear();
    m_markTags.clear();
    m_memo.clear();
    m_streamed.clear();
    m_itemMemo.clear();
    m_dictItems = m_sink && m_sink->takesDictItems();
    m_cutFrame = -1;

    for (;;) {
        if (m_pos >= m_size && !more()) {
            m_opStart = m_base + m_pos;
            m_opcode = -1;
            fail(m_opStart == 0 ? "the file is empty" : "the pickle ends without STOP");
        }
        m_opStart = m_base + m_pos;
        m_opcode = m_data[m_pos++];
        switch (m_opcode) {
            case PROTO: {
                const int protocol = readU8();
                if (protocol > kMaxProtocol) {
                    fail("pickle protocol " + std::to_string(protocol) +
                         " is newer than this reader (it reads 0 to " +
                         std::to_string(kMaxProtocol) + ")");
                }
                m_protocol = protocol;
                break;
            }
            case FRAME:
                // Frames only group bytes. One that runs past the end of the file is a file
                // cut short: what it holds up to the cut is read, and the error at the cut
                // names the frame (fail()).
                if (const uint64_t length = readU64(); length > bytesLeft() && m_cutFrame < 0) {
                    m_cutFrame = static_cast<int64_t>(m_opStart);
                    m_cutFrameLength = length;
                }
                break;
            case MARK:
                if (m_marks.size() >= size_t(kMaxDepth)) {
                    fail("more than " + std::to_string(kMaxDepth) + " MARKs are open");
                }
                m_markTags.push_back(m_streamed.empty() || m_stack.size() <= fence()
                                         ? -1
                                         : streamedTag(m_stack.back()));
                m_marks.push_back(m_stack.size());
                break;
            case STOP: {
                if (m_cutFrame >= 0) {
                    // Python refuses a frame cut short too ("pickle exhausted before end of
                    // frame"), even when what is there ends with STOP.
                    fail("the pickle stops before its last frame ends");
                }
                if (!m_marks.empty()) {
                    fail(std::to_string(m_marks.size()) + " MARK(s) still open at STOP");
                }
                if (m_stack.size() != 1) {
                    fail("STOP with " + std::to_string(m_stack.size()) +
                         " values on the stack (expected 1)");
                }
                PickleValue result = std::move(m_stack.back());
                m_stack.clear();
                m_memo.clear();
                m_streamed.clear();
                return result;
            }
            case POP:
                if (m_stack.size() > fence()) {
                    m_stack.pop_back();
                } else {
                    m_stack.resize(popMark());  // Python: POP at a MARK discards the MARK
                }
                break;
            case POP_MARK:
                m_stack.resize(popMark());
                break;
            case DUP: {
                PickleValue copy = top();
                push(std::move(copy));
                break;
            }

            case NONE:
                push(PickleValue());
                break;
            case NEWTRUE:
                push(PickleValue::fromBool(true));
                break;
            case NEWFALSE:
                push(PickleValue::fromBool(false));
                break;
            case BININT:
                push(PickleValue::fromInt(static_cast<int32_t>(readU32())));
                break;
            case BININT1:
                push(PickleValue::fromInt(readU8()));
                break;
            case BININT2:
                push(PickleValue::fromInt(readU16()));
                break;
            case LONG1: {
                const size_t n = readU8();
                push(PickleValue::fromTwosComplement(takeDeclared(n), n));
                break;
            }
            case LONG4: {
                const int32_t n = static_cast<int32_t>(readU32());
                if (n < 0) {
                    fail("negative length " + std::to_string(n));
                }
                const uint8_t* bytes = takeDeclared(uint64_t(n));
                if (size_t(n) > kMaxLongBytes) {
                    fail("an integer of " + std::to_string(n) + " bytes is too wide (limit " +
                         std::to_string(kMaxLongBytes) + ")");
                }
                push(PickleValue::fromTwosComplement(bytes, size_t(n)));
                break;
            }
            case INT: {
                const std::string line = readLine();
                if (line == "01" || line == "00") {
                    push(PickleValue::fromBool(line == "01"));  // protocol 0's True/False
                } else {
                    push(parseDecimal(line));
                }
                break;
            }
            case LONG:
                push(parseDecimal(readLine()));
                break;
            case FLOAT: {
                const std::string line = readLine();
                double v = 0;
                const auto r = std::from_chars(line.data(), line.data() + line.size(), v);
                if (r.ec != std::errc() || r.ptr != line.data() + line.size()) {
                    fail("'" + line.substr(0, 40) + "' is not a float");
                }
                push(PickleValue::fromDouble(v));
                break;
            }
            case BINFLOAT: {
                const uint8_t* p = take(8);
                uint64_t bits = 0;
                for (int i = 0; i < 8; ++i) {
                    bits = (bits << 8) | p[i];  // big-endian, unlike every other number
                }
                double v;
                std::memcpy(&v, &bits, sizeof v);
                push(PickleValue::fromDouble(v));
                break;
            }

            case SHORT_BINUNICODE: {
                const size_t n = readU8();
                push(makeText(takeDeclared(n), n, false));
                break;
            }
            case BINUNICODE: {
                const size_t n = readU32();
                push(makeText(takeDeclared(n), n, false));
                break;
            }
            case BINUNICODE8: {
                const uint64_t n = readU64();
                push(makeText(takeDeclared(n), size_t(n), false));
                break;
            }
            case SHORT_BINSTRING:
            case BINSTRING: {
                // Python 2 str: text when it decodes, else keep the bytes.
                int64_t n =
                    m_opcode == SHORT_BINSTRING ? readU8() : static_cast<int32_t>(readU32());
                if (n < 0) {
                    fail("negative length " + std::to_string(n));
                }
                const uint8_t* p = takeDeclared(uint64_t(n));
                push(makeText(p, size_t(n), !validUtf8(p, size_t(n))));
                break;
            }
            case SHORT_BINBYTES: {
                const size_t n = readU8();
                push(makeText(takeDeclared(n), n, true));
                break;
            }
            case BINBYTES: {
                const size_t n = readU32();
                push(makeText(takeDeclared(n), n, true));
                break;
            }
            case BINBYTES8:
            case BYTEARRAY8: {
                const uint64_t n = readU64();
                push(makeText(takeDeclared(n), size_t(n), true));
                break;
            }

            case EMPTY_DICT:
                if (!m_streamed.empty()) {
                    flushStreamed();
                    // An item right above a streamed list's MARK (APPENDS batches, as
                    // Python's pickler writes every list of more than one item).
                    if (m_dictItems && !m_markTags.empty() && m_markTags.back() >= 0 &&
                        m_stack.size() == m_marks.back() && readDictItem(m_markTags.back())) {
                        break;
                    }
                }
                push(PickleValue::dict());
                break;
            case EMPTY_LIST:
                newList(PickleValue::list(), m_stack.size());
                break;
            case EMPTY_TUPLE:
                push(PickleValue::tuple());
                break;
            case LIST: {
                const size_t first = popMark();
                if (m_sink) {
                    if (const int tag = m_sink->streamList(m_stack, first); tag >= 0) {
                        PickleValue list = PickleValue::list();
                        handOver(tag, first);
                        m_streamed.emplace_back(list.node(), tag);
                        push(std::move(list));
                        break;
                    }
                }
                push(makeSequence(first, false));
                break;
            }
            case TUPLE:
                push(makeSequence(popMark(), true));
                break;
            case TUPLE1:
            case TUPLE2:
            case TUPLE3: {
                const size_t n = size_t(m_opcode - TUPLE1 + 1);
                if (m_stack.size() < fence() + n) {
                    fail("needs " + std::to_string(n) + " values on the stack");
                }
                push(makeSequence(m_stack.size() - n, true));
                break;
            }
            case DICT: {
                const size_t first = popMark();
                PickleValue dict = PickleValue::dict();
                setItems(dict, first);
                push(std::move(dict));
                break;
            }
            case APPEND: {
                if (m_stack.size() < fence() + 2) {
                    fail("needs a list and a value on the stack");
                }
                if (const int tag =
                        m_streamed.empty() ? -1 : streamedTag(m_stack[m_stack.size() - 2]);
                    tag >= 0) {
                    handOver(tag, m_stack.size() - 1);
                    break;
                }
                appendItems(m_stack[m_stack.size() - 2], m_stack.size() - 1);
                break;
            }
            case APPENDS: {
                const size_t first = popMark();
                if (first <= fence() || first == 0) {
                    fail("no list below the MARK");
                }
                if (const int tag = m_streamed.empty() ? -1 : streamedTag(m_stack[first - 1]);
                    tag >= 0) {
                    handOver(tag, first);
                    break;
                }
                appendItems(m_stack[first - 1], first);
                break;
            }
            case SETITEM: {
                if (m_stack.size() < fence() + 3) {
                    fail("needs a dict, a key and a value on the stack");
                }
                setItems(m_stack[m_stack.size() - 3], m_stack.size() - 2);
                break;
            }
            case SETITEMS: {
                const size_t first = popMark();
                if (first <= fence() || first == 0) {
                    fail("no dict below the MARK");
                }
                setItems(m_stack[first - 1], first);
                break;
            }

            case MEMOIZE:
                memoPut(m_memo.count());
                break;
            case BINPUT:
                memoPut(readU8());
                break;
            case LONG_BINPUT:
                memoPut(readU32());
                break;
            case PUT: {
                const PickleValue index = parseDecimal(readLine());
                const auto i = index.toUInt64();
                if (!i) {
                    fail("memo index " + index.toDecimal() + " is negative or too large");
                }
                memoPut(*i);
                break;
            }
            case BINGET:
                memoGet(readU8());
                break;
            case LONG_BINGET:
                memoGet(readU32());
                break;
            case GET: {
                const PickleValue index = parseDecimal(readLine());
                const auto i = index.toUInt64();
                if (!i) {
                    fail("memo index " + index.toDecimal() + " is negative or too large");
                }
                memoGet(*i);
                break;
            }

            default:
                if (opcodeName(m_opcode)) {
                    failUnsupported();
                }
                fail("not a pickle opcode");
        }
    }
}

}  // namespace memscope

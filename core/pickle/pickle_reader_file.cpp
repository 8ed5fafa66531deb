// PickleReader, its colder part: the entry points (a buffer, a file read in chunks, a whole
// file), the salvage of a cut file, and the errors with the opcode names they give. The opcodes'
// reading and the window's refill, the hot path, are in pickle_reader.cpp.

#include "pickle/pickle_reader.h"

#include "pickle/pickle_opcodes.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace memscope {

namespace {

using namespace pickle_opcodes;

struct OpcodeNames {
    const char* names[256] = {};
    OpcodeNames() {
        const std::pair<uint8_t, const char*> all[] = {
            {MARK, "MARK"},
            {STOP, "STOP"},
            {POP, "POP"},
            {POP_MARK, "POP_MARK"},
            {DUP, "DUP"},
            {FLOAT, "FLOAT"},
            {INT, "INT"},
            {BININT, "BININT"},
            {BININT1, "BININT1"},
            {LONG, "LONG"},
            {BININT2, "BININT2"},
            {NONE, "NONE"},
            {PERSID, "PERSID"},
            {BINPERSID, "BINPERSID"},
            {REDUCE, "REDUCE"},
            {STRING, "STRING"},
            {BINSTRING, "BINSTRING"},
            {SHORT_BINSTRING, "SHORT_BINSTRING"},
            {UNICODE, "UNICODE"},
            {BINUNICODE, "BINUNICODE"},
            {APPEND, "APPEND"},
            {BUILD, "BUILD"},
            {GLOBAL, "GLOBAL"},
            {DICT, "DICT"},
            {EMPTY_DICT, "EMPTY_DICT"},
            {APPENDS, "APPENDS"},
            {GET, "GET"},
            {BINGET, "BINGET"},
            {INST, "INST"},
            {LONG_BINGET, "LONG_BINGET"},
            {LIST, "LIST"},
            {EMPTY_LIST, "EMPTY_LIST"},
            {OBJ, "OBJ"},
            {PUT, "PUT"},
            {BINPUT, "BINPUT"},
            {LONG_BINPUT, "LONG_BINPUT"},
            {SETITEM, "SETITEM"},
            {TUPLE, "TUPLE"},
            {EMPTY_TUPLE, "EMPTY_TUPLE"},
            {SETITEMS, "SETITEMS"},
            {BINFLOAT, "BINFLOAT"},
            {PROTO, "PROTO"},
            {NEWOBJ, "NEWOBJ"},
            {EXT1, "EXT1"},
            {EXT2, "EXT2"},
            {EXT4, "EXT4"},
            {TUPLE1, "TUPLE1"},
            {TUPLE2, "TUPLE2"},
            {TUPLE3, "TUPLE3"},
            {NEWTRUE, "NEWTRUE"},
            {NEWFALSE, "NEWFALSE"},
            {LONG1, "LONG1"},
            {LONG4, "LONG4"},
            {BINBYTES, "BINBYTES"},
            {SHORT_BINBYTES, "SHORT_BINBYTES"},
            {SHORT_BINUNICODE, "SHORT_BINUNICODE"},
            {BINUNICODE8, "BINUNICODE8"},
            {BINBYTES8, "BINBYTES8"},
            {EMPTY_SET, "EMPTY_SET"},
            {ADDITEMS, "ADDITEMS"},
            {FROZENSET, "FROZENSET"},
            {NEWOBJ_EX, "NEWOBJ_EX"},
            {STACK_GLOBAL, "STACK_GLOBAL"},
            {MEMOIZE, "MEMOIZE"},
            {FRAME, "FRAME"},
            {BYTEARRAY8, "BYTEARRAY8"},
            {NEXT_BUFFER, "NEXT_BUFFER"},
            {READONLY_BUFFER, "READONLY_BUFFER"},
        };
        for (const auto& [code, name] : all) {
            names[code] = name;
        }
    }
};

}  // namespace

const char* PickleReader::opcodeName(int opcode) {
    static const OpcodeNames table;
    return opcode >= 0 && opcode < 256 ? table.names[opcode] : nullptr;
}

PickleReader::PickleReader(std::string source_name) : m_source(std::move(source_name)) {}

void PickleReader::fail(const std::string& reason) const {
    const char* name = opcodeName(m_opcode);
    std::string why = reason;
    if (m_cutFrame >= 0) {
        why += " (the file is cut short: the FRAME at offset " + std::to_string(m_cutFrame) +
               " declares " + std::to_string(m_cutFrameLength) + " bytes, " +
               std::to_string(m_file ? m_fileSize - uint64_t(m_cutFrame) - 9
                                     : m_size - size_t(m_cutFrame) - 9) +
               " are there)";
    }
    throw PickleError(m_source, static_cast<int64_t>(m_opStart), m_opcode, name ? name : "", why);
}

void PickleReader::failUnsupported() const {
    const char* name = opcodeName(m_opcode);
    throw PickleError::unsupportedOpcode(m_source, static_cast<int64_t>(m_opStart), m_opcode,
                                         name ? name : "");
}

void PickleReader::failShort(size_t n) const {
    fail("needs " + std::to_string(n) + " more bytes, the file ends after " +
         std::to_string(m_size - m_pos));
}

PickleValue PickleReader::parseDecimal(const std::string& line) {
    std::string_view text = line;
    if (!text.empty() && text.back() == 'L') {
        text.remove_suffix(1);  // protocol 0 writes longs as "123L"
    }
    if (auto v = PickleValue::fromDecimal(text)) {
        return std::move(*v);
    }
    if (text.size() > PickleValue::kMaxDecimalDigits) {
        fail("an integer of " + std::to_string(text.size()) + " digits is too wide (limit " +
             std::to_string(PickleValue::kMaxDecimalDigits) + ")");
    }
    fail("'" + line.substr(0, 40) + "' is not an integer");
}

void PickleReader::failDepth() const {
    fail("containers are nested more than " + std::to_string(kMaxDepth) + " deep");
}

PickleValue PickleReader::parse(const void* data, size_t size, PickleListSink* sink) {
    m_data = static_cast<const uint8_t*>(data);
    m_size = size;
    m_pos = 0;
    m_base = 0;
    m_file = nullptr;
    m_sink = sink;
    return run();
}

PickleValue PickleReader::parseFile(const std::string& path, PickleListSink* sink) {
    return parseFile(path, sink, FileOptions());
}

PickleValue PickleReader::parseFile(const std::string& path, PickleListSink* sink,
                                    const FileOptions& options) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) {
        throw PickleError(path, std::string("cannot open: ") + std::strerror(errno));
    }
    m_fileSize = UINT64_MAX;
    if (std::fseek(file.get(), 0, SEEK_END) == 0) {
        const long size = std::ftell(file.get());
        if (size >= 0) {
            m_fileSize = static_cast<uint64_t>(size);
        }
        std::fseek(file.get(), 0, SEEK_SET);
    }
    m_buffer.assign(kChunkBytes, 0);
    m_data = m_buffer.data();
    m_size = 0;
    m_pos = 0;
    m_base = 0;
    m_eof = false;
    m_file = file.get();
    m_sink = sink;
    m_fileOptions = &options;
    try {
        PickleValue result = run();
        m_file = nullptr;
        m_fileOptions = nullptr;
        m_buffer = std::vector<uint8_t>();
        if (options.progress) {
            const uint64_t size = m_fileSize == UINT64_MAX ? m_base + m_size : m_fileSize;
            options.progress(size, size);
        }
        return result;
    } catch (...) {
        // Nothing half-built outlives the failure (a cancel or a PickleError): the partial
        // stack and memo go now, not when the reader does; what a PickleError's caller asked
        // to salvage is taken first.
        m_file = nullptr;
        if (options.salvage) {
            try {
                throw;
            } catch (const PickleError&) {
                *options.salvage = salvaged();
            } catch (...) {
            }
        }
        m_fileOptions = nullptr;
        m_buffer = std::vector<uint8_t>();
        m_stack = std::vector<PickleValue>();
        m_memo.clear();
        m_streamed.clear();
        m_itemMemo.clear();
        throw;
    }
}

PickleValue PickleReader::salvaged() {
    if (m_stack.empty()) {
        return {};
    }
    PickleValue top = m_stack[0];
    if (top.sealed()) {
        return top;
    }
    // Above the MARK opened right over it, if any; else right above it.
    const size_t first = 1;
    if (top.isDict()) {
        auto& node = *top.dictNode();
        for (size_t i = first; i + 1 < m_stack.size(); i += 2) {
            PickleValue& key = m_stack[i];
            PickleValue& value = m_stack[i + 1];
            if (!key.isHashable() || key.weight() > PickleValue::kMaxKeyWeight ||
                value.node() == top.node() || value.depth() + 1 > kMaxDepth) {
                break;  // not a pair of this dict's: the damage is inside a value
            }
            node.depth = std::max(node.depth, std::max(key.depth(), value.depth()) + 1);
            key.seal();
            value.seal();
            const size_t h = key.hash();
            PickleValue::insertItem(node, PickleValue(key), h, PickleValue(value));
        }
    } else if (top.isList()) {
        auto& node = *top.sequenceNode();
        for (size_t i = first; i < m_stack.size(); ++i) {
            if (!m_stack[i].isDict() || m_stack[i].depth() + 1 > kMaxDepth) {
                break;  // a segment list holds dicts
            }
            node.depth = std::max(node.depth, m_stack[i].depth() + 1);
            m_stack[i].seal();
            node.items.push_back(m_stack[i]);
        }
    }
    return top;
}

std::vector<uint8_t> PickleReader::readBytes(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                         &std::fclose);
    if (!file) {
        throw PickleError(path, std::string("cannot open: ") + std::strerror(errno));
    }
    std::vector<uint8_t> bytes;
    size_t expected = 0;
    if (std::fseek(file.get(), 0, SEEK_END) == 0) {
        const long size = std::ftell(file.get());
        expected = size > 0 ? static_cast<size_t>(size) : 0;
        std::fseek(file.get(), 0, SEEK_SET);
    }
    // One read of the size the file has; then whatever more there is (pipes, growing files).
    bytes.resize(expected);
    size_t have = expected ? std::fread(bytes.data(), 1, expected, file.get()) : 0;
    bytes.resize(have);
    uint8_t buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
        bytes.insert(bytes.end(), buffer, buffer + n);
    }
    if (std::ferror(file.get())) {
        throw PickleError(path, std::string("cannot read: ") + std::strerror(errno));
    }
    return bytes;
}

PickleValue PickleReader::readFile(const std::string& path) {
    return PickleReader(path).parseFile(path);
}

}  // namespace memscope

#pragma once

// A value read from a Python pickle: None, bool, int, float, str, bytes, list, tuple or dict,
// the plain data that PyTorch memory snapshots are made of.
//
// Design:
//   - Scalars (None, bool, int, float) live inside the value itself.
//   - Integers from -2^63 to 2^64-1 are exact: Int holds an int64 or, for 2^63..2^64-1 (device
//     addresses such as 0xffffffffffffffff), the uint64 bits with a flag. Anything wider is a
//     BigInt kept as its shortest little-endian two's complement bytes (pickle's own LONG
//     encoding), so nothing is lost or wrapped; toDecimal() converts on demand, because that
//     conversion is quadratic and a hostile file full of wide integers must stay cheap to read.
//   - Strings, bytes and containers are reference-counted nodes. Copying a value copies a
//     pointer, which is how pickle's memo works: PyTorch writes each frame list once and refers
//     to it from every trace entry (BINGET), and those references must stay one shared list, not
//     a million deep copies. node() exposes the identity, so importers can cache per shared list.
//   - Containers are mutable only while the reader builds them (see PickleReader): a container
//     that is already inside another one is never changed again, so values form a DAG, never a
//     cycle, and destroying one cannot recurse deeper than the reader's nesting limit.
//   - Threads: like Python objects under the GIL, one tree belongs to one thread at a time.
//     Reading it through const references from several threads is fine, and a tree may be
//     moved to another thread, but copying or destroying values of the same tree on two threads
//     at once is a data race (the reference counts are not atomic).
//   - Dicts keep insertion order (like Python's). Keys may be any hashable value (str, bytes,
//     int, float, bool, None, tuples of those); assigning an existing key replaces its value.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace memscope {

class PickleValue {
  public:
    enum class Type : uint8_t { None, Bool, Int, BigInt, Float, String, Bytes, List, Tuple, Dict };

    using Items = std::vector<PickleValue>;
    using DictItems = std::vector<std::pair<PickleValue, PickleValue>>;

    PickleValue() = default;  // None
    // Copies share the node; the union's eight bytes are copied whole (memcpy: whichever
    // member is active, the node pointer included).
    PickleValue(const PickleValue& other) : m_type(other.m_type), m_unsigned(other.m_unsigned) {
        std::memcpy(&m_int, &other.m_int, sizeof m_int);
        retain();
    }
    PickleValue(PickleValue&& other) noexcept : m_type(other.m_type), m_unsigned(other.m_unsigned) {
        std::memcpy(&m_int, &other.m_int, sizeof m_int);
        other.m_type = Type::None;
    }
    // Both assignments take what they need from `other` before releasing the old value:
    // `other` may live inside the very container that releasing frees (v = v.at(0)).
    PickleValue& operator=(const PickleValue& other) {
        PickleValue copy(other);
        return *this = std::move(copy);
    }
    PickleValue& operator=(PickleValue&& other) noexcept {
        if (this != &other) {
            const Type type = other.m_type;
            const bool is_unsigned = other.m_unsigned;
            int64_t bits;
            std::memcpy(&bits, &other.m_int, sizeof bits);
            other.m_type = Type::None;
            release();
            m_type = type;
            m_unsigned = is_unsigned;
            std::memcpy(&m_int, &bits, sizeof bits);
        }
        return *this;
    }
    ~PickleValue() { release(); }

    static PickleValue none() { return {}; }
    static PickleValue fromBool(bool value);
    static PickleValue fromInt(int64_t value);
    static PickleValue fromUInt(uint64_t value);  // Int; flagged when above INT64_MAX
    // Pickle's LONG payload, little-endian two's complement (n = 0 is zero): an Int when it
    // fits 64 bits, else a BigInt.
    static PickleValue fromTwosComplement(const uint8_t* bytes, size_t n);
    // "-123", "+7", "000": an Int or BigInt; nullopt when the text is not a decimal integer or
    // has more than kMaxDecimalDigits digits (Python's own limit for int(str)).
    static std::optional<PickleValue> fromDecimal(std::string_view text);
    static constexpr size_t kMaxDecimalDigits = 4300;
    static PickleValue fromDouble(double value);
    static PickleValue string(std::string text);  // Python str (UTF-8)
    static PickleValue bytes(std::string data);   // Python bytes
    static PickleValue list(Items items = {});
    static PickleValue tuple(Items items = {});
    static PickleValue dict();

    Type type() const { return m_type; }
    const char* typeName() const;  // "NoneType", "int", "str", ... (Python's names)
    bool isNone() const { return m_type == Type::None; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isInt() const { return m_type == Type::Int || m_type == Type::BigInt; }
    bool isFloat() const { return m_type == Type::Float; }
    bool isString() const { return m_type == Type::String; }
    bool isBytes() const { return m_type == Type::Bytes; }
    bool isList() const { return m_type == Type::List; }
    bool isTuple() const { return m_type == Type::Tuple; }
    bool isSequence() const { return m_type == Type::List || m_type == Type::Tuple; }
    bool isDict() const { return m_type == Type::Dict; }
    bool isContainer() const { return isSequence() || isDict(); }

    bool toBool() const;  // Python truthiness of scalars; containers: non-empty
    // The integer when it fits the type; bool counts as 0/1 (as in Python); else nullopt.
    std::optional<int64_t> toInt64() const;
    std::optional<uint64_t> toUInt64() const;
    // Int, BigInt, Float or Bool as a double (big integers lose precision, never fail).
    std::optional<double> toDouble() const;
    // Decimal text of Int, BigInt or Bool; "" otherwise.
    std::string toDecimal() const;

    // Text of String and Bytes; "" for anything else (a BigInt's digits: toDecimal()).
    const std::string& text() const;

    // Elements of List and Tuple; an empty list for anything else.
    const Items& items() const;
    // Pairs of Dict in insertion order; empty for anything else.
    const DictItems& dictItems() const;
    // Elements or pairs; 0 for scalars.
    size_t size() const;
    // Element i of a List/Tuple, or None when out of range or not a sequence.
    const PickleValue& at(size_t i) const;
    // Value under a str key of a Dict, or nullptr (missing key, or not a dict).
    const PickleValue* find(std::string_view key) const;
    const PickleValue* find(const PickleValue& key) const;
    // Like find(), but None when missing: snapshot fields are optional almost everywhere.
    const PickleValue& get(std::string_view key) const;

    // Containers only. Plain mutators for building values by hand (tests); the reader adds the
    // checks a hostile file needs. setItem() returns false for an unhashable key.
    void append(PickleValue value);
    bool setItem(PickleValue key, PickleValue value);

    // Nesting depth: 0 for scalars and empty containers, 1 + deepest element otherwise.
    int depth() const;
    // Identity of the shared node (string or container), nullptr for scalars. Two values with
    // the same node are the same Python object.
    const void* node() const { return hasNode() ? m_node : nullptr; }
    // Whether another value refers to the same node (a memoised list, a shared frame list):
    // what an importer may cache by node() while it holds a copy.
    bool shared() const { return hasNode() && m_node->refs > 1; }

    // Python-like repr, cut at max_chars ("..." appended): for messages and tests.
    std::string repr(size_t max_chars = 200) const;

    // Structural equality with Python's rules for keys: 1 == 1.0 == True, str != bytes.
    bool operator==(const PickleValue& other) const;
    bool operator!=(const PickleValue& other) const { return !(*this == other); }
    bool isHashable() const;
    size_t hash() const;  // consistent with operator== for hashable values
    // Values inside a tuple key, counting shared ones at each appearance (1 for scalars).
    static constexpr uint64_t kMaxKeyWeight = 256;

  private:
    friend class PickleReader;

    // Nodes are reference-counted by the values that point at them. The count lives in the
    // node, so that a value is 16 bytes (a million-entry snapshot is mostly values), and it is
    // a plain integer, not an atomic: atomic increments and decrements were a fifth of the
    // time of reading a snapshot. Hence the threading rule at the top of this file.
    struct Node {
        uint32_t refs = 1;
    };
    struct StringNode : Node {
        size_t hash = 0;  // computed when made: keys are memoized, so reused by every dict
        std::string text;
    };
    struct SequenceNode : Node {
        int depth = 0;
        bool sealed = false;  // inside another container: never changed again
        // Tuples only, fixed when made (tuples never change): whether every element is
        // hashable, the hash, and the number of values inside counting shared ones each time
        // they appear (what comparing two such keys costs; saturates).
        bool hashable = false;
        size_t hash = 0;
        uint64_t weight = 1;
        Items items;
    };
    struct DictNode : Node {
        int depth = 0;
        bool sealed = false;
        DictItems items;
        // hash -> item index, built once a dict is too large for a linear key scan
        std::unique_ptr<std::unordered_multimap<size_t, size_t>> index;
    };

    bool hasNode() const { return m_type >= Type::BigInt && m_type != Type::Float; }
    void retain() const {
        if (hasNode()) {
            ++m_node->refs;
        }
    }
    void release() {
        if (hasNode()) {
            if (m_node->refs > 1) {
                // Not the last reference (a memoized key, string or frame list): inline, since
                // a trace entry drops eight of them.
                --m_node->refs;
                m_type = Type::None;
                return;
            }
            releaseNode();
        }
    }
    void releaseNode();
    StringNode* stringNode() const { return static_cast<StringNode*>(m_node); }
    SequenceNode* sequenceNode() const { return static_cast<SequenceNode*>(m_node); }
    DictNode* dictNode() const { return static_cast<DictNode*>(m_node); }
    static PickleValue makeText(Type type, std::string text);
    // Fixes a tuple's hash and weight once its elements are in place.
    static void finishTuple(SequenceNode& node);
    uint64_t weight() const;
    void appendRepr(std::string& out, size_t max_chars) const;
    bool sealed() const;
    void seal() const;
    // Index of key in a dict node, or -1.
    static int64_t findIn(const DictNode& node, const PickleValue& key, size_t key_hash);
    // Adds or replaces a pair; the caller checked the key and updated depth and seals.
    static void insertItem(DictNode& node, PickleValue&& key, size_t key_hash, PickleValue&& value);
    size_t hashScalar() const;

    Type m_type = Type::None;
    bool m_unsigned = false;  // Int above INT64_MAX: m_int holds the uint64 bits
    union {
        bool m_bool;
        int64_t m_int = 0;
        double m_double;
        Node* m_node;  // BigInt, String, Bytes, List, Tuple, Dict
    };
};

// Small accessors the reader and importer call per value, defined here so they inline.

inline std::optional<int64_t> PickleValue::toInt64() const {
    if (m_type == Type::Int && !m_unsigned) {
        return m_int;
    }
    if (m_type == Type::Bool) {
        return m_bool ? 1 : 0;
    }
    return std::nullopt;
}

inline std::optional<uint64_t> PickleValue::toUInt64() const {
    if (m_type == Type::Int && (m_unsigned || m_int >= 0)) {
        return static_cast<uint64_t>(m_int);
    }
    if (m_type == Type::Bool) {
        return m_bool ? 1 : 0;
    }
    return std::nullopt;
}

inline int PickleValue::depth() const {
    if (isSequence()) {
        return sequenceNode()->depth;
    }
    return isDict() ? dictNode()->depth : 0;
}

inline bool PickleValue::isHashable() const {
    switch (m_type) {
        case Type::List:
        case Type::Dict:
            return false;
        case Type::Tuple:
            return sequenceNode()->hashable;
        default:
            return true;
    }
}

inline size_t PickleValue::hash() const {
    switch (m_type) {
        case Type::BigInt:
        case Type::String:
        case Type::Bytes:
            return stringNode()->hash;
        case Type::Tuple:
            return sequenceNode()->hash;
        case Type::List:
        case Type::Dict:
            return 0;  // unhashable
        default:
            return hashScalar();
    }
}

}  // namespace memscope

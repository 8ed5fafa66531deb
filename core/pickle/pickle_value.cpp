#include "pickle/pickle_value.h"

#include "trace/mix64.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

namespace memscope {

namespace {

// Dicts up to this size are searched linearly (snapshot dicts have a handful of keys); larger
// ones get a hash index so that a hostile file with a million keys stays linear.
constexpr size_t kLinearDictLimit = 16;

size_t mixHash(uint64_t x) {
    return static_cast<size_t>(mix64(x));
}

size_t hashText(std::string_view text, bool is_bytes) {
    return std::hash<std::string_view>{}(text) ^ (is_bytes ? 0x9e3779b97f4a7c15ULL : 0);
}

const PickleValue& noneValue() {
    static const PickleValue none;
    return none;
}

const PickleValue::Items& emptyItems() {
    static const PickleValue::Items items;
    return items;
}

const PickleValue::DictItems& emptyDictItems() {
    static const PickleValue::DictItems items;
    return items;
}

const std::string& emptyString() {
    static const std::string text;
    return text;
}

// A double equal to an integer in [-2^63, 2^64): that integer as (bits, is_unsigned).
bool integralDouble(double d, uint64_t& bits, bool& is_unsigned) {
    if (!std::isfinite(d) || std::trunc(d) != d) {
        return false;
    }
    if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
        bits = static_cast<uint64_t>(static_cast<int64_t>(d));
        is_unsigned = false;
        return true;
    }
    if (d >= 0 && d < 18446744073709551616.0) {
        bits = static_cast<uint64_t>(d);
        is_unsigned = true;
        return true;
    }
    return false;
}

void appendQuoted(std::string& out, const std::string& text, bool is_bytes) {
    out += is_bytes ? "b'" : "'";
    for (const unsigned char c : text) {
        if (c == '\'' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20 || c == 0x7f || (is_bytes && c >= 0x80)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);  // UTF-8 passes through for str
        }
    }
    out += '\'';
}

// Decimal text of little-endian two's complement bytes, by repeated division of 32-bit limbs
// by 10^9: quadratic in the length, which is why it only runs when asked for.
std::string decimalOf(const std::string& twos_complement) {
    std::vector<uint8_t> magnitude(twos_complement.begin(), twos_complement.end());
    const bool negative = !magnitude.empty() && (magnitude.back() & 0x80);
    if (negative) {
        bool carry = true;
        for (auto& b : magnitude) {
            b = static_cast<uint8_t>(~b);
            if (carry) {
                b = static_cast<uint8_t>(b + 1);
                carry = b == 0;
            }
        }
    }
    std::vector<uint32_t> limbs((magnitude.size() + 3) / 4, 0);
    for (size_t i = 0; i < magnitude.size(); ++i) {
        limbs[i / 4] |= uint32_t(magnitude[i]) << (8 * (i % 4));
    }
    while (!limbs.empty() && limbs.back() == 0) {
        limbs.pop_back();
    }
    std::vector<uint32_t> chunks;  // base 10^9, least significant first
    while (!limbs.empty()) {
        uint64_t remainder = 0;
        for (size_t i = limbs.size(); i-- > 0;) {
            const uint64_t cur = (remainder << 32) | limbs[i];
            limbs[i] = static_cast<uint32_t>(cur / 1000000000u);
            remainder = cur % 1000000000u;
        }
        chunks.push_back(static_cast<uint32_t>(remainder));
        while (!limbs.empty() && limbs.back() == 0) {
            limbs.pop_back();
        }
    }
    if (chunks.empty()) {
        return "0";
    }
    std::string text = (negative ? "-" : "") + std::to_string(chunks.back());
    for (size_t i = chunks.size() - 1; i-- > 0;) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%09u", chunks[i]);
        text += buf;
    }
    return text;
}

double doubleOf(const std::string& twos_complement) {
    double v = 0;
    for (size_t i = twos_complement.size(); i-- > 0;) {
        v = v * 256.0 + double(uint8_t(twos_complement[i]));
    }
    // Unsigned reading minus 2^(8n) when the sign bit is set.
    if (!twos_complement.empty() && (uint8_t(twos_complement.back()) & 0x80)) {
        v -= std::ldexp(1.0, int(8 * twos_complement.size()));
    }
    return v;
}

}  // namespace

PickleValue PickleValue::fromBool(bool value) {
    PickleValue v;
    v.m_type = Type::Bool;
    v.m_bool = value;
    return v;
}

PickleValue PickleValue::fromInt(int64_t value) {
    PickleValue v;
    v.m_type = Type::Int;
    v.m_int = value;
    return v;
}

PickleValue PickleValue::fromUInt(uint64_t value) {
    PickleValue v;
    v.m_type = Type::Int;
    v.m_int = static_cast<int64_t>(value);
    v.m_unsigned = value > uint64_t(INT64_MAX);
    return v;
}

PickleValue PickleValue::fromTwosComplement(const uint8_t* bytes, size_t n) {
    if (n == 0) {
        return fromInt(0);
    }
    const bool negative = (bytes[n - 1] & 0x80) != 0;
    uint64_t low = negative ? ~uint64_t(0) : 0;  // sign-extended
    for (size_t i = std::min<size_t>(n, 8); i-- > 0;) {
        low = (low << 8) | bytes[i];
    }
    if (n <= 8) {
        return fromInt(static_cast<int64_t>(low));
    }
    // Wider than eight bytes: it still fits 64 bits when the extra bytes only repeat the sign
    // (2^64-1 is ff ff ff ff ff ff ff ff 00: nine bytes, an unsigned 64-bit value).
    const uint8_t fill = negative ? 0xff : 0x00;
    size_t len = n;
    while (len > 1 && bytes[len - 1] == fill && ((bytes[len - 2] & 0x80) != 0) == negative) {
        --len;  // shortest form: drop bytes that only repeat the sign
    }
    if (len <= 8 || (len == 9 && !negative && bytes[8] == 0)) {
        return negative ? fromInt(static_cast<int64_t>(low)) : fromUInt(low);
    }
    return makeText(Type::BigInt, std::string(reinterpret_cast<const char*>(bytes), len));
}

std::optional<PickleValue> PickleValue::fromDecimal(std::string_view text) {
    const bool negative = !text.empty() && text[0] == '-';
    if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
        text.remove_prefix(1);
    }
    if (text.empty() || text.size() > kMaxDecimalDigits ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
    }
    // Base 2^32 limbs, least significant first: limbs = limbs * 10^9 + next nine digits.
    std::vector<uint32_t> limbs;
    size_t pos = 0;
    const size_t first = text.size() % 9 ? text.size() % 9 : 9;
    for (size_t len = first; pos < text.size(); pos += len, len = 9) {
        uint64_t carry = 0;
        for (size_t i = pos; i < pos + len; ++i) {
            carry = carry * 10 + uint64_t(text[i] - '0');
        }
        const uint64_t scale = pos == 0 ? 1 : 1000000000u;
        for (auto& limb : limbs) {
            const uint64_t cur = uint64_t(limb) * scale + carry;
            limb = static_cast<uint32_t>(cur);
            carry = cur >> 32;
        }
        if (carry) {
            limbs.push_back(static_cast<uint32_t>(carry));
        }
    }
    std::vector<uint8_t> bytes;
    for (const uint32_t limb : limbs) {
        for (int k = 0; k < 4; ++k) {
            bytes.push_back(uint8_t(limb >> (8 * k)));
        }
    }
    bytes.push_back(0);  // room for the sign: the magnitude as a positive number
    if (negative) {      // two's complement: invert and add one
        bool carry = true;
        for (auto& b : bytes) {
            b = static_cast<uint8_t>(~b);
            if (carry) {
                b = static_cast<uint8_t>(b + 1);
                carry = b == 0;
            }
        }
    }
    return fromTwosComplement(bytes.data(), bytes.size());
}

PickleValue PickleValue::fromDouble(double value) {
    PickleValue v;
    v.m_type = Type::Float;
    v.m_double = value;
    return v;
}

PickleValue PickleValue::string(std::string text) {
    return makeText(Type::String, std::move(text));
}

PickleValue PickleValue::bytes(std::string data) {
    return makeText(Type::Bytes, std::move(data));
}

PickleValue PickleValue::makeText(Type type, std::string text) {
    PickleValue v;
    auto* node = new StringNode;
    node->text = std::move(text);
    node->hash = hashText(node->text, type == Type::Bytes);
    v.m_node = node;
    v.m_type = type;
    return v;
}

PickleValue PickleValue::list(Items items) {
    PickleValue v;
    auto* node = new SequenceNode;
    v.m_node = node;
    v.m_type = Type::List;
    for (const auto& item : items) {
        node->depth = std::max(node->depth, item.depth() + 1);
        item.seal();
    }
    node->items = std::move(items);
    return v;
}

PickleValue PickleValue::tuple(Items items) {
    PickleValue v = list(std::move(items));
    v.m_type = Type::Tuple;
    finishTuple(*v.sequenceNode());
    return v;
}

void PickleValue::finishTuple(SequenceNode& node) {
    node.hashable = true;
    node.weight = 1;
    size_t h = 0x7475706c;
    for (const auto& item : node.items) {
        if (!item.isHashable()) {
            node.hashable = false;
        } else {
            h = mixHash(h * 31 + item.hash());
        }
        node.weight = std::min<uint64_t>(node.weight + item.weight(), uint64_t(1) << 62);
    }
    node.hash = h;
}

uint64_t PickleValue::weight() const {
    return m_type == Type::Tuple ? sequenceNode()->weight : 1;
}

PickleValue PickleValue::dict() {
    PickleValue v;
    v.m_node = new DictNode;
    v.m_type = Type::Dict;
    return v;
}

void PickleValue::releaseNode() {
    Node* node = m_node;
    const Type type = m_type;
    m_type = Type::None;
    if (--node->refs != 0) {
        return;
    }
    // The last reference. Elements are released by the node's destructor, which recurses no
    // deeper than the nesting limit the reader enforces.
    switch (type) {
        case Type::BigInt:
        case Type::String:
        case Type::Bytes:
            delete static_cast<StringNode*>(node);
            break;
        case Type::List:
        case Type::Tuple:
            delete static_cast<SequenceNode*>(node);
            break;
        case Type::Dict:
            delete static_cast<DictNode*>(node);
            break;
        default:
            break;
    }
}

const char* PickleValue::typeName() const {
    switch (m_type) {
        case Type::None:
            return "NoneType";
        case Type::Bool:
            return "bool";
        case Type::Int:
        case Type::BigInt:
            return "int";
        case Type::Float:
            return "float";
        case Type::String:
            return "str";
        case Type::Bytes:
            return "bytes";
        case Type::List:
            return "list";
        case Type::Tuple:
            return "tuple";
        case Type::Dict:
            return "dict";
    }
    return "?";
}

bool PickleValue::toBool() const {
    switch (m_type) {
        case Type::None:
            return false;
        case Type::Bool:
            return m_bool;
        case Type::Int:
            return m_int != 0;
        case Type::BigInt:
            return true;  // never zero: zero fits an int64
        case Type::Float:
            return m_double != 0.0;
        default:
            return size() > 0 || (node() && !text().empty());
    }
}

std::optional<double> PickleValue::toDouble() const {
    switch (m_type) {
        case Type::Bool:
            return m_bool ? 1.0 : 0.0;
        case Type::Int:
            return m_unsigned ? double(uint64_t(m_int)) : double(m_int);
        case Type::BigInt:
            return doubleOf(stringNode()->text);  // +-inf beyond double's range
        case Type::Float:
            return m_double;
        default:
            return std::nullopt;
    }
}

std::string PickleValue::toDecimal() const {
    switch (m_type) {
        case Type::Bool:
            return m_bool ? "1" : "0";
        case Type::Int:
            return m_unsigned ? std::to_string(uint64_t(m_int)) : std::to_string(m_int);
        case Type::BigInt:
            return decimalOf(stringNode()->text);
        default:
            return {};
    }
}

const std::string& PickleValue::text() const {
    if (m_type == Type::String || m_type == Type::Bytes) {
        return stringNode()->text;
    }
    return emptyString();
}

const PickleValue::Items& PickleValue::items() const {
    return isSequence() ? sequenceNode()->items : emptyItems();
}

const PickleValue::DictItems& PickleValue::dictItems() const {
    return isDict() ? dictNode()->items : emptyDictItems();
}

size_t PickleValue::size() const {
    if (isSequence()) {
        return sequenceNode()->items.size();
    }
    if (isDict()) {
        return dictNode()->items.size();
    }
    return 0;
}

const PickleValue& PickleValue::at(size_t i) const {
    const auto& all = items();
    return i < all.size() ? all[i] : noneValue();
}

const PickleValue* PickleValue::find(std::string_view key) const {
    if (!isDict()) {
        return nullptr;
    }
    const DictNode& node = *dictNode();
    if (!node.index) {
        for (const auto& [k, v] : node.items) {
            if (k.m_type == Type::String && k.stringNode()->text == key) {
                return &v;
            }
        }
        return nullptr;
    }
    const auto range = node.index->equal_range(hashText(key, false));
    for (auto it = range.first; it != range.second; ++it) {
        const auto& [k, v] = node.items[it->second];
        if (k.m_type == Type::String && k.stringNode()->text == key) {
            return &v;
        }
    }
    return nullptr;
}

const PickleValue* PickleValue::find(const PickleValue& key) const {
    if (!isDict() || !key.isHashable()) {
        return nullptr;
    }
    const int64_t i = findIn(*dictNode(), key, key.hash());
    return i < 0 ? nullptr : &dictNode()->items[size_t(i)].second;
}

const PickleValue& PickleValue::get(std::string_view key) const {
    const PickleValue* v = find(key);
    return v ? *v : noneValue();
}

void PickleValue::append(PickleValue value) {
    if (!isSequence()) {
        return;
    }
    SequenceNode& node = *sequenceNode();
    node.depth = std::max(node.depth, value.depth() + 1);
    value.seal();
    node.items.push_back(std::move(value));
}

int64_t PickleValue::findIn(const DictNode& node, const PickleValue& key, size_t key_hash) {
    if (!node.index) {
        for (size_t i = 0; i < node.items.size(); ++i) {
            const PickleValue& k = node.items[i].first;
            // Memoized keys are one node: identity settles them without comparing text.
            if (k.hash() == key_hash &&
                ((k.node() != nullptr && k.node() == key.node()) || k == key)) {
                return static_cast<int64_t>(i);
            }
        }
        return -1;
    }
    const auto range = node.index->equal_range(key_hash);
    for (auto it = range.first; it != range.second; ++it) {
        if (node.items[it->second].first == key) {
            return static_cast<int64_t>(it->second);
        }
    }
    return -1;
}

bool PickleValue::setItem(PickleValue key, PickleValue value) {
    if (!isDict() || !key.isHashable() || key.weight() > kMaxKeyWeight) {
        return false;
    }
    DictNode& node = *dictNode();
    node.depth = std::max({node.depth, key.depth() + 1, value.depth() + 1});
    key.seal();
    value.seal();
    const size_t h = key.hash();
    insertItem(node, std::move(key), h, std::move(value));
    return true;
}

void PickleValue::insertItem(DictNode& node, PickleValue&& key, size_t key_hash,
                             PickleValue&& value) {
    if (const int64_t i = findIn(node, key, key_hash); i >= 0) {
        node.items[size_t(i)].second = std::move(value);  // Python: the last assignment wins
        return;
    }
    node.items.emplace_back(std::move(key), std::move(value));
    if (node.index) {
        node.index->emplace(key_hash, node.items.size() - 1);
    } else if (node.items.size() > kLinearDictLimit) {
        node.index = std::make_unique<std::unordered_multimap<size_t, size_t>>();
        node.index->reserve(node.items.size() * 2);
        for (size_t i = 0; i < node.items.size(); ++i) {
            node.index->emplace(node.items[i].first.hash(), i);
        }
    }
}

bool PickleValue::sealed() const {
    if (isSequence()) {
        return sequenceNode()->sealed;
    }
    if (isDict()) {
        return dictNode()->sealed;
    }
    return false;
}

void PickleValue::seal() const {
    if (isSequence()) {
        sequenceNode()->sealed = true;
    } else if (isDict()) {
        dictNode()->sealed = true;
    }
}

size_t PickleValue::hashScalar() const {
    switch (m_type) {
        case Type::None:
            return 0x6e6f6e65;
        case Type::Bool:
            return mixHash(m_bool ? 1 : 0);
        case Type::Int:
            return mixHash(static_cast<uint64_t>(m_int));
        case Type::Float: {
            uint64_t bits = 0;
            bool is_unsigned = false;
            if (integralDouble(m_double, bits, is_unsigned)) {
                return mixHash(bits);  // equal ints hash alike: 1.0 == 1
            }
            return std::hash<double>{}(m_double);
        }
        default:
            return 0;
    }
}

bool PickleValue::operator==(const PickleValue& other) const {
    const auto numeric = [](Type t) { return t == Type::Bool || t == Type::Int; };
    if (numeric(m_type) && numeric(other.m_type)) {
        const bool a_unsigned = m_type == Type::Int && m_unsigned;
        const bool b_unsigned = other.m_type == Type::Int && other.m_unsigned;
        const int64_t a = m_type == Type::Bool ? int64_t(m_bool) : m_int;
        const int64_t b = other.m_type == Type::Bool ? int64_t(other.m_bool) : other.m_int;
        return a == b && a_unsigned == b_unsigned;
    }
    if ((m_type == Type::Float && numeric(other.m_type)) ||
        (other.m_type == Type::Float && numeric(m_type))) {
        const PickleValue& f = m_type == Type::Float ? *this : other;
        const PickleValue& n = m_type == Type::Float ? other : *this;
        uint64_t bits = 0;
        bool is_unsigned = false;
        if (!integralDouble(f.m_double, bits, is_unsigned)) {
            return false;
        }
        const bool n_unsigned = n.m_type == Type::Int && n.m_unsigned;
        const uint64_t n_bits = n.m_type == Type::Bool ? uint64_t(n.m_bool) : uint64_t(n.m_int);
        return bits == n_bits && is_unsigned == n_unsigned;
    }
    if (m_type != other.m_type) {
        return false;
    }
    switch (m_type) {
        case Type::None:
            return true;
        case Type::Float:
            return m_double == other.m_double;
        case Type::BigInt:
        case Type::String:
        case Type::Bytes:
            return m_node == other.m_node || stringNode()->text == other.stringNode()->text;
        case Type::List:
            return m_node == other.m_node || sequenceNode()->items == other.sequenceNode()->items;
        case Type::Tuple:
            // The cached hashes settle most unequal tuples without walking them.
            return m_node == other.m_node ||
                   ((!isHashable() || !other.isHashable() || hash() == other.hash()) &&
                    sequenceNode()->items == other.sequenceNode()->items);
        case Type::Dict: {
            if (m_node == other.m_node) {
                return true;
            }
            const auto& a = dictNode()->items;
            if (a.size() != other.dictNode()->items.size()) {
                return false;
            }
            for (const auto& [k, v] : a) {
                const PickleValue* ov = other.find(k);
                if (!ov || !(*ov == v)) {
                    return false;
                }
            }
            return true;
        }
        default:
            return false;
    }
}

std::string PickleValue::repr(size_t max_chars) const {
    std::string out;
    appendRepr(out, max_chars);
    if (out.size() > max_chars) {
        out.resize(max_chars);
        out += "...";
    }
    return out;
}

void PickleValue::appendRepr(std::string& out, size_t max_chars) const {
    if (out.size() > max_chars) {
        return;  // the caller cuts; stop walking large values early
    }
    switch (m_type) {
        case Type::None:
            out += "None";
            return;
        case Type::Bool:
            out += m_bool ? "True" : "False";
            return;
        case Type::Int:
        case Type::BigInt:
            out += toDecimal();
            return;
        case Type::Float: {
            char buf[32];
            const auto r = std::to_chars(buf, buf + sizeof buf, m_double);
            std::string text(buf, r.ptr);
            if (text.find_first_of(".eEn") == std::string::npos) {
                text += ".0";  // Python prints 1.0, not 1
            }
            out += text;
            return;
        }
        case Type::String:
        case Type::Bytes:
            appendQuoted(out, stringNode()->text, m_type == Type::Bytes);
            return;
        case Type::List:
        case Type::Tuple: {
            const auto& all = sequenceNode()->items;
            out += m_type == Type::List ? '[' : '(';
            for (size_t i = 0; i < all.size() && out.size() <= max_chars; ++i) {
                if (i > 0) {
                    out += ", ";
                }
                all[i].appendRepr(out, max_chars);
            }
            if (m_type == Type::Tuple && all.size() == 1) {
                out += ',';
            }
            out += m_type == Type::List ? ']' : ')';
            return;
        }
        case Type::Dict: {
            out += '{';
            bool first = true;
            for (const auto& [k, v] : dictNode()->items) {
                if (out.size() > max_chars) {
                    break;
                }
                if (!first) {
                    out += ", ";
                }
                first = false;
                k.appendRepr(out, max_chars);
                out += ": ";
                v.appendRepr(out, max_chars);
            }
            out += '}';
            return;
        }
    }
}

}  // namespace memscope

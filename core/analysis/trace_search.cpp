#include "analysis/trace_search.h"

#include "trace/category.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>

namespace memscope {

namespace {

char lower(char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

std::string hexText(uint64_t value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%llx", static_cast<unsigned long long>(value));
    return buffer;
}

}  // namespace

std::string TraceSearch::normalize(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        out.push_back(c == '_' ? ' ' : lower(c));
    }
    const size_t begin = out.find_first_not_of(" \t\r\n");
    if (begin == std::string::npos) {
        return std::string();
    }
    const size_t end = out.find_last_not_of(" \t\r\n");
    return out.substr(begin, end - begin + 1);
}

bool TraceSearch::parseAddress(const std::string& query, uint64_t& value, bool& explicit_hex) {
    std::string q = normalize(query);
    explicit_hex = q.size() > 2 && q[0] == '0' && q[1] == 'x';
    if (explicit_hex) {
        q = q.substr(2);
    }
    if (q.empty() || q.size() > 16 || (!explicit_hex && q.size() < 6)) {
        return false;
    }
    value = 0;
    for (char c : q) {
        int digit = -1;
        if (c >= '0' && c <= '9') {
            digit = c - '0';
        } else if (c >= 'a' && c <= 'f') {
            digit = c - 'a' + 10;
        }
        if (digit < 0) {
            return false;
        }
        value = value << 4 | static_cast<uint64_t>(digit);
    }
    return true;
}

std::vector<int64_t> TraceSearch::matches(const Trace& trace, const std::string& query) {
    std::vector<int64_t> out;
    const std::string needle = normalize(query);
    if (needle.empty()) {
        return out;
    }
    // Frames, then stack nodes (a node matches when its frame or any ancestor's does; parents
    // have lower ids, so one pass in id order).
    const StackTable& stacks = trace.stacks;
    std::vector<uint8_t> frame_match(stacks.frameCount(), 0);
    for (size_t f = 0; f < stacks.frameCount(); ++f) {
        const Frame& frame = stacks.frame(static_cast<uint32_t>(f));
        frame_match[f] = contains(normalize(frame.name), needle) ||
                         (!frame.file.empty() && contains(normalize(frame.file), needle));
    }
    std::vector<uint8_t> node_match(stacks.nodeCount(), 0);
    for (size_t n = 1; n < stacks.nodeCount(); ++n) {
        const auto node = static_cast<uint32_t>(n);
        node_match[n] = node_match[stacks.parent(node)] || frame_match[stacks.frameOf(node)];
    }
    std::array<uint8_t, kCategoryCount> category_match{};
    for (int c = 0; c < kCategoryCount; ++c) {
        category_match[size_t(c)] = contains(normalize(toString(Category(c))), needle);
    }
    uint64_t address = 0;
    bool explicit_hex = false;
    const bool is_address = parseAddress(query, address, explicit_hex);
    const std::string address_prefix =
        is_address ? normalize(query).substr(explicit_hex ? 2 : 0) : std::string();

    const auto& allocations = trace.allocations();
    const auto& stack_of_event = trace.events.stack;
    for (size_t i = 0; i < allocations.size(); ++i) {
        const Allocation& a = allocations[i];
        bool hit = category_match[static_cast<size_t>(a.category)] != 0;
        if (!hit && a.alloc_event >= 0 && size_t(a.alloc_event) < stack_of_event.size()) {
            const uint32_t node = stack_of_event[size_t(a.alloc_event)];
            hit = node < node_match.size() && node_match[node];
        }
        if (!hit && is_address) {
            hit = hexText(a.addr).compare(0, address_prefix.size(), address_prefix) == 0 ||
                  (explicit_hex && address >= a.addr &&
                   address - a.addr < static_cast<uint64_t>(std::max<int64_t>(a.size, 0)));
        }
        if (hit) {
            out.push_back(static_cast<int64_t>(i));
        }
    }
    return out;
}

}  // namespace memscope

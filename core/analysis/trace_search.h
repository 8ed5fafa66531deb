#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// Finds allocations by text, as memory_viz's search box does: the query (case-insensitive,
// surrounding blanks ignored) matches an allocation when
//   - it is an address: "0x" and hex digits matching the start of the allocation's address in
//     hex, or lying inside [addr, addr + size); without "0x", 6 or more hex digits only, as a
//     prefix (shorter bare words like "add" are names, not addresses);
//   - it is part of any frame of the allocation's stack: its name (operator, autograd node,
//     module path, imported Python function) or its file;
//   - it is part of the allocation's category name ("optimizer", "OPTIMIZER_STATE" and
//     "optimizer state" alike: underscores count as blanks).
// Each frame and each stack node is tested once, so a search costs O(frame text + stack nodes +
// allocations).
class TraceSearch {
  public:
    // Indices of the matching allocations, ascending; empty for an empty query.
    static std::vector<int64_t> matches(const Trace& trace, const std::string& query);

    // The query as an address: true and the value when it is one (rules above).
    static bool parseAddress(const std::string& query, uint64_t& value, bool& explicit_hex);
    // Lower case, underscores as blanks, blanks trimmed.
    static std::string normalize(const std::string& text);
};

}  // namespace memscope

#pragma once

#include "trace/trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace memscope {

// What a caching allocator's segments hold just after one event, like memory_viz's Allocator
// State History: every segment reserved at that moment, the blocks (live allocations whose
// address lies inside it) by offset, and the free gaps between them. Fragmentation is read off
// the gaps: free bytes = reserved - allocated, the largest free block and how many there are.
// A pure function of the finalized trace; O(allocations + segments log segments) per call.
class SegmentState {
  public:
    struct Block {
        int64_t offset = 0;  // bytes from the segment's address
        int64_t size = 0;
        Category category = Category::Unknown;
        int64_t allocation = -1;  // index into Trace::allocations()
    };
    struct Gap {
        int64_t offset = 0;
        int64_t size = 0;
    };
    struct SegmentBlocks {
        int64_t segment = -1;  // index into Trace::segments()
        uint64_t addr = 0;
        int64_t size = 0;
        int16_t device = -1;
        int64_t stream = 0;
        std::string pool;
        std::vector<Block> blocks;  // by offset
        std::vector<Gap> gaps;      // by offset: before, between and after the blocks
        int64_t allocated = 0;      // bytes of its blocks
    };

    // The state just after event `event` (-1: before the first event). Segments are ordered by
    // device, then address.
    static SegmentState at(const Trace& trace, int64_t event);

    int64_t event() const { return m_event; }
    const std::vector<SegmentBlocks>& segments() const { return m_segments; }
    int64_t reserved() const { return m_reserved; }
    // Bytes of blocks inside segments.
    int64_t allocated() const { return m_allocated; }
    int64_t freeBytes() const { return m_reserved - m_allocated; }
    int64_t largestFreeBlock() const { return m_largestFree; }
    int64_t freeBlocks() const { return m_freeBlocks; }
    // Live bytes whose address lies in no reserved segment (zero for a consistent trace).
    int64_t outsideBytes() const { return m_outside; }

  private:
    int64_t m_event = -1;
    std::vector<SegmentBlocks> m_segments;
    int64_t m_reserved = 0;
    int64_t m_allocated = 0;
    int64_t m_largestFree = 0;
    int64_t m_freeBlocks = 0;
    int64_t m_outside = 0;
};

}  // namespace memscope

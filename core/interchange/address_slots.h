#pragma once

// Numbers the distinct addresses of a snapshot's trace 0, 1, 2, ... in the order they first
// come, so that the importer keeps what it knows of each block in a vector indexed by the
// number instead of looking the address up in a hash map at every entry (issue 52: two
// std::unordered_map lookups per entry were a tenth of a 1 GB import). Open addressing with
// linear probing, at most half full.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memscope {

class AddressSlots {
  public:
    static constexpr uint32_t kNone = UINT32_MAX;

    // The address's slot, numbered when it is new.
    uint32_t slotOf(uint64_t addr) {
        if (2 * (m_count + 1) > m_table.size()) {
            grow();
        }
        size_t i = home(addr);
        while (m_table[i].slot != kNone) {
            if (m_table[i].addr == addr) {
                return m_table[i].slot;
            }
            i = (i + 1) & (m_table.size() - 1);
        }
        m_table[i] = {addr, static_cast<uint32_t>(m_count)};
        return static_cast<uint32_t>(m_count++);
    }
    // The address's slot, or kNone when it never came.
    uint32_t find(uint64_t addr) const {
        if (m_table.empty()) {
            return kNone;
        }
        for (size_t i = home(addr); m_table[i].slot != kNone; i = (i + 1) & (m_table.size() - 1)) {
            if (m_table[i].addr == addr) {
                return m_table[i].slot;
            }
        }
        return kNone;
    }
    size_t size() const { return m_count; }

  private:
    size_t home(uint64_t addr) const {
        // Fibonacci hashing: addresses differ mostly in their middle bits.
        return static_cast<size_t>((addr * 0x9E3779B97F4A7C15ULL) >> m_shift);
    }
    void grow() {
        const size_t capacity = m_table.empty() ? 1024 : 2 * m_table.size();
        std::vector<Cell> old(capacity);
        old.swap(m_table);
        m_shift = 64;
        for (size_t c = capacity; c > 1; c >>= 1) {
            --m_shift;
        }
        for (const Cell& cell : old) {
            if (cell.slot != kNone) {
                size_t j = home(cell.addr);
                while (m_table[j].slot != kNone) {
                    j = (j + 1) & (m_table.size() - 1);
                }
                m_table[j] = cell;
            }
        }
    }

    // Address and slot side by side: a probe touches one cache line.
    struct Cell {
        uint64_t addr = 0;
        uint32_t slot = kNone;  // kNone: empty
    };
    std::vector<Cell> m_table;
    size_t m_count = 0;
    int m_shift = 64;
};

}  // namespace memscope

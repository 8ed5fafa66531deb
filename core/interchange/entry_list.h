#pragma once

// The trace entries of one device of a snapshot while it is read (SnapshotImporter's Builder):
// the compact Entry each entry's dict is decoded into, and EntryList, which holds them until
// the whole trace is known (Builder::build). Internal to core/interchange.

#include "interchange/address_slots.h"
#include "trace/packed_column.h"
#include "trace/stack_table.h"

#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <vector>

namespace memscope::snapshot_detail {

enum class Action : uint8_t {
    Alloc,
    FreeRequested,
    FreeCompleted,
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Oom,
    Annotation,  // "user_defined": a record_function scope's START or END (see addEntry)
    Skip,        // "snapshot", "annotate", unknown
};

enum EntryFlag : uint8_t {
    kHasAddr = 1,
    kHasSize = 2,
    kHasTime = 4,
    kHasDeviceFree = 8,
    kHasStream = 16,
    kFolded = 32,  // a free_requested whose free_completed follows: the Free goes there
};

// One trace entry, decoded from its dict as soon as the reader has it (40 bytes: the dict and
// its values are freed right after). Frames are already a stack and the category a code.
struct Entry {
    uint64_t addr = 0;
    int64_t size = 0;
    // Its time (kHasTime), else its position in the device's trace list, which is the time of
    // a trace that has none.
    int64_t time_us = 0;
    uint32_t extra = 0;  // index into Builder::m_extras: "oom": device_free; others: stream
    uint32_t stack = StackTable::kEmpty;  // a node of the raw stacks (Trace::raw_stacks)
    Action action = Action::Skip;
    uint8_t flags = 0;
    int8_t category = -1;  // Category code, -1: none of Memscope's
    uint8_t pool = 0;      // index into Builder::m_pools, 0: none given
    // Alloc and frees: the number of the entry's address in its device's AddressSlots.
    uint32_t slot = AddressSlots::kNone;
    bool has(EntryFlag f) const { return (flags & f) != 0; }
};
static_assert(sizeof(Entry) == 40, "a trace entry stays 40 bytes while its chunk fills");

// The entries of one device, appended as they are read and read back in order once the trace
// is whole. A chunk of entries (kDefaultChunk) fills as plain Entry records; when it is full it
// is packed, field by field, into PackedColumns on a second thread while the reader goes on
// (issue 52: 18.3M entries of 40 bytes were 0.73 GB of a 1 GB snapshot's import, 7.3 GB of a
// 10 GB one; the fields of neighbouring entries are close, so packed they take about a third).
// At most one chunk is being packed at a time; push() waits for it when the next is full, so
// two plain chunks at most are alive besides the packed ones. The first chunk grows as a vector
// does (a small snapshot takes no whole chunk), and a snapshot of fewer entries than a chunk is
// never packed. A plain chunk (40 MB) is above glibc's largest mmap threshold, so it is mapped
// on its own and goes back to the system when it is freed. Each device's list has its own
// packer.
//
// Entries are not changed once pushed, but for the kFolded flag (markFolded), which is kept
// beside them as one bit an entry and set in what Reader returns.
class EntryList {
  public:
    static constexpr size_t kDefaultChunk = size_t(1) << 20;

    // chunk: entries per chunk, a multiple of PackedColumn's block (tests use small ones to
    // pack small snapshots).
    explicit EntryList(size_t chunk = kDefaultChunk);
    ~EntryList();
    EntryList(const EntryList&) = delete;
    EntryList& operator=(const EntryList&) = delete;

    void push(const Entry& e);
    size_t size() const { return m_count; }
    void markFolded(size_t i) { m_folded[i / 64] |= uint64_t(1) << (i % 64); }
    // Waits for the chunk being packed (rethrowing what packing it threw). Before reading.
    void finish();
    // Frees the chunks that lie wholly before entry i (which are not read again): the trace's
    // columns grow as the entries they were made from go, instead of beside all of them.
    void releaseBefore(size_t i);
    // Bytes held: the packed chunks, the plain ones, the folded bits.
    size_t memoryBytes() const;

    // Reads the entries of a finished list in increasing order: windows of kWindow entries are
    // unpacked into plain records, the next one on a second thread while this one is read (the
    // conversion that reads them is the import's other half). The reference returned is valid
    // until the next call; the entries before the current window may be released.
    class Reader {
      public:
        static constexpr size_t kWindow = size_t(1) << 16;
        explicit Reader(const EntryList& list) : m_list(&list) {}
        ~Reader();
        Reader(const Reader&) = delete;
        Reader& operator=(const Reader&) = delete;
        // i >= every i asked before.
        const Entry& operator[](size_t i) {
            if (i - m_first >= m_window.size()) {  // before m_first wraps around
                advance(i);
            }
            return m_window[i - m_first];
        }

      private:
        void advance(size_t i);
        const EntryList* m_list;
        size_t m_first = 0;
        std::vector<Entry> m_window;  // entries [m_first, m_first + size)
        std::vector<Entry> m_next;    // the window after it, being unpacked by m_job
        size_t m_nextFirst = SIZE_MAX;
        std::future<void> m_job;  // last: destroyed first
    };

  private:
    struct PackedChunk {
        PackedColumn<uint64_t> addr;
        PackedColumn<int64_t> size;
        PackedColumn<int64_t> time_us;
        PackedColumn<uint32_t> extra;
        PackedColumn<uint32_t> stack;
        PackedColumn<uint32_t> slot;
        PackedColumn<uint8_t> action;
        PackedColumn<uint8_t> flags;
        PackedColumn<int8_t> category;
        PackedColumn<uint8_t> pool;
        void pack(const std::vector<Entry>& entries);
        void unpack(size_t from, size_t n, Entry* out) const;
        size_t memoryBytes() const;
    };
    void handOver();  // packs the full open chunk on the packer thread
    // Entries [from, to) into out, kFolded set.
    void unpack(size_t from, size_t to, Entry* out) const;

    size_t m_chunk;
    std::vector<std::unique_ptr<PackedChunk>> m_packed;  // full chunks; null once released
    std::vector<Entry> m_open;     // the chunk being filled (chunk m_packed.size())
    std::vector<Entry> m_packing;  // the full chunk being packed (chunk m_packed.size() - 1)
    std::vector<uint64_t> m_folded;
    size_t m_count = 0;
    size_t m_released = 0;    // chunks [0, m_released) are freed
    std::future<void> m_job;  // last: destroyed first, waiting for m_packing's packer
};

}  // namespace memscope::snapshot_detail

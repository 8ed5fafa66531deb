#include "interchange/entry_list.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

namespace memscope::snapshot_detail {

namespace {

// A thread of its own, or, where no thread can be started (libstdc++ falls back when creating
// one fails for lack of resources), run on the waiting thread when its result is waited for.
constexpr std::launch kPolicy = std::launch::async | std::launch::deferred;

}  // namespace

EntryList::EntryList(size_t chunk) : m_chunk(chunk) {
    if (chunk == 0 || chunk % PackedColumn<uint64_t>::kBlock != 0) {
        throw std::logic_error("EntryList: a chunk is a whole number of packed blocks");
    }
}

EntryList::~EntryList() {
    if (m_job.valid()) {
        m_job.wait();  // the packer reads m_packing and writes m_packed's last chunk
    }
}

void EntryList::push(const Entry& e) {
    if (m_open.size() == m_chunk) {
        handOver();
    }
    if (m_open.capacity() == 0 && !m_packed.empty()) {
        m_open.reserve(m_chunk);
    }
    m_open.push_back(e);
    if (m_count % 64 == 0) {
        m_folded.push_back(0);
    }
    ++m_count;
}

void EntryList::handOver() {
    finish();  // one chunk at a time: the one before is packed by now, or this waits for it
    m_packing = std::move(m_open);
    m_open = std::vector<Entry>();
    m_packed.push_back(std::make_unique<PackedChunk>());
    PackedChunk* into = m_packed.back().get();
    const std::vector<Entry>* from = &m_packing;
    // Where no thread can be started: packed by finish(), on this one.
    m_job = std::async(kPolicy, [into, from] { into->pack(*from); });
}

void EntryList::finish() {
    if (m_job.valid()) {
        m_job.get();
    }
    m_packing = std::vector<Entry>();
}

void EntryList::releaseBefore(size_t i) {
    bool released = false;
    for (size_t c = m_released; c < i / m_chunk && c < m_packed.size(); ++c) {
        released = released || m_packed[c];
        m_packed[c].reset();
    }
    m_released = std::max(m_released, i / m_chunk);
#ifdef __GLIBC__
    // A packed chunk's columns were allocated on the packing thread, in glibc's arena of that
    // thread, between the windows unpacked there: freed, their pages stay in the arena's heaps
    // (only a heap's top is given back), and the trace's columns, growing on this thread, take
    // new ones. 10 GB snapshot: the import rose from 2.3 to 4.8 GB while converting. Trimming
    // gives the free pages back (malloc_trim advises away whole free pages inside every arena).
    if (released) {
        malloc_trim(0);
    }
#endif
}

size_t EntryList::memoryBytes() const {
    size_t bytes = (m_open.capacity() + m_packing.capacity()) * sizeof(Entry) +
                   m_folded.capacity() * sizeof(uint64_t);
    for (const auto& chunk : m_packed) {
        bytes += chunk ? chunk->memoryBytes() : 0;
    }
    return bytes;
}

void EntryList::PackedChunk::pack(const std::vector<Entry>& entries) {
    // One pass over the entries, a block at a time: each field of the block's entries into a
    // small array, which PackedColumn packs straight from.
    constexpr size_t kBlock = PackedColumn<uint64_t>::kBlock;
    struct Fields {
        uint64_t addr[kBlock];
        int64_t size[kBlock];
        int64_t time_us[kBlock];
        uint32_t extra[kBlock];
        uint32_t stack[kBlock];
        uint32_t slot[kBlock];
        uint8_t action[kBlock];
        uint8_t flags[kBlock];
        int8_t category[kBlock];
        uint8_t pool[kBlock];
    };
    Fields f;
    for (size_t first = 0; first < entries.size(); first += kBlock) {
        const size_t n = std::min(kBlock, entries.size() - first);
        for (size_t k = 0; k < n; ++k) {
            const Entry& e = entries[first + k];
            f.addr[k] = e.addr;
            f.size[k] = e.size;
            f.time_us[k] = e.time_us;
            f.extra[k] = e.extra;
            f.stack[k] = e.stack;
            f.slot[k] = e.slot;
            f.action[k] = static_cast<uint8_t>(e.action);
            f.flags[k] = e.flags;
            f.category[k] = e.category;
            f.pool[k] = e.pool;
        }
        addr.append(f.addr, n);
        size.append(f.size, n);
        time_us.append(f.time_us, n);
        extra.append(f.extra, n);
        stack.append(f.stack, n);
        slot.append(f.slot, n);
        action.append(f.action, n);
        flags.append(f.flags, n);
        category.append(f.category, n);
        pool.append(f.pool, n);
    }
    addr.shrink_to_fit();
    size.shrink_to_fit();
    time_us.shrink_to_fit();
    extra.shrink_to_fit();
    stack.shrink_to_fit();
    slot.shrink_to_fit();
    action.shrink_to_fit();
    flags.shrink_to_fit();
    category.shrink_to_fit();
    pool.shrink_to_fit();
}

void EntryList::PackedChunk::unpack(size_t from, size_t n, Entry* out) const {
    const size_t to = from + n;
    Entry* e = out;
    addr.forEach(from, to, [&e](uint64_t v) { (e++)->addr = v; });
    e = out;
    size.forEach(from, to, [&e](int64_t v) { (e++)->size = v; });
    e = out;
    time_us.forEach(from, to, [&e](int64_t v) { (e++)->time_us = v; });
    e = out;
    extra.forEach(from, to, [&e](uint32_t v) { (e++)->extra = v; });
    e = out;
    stack.forEach(from, to, [&e](uint32_t v) { (e++)->stack = v; });
    e = out;
    slot.forEach(from, to, [&e](uint32_t v) { (e++)->slot = v; });
    e = out;
    action.forEach(from, to, [&e](uint8_t v) { (e++)->action = static_cast<Action>(v); });
    e = out;
    flags.forEach(from, to, [&e](uint8_t v) { (e++)->flags = v; });
    e = out;
    category.forEach(from, to, [&e](int8_t v) { (e++)->category = v; });
    e = out;
    pool.forEach(from, to, [&e](uint8_t v) { (e++)->pool = v; });
}

size_t EntryList::PackedChunk::memoryBytes() const {
    return addr.memoryBytes() + size.memoryBytes() + time_us.memoryBytes() + extra.memoryBytes() +
           stack.memoryBytes() + slot.memoryBytes() + action.memoryBytes() + flags.memoryBytes() +
           category.memoryBytes() + pool.memoryBytes();
}

void EntryList::unpack(size_t from, size_t to, Entry* out) const {
    const size_t first = from;
    while (from < to) {
        const size_t chunk = from / m_chunk;
        const size_t end = std::min(to, (chunk + 1) * m_chunk);
        if (chunk < m_packed.size()) {
            m_packed[chunk]->unpack(from - chunk * m_chunk, end - from, out);
        } else {
            std::copy(m_open.begin() + std::ptrdiff_t(from - chunk * m_chunk),
                      m_open.begin() + std::ptrdiff_t(end - chunk * m_chunk), out);
        }
        out += end - from;
        from = end;
    }
    out -= to - first;
    // first is a multiple of 64 (a window's start): the folded bits are whole words.
    for (size_t k = 0; k < to - first; k += 64) {
        for (uint64_t bits = m_folded[(first + k) / 64]; bits != 0; bits &= bits - 1) {
            out[k + size_t(__builtin_ctzll(bits))].flags |= kFolded;
        }
    }
}

EntryList::Reader::~Reader() {
    if (m_job.valid()) {
        m_job.wait();
    }
}

void EntryList::Reader::advance(size_t i) {
    const EntryList& list = *m_list;
    const size_t first = i / kWindow * kWindow;
    if (m_job.valid()) {
        m_job.get();
    }
    if (m_nextFirst == first) {
        m_window.swap(m_next);
    } else {
        m_window.resize(std::min(list.m_count, first + kWindow) - first);
        list.unpack(first, first + m_window.size(), m_window.data());
    }
    m_first = first;
    m_nextFirst = SIZE_MAX;
    const size_t next = first + kWindow;
    if (next < list.m_count) {
        m_nextFirst = next;
        m_next.resize(std::min(list.m_count, next + kWindow) - next);
        Entry* out = m_next.data();
        const size_t to = next + m_next.size();
        m_job = std::async(kPolicy, [&list, next, to, out] { list.unpack(next, to, out); });
    }
}

}  // namespace memscope::snapshot_detail

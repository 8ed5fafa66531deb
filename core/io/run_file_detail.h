#pragma once

// Internals of the run file (io/run_file.h) that RunFile::save (io/run_file.cpp), RunFile::load
// (io/run_file_load.cpp) and the header pieces (io/run_file_header.cpp) share. Not for other
// callers.

#include "io/column_codec.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the .memscope column layout assumes a little-endian host"
#endif

namespace memscope::run_file_detail {

using nlohmann::json;

inline constexpr char kMagic[8] = {'M', 'E', 'M', 'S', 'C', 'O', 'P', 'E'};

// ---- small file helpers -----------------------------------------------------------------------

// ---- small file helpers -----------------------------------------------------------------------

struct FileCloser {
    void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

inline std::string errnoText() {
    return std::strerror(errno);
}

// The largest value of a column (0 when empty): one pass a block at a time, so that a check
// searches for its first offender only when the largest is out of range.
template <typename T>
T maxOf(const PackedColumn<T>& v) {
    T m = 0;
    v.forEach(0, v.size(), [&m](T x) { m = std::max(m, x); });
    return m;
}

// "" when every value a viewer indexes with is in range (io/run_file.cpp).
std::string checkEventValues(const EventColumns& events, size_t node_count);

// ---- version 2 column encodings (io/column_codec.h) -------------------------------------------

using Encoding = ColumnEncoding;

inline const char* encodingName(Encoding e) {
    return columnEncodingName(e);
}

// Runs task(i) for i in [0, count) on the calling thread and one more, in order of i. after(i)
// runs on the calling thread after each of its own tasks. The first exception thrown by any
// task stops both threads (remaining tasks are skipped) and is rethrown here.
template <typename Task, typename After>
void runOnTwoThreads(size_t count, Task&& task, After&& after) {
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_mutex;
    auto work = [&](bool caller) {
        for (;;) {
            const size_t i = next.fetch_add(1);
            if (i >= count || failed.load())
                return;
            try {
                task(i);
                if (caller)
                    after(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (!error)
                    error = std::current_exception();
                failed = true;
                return;
            }
        }
    };
    std::thread helper;
    if (count > 1)
        helper = std::thread(work, false);
    work(true);
    if (helper.joinable())
        helper.join();
    if (error)
        std::rethrow_exception(error);
}

struct ChunkEntry {
    uint64_t offset = 0;
    uint64_t length = 0;
    uint64_t raw_length = 0;
    uint64_t checksum = 0;
};

// ---- header pieces (io/run_file_header.cpp) ---------------------------------------------------

template <typename T>
json::binary_t toBytes(const std::vector<T>& v) {
    std::vector<uint8_t> bytes(v.size() * sizeof(T));
    if (!bytes.empty())
        std::memcpy(bytes.data(), v.data(), bytes.size());
    return json::binary_t(std::move(bytes));
}

// Spans as four parallel byte arrays: a run of a few thousand steps has millions of them.
json spansToJson(const std::vector<Span>& spans);
// Returns an error message, "" on success.
std::string spansFromJson(const json& j, size_t node_count, size_t shape_count,
                          std::vector<Span>& spans);
json phasesToJson(const std::vector<PhaseInterval>& phases);
json stacksToJson(const StackTable& stacks);
// Reads a uint32 array stored as bytes (what save writes) or as a JSON array (hand-made files).
// Throws an InputError saying what is wrong.
std::vector<uint32_t> uint32Array(const json& j, const char* name);
// Returns an error message, "" on success.
std::string stacksFromJson(const json& j, StackTable& stacks);
json segmentTagsToJson(const std::vector<SegmentTag>& tags);
// Returns an error message, "" on success.
std::string segmentTagsFromJson(const json& j, std::vector<SegmentTag>& tags);

}  // namespace memscope::run_file_detail

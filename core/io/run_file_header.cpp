// The pieces of a run file's header map (io/run_file.h): spans, phases, stacks and segment tags
// to and from their JSON/CBOR form, for RunFile::save (io/run_file.cpp) and RunFile::load
// (io/run_file_load.cpp).
#include "io/run_file_detail.h"

#include "model/input_error.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace memscope {

namespace {

using nlohmann::json;

// Highest FrameKind value; viewers index tables with it.
constexpr int64_t kMaxFrameKind = static_cast<int64_t>(FrameKind::Other);

// A little-endian array stored as CBOR bytes. Throws an InputError saying what is wrong.
template <typename T>
std::vector<T> arrayFromBytes(const json& j, const char* name) {
    if (!j.is_binary())
        throw InputError(std::string("'") + name + "' is not bytes");
    const auto& bytes = j.get_binary();
    if (bytes.size() % sizeof(T) != 0) {
        throw InputError(std::string("'") + name + "' holds " + std::to_string(bytes.size()) +
                         " bytes, not a whole number of elements");
    }
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty())
        std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

}  // namespace

namespace run_file_detail {

// Spans as four parallel byte arrays: a run of a few thousand steps has millions of them.
json spansToJson(const std::vector<Span>& spans) {
    std::vector<int64_t> begin, end;
    std::vector<uint32_t> stack;
    std::vector<uint16_t> thread;
    std::vector<uint32_t> shapes;
    begin.reserve(spans.size()), end.reserve(spans.size());
    stack.reserve(spans.size()), thread.reserve(spans.size()), shapes.reserve(spans.size());
    for (const auto& s : spans) {
        begin.push_back(s.begin_ns), end.push_back(s.end_ns);
        stack.push_back(s.stack), thread.push_back(s.thread), shapes.push_back(s.shapes);
    }
    return {{"begin_ns", toBytes(begin)},
            {"end_ns", toBytes(end)},
            {"stack", toBytes(stack)},
            {"thread", toBytes(thread)},
            {"shapes", toBytes(shapes)}};
}

// Returns an error message, "" on success.
std::string spansFromJson(const json& j, size_t node_count, size_t shape_count,
                          std::vector<Span>& spans) {
    try {
        const auto begin = arrayFromBytes<int64_t>(j.at("begin_ns"), "begin_ns");
        const auto end = arrayFromBytes<int64_t>(j.at("end_ns"), "end_ns");
        const auto stack = arrayFromBytes<uint32_t>(j.at("stack"), "stack");
        const auto thread = arrayFromBytes<uint16_t>(j.at("thread"), "thread");
        // optional: files from before shapes were recorded lack it
        const auto shapes = j.contains("shapes")
                                ? arrayFromBytes<uint32_t>(j.at("shapes"), "shapes")
                                : std::vector<uint32_t>(begin.size(), 0);
        if (end.size() != begin.size() || stack.size() != begin.size() ||
            thread.size() != begin.size() || shapes.size() != begin.size()) {
            return "span arrays have different lengths";
        }
        spans.resize(begin.size());
        for (size_t i = 0; i < begin.size(); ++i) {
            if (stack[i] >= node_count) {
                return "span " + std::to_string(i) + " names stack " + std::to_string(stack[i]) +
                       " of " + std::to_string(node_count);
            }
            if (shapes[i] >= shape_count) {
                return "span " + std::to_string(i) + " names shape string " +
                       std::to_string(shapes[i]) + " of " + std::to_string(shape_count);
            }
            spans[i] = Span{begin[i], end[i], stack[i], thread[i], shapes[i]};
        }
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

json phasesToJson(const std::vector<PhaseInterval>& phases) {
    json out = json::array();
    for (const auto& p : phases) {
        out.push_back({static_cast<int>(p.phase), p.step, p.begin_ns, p.end_ns});
    }
    return out;
}

json stacksToJson(const StackTable& stacks) {
    json frames = json::array();
    for (const auto& f : stacks.frames()) {
        frames.push_back({f.name, f.file, f.line, static_cast<int>(f.kind)});
    }
    return {{"frames", std::move(frames)},
            {"parents", toBytes(stacks.parents())},
            {"node_frames", toBytes(stacks.nodeFrames())}};
}

// Reads a uint32 array stored as bytes (what save writes) or as a JSON array (hand-made files).
// Throws an InputError saying what is wrong.
std::vector<uint32_t> uint32Array(const json& j, const char* name) {
    std::vector<uint32_t> out;
    if (j.is_binary()) {
        const auto& bytes = j.get_binary();
        if (bytes.size() % sizeof(uint32_t) != 0) {
            throw InputError(std::string("'") + name + "' holds " + std::to_string(bytes.size()) +
                             " bytes, not a whole number of uint32");
        }
        out.resize(bytes.size() / sizeof(uint32_t));
        if (!out.empty())
            std::memcpy(out.data(), bytes.data(), bytes.size());
    } else if (j.is_array()) {
        out.reserve(j.size());
        for (const auto& v : j)
            out.push_back(v.get<uint32_t>());
    } else {
        throw InputError(std::string("'") + name + "' is neither bytes nor an array");
    }
    return out;
}

// Returns an error message, "" on success.
std::string stacksFromJson(const json& j, StackTable& stacks) {
    std::vector<Frame> frames;
    const json& jf = j.at("frames");
    if (!jf.is_array())
        return "'frames' is not an array";
    frames.reserve(jf.size());
    for (size_t i = 0; i < jf.size(); ++i) {
        const json& f = jf[i];
        if (!f.is_array() || f.size() < 4) {
            return "frame " + std::to_string(i) + " is not [name, file, line, kind]";
        }
        Frame frame;
        frame.name = f[0].get<std::string>();
        frame.file = f[1].get<std::string>();
        frame.line = f[2].get<int32_t>();
        const auto kind = f[3].get<int64_t>();
        if (kind < 0 || kind > kMaxFrameKind) {
            return "frame " + std::to_string(i) + " has kind " + std::to_string(kind);
        }
        frame.kind = static_cast<FrameKind>(kind);
        frames.push_back(std::move(frame));
    }
    try {
        auto parents = uint32Array(j.at("parents"), "parents");
        auto node_frames = uint32Array(j.at("node_frames"), "node_frames");
        return stacks.assign(std::move(frames), std::move(parents), std::move(node_frames));
    } catch (const InputError& e) {
        return e.what();
    }
}

json segmentTagsToJson(const std::vector<SegmentTag>& tags) {
    std::vector<int64_t> event, stream;
    json pool = json::array();
    for (const auto& t : tags) {
        event.push_back(t.event), stream.push_back(t.stream), pool.push_back(t.pool);
    }
    return {{"event", toBytes(event)}, {"stream", toBytes(stream)}, {"pool", std::move(pool)}};
}

// Returns an error message, "" on success.
std::string segmentTagsFromJson(const json& j, std::vector<SegmentTag>& tags) {
    try {
        if (!j.is_object())
            return "not a map";
        const auto event = arrayFromBytes<int64_t>(j.at("event"), "event");
        const auto stream = arrayFromBytes<int64_t>(j.at("stream"), "stream");
        const json& pool = j.at("pool");
        if (!pool.is_array() || stream.size() != event.size() || pool.size() != event.size())
            return "tag arrays have different lengths";
        tags.resize(event.size());
        for (size_t i = 0; i < event.size(); ++i) {
            tags[i] = SegmentTag{event[i], stream[i], pool[i].get<std::string>()};
        }
    } catch (const InputError& e) {
        return e.what();
    }
    return {};
}

}  // namespace run_file_detail

}  // namespace memscope

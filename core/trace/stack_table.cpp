#include "trace/stack_table.h"

#include <algorithm>
#include <functional>

namespace memscope {

size_t StackTable::FrameHash::operator()(const Frame& f) const {
    return std::hash<std::string>()(f.name) ^ (std::hash<std::string>()(f.file) << 1) ^
           (std::hash<int32_t>()(f.line) << 2) ^ (size_t(f.kind) << 3);
}

StackTable::StackTable() {
    // Node 0: the empty stack. Its frame id is never read.
    m_parents.push_back(kEmpty);
    m_nodeFrames.push_back(0);
}

uint32_t StackTable::internFrame(const Frame& frame) {
    auto it = m_frameIds.find(frame);
    if (it != m_frameIds.end()) {
        return it->second;
    }
    const auto id = static_cast<uint32_t>(m_frames.size());
    m_frames.push_back(frame);
    m_frameIds.emplace(frame, id);
    return id;
}

uint32_t StackTable::child(uint32_t parent, uint32_t frame) {
    const uint64_t key = (uint64_t(parent) << 32) | frame;
    auto it = m_children.find(key);
    if (it != m_children.end()) {
        return it->second;
    }
    const auto id = static_cast<uint32_t>(m_parents.size());
    m_parents.push_back(parent);
    m_nodeFrames.push_back(frame);
    m_children.emplace(key, id);
    return id;
}

uint32_t StackTable::depth(uint32_t node) const {
    uint32_t d = 0;
    while (node != kEmpty) {
        node = m_parents[node];
        ++d;
    }
    return d;
}

std::vector<uint32_t> StackTable::framesOf(uint32_t node) const {
    std::vector<uint32_t> out;
    while (node != kEmpty) {
        out.push_back(m_nodeFrames[node]);
        node = m_parents[node];
    }
    std::reverse(out.begin(), out.end());
    return out;
}

int64_t StackTable::innermost(uint32_t node, FrameKind kind) const {
    while (node != kEmpty) {
        const auto f = m_nodeFrames[node];
        if (m_frames[f].kind == kind) {
            return f;
        }
        node = m_parents[node];
    }
    return -1;
}

std::string StackTable::describe(uint32_t node) const {
    std::string out;
    for (auto f : framesOf(node)) {
        if (!out.empty()) {
            out += " > ";
        }
        out += m_frames[f].name;
    }
    return out;
}

std::string StackTable::assign(std::vector<Frame> frames, std::vector<uint32_t> parents,
                               std::vector<uint32_t> node_frames) {
    if (parents.empty() || parents.size() != node_frames.size()) {
        return "stack table: node arrays are empty or of different lengths";
    }
    for (size_t i = 1; i < parents.size(); ++i) {
        if (parents[i] >= i) {
            return "stack table: node " + std::to_string(i) + " has parent " +
                   std::to_string(parents[i]) + " (must be smaller)";
        }
        if (node_frames[i] >= frames.size()) {
            return "stack table: node " + std::to_string(i) + " names frame " +
                   std::to_string(node_frames[i]) + " of " + std::to_string(frames.size());
        }
    }
    m_frames = std::move(frames);
    m_parents = std::move(parents);
    m_nodeFrames = std::move(node_frames);
    m_parents[0] = kEmpty;
    m_frameIds.clear();
    m_children.clear();
    for (uint32_t i = 0; i < m_frames.size(); ++i) {
        m_frameIds.emplace(m_frames[i], i);
    }
    for (uint32_t i = 1; i < m_parents.size(); ++i) {
        m_children.emplace((uint64_t(m_parents[i]) << 32) | m_nodeFrames[i], i);
    }
    return {};
}

}  // namespace memscope

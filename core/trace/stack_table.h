#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace memscope {

enum class FrameKind : uint8_t {
    Module = 0,        // a module forward: "TinyLlama.blocks.2.attention.q_proj"
    Operator = 1,      // an ATen op: "aten::mm"
    BackwardNode = 2,  // an autograd node running in backward: "MmBackward0"
    BackwardOf = 3,    // "backward of TinyLlama.blocks.2.attention": the forward module responsible
    Other = 4,         // anything else (the input batch, the optimizer step, imported frames)
};

struct Frame {
    std::string name;
    std::string file;  // empty when unknown
    int32_t line = 0;
    FrameKind kind = FrameKind::Other;

    bool operator==(const Frame& o) const {
        return name == o.name && file == o.file && line == o.line && kind == o.kind;
    }
};

// Interned call stacks as a trie: each node is (parent node, frame). Stack id 0 is the empty
// stack; a node's id is always greater than its parent's, so a table is valid in any prefix.
class StackTable {
  public:
    static constexpr uint32_t kEmpty = 0;

    StackTable();

    uint32_t internFrame(const Frame& frame);
    uint32_t child(uint32_t parent, uint32_t frame);  // interns the node

    size_t frameCount() const { return m_frames.size(); }
    size_t nodeCount() const { return m_parents.size(); }
    const Frame& frame(uint32_t id) const { return m_frames[id]; }
    uint32_t parent(uint32_t node) const { return m_parents[node]; }
    uint32_t frameOf(uint32_t node) const { return m_nodeFrames[node]; }
    uint32_t depth(uint32_t node) const;
    // Frames from the outermost to the innermost.
    std::vector<uint32_t> framesOf(uint32_t node) const;
    // Innermost frame of a kind on the stack, or -1.
    int64_t innermost(uint32_t node, FrameKind kind) const;
    // "a > b > c" (outermost first), for tables and tooltips.
    std::string describe(uint32_t node) const;

    // Raw access for files: nodes are (parent, frame) pairs in id order; node 0 is the root.
    const std::vector<Frame>& frames() const { return m_frames; }
    const std::vector<uint32_t>& parents() const { return m_parents; }
    const std::vector<uint32_t>& nodeFrames() const { return m_nodeFrames; }
    // Rebuilds a table from raw arrays; returns an error message or "" when they are consistent
    // (every parent id below the node's id, every frame id in range).
    std::string assign(std::vector<Frame> frames, std::vector<uint32_t> parents,
                       std::vector<uint32_t> node_frames);

  private:
    struct FrameHash {
        size_t operator()(const Frame& f) const;
    };
    std::vector<Frame> m_frames;
    std::vector<uint32_t> m_parents;
    std::vector<uint32_t> m_nodeFrames;
    std::unordered_map<Frame, uint32_t, FrameHash> m_frameIds;
    std::unordered_map<uint64_t, uint32_t> m_children;  // (parent << 32 | frame) -> node
};

}  // namespace memscope

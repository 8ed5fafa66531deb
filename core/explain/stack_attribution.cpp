#include "explain/stack_attribution.h"

namespace memscope {

StackAttribution::StackAttribution(const StackTable& stacks) : m_stacks(stacks) {
    const size_t n = stacks.nodeCount();
    m_module.assign(n, -1);
    m_operator.assign(n, -1);
    m_node.assign(n, -1);
    for (uint32_t i = 1; i < n; ++i) {
        const uint32_t parent = stacks.parent(i);
        const uint32_t f = stacks.frameOf(i);
        const FrameKind kind = stacks.frame(f).kind;
        const bool module = kind == FrameKind::Module || kind == FrameKind::BackwardOf;
        m_module[i] = module ? int64_t(f) : m_module[parent];
        m_operator[i] = kind == FrameKind::Operator ? int64_t(f) : m_operator[parent];
        m_node[i] = kind == FrameKind::BackwardNode ? int64_t(f) : m_node[parent];
    }
}

int64_t StackAttribution::operatorFrame(uint32_t node) const {
    if (node >= m_operator.size()) {
        return -1;
    }
    return m_operator[node] >= 0 ? m_operator[node] : m_node[node];
}

const std::string& StackAttribution::moduleOf(uint32_t node) const {
    const int64_t f = moduleFrame(node);
    return f >= 0 ? m_stacks.frame(uint32_t(f)).name : m_none;
}

const std::string& StackAttribution::operatorOf(uint32_t node) const {
    const int64_t f = operatorFrame(node);
    return f >= 0 ? m_stacks.frame(uint32_t(f)).name : m_none;
}

}  // namespace memscope

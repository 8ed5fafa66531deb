#include "model/feed_forward.h"

#include "model/module_scope.h"

namespace memscope {

FeedForwardImpl::FeedForwardImpl(const std::string& scope_name, int64_t hidden,
                                 int64_t intermediate, bool fused)
    : m_scope(scope_name), m_intermediate(intermediate) {
    if (fused) {
        m_gateUp = register_module("gate_up_proj",
                                   Linear(scope_name + ".gate_up_proj", hidden, 2 * intermediate));
    } else {
        m_gate =
            register_module("gate_proj", Linear(scope_name + ".gate_proj", hidden, intermediate));
        m_up = register_module("up_proj", Linear(scope_name + ".up_proj", hidden, intermediate));
    }
    m_down = register_module("down_proj", Linear(scope_name + ".down_proj", intermediate, hidden));
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x) {
    ModuleScope scope(m_scope);
    torch::Tensor gate, up;
    if (m_gateUp) {
        auto both = m_gateUp(x).chunk(2, -1);
        gate = both[0], up = both[1];
    } else {
        gate = m_gate(x), up = m_up(x);
    }
    return m_down(torch::silu(gate) * up);
}

}  // namespace memscope

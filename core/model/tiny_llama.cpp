#include "model/tiny_llama.h"

#include "model/block_checkpoint_function.h"
#include "model/cancellation.h"
#include "model/module_scope.h"

#include <torch/nn/functional/loss.h>
#include <torch/nn/init.h>

#include <limits>

namespace memscope {

TinyLlamaImpl::TinyLlamaImpl(const TinyLlamaConfig& config, AttentionKind attention,
                             bool checkpoint_blocks)
    : m_config(config),
      m_attention(attention),
      m_checkpoint(checkpoint_blocks),
      m_scope(kRootScope),
      m_embedScope(m_scope + ".embed_tokens"),
      m_headScope(m_scope + ".lm_head"),
      m_lossScope(m_scope + ".loss") {
    config.validate();
    m_embedding =
        register_module("embed_tokens", torch::nn::Embedding(config.vocab_size, config.hidden_dim));
    torch::nn::init::normal_(m_embedding->weight, 0.0, 0.02);
    auto blocks = torch::nn::ModuleList();
    for (int64_t i = 0; i < config.n_layers; ++i) {
        m_blocks.emplace_back(m_scope + ".blocks." + std::to_string(i), config, attention);
        blocks->push_back(m_blocks.back());
    }
    register_module("blocks", blocks);
    m_norm =
        register_module("norm", RMSNorm(m_scope + ".norm", config.hidden_dim, config.norm_eps));
    if (!config.tie_embeddings) {
        m_lmHead =
            register_module("lm_head", Linear(m_headScope, config.hidden_dim, config.vocab_size));
    }
}

torch::Tensor TinyLlamaImpl::forward(const torch::Tensor& tokens) {
    ModuleScope scope(m_scope);
    TORCH_CHECK(tokens.dim() == 2, "tokens must be [batch, seq]");
    const auto seq = tokens.size(1);
    m_config.validateSequence(seq);

    torch::Tensor x;
    {
        ModuleScope embed(m_embedScope);
        x = torch::embedding(m_embedding->weight, tokens);
    }
    torch::Tensor mask;
    if (m_attention == AttentionKind::Eager || m_attention == AttentionKind::Fused) {
        // Additive causal mask as the workshop script builds it: -inf above the diagonal.
        mask = torch::full({seq, seq}, -std::numeric_limits<float>::infinity(),
                           torch::TensorOptions(tokens.device()).dtype(torch::kFloat32))
                   .triu(1);
    }
    const bool building_graph = torch::GradMode::is_enabled();
    for (size_t i = 0; i < m_blocks.size(); ++i) {
        auto& block = m_blocks[i];
        if (m_blockObserver != nullptr) {
            m_blockObserver->beforeBlock(i, x);
        }
        x = (m_checkpoint && building_graph) ? BlockCheckpointFunction::run(*block, x, mask)
                                             : block->forward(x, mask);
        if (m_blockObserver != nullptr) {
            m_blockObserver->afterBlock(i, x);
        }
        if (building_graph && x.requires_grad()) {
            // Lets a cancel request stop backward between blocks, not only forward.
            x.register_hook([](const torch::Tensor&) { CancellationToken::throwIfRequested(); });
        }
    }
    x = m_norm(x);
    if (m_lmHead) {
        return m_lmHead(x);
    }
    ModuleScope head(m_headScope);
    return at::linear(x, m_embedding->weight);
}

torch::Tensor TinyLlamaImpl::loss(const torch::Tensor& logits, const torch::Tensor& labels) {
    ModuleScope scope(m_lossScope);
    return torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}),
                                                labels.reshape({-1}));
}

}  // namespace memscope

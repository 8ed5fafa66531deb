#pragma once

#include "model/attention_kind.h"
#include "model/block_observer.h"
#include "model/linear.h"
#include "model/rms_norm.h"
#include "model/tiny_llama_config.h"
#include "model/transformer_block.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/embedding.h>

namespace memscope {

// The Tiny LLaMA decoder: embedding, n pre-norm blocks, final norm, LM head (tied to the
// embedding or not). Every submodule's forward runs in a scope named by its path, e.g.
// "TinyLlama.blocks.2.attention.q_proj".
class TinyLlamaImpl : public torch::nn::Module {
  public:
    TinyLlamaImpl(const TinyLlamaConfig& config, AttentionKind attention,
                  bool checkpoint_blocks = false);

    // tokens: [B, S] int64 -> logits [B, S, V]
    torch::Tensor forward(const torch::Tensor& tokens);
    // Next-token cross-entropy; labels are already shifted ([B, S], label t is token t + 1).
    torch::Tensor loss(const torch::Tensor& logits, const torch::Tensor& labels);

    const TinyLlamaConfig& config() const { return m_config; }
    AttentionKind attention() const { return m_attention; }
    bool checkpointsBlocks() const { return m_checkpoint; }
    size_t blockCount() const { return m_blocks.size(); }
    // Told around every block's forward (nullptr: nobody); not owned.
    void setBlockObserver(BlockObserver* observer) { m_blockObserver = observer; }

    static constexpr const char* kRootScope = "TinyLlama";

  private:
    TinyLlamaConfig m_config;
    AttentionKind m_attention;
    bool m_checkpoint;
    std::string m_scope;
    std::string m_embedScope;
    std::string m_headScope;
    std::string m_lossScope;
    torch::nn::Embedding m_embedding{nullptr};
    std::vector<TransformerBlock> m_blocks;
    RMSNorm m_norm{nullptr};
    Linear m_lmHead{nullptr};  // null when tied
    BlockObserver* m_blockObserver = nullptr;
};

TORCH_MODULE(TinyLlama);

}  // namespace memscope

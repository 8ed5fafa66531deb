#pragma once

#include <optional>
#include <string>
#include <vector>

namespace memscope {

// How a block computes attention. All variants compute the same function; they differ in the
// tensors they create, which is what Memscope is for.
enum class AttentionKind {
    Eager,            // the workshop baseline: separate q/k/v, repeat_interleave, mask, softmax
    Fused,            // one QKV projection and one gate_up projection (workshop version 2)
    Sdpa,             // LibTorch's scaled_dot_product_attention
    MemoryEfficient,  // chunked attention that recomputes chunks in backward: O(S) memory
};

std::string toString(AttentionKind kind);
std::optional<AttentionKind> parseAttentionKind(const std::string& text);
std::vector<std::string> attentionKindNames();

}  // namespace memscope

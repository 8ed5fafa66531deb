#pragma once

#include <cstdint>

namespace memscope {

// Query-block size of the memory-efficient attention (AttentionImpl::kChunkSize, which
// model/attention.cpp checks against this). Here without LibTorch, so that the memory model
// (memscope_base) predicts the blocks the kernel computes.
inline constexpr int64_t kAttentionChunkSize = 64;

}  // namespace memscope

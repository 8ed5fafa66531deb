#pragma once

#include <ATen/core/Generator.h>
#include <torch/types.h>

#include <utility>

namespace memscope {

// Deterministic random token batches, as the workshop script makes them: uniform token ids from
// a generator seeded once per run, a fresh batch every step. Inputs are tokens [0, S) and labels
// the same sequence shifted by one (next-token prediction). In a multi-process run every rank
// draws the global batch (batch x shards rows) and keeps its own rows, so N ranks together see
// exactly the batches of one process with an N times larger batch.
class SyntheticData {
  public:
    SyntheticData(int64_t vocab_size, int64_t batch, int64_t seq, uint64_t seed,
                  torch::Device device, int64_t shard = 0, int64_t shards = 1);

    // {inputs [B, S], labels [B, S]} on the run's device.
    std::pair<torch::Tensor, torch::Tensor> next();

  private:
    int64_t m_vocab;
    int64_t m_batch;
    int64_t m_seq;
    int64_t m_shard;
    int64_t m_shards;
    torch::Device m_device;
    at::Generator m_generator;
};

}  // namespace memscope

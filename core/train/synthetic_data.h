#pragma once

#include <ATen/core/Generator.h>
#include <torch/types.h>

#include <utility>

namespace memscope {

// Deterministic random token batches, as the workshop script makes them: uniform token ids from
// a generator seeded once per run, a fresh batch every step. Inputs are tokens [0, S) and labels
// the same sequence shifted by one (next-token prediction).
class SyntheticData {
  public:
    SyntheticData(int64_t vocab_size, int64_t batch, int64_t seq, uint64_t seed,
                  torch::Device device);

    // {inputs [B, S], labels [B, S]} on the run's device.
    std::pair<torch::Tensor, torch::Tensor> next();

  private:
    int64_t m_vocab;
    int64_t m_batch;
    int64_t m_seq;
    torch::Device m_device;
    at::Generator m_generator;
};

}  // namespace memscope

#include "train/synthetic_data.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

namespace memscope {

SyntheticData::SyntheticData(int64_t vocab_size, int64_t batch, int64_t seq, uint64_t seed,
                             torch::Device device, int64_t shard, int64_t shards)
    : m_vocab(vocab_size),
      m_batch(batch),
      m_seq(seq),
      m_shard(shard),
      m_shards(shards),
      m_device(device),
      m_generator(at::detail::createCPUGenerator(seed)) {}

std::pair<torch::Tensor, torch::Tensor> SyntheticData::next() {
    auto tokens = torch::randint(0, m_vocab, {m_batch * m_shards, m_seq + 1}, m_generator,
                                 torch::TensorOptions().dtype(torch::kLong));
    if (m_shards > 1) {
        tokens = tokens.narrow(0, m_shard * m_batch, m_batch).clone();
    }
    if (m_device.type() != torch::kCPU) {
        tokens = tokens.to(m_device);
    }
    auto inputs = tokens.narrow(1, 0, m_seq).contiguous();
    auto labels = tokens.narrow(1, 1, m_seq).contiguous();
    return {inputs, labels};
}

}  // namespace memscope

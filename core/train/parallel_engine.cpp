#include "train/parallel_engine.h"

#include <c10/core/StorageImpl.h>
#include <torch/torch.h>

#include <algorithm>
#include <string>

namespace memscope {

// One flat range of parameters: all of them (ddp, zero1, zero2) or one block's (zero3).
struct ParallelEngine::Group {
    std::vector<torch::Tensor> params;
    std::vector<int64_t> offsets;
    int64_t numel = 0;
    int64_t padded = 0;         // numel rounded up to a multiple of the world size
    int64_t shard = 0;          // padded / world size
    torch::Tensor flat;         // the parameters (views into it), except ddp
    torch::Tensor flat_grad;    // ddp, zero1: the gradients (views into it)
    torch::Tensor shard_param;  // zero1, zero2: view of flat; zero3: this rank's own copy
    torch::Tensor shard_grad;   // zero2, zero3: this rank's reduced gradient range
    size_t flat_bytes = 0;
    bool gathered = true;
    bool reduced = false;
};

ParallelEngine::ParallelEngine(ParallelMode mode, std::shared_ptr<DistributedContext> context,
                               int64_t bucket_bytes, AllocationObserver* observer)
    : m_mode(mode),
      m_context(std::move(context)),
      m_bucketElements(std::max<int64_t>(1, bucket_bytes / int64_t(sizeof(float)))),
      m_observer(observer) {}

ParallelEngine::~ParallelEngine() {
    if (m_model != nullptr) {
        (*m_model)->setBlockObserver(nullptr);
    }
}

void ParallelEngine::announce(const torch::Tensor& t, Category category) {
    if (m_observer != nullptr && t.defined() && t.has_storage() && t.storage().data() != nullptr) {
        m_observer->onRole(t.storage().data(), category, t.device(), nullptr);
    }
}

std::vector<torch::Tensor> ParallelEngine::attach(TinyLlama& model) {
    torch::NoGradGuard no_grad;
    m_model = &model;
    const int world = m_context->worldSize();
    const int rank = m_context->rank();
    const size_t blocks = model->blockCount();
    if (m_mode == ParallelMode::Zero3) {
        for (size_t i = 0; i < blocks + 1; ++i) {
            m_groups.push_back(std::make_unique<Group>());
        }
        for (const auto& item : model->named_parameters()) {
            size_t group = 0;
            const std::string& name = item.key();
            if (name.rfind("blocks.", 0) == 0) {
                group = 1 + size_t(std::stoul(name.substr(7)));
            }
            m_groups.at(group)->params.push_back(item.value());
        }
        model->setBlockObserver(this);
    } else {
        m_groups.push_back(std::make_unique<Group>());
        m_groups[0]->params = model->parameters();
    }

    std::vector<torch::Tensor> optimized;
    for (auto& gp : m_groups) {
        Group& g = *gp;
        for (const auto& p : g.params) {
            g.offsets.push_back(g.numel);
            g.numel += p.numel();
        }
        g.padded = (g.numel + world - 1) / world * world;
        g.shard = g.padded / world;
        const auto options = g.params.front().options().requires_grad(false);
        if (m_mode != ParallelMode::Ddp) {
            g.flat = torch::zeros({g.padded}, options);
            g.flat_bytes = size_t(g.padded) * g.flat.element_size();
            for (size_t i = 0; i < g.params.size(); ++i) {
                auto& p = g.params[i];
                auto view = g.flat.narrow(0, g.offsets[i], p.numel()).view(p.sizes());
                view.copy_(p);
                p.set_data(view);
            }
            announce(g.flat,
                     m_mode == ParallelMode::Zero3 ? Category::Communication : Category::Parameter);
        }
        if (m_mode == ParallelMode::Ddp || m_mode == ParallelMode::Zero1) {
            g.flat_grad = torch::zeros({g.padded}, options);
            for (size_t i = 0; i < g.params.size(); ++i) {
                auto& p = g.params[i];
                p.mutable_grad() = g.flat_grad.narrow(0, g.offsets[i], p.numel()).view(p.sizes());
            }
            announce(g.flat_grad, Category::Gradient);
        }
        switch (m_mode) {
            case ParallelMode::Ddp:
            case ParallelMode::None:
                for (const auto& p : g.params) {
                    optimized.push_back(p);
                }
                break;
            case ParallelMode::Zero1:
                g.shard_param = g.flat.narrow(0, rank * g.shard, g.shard);
                g.shard_param.mutable_grad() = g.flat_grad.narrow(0, rank * g.shard, g.shard);
                optimized.push_back(g.shard_param);
                break;
            case ParallelMode::Zero2:
            case ParallelMode::Zero3:
                g.shard_param = m_mode == ParallelMode::Zero2
                                    ? g.flat.narrow(0, rank * g.shard, g.shard)
                                    : g.flat.narrow(0, rank * g.shard, g.shard).clone();
                g.shard_grad = torch::zeros({g.shard}, options);
                g.shard_param.mutable_grad() = g.shard_grad;
                announce(g.shard_grad, Category::Gradient);
                if (m_mode == ParallelMode::Zero3) {
                    announce(g.shard_param, Category::Parameter);
                    release(g);
                }
                optimized.push_back(g.shard_param);
                break;
        }
    }
    return optimized;
}

void ParallelEngine::gather(Group& g) {
    if (g.gathered) {
        return;
    }
    torch::NoGradGuard no_grad;
    auto* storage = g.flat.storage().unsafeGetStorageImpl();
    storage->set_data_ptr(storage->allocator()->allocate(g.flat_bytes));
    storage->set_nbytes(g.flat_bytes);
    announce(g.flat, Category::Communication);
    std::vector<torch::Tensor> chunks;
    for (int k = 0; k < m_context->worldSize(); ++k) {
        chunks.push_back(g.flat.narrow(0, k * g.shard, g.shard));
    }
    m_context->allgather(chunks, g.shard_param);
    g.gathered = true;
}

void ParallelEngine::release(Group& g) {
    if (!g.gathered || m_mode != ParallelMode::Zero3) {
        return;
    }
    // Free the storage itself (as FSDP does): views saved by autograd share it, and see the
    // data again once the group is gathered before its backward.
    auto* storage = g.flat.storage().unsafeGetStorageImpl();
    storage->set_data_ptr(c10::DataPtr(nullptr, g.flat.device()));
    storage->set_nbytes(0);
    g.gathered = false;
}

void ParallelEngine::zeroGrad() {
    for (auto& g : m_groups) {
        if (g->flat_grad.defined()) {
            g->flat_grad.zero_();
        }
    }
}

void ParallelEngine::beforeForward() {
    for (auto& g : m_groups) {
        g->reduced = false;
    }
    if (m_mode == ParallelMode::Zero3) {
        gather(*m_groups[0]);
    }
}

void ParallelEngine::beforeBlock(size_t index, const torch::Tensor& input) {
    Group& g = *m_groups.at(1 + index);
    gather(g);
    if (index == 0 && torch::GradMode::is_enabled() && input.requires_grad()) {
        // The first block's backward is done once its input's gradient is complete.
        input.register_hook([this](const torch::Tensor&) {
            reduceGradientsToOwners(*m_groups[1]);
            release(*m_groups[1]);
        });
    }
}

void ParallelEngine::afterBlock(size_t index, const torch::Tensor& output) {
    release(*m_groups.at(1 + index));
    if (torch::GradMode::is_enabled() && output.requires_grad()) {
        // Runs when the backward reaches this block: the next block's backward is finished.
        output.register_hook([this, index](const torch::Tensor&) {
            if (index + 2 < m_groups.size()) {
                reduceGradientsToOwners(*m_groups[index + 2]);
                release(*m_groups[index + 2]);
            }
            gather(*m_groups[index + 1]);
        });
    }
}

void ParallelEngine::allreduceGradients(Group& g) {
    torch::NoGradGuard no_grad;
    for (int64_t a = 0; a < g.padded; a += m_bucketElements) {
        m_context->allreduceSum(g.flat_grad.narrow(0, a, std::min(m_bucketElements, g.padded - a)));
    }
    g.flat_grad.div_(m_context->worldSize());
}

void ParallelEngine::reduceGradientsToOwners(Group& g) {
    if (g.reduced) {
        return;
    }
    torch::NoGradGuard no_grad;
    const int world = m_context->worldSize();
    const int rank = m_context->rank();
    for (int64_t a = 0; a < g.padded; a += m_bucketElements) {
        const int64_t len = std::min(m_bucketElements, g.padded - a);
        auto bucket = torch::zeros({len}, g.shard_grad.options());
        announce(bucket, Category::Communication);
        for (size_t i = 0; i < g.params.size(); ++i) {
            const auto& grad = g.params[i].grad();
            const int64_t off = g.offsets[i];
            const int64_t lo = std::max(a, off);
            const int64_t hi = std::min(a + len, off + g.params[i].numel());
            if (grad.defined() && lo < hi) {
                bucket.narrow(0, lo - a, hi - lo)
                    .copy_(grad.reshape({-1}).narrow(0, lo - off, hi - lo));
            }
        }
        for (int k = 0; k < world; ++k) {
            const int64_t lo = std::max(a, k * g.shard);
            const int64_t hi = std::min(a + len, (k + 1) * g.shard);
            if (lo >= hi) {
                continue;
            }
            auto part = bucket.narrow(0, lo - a, hi - lo);
            m_context->reduceSum(part, k);
            if (k == rank) {
                g.shard_grad.narrow(0, lo - rank * g.shard, hi - lo).copy_(part).div_(world);
            }
        }
    }
    for (auto& p : g.params) {
        p.mutable_grad().reset();
    }
    g.reduced = true;
}

void ParallelEngine::afterBackward() {
    for (auto& gp : m_groups) {
        switch (m_mode) {
            case ParallelMode::Ddp:
            case ParallelMode::Zero1:
                allreduceGradients(*gp);
                break;
            case ParallelMode::Zero2:
            case ParallelMode::Zero3:
                reduceGradientsToOwners(*gp);
                break;
            case ParallelMode::None:
                break;
        }
    }
    endStep();
}

void ParallelEngine::afterOptimizerStep() {
    if (m_mode != ParallelMode::Zero1 && m_mode != ParallelMode::Zero2) {
        return;
    }
    torch::NoGradGuard no_grad;
    for (auto& g : m_groups) {
        std::vector<torch::Tensor> chunks;
        for (int k = 0; k < m_context->worldSize(); ++k) {
            chunks.push_back(g->flat.narrow(0, k * g->shard, g->shard));
        }
        m_context->allgather(chunks, g->shard_param);
    }
}

void ParallelEngine::endStep() {
    for (auto& g : m_groups) {
        release(*g);
    }
}

double ParallelEngine::globalLoss(double local_loss) {
    auto t = torch::full({1}, local_loss,
                         torch::TensorOptions().dtype(torch::kDouble).device(m_context->device()));
    m_context->allreduceSum(t);
    return t.item<double>() / m_context->worldSize();
}

}  // namespace memscope

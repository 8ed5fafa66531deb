#include "model/block_checkpoint_function.h"

#include "model/module_scope.h"
#include "torch_compat.h"

namespace memscope {

namespace {

// Restores the thread's autocast state for the recomputation and puts the old one back after.
class AutocastRestore {
  public:
    AutocastRestore(c10::DeviceType device, bool enabled, c10::ScalarType dtype)
        : m_device(device),
          m_oldEnabled(compat::autocastEnabled(device)),
          m_oldDtype(compat::autocastDtype(device)) {
        compat::setAutocast(device, enabled, dtype);
    }
    ~AutocastRestore() { compat::setAutocast(m_device, m_oldEnabled, m_oldDtype); }

  private:
    c10::DeviceType m_device;
    bool m_oldEnabled;
    c10::ScalarType m_oldDtype;
};

}  // namespace

torch::Tensor BlockCheckpointFunction::run(TransformerBlockImpl& block, const torch::Tensor& x,
                                           const torch::Tensor& causal_mask) {
    auto params = block.parameters();
    return apply(x, at::TensorList(params), c10::IValue(causal_mask), &block);
}

torch::Tensor BlockCheckpointFunction::forward(torch::autograd::AutogradContext* ctx,
                                               const torch::Tensor& x, at::TensorList params,
                                               const c10::IValue& causal_mask,
                                               TransformerBlockImpl* block) {
    const auto device = x.device().type();
    ctx->save_for_backward({x});
    ctx->saved_data["mask"] = causal_mask;
    // A pointer cannot live in an IValue; the model owns the block and outlives its graph.
    ctx->saved_data["block"] = static_cast<int64_t>(reinterpret_cast<intptr_t>(block));
    ctx->saved_data["num_params"] = static_cast<int64_t>(params.size());
    ctx->saved_data["autocast"] = compat::autocastEnabled(device);
    ctx->saved_data["autocast_dtype"] = static_cast<int64_t>(compat::autocastDtype(device));
    // Autocast caches the low-precision copy of each weight. Made here, under no_grad, that copy
    // would have no autograd history, and the recomputation would reuse it and never reach the
    // fp32 parameters. Keep this pass out of the cache.
    const bool cache_was_enabled = at::autocast::is_autocast_cache_enabled();
    at::autocast::set_autocast_cache_enabled(false);
    struct RestoreCache {
        bool enabled;
        ~RestoreCache() { at::autocast::set_autocast_cache_enabled(enabled); }
    } restore{cache_was_enabled};
    return block->forward(x, causal_mask.toTensor());
}

torch::autograd::variable_list BlockCheckpointFunction::backward(
    torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grad_outputs) {
    auto saved = ctx->get_saved_variables();
    auto* block = reinterpret_cast<TransformerBlockImpl*>(
        static_cast<intptr_t>(ctx->saved_data["block"].toInt()));
    const auto num_params = ctx->saved_data["num_params"].toInt();
    auto x = saved[0].detach().requires_grad_(true);
    const auto mask = ctx->saved_data["mask"].toTensor();

    torch::Tensor out;
    {
        torch::AutoGradMode grad_mode(true);
        AutocastRestore autocast(
            x.device().type(), ctx->saved_data["autocast"].toBool(),
            static_cast<c10::ScalarType>(ctx->saved_data["autocast_dtype"].toInt()));
        out = block->forward(x, mask);
    }
    auto params = block->parameters();
    TORCH_CHECK(static_cast<int64_t>(params.size()) == num_params,
                "block parameters changed between forward and backward");
    std::vector<torch::Tensor> inputs{x};
    inputs.insert(inputs.end(), params.begin(), params.end());
    auto grads = torch::autograd::grad({out}, inputs, {grad_outputs[0]}, /*retain_graph=*/false,
                                       /*create_graph=*/false, /*allow_unused=*/true);

    torch::autograd::variable_list result;
    result.reserve(grads.size() + 2);
    result.insert(result.end(), grads.begin(), grads.end());  // x, then each parameter
    result.emplace_back();                                    // causal mask
    result.emplace_back();                                    // block pointer
    return result;
}

}  // namespace memscope

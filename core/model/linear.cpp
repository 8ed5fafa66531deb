#include "model/linear.h"

#include "model/module_scope.h"

#include <torch/nn/init.h>

namespace memscope {

LinearImpl::LinearImpl(std::string scope_name, int64_t in_features, int64_t out_features)
    : m_scope(std::move(scope_name)) {
    weight = register_parameter("weight", torch::empty({out_features, in_features}));
    torch::nn::init::normal_(weight, 0.0, 0.02);
}

torch::Tensor LinearImpl::forward(const torch::Tensor& input) {
    ModuleScope scope(m_scope);
    return at::linear(input, weight);
}

}  // namespace memscope

#include "model/rms_norm.h"

#include "model/module_scope.h"

namespace memscope {

RMSNormImpl::RMSNormImpl(std::string scope_name, int64_t dim, double eps)
    : m_scope(std::move(scope_name)), m_eps(eps) {
    weight = register_parameter("weight", torch::ones({dim}));
}

torch::Tensor RMSNormImpl::forward(const torch::Tensor& input) {
    ModuleScope scope(m_scope);
    const auto input_dtype = input.scalar_type();
    auto x = input.to(torch::kFloat32);
    auto variance = x.pow(2).mean(-1, /*keepdim=*/true);
    x = x * torch::rsqrt(variance + m_eps);
    return weight * x.to(input_dtype);
}

}  // namespace memscope

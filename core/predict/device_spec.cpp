#include "predict/device_spec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace memscope {

namespace {
std::string lowerCase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}
}  // namespace

double DeviceSpec::peakFlops(Dtype dtype) const {
    switch (dtype) {
        case Dtype::Float32:
            return fp32_tflops * 1e12;
        case Dtype::BFloat16:
            return bf16_tflops * 1e12;
        case Dtype::Float16:
            return fp16_tflops * 1e12;
    }
    return 0;
}

bool DeviceSpec::matches(const std::string& text) const {
    const auto wanted = lowerCase(text);
    if (lowerCase(name) == wanted) {
        return true;
    }
    return std::any_of(aliases.begin(), aliases.end(),
                       [&](const std::string& alias) { return lowerCase(alias) == wanted; });
}

nlohmann::json DeviceSpec::toJson() const {
    return {{"name", name},
            {"kind", gpu ? "gpu" : "cpu"},
            {"memory_bytes", memory_bytes},
            {"usable_fraction", usable_fraction},
            {"fp32_tflops", fp32_tflops},
            {"bf16_tflops", bf16_tflops},
            {"fp16_tflops", fp16_tflops},
            {"memory_bandwidth_gbs", memory_bandwidth_gbs},
            {"interconnect", interconnect},
            {"interconnect_gbs", interconnect_gbs},
            {"context_bytes", context_bytes},
            {"reserved_factor", reserved_factor}};
}

}  // namespace memscope

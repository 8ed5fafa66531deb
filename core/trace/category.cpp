#include "trace/category.h"

namespace memscope {

std::string toString(Category category) {
    switch (category) {
        case Category::Parameter:
            return "PARAMETER";
        case Category::OptimizerState:
            return "OPTIMIZER_STATE";
        case Category::Input:
            return "INPUT";
        case Category::Temporary:
            return "TEMPORARY";
        case Category::Activation:
            return "ACTIVATION";
        case Category::Gradient:
            return "GRADIENT";
        case Category::AutogradDetail:
            return "AUTOGRAD_DETAIL";
        case Category::Unknown:
            return "UNKNOWN";
        case Category::Communication:
            return "COMMUNICATION";
        case Category::BeforeRecording:
            return "BEFORE_RECORDING";
    }
    return "UNKNOWN";
}

std::optional<Category> parseCategory(const std::string& text) {
    for (int i = 0; i < kCategoryCount; ++i) {
        if (toString(static_cast<Category>(i)) == text) {
            return static_cast<Category>(i);
        }
    }
    return std::nullopt;
}

}  // namespace memscope

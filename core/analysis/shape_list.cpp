#include "analysis/shape_list.h"

#include <cctype>

namespace memscope {

ShapeList ShapeList::parse(const std::string& text) {
    ShapeList out;
    size_t i = 0;
    auto skip_spaces = [&] {
        while (i < text.size() && text[i] == ' ')
            ++i;
    };
    skip_spaces();
    while (i < text.size()) {
        if (text[i] == '-') {
            out.m_inputs.emplace_back(std::nullopt);
            ++i;
        } else if (text[i] == '[') {
            ++i;
            std::vector<int64_t> sizes;
            skip_spaces();
            while (i < text.size() && text[i] != ']') {
                if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
                    return {};
                }
                int64_t v = 0;
                while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
                    v = v * 10 + (text[i] - '0');
                    ++i;
                }
                sizes.push_back(v);
                skip_spaces();
                if (i < text.size() && text[i] == ',') {
                    ++i;
                    skip_spaces();
                }
            }
            if (i >= text.size()) {
                return {};  // unterminated
            }
            ++i;  // ']'
            out.m_inputs.emplace_back(std::move(sizes));
        } else {
            return {};
        }
        skip_spaces();
        if (i < text.size()) {
            if (text[i] != ',') {
                return {};
            }
            ++i;
            skip_spaces();
        }
    }
    return out;
}

std::vector<int64_t> ShapeList::sizes(size_t i) const {
    return isTensor(i) ? *m_inputs[i] : std::vector<int64_t>();
}

int64_t ShapeList::numel(size_t i) const {
    if (!isTensor(i)) {
        return 0;
    }
    int64_t n = 1;
    for (int64_t s : *m_inputs[i]) {
        n *= s;
    }
    return n;
}

int64_t ShapeList::totalNumel() const {
    int64_t n = 0;
    for (size_t i = 0; i < m_inputs.size(); ++i) {
        n += numel(i);
    }
    return n;
}

double ShapeList::matmulFlops(const std::string& op) const {
    const bool add = op == "aten::addmm" || op == "aten::baddbmm";
    const auto a = sizes(add ? 1 : 0);
    const auto b = sizes(add ? 2 : 1);
    if (op == "aten::mm" || op == "aten::addmm") {
        if (a.size() == 2 && b.size() == 2) {
            return 2.0 * double(a[0]) * double(a[1]) * double(b[1]);
        }
    } else if (op == "aten::bmm" || op == "aten::baddbmm") {
        if (a.size() == 3 && b.size() == 3) {
            return 2.0 * double(a[0]) * double(a[1]) * double(a[2]) * double(b[2]);
        }
    }
    return 0.0;
}

bool ShapeList::isMatmul(const std::string& op) {
    return op == "aten::mm" || op == "aten::addmm" || op == "aten::bmm" || op == "aten::baddbmm";
}

}  // namespace memscope

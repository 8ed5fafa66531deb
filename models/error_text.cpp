#include "error_text.h"

namespace memscope {

QString errorText(const std::exception& error) {
    return QString::fromUtf8(error.what());
}

QString errorText(const std::string& message) {
    return QString::fromUtf8(message.data(), qsizetype(message.size()));
}

}  // namespace memscope

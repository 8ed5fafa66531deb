#pragma once

#include <QLocale>
#include <QString>

#include <cstdint>

namespace memscope {

// "151.8 MiB": bytes in binary units with one decimal, in the user's locale.
inline QString humanBytes(int64_t bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

}  // namespace memscope

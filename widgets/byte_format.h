#pragma once

#include <QLocale>
#include <QString>

#include <cstdint>

namespace memscope {

// "151.8 MiB": bytes in binary units with one decimal, in the user's locale.
inline QString humanBytes(int64_t bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

// "1,048,576": exact bytes with the locale's digit grouping.
inline QString exactBytes(int64_t bytes) {
    return QLocale().toString(qint64(bytes));
}

}  // namespace memscope

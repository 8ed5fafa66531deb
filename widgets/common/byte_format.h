#pragma once

#include "run/run_summary.h"

#include <QLocale>
#include <QString>

#include <cmath>
#include <cstdint>

namespace memscope {

// The GUI's byte counts as text: one home for every widget.

// "151.8 MiB": bytes in binary units with one decimal, in the user's locale.
inline QString humanBytes(int64_t bytes) {
    return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeIecFormat);
}

// "1,048,576": exact bytes with the locale's digit grouping.
inline QString exactBytes(int64_t bytes) {
    return QLocale().toString(qint64(bytes));
}

// "151.8 MiB" as the CLI, reports and exports spell it (formatBytes), so that a figure reads the
// same in the GUI and in a write-up made from the CLI.
inline QString bytesText(int64_t bytes) {
    return QString::fromStdString(formatBytes(bytes));
}
// "+1.5 MiB", "-24 B", "0 B": a difference of bytes, its sign always shown.
inline QString signedBytesText(int64_t bytes) {
    const QString text = bytesText(bytes < 0 ? -bytes : bytes);
    return bytes > 0 ? QStringLiteral("+") + text : bytes < 0 ? QStringLiteral("-") + text : text;
}
inline QString bytesText(double bytes) {
    return bytesText(int64_t(std::llround(bytes)));
}

}  // namespace memscope

#pragma once

#include "run/run_summary.h"

#include <QLocale>
#include <QString>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace memscope {

// The GUI's byte counts as text: one home for every widget, and one way to write bytes
// (bytesText), the one the CLI, the reports and the exports use.

// "1,048,576": exact bytes with the locale's digit grouping.
inline QString exactBytes(int64_t bytes) {
    return QLocale().toString(qint64(bytes));
}

// "151.8 MiB" as the CLI, reports and exports spell it (formatBytes), so that a figure reads the
// same in the GUI and in a write-up made from the CLI. Any integer type (int64_t, qint64).
template <typename Bytes, std::enable_if_t<std::is_integral_v<Bytes>, bool> = true>
QString bytesText(Bytes bytes) {
    return QString::fromStdString(formatBytes(int64_t(bytes)));
}
// "+1.5 MiB", "-24 B", "0 B": a difference of bytes, its sign always shown.
inline QString signedBytesText(int64_t bytes) {
    const QString text = bytesText(bytes < 0 ? -bytes : bytes);
    return bytes > 0 ? QStringLiteral("+") + text : bytes < 0 ? QStringLiteral("-") + text : text;
}
// A fractional count (a prediction, a rate), rounded to whole bytes.
inline QString bytesText(double bytes) {
    return bytesText(int64_t(std::llround(bytes)));
}

}  // namespace memscope

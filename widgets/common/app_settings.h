#pragma once

#include <QSettings>

namespace memscope {

// Memscope's settings, named explicitly rather than through QCoreApplication's names, so that
// tests and tools that build windows without setting the application name use the same store.
inline QSettings appSettings() {
    return QSettings{QStringLiteral("Memscope"), QStringLiteral("Memscope")};
}

}  // namespace memscope

// Linked into every widgets test (tests/CMakeLists.txt): the suite keeps its settings in a
// folder of its own, made empty for it and removed after it. Before, every suite read and wrote
// one store (QSettings does not follow QStandardPaths' test mode to a folder per suite), so a
// suite running beside another could start from what the other had just saved: the Run panel
// of test_live_run once read a form of several processes that test_rank_run had left there.

#include <QSettings>
#include <QTemporaryDir>

namespace {

struct OwnSettings {
    QTemporaryDir dir;
    OwnSettings() {
        if (dir.isValid()) {
            QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
            QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
        }
    }
};

const OwnSettings k_own_settings;

}  // namespace

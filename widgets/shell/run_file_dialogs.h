#pragma once

#include "run/run_range.h"

#include <QCoreApplication>
#include <QString>

#include <functional>
#include <optional>

class QWidget;

namespace memscope {

// The file dialogs of File > Open Run, Open Part of Run, Compare With Run and Save Run As: the
// same filters everywhere, starting in (and remembering) the folder of the last run opened or
// saved. Each returns the path chosen, or nothing when the user cancelled.
class RunFileDialogs {
    Q_DECLARE_TR_FUNCTIONS(memscope::RunFileDialogs)

  public:
    static std::optional<QString> openRun(QWidget* parent);
    // A run file and the range of it to load (event indices or times, RunRange::parse); a range
    // that does not parse goes to `report` (title, message) and is asked for again.
    static std::optional<std::pair<QString, RunRange>> openRunPart(
        QWidget* parent, const std::function<void(const QString&, const QString&)>& report);
    static std::optional<QString> compareWith(QWidget* parent);
    // `current`: the file of the run shown (empty: never saved), the suggestion's base name.
    static std::optional<QString> saveRun(QWidget* parent, const QString& current);

  private:
    // Any run: files, snapshots and multi-rank run directories (by their manifest).
    static QString anyRunFilter();
};

}  // namespace memscope

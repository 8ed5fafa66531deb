#include "shell/run_file_dialogs.h"

#include "common/app_settings.h"
#include "error_text.h"
#include "model/input_error.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLineEdit>

namespace memscope {

namespace {

constexpr auto k_last_dir_key = "main_window/last_run_dir";

QString lastDirectory() {
    return appSettings().value(QLatin1String(k_last_dir_key), QDir::currentPath()).toString();
}

void rememberDirectory(const QString& path) {
    appSettings().setValue(QLatin1String(k_last_dir_key), QFileInfo(path).absolutePath());
}

}  // namespace

QString RunFileDialogs::anyRunFilter() {
    return tr(
        "Runs and snapshots (*.memscope *.pickle *.pkl manifest.json);;Memscope runs "
        "(*.memscope);;Multi-rank runs (manifest.json);;PyTorch memory snapshots (*.pickle "
        "*.pkl);;All files (*)");
}

std::optional<QString> RunFileDialogs::openRun(QWidget* parent) {
    const QString path =
        QFileDialog::getOpenFileName(parent, tr("Open Run"), lastDirectory(), anyRunFilter());
    if (path.isEmpty()) {
        return std::nullopt;
    }
    rememberDirectory(path);
    return path;
}

std::optional<std::pair<QString, RunRange>> RunFileDialogs::openRunPart(
    QWidget* parent, const std::function<void(const QString&, const QString&)>& report) {
    const QString path = QFileDialog::getOpenFileName(
        parent, tr("Open Part of Run"), lastDirectory(),
        tr("Runs and snapshots (*.memscope *.pickle *.pkl);;Memscope runs (*.memscope);;PyTorch "
           "memory snapshots (*.pickle *.pkl);;All files (*)"));
    if (path.isEmpty()) {
        return std::nullopt;
    }
    rememberDirectory(path);
    QString text;
    for (;;) {
        bool ok = false;
        text = QInputDialog::getText(
            parent, tr("Open Part of Run"),
            tr("Range to load: event indices (1000000:2000000) or times since the start with a "
               "unit (2.5s:4s, 300ms:, :1.5min).\nAllocations live at its start count as present "
               "from the start. Leave empty for the whole run."),
            QLineEdit::Normal, text, &ok);
        if (!ok) {
            return std::nullopt;
        }
        try {
            return std::make_pair(path, RunRange::parse(text.toStdString()));
        } catch (const InputError& e) {
            report(tr("Not a Range"), errorText(e));
        }
    }
}

std::optional<QString> RunFileDialogs::compareWith(QWidget* parent) {
    const QString path = QFileDialog::getOpenFileName(parent, tr("Compare With Run"),
                                                      lastDirectory(), anyRunFilter());
    if (path.isEmpty()) {
        return std::nullopt;
    }
    return path;
}

std::optional<QString> RunFileDialogs::saveRun(QWidget* parent, const QString& current) {
    QString suggestion = current;
    if (suggestion.isEmpty() || !suggestion.endsWith(QLatin1String(".memscope"))) {
        const QString base =
            current.isEmpty() ? QStringLiteral("run") : QFileInfo(current).completeBaseName();
        suggestion = QDir(lastDirectory()).filePath(base + QStringLiteral(".memscope"));
    }
    const QString path = QFileDialog::getSaveFileName(parent, tr("Save Run"), suggestion,
                                                      tr("Memscope runs (*.memscope)"));
    if (path.isEmpty()) {
        return std::nullopt;
    }
    rememberDirectory(path);
    return path;
}

}  // namespace memscope

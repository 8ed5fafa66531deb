#include "shell/recent_files_menu.h"

#include "common/app_settings.h"

#include <QAction>
#include <QDir>
#include <QEvent>
#include <QFileInfo>

namespace memscope {

namespace {

constexpr auto k_recent_key = "main_window/recent_files";

}  // namespace

RecentFilesMenu::RecentFilesMenu(QWidget* parent) : QMenu(parent) {
    setObjectName(QStringLiteral("menu_recent"));
    m_clear = new QAction(this);
    m_clear->setObjectName(QStringLiteral("action_clear_recent"));
    connect(m_clear, &QAction::triggered, this, &RecentFilesMenu::clearFiles);
    retranslateUi();
}

QStringList RecentFilesMenu::files() const {
    return appSettings().value(QLatin1String(k_recent_key)).toStringList();
}

void RecentFilesMenu::addFile(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxFiles) {
        list.removeLast();
    }
    appSettings().setValue(QLatin1String(k_recent_key), list);
    rebuild();
}

void RecentFilesMenu::clearFiles() {
    appSettings().remove(QLatin1String(k_recent_key));
    rebuild();
}

void RecentFilesMenu::rebuild() {
    // Not clear(): it would delete Clear Recent Files, which this menu owns.
    for (QAction* action : actions()) {
        removeAction(action);
        if (action != m_clear) {
            delete action;
        }
    }
    const QStringList list = files();
    int number = 1;
    for (const QString& file : list) {
        QAction* action =
            addAction(QStringLiteral("&%1 %2").arg(number++).arg(QDir::toNativeSeparators(file)));
        action->setData(file);
        action->setEnabled(QFileInfo::exists(file));
        connect(action, &QAction::triggered, this, [this, file] { emit fileChosen(file); });
    }
    if (!list.isEmpty()) {
        addSeparator();
    }
    addAction(m_clear);
    m_clear->setEnabled(!list.isEmpty());
}

void RecentFilesMenu::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QMenu::changeEvent(event);
}

void RecentFilesMenu::retranslateUi() {
    setTitle(tr("Open &Recent"));
    m_clear->setText(tr("Clear Recent Files"));
    rebuild();
}

}  // namespace memscope

#include "shell/view_tabs.h"

#include <QFrame>
#include <QScrollArea>
#include <QVariant>

namespace memscope {

ViewTabs::ViewTabs(QWidget* parent) : QTabWidget(parent) {
    setObjectName(QStringLiteral("view_tabs"));
    setDocumentMode(true);
}

void ViewTabs::addTimeline(QWidget* timeline) {
    m_timeline = timeline;
    addTab(timeline, QString());
}

QWidget* ViewTabs::addPage(QWidget* page, const QString& name, bool needs_run, bool visible) {
    auto* area = new QScrollArea(this);
    area->setObjectName(name);
    area->setProperty("needs_run", needs_run);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setWidget(page);
    const int index = addTab(area, QString());
    setTabVisible(index, visible);
    return area;
}

int ViewTabs::indexOfPage(QWidget* page) const {
    for (int i = 0; i < count(); ++i) {
        if (pageAt(i) == page) {
            return i;
        }
    }
    return -1;
}

QWidget* ViewTabs::pageAt(int index) const {
    QWidget* tab = widget(index);
    if (auto* area = qobject_cast<QScrollArea*>(tab)) {
        return area->widget();
    }
    return tab;
}

void ViewTabs::setRunPagesVisible(bool visible) {
    for (int i = 0; i < count(); ++i) {
        if (widget(i)->property("needs_run").toBool()) {
            setTabVisible(i, visible);
        }
    }
}

QString ViewTabs::nameAt(int index) const {
    QWidget* tab = widget(index);
    return tab == m_timeline ? QStringLiteral("timeline") : tab->objectName();
}

QStringList ViewTabs::viewNames(bool all) const {
    QStringList names;
    for (int i = 0; i < count(); ++i) {
        if (all || isTabVisible(i)) {
            names << nameAt(i);
        }
    }
    return names;
}

bool ViewTabs::selectView(const QString& name) {
    for (int i = 0; i < count(); ++i) {
        if (nameAt(i) == name && isTabVisible(i)) {
            setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

}  // namespace memscope

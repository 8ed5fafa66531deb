#include "shell/module_filter_chip.h"

#include "pages/module_page.h"

#include <QColor>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPalette>
#include <QToolButton>

#include <algorithm>
#include <cstdint>

namespace memscope {

ModuleFilterChip::ModuleFilterChip(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("module_filter_chip"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette chip_palette = palette();
    chip_palette.setColor(QPalette::Window, QColor(255, 240, 215));
    setPalette(chip_palette);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 2, 2, 2);
    m_label = new QLabel(this);
    m_label->setObjectName(QStringLiteral("module_filter_text"));
    m_clear = new QToolButton(this);
    m_clear->setObjectName(QStringLiteral("module_filter_clear"));
    m_clear->setText(QStringLiteral("\u2715"));
    m_clear->setAutoRaise(true);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_clear);
    setVisible(false);
    retranslateUi();
}

void ModuleFilterChip::follow(ModulePage* page) {
    m_page = page;
    connect(page, &ModulePage::moduleFilterChanged, this, &ModuleFilterChip::showFilter);
    connect(m_clear, &QToolButton::clicked, page, &ModulePage::clearModuleFilter);
    showFilter();
}

void ModuleFilterChip::showFilter() {
    const QString path = m_page ? m_page->moduleFilter() : QString();
    setVisible(!path.isEmpty());
    m_label->setText(
        path.isEmpty()
            ? QString()
            : tr("Filtered to module %1: %n allocation(s) highlighted", nullptr,
                 int(std::min<qsizetype>(m_page->filteredAllocations().size(), INT32_MAX)))
                  .arg(path));
}

void ModuleFilterChip::retranslateUi() {
    m_clear->setToolTip(tr("Clear the module filter"));
    showFilter();
}

void ModuleFilterChip::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QFrame::changeEvent(event);
}

}  // namespace memscope

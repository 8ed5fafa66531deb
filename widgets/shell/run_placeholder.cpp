#include "shell/run_placeholder.h"

#include <QEvent>
#include <QFont>
#include <QLabel>
#include <QVBoxLayout>

namespace memscope {

RunPlaceholder::RunPlaceholder(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("placeholder"));
    auto* layout = new QVBoxLayout(this);
    layout->addStretch();

    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("placeholder_title"));
    m_title->setAlignment(Qt::AlignCenter);
    QFont title_font = m_title->font();
    title_font.setPointSizeF(title_font.pointSizeF() * 1.5);
    m_title->setFont(title_font);
    layout->addWidget(m_title);

    m_detail = new QLabel(this);
    m_detail->setObjectName(QStringLiteral("placeholder_detail"));
    m_detail->setAlignment(Qt::AlignCenter);
    m_detail->setWordWrap(true);
    m_detail->setEnabled(false);  // the disabled palette greys the secondary line
    layout->addWidget(m_detail);
    layout->addStretch();
    retranslateUi();
}

void RunPlaceholder::retranslateUi() {
    m_title->setText(tr("No run is open."));
    m_detail->setText(
        tr("Press Run (F5) to train with the settings on the left and watch the memory live, "
           "open a recorded run or a PyTorch snapshot with File > Open Run (Ctrl+O), or drop "
           "one here."));
}

void RunPlaceholder::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

}  // namespace memscope

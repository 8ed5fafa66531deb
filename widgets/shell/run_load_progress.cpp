#include "shell/run_load_progress.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QMetaObject>
#include <QProgressBar>
#include <QPushButton>

#include <algorithm>
#include <cmath>

namespace memscope {

RunLoadProgress::RunLoadProgress(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("load_progress"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_bar = new QProgressBar(this);
    m_bar->setObjectName(QStringLiteral("load_progress_bar"));
    m_bar->setRange(0, 1000);
    m_bar->setMaximumWidth(200);
    m_bar->setTextVisible(true);
    layout->addWidget(m_bar);
    m_cancel_button = new QPushButton(this);
    m_cancel_button->setObjectName(QStringLiteral("load_cancel"));
    layout->addWidget(m_cancel_button);
    connect(m_cancel_button, &QPushButton::clicked, this, &RunLoadProgress::cancel);
    retranslateUi();
    hide();
}

void RunLoadProgress::start(bool cancellable) {
    m_cancel = false;
    m_posted = -1;
    if (cancellable) {
        m_bar->setRange(0, 1000);
        m_bar->setValue(0);
    } else {
        m_bar->setRange(0, 0);  // busy: this loader reports no progress
    }
    m_cancel_button->setVisible(cancellable);
    m_cancel_button->setEnabled(true);
    show();
}

void RunLoadProgress::finish() {
    hide();
}

void RunLoadProgress::report(double fraction) {
    const int per_mille = int(std::lround(std::min(1.0, std::max(0.0, fraction)) * 1000));
    if (m_posted.exchange(per_mille) == per_mille) {
        return;
    }
    QMetaObject::invokeMethod(
        m_bar, [bar = m_bar, per_mille] { bar->setValue(std::max(bar->value(), per_mille)); },
        Qt::QueuedConnection);
}

void RunLoadProgress::setFraction(double fraction) {
    const int per_mille = int(std::lround(std::min(1.0, std::max(0.0, fraction)) * 1000));
    m_bar->setValue(std::max(m_bar->value(), per_mille));
}

void RunLoadProgress::cancel() {
    m_cancel = true;
    m_cancel_button->setEnabled(false);
    emit cancelRequested();
}

int RunLoadProgress::value() const {
    return m_bar->value();
}

void RunLoadProgress::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
    }
    QWidget::changeEvent(event);
}

void RunLoadProgress::retranslateUi() {
    m_cancel_button->setText(tr("Cancel"));
    m_cancel_button->setToolTip(tr("Stop opening this run"));
    m_bar->setFormat(tr("Opening %p%"));
}

}  // namespace memscope

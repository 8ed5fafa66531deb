#include "shell/run_status_bar.h"

#include "common/byte_format.h"
#include "shell/run_load_progress.h"

#include <QCoreApplication>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

#include <algorithm>
#include <cmath>

namespace memscope {

namespace {

QString etaText(double seconds) {
    if (seconds < 60) {
        return RunStatusBar::tr("%1 s").arg(QString::number(std::ceil(seconds)));
    }
    const int total = int(std::ceil(seconds));
    return RunStatusBar::tr("%1 min %2 s").arg(total / 60).arg(total % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

RunStatusBar::RunStatusBar(QStatusBar* bar) : QObject(bar) {
    m_step_label = new QLabel(bar);
    m_step_label->setObjectName(QStringLiteral("status_step"));
    bar->addPermanentWidget(m_step_label);
    m_progress = new QProgressBar(bar);
    m_progress->setObjectName(QStringLiteral("status_progress"));
    m_progress->setMaximumWidth(160);
    m_progress->setTextVisible(false);
    m_progress->hide();
    bar->addPermanentWidget(m_progress);
    m_load_progress = new RunLoadProgress(bar);
    bar->addPermanentWidget(m_load_progress);
    m_eta_label = new QLabel(bar);
    m_eta_label->setObjectName(QStringLiteral("status_eta"));
    bar->addPermanentWidget(m_eta_label);
    m_peak_label = new QLabel(bar);
    m_peak_label->setObjectName(QStringLiteral("status_peak"));
    bar->addPermanentWidget(m_peak_label);
}

bool RunStatusBar::hasPeak() const {
    return !m_peak_label->text().isEmpty();
}

void RunStatusBar::runStarted(qint64 total) {
    m_progress->setRange(0, int(std::max<qint64>(total, 0)));
    m_progress->setValue(0);
    m_progress->show();
    m_step_label->setText(tr("Starting..."));
    m_eta_label->clear();
    m_peak_label->clear();
}

void RunStatusBar::stepped(qint64 step, qint64 total, double secondsLeft, qint64 peakBytes) {
    if (total <= 0) {
        // A run whose length is its own (a Python program): a busy bar, the steps so far.
        m_progress->setRange(0, 0);
        m_step_label->setText(tr("Step %1").arg(step));
        m_eta_label->clear();
        showPeak(peakBytes);
        return;
    }
    m_progress->setRange(0, int(total));
    m_progress->setValue(int(step));
    m_step_label->setText(tr("Step %1 of %2").arg(step).arg(total));
    m_eta_label->setText(step < total ? tr("about %1 left").arg(etaText(secondsLeft))
                                      : tr("finishing"));
    showPeak(peakBytes);
}

void RunStatusBar::runFinished(const QString& status) {
    m_progress->hide();
    m_eta_label->clear();
    m_step_label->setText(status);
}

void RunStatusBar::showPeak(qint64 bytes) {
    m_peak_label->setText(tr("Peak %1").arg(bytesText(bytes)));
}

}  // namespace memscope

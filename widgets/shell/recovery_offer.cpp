#include "shell/recovery_offer.h"

#include <QFile>
#include <QPushButton>

namespace memscope {

RecoveryOffer::RecoveryOffer(const QStringList& journals, QWidget* parent)
    : QMessageBox(QMessageBox::Question, tr("Recover Unfinished Runs"),
                  tr("%n run(s) ended before they were saved (the app was closed or crashed). "
                     "Recover what they recorded?",
                     nullptr, int(journals.size())),
                  QMessageBox::NoButton, parent),
      m_journals(journals) {
    setObjectName(QStringLiteral("recovery_offer"));
    setDetailedText(journals.join(QLatin1Char('\n')));
    QPushButton* recover = addButton(tr("Recover"), QMessageBox::AcceptRole);
    QPushButton* discard = addButton(tr("Discard"), QMessageBox::DestructiveRole);
    addButton(tr("Later"), QMessageBox::RejectRole);
    setDefaultButton(recover);
    setWindowModality(Qt::NonModal);
    setAttribute(Qt::WA_DeleteOnClose);
    connect(this, &QMessageBox::buttonClicked, this, [this, recover, discard](QAbstractButton* b) {
        if (b == recover) {
            emit recoverChosen(m_journals);
        } else if (b == discard) {
            for (const QString& journal : m_journals) {
                QFile::remove(journal);
            }
            emit discarded(m_journals);
        }
    });
}

}  // namespace memscope

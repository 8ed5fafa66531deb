#pragma once

#include <QMessageBox>
#include <QStringList>

namespace memscope {

// "N runs ended before they were saved. Recover what they recorded?" with Recover, Discard and
// Later; non-modal, so that the window stays usable and nothing waits for an answer. Recover
// emits recoverChosen(); Discard deletes the journals and emits discarded(). Deletes itself when
// closed.
class RecoveryOffer : public QMessageBox {
    Q_OBJECT

  public:
    RecoveryOffer(const QStringList& journals, QWidget* parent);

  signals:
    void recoverChosen(const QStringList& journals);
    void discarded(const QStringList& journals);

  private:
    QStringList m_journals;
};

}  // namespace memscope

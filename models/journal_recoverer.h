#pragma once

#include <QObject>
#include <QStringList>

namespace memscope {

// Runs that died while recording left journals (AppLocalDataLocation/runs/*.journal): finds
// them, and rebuilds each one's run file on a worker thread (io/journal_recovery.h), deleting
// the journal once its run is saved.
class JournalRecoverer : public QObject {
    Q_OBJECT

  public:
    explicit JournalRecoverer(QObject* parent = nullptr);

    // The folder recorded runs are kept in (AppLocalDataLocation/runs).
    static QString runsDirectory();
    // Journals in `dir` (empty: runsDirectory()), leaving out any written to in the last 10
    // seconds: another Memscope may be recording it.
    static QStringList unfinishedJournals(const QString& dir = QString());
    // The journal a run file being recorded at RUN keeps beside it.
    static QString journalOf(const QString& run);
    // Rebuilds RUN from JOURNAL (any thread), saves it and deletes the journal; what was
    // recovered ("3 steps, 1,200 events..."). Throws std::exception naming the file on failure.
    static QString recoverRun(const QString& journal, const QString& run);
    // Recovers `journals` on a worker; recovered() reports the result.
    void recover(const QStringList& journals);

  signals:
    // The run files written (oldest first) and one line per journal for the log.
    void recovered(const QStringList& runs, const QStringList& lines);
};

}  // namespace memscope

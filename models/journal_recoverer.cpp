#include "journal_recoverer.h"

#include "error_text.h"
#include "when_finished.h"

#include "io/journal_recovery.h"
#include "io/run_file.h"
#include "io/run_journal.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QtConcurrent/QtConcurrentRun>

#include <exception>
#include <utility>

namespace memscope {

JournalRecoverer::JournalRecoverer(QObject* parent) : QObject(parent) {}

QString JournalRecoverer::runsDirectory() {
    return QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) +
           QStringLiteral("/runs");
}

QStringList JournalRecoverer::unfinishedJournals(const QString& dir) {
    const QString runs = dir.isEmpty() ? runsDirectory() : dir;
    const QDateTime recent = QDateTime::currentDateTime().addSecs(-10);
    QStringList out;
    for (const std::string& journal :
         JournalRecovery::findJournals(QFile::encodeName(runs).toStdString())) {
        const QString path = QFile::decodeName(QByteArray::fromStdString(journal));
        if (QFileInfo(path).lastModified() < recent) {
            out << path;
        }
    }
    return out;
}

QString JournalRecoverer::journalOf(const QString& run) {
    return QFile::decodeName(
        QByteArray::fromStdString(RunJournal::pathFor(QFile::encodeName(run).toStdString())));
}

QString JournalRecoverer::recoverRun(const QString& journal, const QString& run) {
    const JournalRecovery::Result result =
        JournalRecovery::recover(QFile::encodeName(journal).toStdString());
    RunFile::save(result.trace, QFile::encodeName(run).toStdString());
    QFile::remove(journal);
    return QString::fromStdString(result.describe());
}

void JournalRecoverer::recover(const QStringList& journals) {
    using Result = std::pair<QStringList, QStringList>;  // runs, lines
    auto work = [journals] {
        Result r;
        for (const QString& journal : journals) {
            const QString run = QFile::decodeName(QByteArray::fromStdString(
                RunJournal::runPathFor(QFile::encodeName(journal).toStdString())));
            try {
                const QString what = recoverRun(journal, run);
                r.first << run;
                r.second << tr("Recovered %1: %2").arg(QDir::toNativeSeparators(run), what);
            } catch (const std::exception& e) {
                r.second << tr("Could not recover %1: %2")
                                .arg(QDir::toNativeSeparators(journal), errorText(e));
            }
        }
        return r;
    };
    whenFinished(this, QtConcurrent::run(work),
                 [this](const Result& r) { emit recovered(r.first, r.second); });
}

}  // namespace memscope

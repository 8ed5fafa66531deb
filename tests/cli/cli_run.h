#pragma once

// Runs memscope-cli (MEMSCOPE_CLI_PATH, set by CMake) as a user does, for the CLI suites.

#include <QProcess>
#include <QString>
#include <QStringList>

struct Run {
    int exit_code = -1;
    QString out;
    QString err;
};

inline Run cli(const QStringList& args) {
    QProcess p;
    p.start(MEMSCOPE_CLI_PATH, args);
    p.waitForFinished(300'000);
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

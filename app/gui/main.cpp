// memscope: the desktop GUI. Options: --lang CODE picks the interface language (default: the
// system's), --quit-after-ms N quits after N ms (smoke tests, screenshots).

#include <QApplication>
#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QLocale>
#include <QStringList>
#include <QTimer>
#include <QTranslator>
#include <cstdio>

#include "main_window.h"
#include "memscope_version.h"
#include "translation_loader.h"

namespace {

// The language must be known before the parser is set up, so that --help speaks it too; the
// parser validates the option afterwards like any other.
QString requested_language(const QStringList& arguments) {
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString& argument = arguments.at(i);
        if (argument == QLatin1String("--")) {
            break;
        }
        if (argument == QLatin1String("--lang") && i + 1 < arguments.size()) {
            return arguments.at(i + 1);
        }
        if (argument.startsWith(QLatin1String("--lang="))) {
            return argument.mid(7);
        }
    }
    return {};
}

void print_error(const QString& message) {
    std::fprintf(stderr, "memscope: %s\n", qPrintable(message));
}

}  // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral(MEMSCOPE_NAME));
    QApplication::setApplicationVersion(QStringLiteral(MEMSCOPE_VERSION));
    QApplication::setOrganizationName(QStringLiteral(MEMSCOPE_NAME));
    QApplication::setDesktopFileName(QStringLiteral("memscope"));  // resources/memscope.desktop

    const QString language = requested_language(QApplication::arguments());
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    const bool known_language = language.isEmpty() || locale.language() != QLocale::C;
    if (!language.isEmpty() && known_language) {
        QLocale::setDefault(locale);  // numbers and dates follow the chosen language too
    }
    QTranslator memscope_translator;
    if (known_language && memscope::loadMemscopeTranslation(memscope_translator, locale)) {
        QApplication::installTranslator(&memscope_translator);
    } else if (known_language && !language.isEmpty() && locale.language() != QLocale::English) {
        print_error(QCoreApplication::translate("main", "No %1 translation; showing English.")
                        .arg(QLocale::languageToString(locale.language())));
    }
    QTranslator qt_translator;
    if (known_language && memscope::loadQtTranslation(qt_translator, locale)) {
        QApplication::installTranslator(&qt_translator);
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Memory profiler for Tiny LLaMA training."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption lang_option(
        QStringLiteral("lang"),
        QCoreApplication::translate("main",
                                    "Interface language, e.g. en or de (default: the system's)."),
        QCoreApplication::translate("main", "code"));
    parser.addOption(lang_option);
    const QCommandLineOption quit_after_option(
        QStringLiteral("quit-after-ms"),
        QCoreApplication::translate("main", "Quit after the given number of milliseconds."),
        QCoreApplication::translate("main", "ms"));
    parser.addOption(quit_after_option);
    parser.process(app);

    if (!known_language) {
        print_error(QCoreApplication::translate("main", "Unknown language: %1")
                        .arg(parser.value(lang_option)));
        return 1;
    }

    if (parser.isSet(quit_after_option)) {
        bool ok = false;
        const int quit_after_ms = parser.value(quit_after_option).toInt(&ok);
        if (!ok || quit_after_ms < 0) {
            print_error(QCoreApplication::translate(
                            "main", "--quit-after-ms needs a whole number of at least 0, not: %1")
                            .arg(parser.value(quit_after_option)));
            return 1;
        }
        QTimer::singleShot(quit_after_ms, &app, &QCoreApplication::quit);
    }

    memscope::MainWindow window;
    window.show();
    return QApplication::exec();
}

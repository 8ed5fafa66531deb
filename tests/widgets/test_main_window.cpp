#include <QAction>
#include <QCoreApplication>
#include <QFile>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTranslator>
#include <QtTest>

#include "main_window.h"
#include "memscope_version.h"
#include "translation_loader.h"

namespace {

QMenu* find_menu(const memscope::MainWindow& window, const QString& object_name) {
    return window.menuBar()->findChild<QMenu*>(object_name);
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        // Keeps the window geometry the test saves away from the user's real settings.
        QStandardPaths::setTestModeEnabled(true);
    }

    void title_names_the_application() {
        memscope::MainWindow window;
        QVERIFY(window.windowTitle().contains(QLatin1String("Memscope")));
        QVERIFY(!window.windowIcon().isNull());
    }

    void menus_hold_quit_and_about() {
        memscope::MainWindow window;
        QMenu* file_menu = find_menu(window, QStringLiteral("menu_file"));
        QVERIFY(file_menu);
        QCOMPARE(file_menu->title(), QStringLiteral("&File"));

        auto* quit = window.findChild<QAction*>(QStringLiteral("action_quit"));
        QVERIFY(quit);
        QCOMPARE(quit->shortcut(), QKeySequence(QStringLiteral("Ctrl+Q")));
        QVERIFY(file_menu->actions().contains(quit));

        auto* about = window.findChild<QAction*>(QStringLiteral("action_about"));
        QVERIFY(about);
        QCOMPARE(about->text(), QStringLiteral("&About Memscope"));
        QMenu* help_menu = find_menu(window, QStringLiteral("menu_help"));
        QVERIFY(help_menu);
        QVERIFY(help_menu->actions().contains(about));
    }

    void about_text_names_all_versions() {
        const QString text = memscope::MainWindow::aboutText();
        QVERIFY(text.contains(QLatin1String(MEMSCOPE_VERSION)));
        QVERIFY(text.contains(QLatin1String(qVersion())));
        QVERIFY(text.contains(QStringLiteral("LibTorch")));
    }

    void placeholder_says_no_run_is_open() {
        memscope::MainWindow window;
        auto* title = window.findChild<QLabel*>(QStringLiteral("placeholder_title"));
        QVERIFY(title);
        QCOMPARE(title->text(), QStringLiteral("No run is open."));
    }

    void catalogues_are_embedded() {
        QVERIFY(QFile::exists(memscope::translationResourceDir() + "/memscope_en.qm"));
        QVERIFY(QFile::exists(memscope::translationResourceDir() + "/memscope_de.qm"));
    }

    void german_translation_loads_and_applies() {
        QTranslator translator;
        QVERIFY(memscope::loadMemscopeTranslation(translator, QLocale(QLocale::German)));
        QCOMPARE(translator.translate("memscope::MainWindow", "&File"), QStringLiteral("&Datei"));
        QCOMPARE(translator.translate("main", "Unknown language: %1"),
                 QStringLiteral("Unbekannte Sprache: %1"));

        // A regional variant falls back to the language's catalogue.
        QTranslator austrian;
        QVERIFY(memscope::loadMemscopeTranslation(austrian, QLocale(QStringLiteral("de_AT"))));

        // An open window follows a language change (delivered as a posted event).
        memscope::MainWindow window;
        QVERIFY(QCoreApplication::installTranslator(&translator));
        QMenu* file_menu = find_menu(window, QStringLiteral("menu_file"));
        QVERIFY(file_menu);
        QTRY_COMPARE(file_menu->title(), QStringLiteral("&Datei"));
        auto* about = window.findChild<QAction*>(QStringLiteral("action_about"));
        QCOMPARE(about->text(), QStringLiteral("&Über Memscope"));
        QVERIFY(QCoreApplication::removeTranslator(&translator));
        QTRY_COMPARE(file_menu->title(), QStringLiteral("&File"));
    }

    void window_geometry_survives_a_restart() {
        {
            memscope::MainWindow window;
            window.resize(777, 555);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.close());  // closing saves the geometry
        }
        memscope::MainWindow restored;
        QCOMPARE(restored.size(), QSize(777, 555));
    }

    void unknown_language_has_no_catalogue() {
        QTranslator translator;
        QVERIFY(!memscope::loadMemscopeTranslation(translator, QLocale(QLocale::Japanese)));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"

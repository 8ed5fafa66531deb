#include "shell/translation_loader.h"

#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace memscope {

QString translationResourceDir() {
    return QStringLiteral(":/i18n");
}

bool loadMemscopeTranslation(QTranslator& translator, const QLocale& locale) {
    return translator.load(locale, QStringLiteral("memscope"), QStringLiteral("_"),
                           translationResourceDir());
}

bool loadQtTranslation(QTranslator& translator, const QLocale& locale) {
    return translator.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath));
}

}  // namespace memscope

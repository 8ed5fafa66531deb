#pragma once

#include <QString>

class QLocale;
class QTranslator;

namespace memscope {

// Where qt_add_translations embeds the compiled catalogues (memscope_en.qm, memscope_de.qm, ...)
// in memscope_widgets' resources.
QString translationResourceDir();

// Loads Memscope's own catalogue for locale into translator, trying the locale's UI languages in
// order (de_AT falls back to de). Returns false when none is embedded; the source strings, which
// are English, are then shown.
bool loadMemscopeTranslation(QTranslator& translator, const QLocale& locale);

// Loads Qt's own catalogue (standard dialog buttons and the like) from the Qt installation when
// it is installed there; many systems do not install it.
bool loadQtTranslation(QTranslator& translator, const QLocale& locale);

}  // namespace memscope

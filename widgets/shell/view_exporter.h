#pragma once

#include "outcome.h"

#include <QSize>
#include <QString>

class QWidget;

namespace memscope {

// Writes a view as a PNG image or an SVG drawing, by the file's suffix (File > Export View,
// --screenshot). The timeline draws itself at the target size (TimelineView::renderImage and
// renderTo); any other widget is rendered resized to it for the moment.
class ViewExporter {
  public:
    // `scale` multiplies a PNG's pixels (1-4); an empty `size` keeps the widget's own. `title`
    // names the drawing in an SVG. Fails with the reason when it cannot be written.
    static Outcome write(QWidget* widget, const QString& path, double scale, const QSize& size,
                         const QString& title);
};

}  // namespace memscope

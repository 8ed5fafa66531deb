#include "shell/view_exporter.h"

#include "timeline/timeline_view.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

#include <algorithm>

#include "memscope_version.h"

namespace memscope {

Outcome ViewExporter::write(QWidget* widget, const QString& path, double scale, const QSize& size,
                            const QString& title) {
    auto fail = [](const QString& message) { return Outcome::failure(message); };
    auto cannotWrite = [&] {
        return fail(QCoreApplication::translate("memscope::ViewExporter", "Cannot write %1.")
                        .arg(QDir::toNativeSeparators(path)));
    };
    if (!widget) {
        return fail(
            QCoreApplication::translate("memscope::ViewExporter", "There is no view to export."));
    }
    scale = std::clamp(scale, 1.0, 4.0);
    auto* timeline = qobject_cast<TimelineView*>(widget);
    const QSize target = size.isEmpty() ? widget->size() : size;
    const bool svg =
        QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0;
    // Views other than the timeline render at the target size: resized for the moment.
    auto renderWidget = [&](QPainter& painter) {
        const QSize old = widget->size();
        widget->resize(target);
        widget->render(&painter);
        widget->resize(old);
    };
    if (svg) {
        QSvgGenerator generator;
        generator.setFileName(path);
        generator.setSize(target);
        generator.setViewBox(QRect(QPoint(0, 0), target));
        generator.setTitle(title);
        generator.setDescription(
            QCoreApplication::translate("memscope::ViewExporter", "Exported from %1 %2")
                .arg(QStringLiteral(MEMSCOPE_NAME), QStringLiteral(MEMSCOPE_VERSION)));
        QPainter painter;
        if (!painter.begin(&generator)) {
            return cannotWrite();
        }
        if (timeline) {
            timeline->renderTo(painter, QRectF(QPointF(0, 0), QSizeF(target)));
        } else {
            renderWidget(painter);
        }
        painter.end();
        if (!QFileInfo::exists(path)) {
            return cannotWrite();
        }
        return Outcome();
    }
    QImage image;
    if (timeline) {
        image = timeline->renderImage(target, scale);
    } else {
        image = QImage(QSize(qRound(target.width() * scale), qRound(target.height() * scale)),
                       QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::white);
        QPainter painter(&image);
        renderWidget(painter);
    }
    if (image.isNull() || !image.save(path, "PNG")) {
        return cannotWrite();
    }
    return Outcome();
}

}  // namespace memscope

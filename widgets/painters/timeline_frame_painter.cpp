#include "painters/timeline_frame_painter.h"

#include "painters/reserved_line_painter.h"

#include "common/timeline_labels.h"
#include "painters/timeline_colors.h"

#include "explain/trace_summary.h"
#include "trace/recorded_options.h"
#include "trace/trace.h"

#include <nlohmann/json.hpp>

#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

namespace memscope {

void TimelineFramePainter::paintAxes(QPainter& painter, const QRectF& area,
                                     const QString& detail) const {
    const TimelineMapping& m = m_ctx.m;
    const TimelineLayout& layout = m_ctx.layout;
    const QRectF plot(m.left, m.top, m.width, m.height);
    const QFontMetricsF fm(painter.font());
    const QColor text = QColor(50, 50, 50);
    const QColor tick_pen = QColor(0, 0, 0, 120);

    // y: bytes in binary units.
    const double step = TimelineMapping::byteTickStep(m.ymax, std::max(2, int(m.height / 70)));
    for (const double tick : TimelineMapping::ticks(0, m.ymax, step)) {
        const double y = std::round(m.bytesToPixel(tick)) + 0.5;
        painter.setPen(QPen(tick_pen, 0));
        painter.drawLine(QPointF(plot.left() - 4, y), QPointF(plot.left(), y));
        painter.setPen(text);
        const QString label = tick == 0 ? QStringLiteral("0") : byteTickLabel(tick, m.ymax);
        painter.drawText(QRectF(area.left(), y - fm.height() / 2, kLeft - 8, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, label);
    }

    // x: event index, or wall time in s, ms or µs (the unit the tick step needs).
    auto drawXTick = [&](double px, const QString& label, double& label_end) {
        const double x = std::round(px) + 0.5;
        painter.setPen(QPen(tick_pen, 0));
        painter.drawLine(QPointF(x, plot.bottom()), QPointF(x, plot.bottom() + 4));
        const double w = fm.horizontalAdvance(label);
        const double left = std::clamp(x - w / 2, area.left() + 2, area.right() - w - 2);
        if (left > label_end) {
            painter.setPen(text);
            painter.drawText(QPointF(left, plot.bottom() + 6 + fm.ascent()), label);
            label_end = left + w + 6;
        }
    };
    double label_end = -1e9;
    if (m.timeAxis()) {
        const double step =
            TimelineMapping::timeTickStep(m.t1 - m.t0, std::max(2, int(m.width / 110)));
        double unit = 1e9;
        QString suffix = tr("s");
        if (step < 1e5) {
            unit = 1e3;
            suffix = tr("µs");
        } else if (step < 1e8) {
            unit = 1e6;
            suffix = tr("ms");
        }
        const int decimals = std::max(0, int(std::ceil(-std::log10(step / unit) - 1e-9)));
        for (const double tick : TimelineMapping::ticks(m.t0, m.t1, step)) {
            drawXTick(
                m.timeToPixel(tick),
                QStringLiteral("%1 %2").arg(QLocale().toString(tick / unit, 'f', decimals), suffix),
                label_end);
        }
    } else {
        const double x_step =
            TimelineMapping::indexTickStep(m.span(), std::max(2, int(m.width / 110)));
        for (const double tick : TimelineMapping::ticks(std::ceil(m.x0), m.x1, x_step)) {
            drawXTick(m.xToPixel(tick), QLocale().toString(qint64(tick)), label_end);
        }
    }

    // Bottom line: what the window spans in time, the axis, and the detail level.
    const double baseline = area.bottom() - 6 - fm.descent();
    painter.setPen(QColor(90, 90, 90));
    const int64_t wx0 = std::clamp<int64_t>(int64_t(std::floor(m.x0)), 0,
                                            std::max<int64_t>(layout.xCount() - 1, 0));
    const int64_t wx1 = std::clamp<int64_t>(int64_t(std::ceil(m.x1)) - 1, 0,
                                            std::max<int64_t>(layout.xCount() - 1, 0));
    if (layout.xCount() > 0) {
        const QString time = tr("%1 s to %2 s")
                                 .arg(QLocale().toString(double(layout.timeAt(wx0)) / 1e9, 'f', 3),
                                      QLocale().toString(double(layout.timeAt(wx1)) / 1e9, 'f', 3));
        painter.drawText(QPointF(plot.left(), baseline), time);
    }
    const QString axis =
        m.timeAxis() ? tr("Wall time since the run started") : tr("Allocation and free events");
    painter.setPen(text);
    painter.drawText(QPointF(plot.center().x() - fm.horizontalAdvance(axis) / 2, baseline), axis);
    painter.setPen(QColor(90, 90, 90));
    painter.drawText(QPointF(plot.right() - fm.horizontalAdvance(detail), baseline), detail);
}

void TimelineFramePainter::paintHeader(QPainter& painter, const QRectF& area,
                                       const QVector<TimelineLegendEntry>& legend,
                                       const ReservedLinePainter* reserved) const {
    const QFont base = painter.font();
    QFont title_font = base;
    title_font.setBold(true);
    title_font.setPointSizeF(base.pointSizeF() > 0 ? base.pointSizeF() * 1.2 : 11);
    const QFontMetricsF title_fm(title_font);
    const QFontMetricsF fm(base);
    const double left = area.left() + kLeft;
    const double title_base = area.top() + 6 + title_fm.ascent();

    painter.setFont(title_font);
    painter.setPen(QColor(30, 30, 30));
    const QString title = tr("Active memory timeline");
    painter.drawText(QPointF(left, title_base), title);
    painter.setFont(base);
    painter.setPen(QColor(100, 100, 100));
    const QString subtitle = runSubtitle();
    painter.drawText(QPointF(left + title_fm.horizontalAdvance(title) + 14, title_base), subtitle);

    // Legend: the categories this run has, the summarized band and the total line.
    const double legend_base = area.top() + kHeader - 8 - fm.descent();
    const double box = std::round(fm.ascent() * 0.9);
    double x = left;
    auto entry = [&](const QString& name, const QColor& color, bool line) {
        const double top = legend_base - box + 1;
        if (line) {
            painter.setPen(QPen(color, 2));
            painter.drawLine(QPointF(x, top + box / 2), QPointF(x + box, top + box / 2));
        } else {
            painter.setPen(QPen(color.darker(130), 0));
            painter.setBrush(color);
            painter.drawRect(QRectF(x, top, box, box));
            painter.setBrush(Qt::NoBrush);
        }
        painter.setPen(QColor(40, 40, 40));
        painter.drawText(QPointF(x + box + 5, legend_base), name);
        x += box + 5 + fm.horizontalAdvance(name) + 16;
    };
    // An import's categories are inferred from its frames and annotations, not recorded: the
    // legend says so first, so that no one reads them as a recording's exact ones.
    if (const QString inferred = legendLead(m_ctx.trace); !inferred.isEmpty()) {
        QFont italic = base;
        italic.setItalic(true);
        painter.setFont(italic);
        painter.setPen(QColor(90, 90, 90));
        painter.drawText(QPointF(x, legend_base), inferred);
        x += QFontMetricsF(italic).horizontalAdvance(inferred) + 8;
        painter.setFont(base);
    }
    // As many entries as fit before the total's and the reserved line's, then how many did not.
    const QString total = tr("Total");
    const QVector<TimelineLegendEntry>& entries = legend;
    const QString reserved_text = reserved ? reserved->legendText() : QString();
    const double total_width =
        box + 5 + fm.horizontalAdvance(total) + 16 +
        (reserved_text.isEmpty() ? 0.0 : box + 5 + fm.horizontalAdvance(reserved_text) + 16);
    for (qsizetype i = 0; i < entries.size(); ++i) {
        const double w = box + 5 + fm.horizontalAdvance(entries[i].name) + 16;
        const QString more = tr("+%1 more").arg(entries.size() - i);
        if (x + w + total_width + fm.horizontalAdvance(more) + 16 > area.right() &&
            i + 1 < entries.size()) {
            painter.setPen(QColor(90, 90, 90));
            painter.drawText(QPointF(x, legend_base), more);
            x += fm.horizontalAdvance(more) + 16;
            break;
        }
        entry(entries[i].name, entries[i].color, false);
    }
    entry(total, TimelineColors::total(), true);
    if (reserved) {
        reserved->paintLegend(painter, x, legend_base, box);
    }
}

QString TimelineFramePainter::legendLead(const Trace* trace) {
    return trace && trace->meta.categories_inferred ? tr("Inferred:") : QString();
}

QString TimelineFramePainter::legendToolTip(const Trace* trace) {
    if (!trace || !trace->meta.categories_inferred) {
        return {};
    }
    QStringList lines;
    if (const int64_t peak = trace->peakEvent(); peak >= 0) {
        const auto rules = TraceSummary::leadingRulesAt(*trace, size_t(peak));
        for (size_t c = 0; c < rules.size(); ++c) {
            if (rules[c].bytes > 0) {
                lines << TimelineLabels::categoryWithRule(int(c), rules[c].rule, true)
                             .toHtmlEscaped();
            }
        }
    }
    return tr("<b>Categories inferred</b> from the snapshot's frames, annotations and lifetimes. "
              "At the peak, the rule behind each category:") +
           QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")) +
           QStringLiteral("<br><br>") +
           tr("Gradient: an allocation made in backward that is still alive when backward ends, "
              "and is freed at the next zero_grad, by the next backward, or never, whatever "
              "made it (a weight gradient that AccumulateGrad keeps without a copy, such as "
              "BmmBackward0's aten::bmm output, too).");
}

QString TimelineFramePainter::runSubtitle() const {
    if (!m_ctx.trace) {
        return {};
    }
    QStringList parts;
    // A damaged configuration (or none): the subtitle falls back to the source.
    if (const auto options = recordedOptions(m_ctx.trace->meta)) {
        parts << QString::fromStdString(options->preset);
        parts << tr("batch %1").arg(options->batch_size);
        parts << tr("sequence %1").arg(options->seq_len);
        parts << QString::fromStdString(toString(options->dtype));
        parts << QString::fromStdString(toString(options->profile));
    } else if (!m_ctx.trace->meta.source.empty()) {
        parts << QString::fromStdString(m_ctx.trace->meta.source);
    }
    if (!m_ctx.trace->meta.device.empty()) {
        parts << QString::fromStdString(m_ctx.trace->meta.device);
    }
    parts << tr("%1 allocations").arg(QLocale().toString(qint64(m_ctx.layout.allocationCount())));
    parts.removeAll(QString());
    return parts.join(QStringLiteral(" · "));
}

QString TimelineFramePainter::byteTickLabel(double bytes, double top) {
    // One unit for the whole axis, the largest the top reaches: "0.5 GiB ... 3.5 GiB" rather
    // than "512 MiB ... 3,584 MiB".
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    double scale = 1;
    while (unit < 4 && top >= scale * 1024) {
        scale *= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(QLocale().toString(bytes / scale, 'g', 6),
                                       QLatin1String(units[unit]));
}

}  // namespace memscope

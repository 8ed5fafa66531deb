// The timeline's colours for a live run (issue 11): TimelineColors::extend, fed the layouts a
// LiveTraceMirror extends in turn, must give every allocation the palette index, and the legend
// the groups, that a rebuild from scratch gives, in every colour scheme, at every refresh. And
// TranslucentRects, the range wash's fill, pixel for pixel what QPainter::drawRects paints.

#include "layout/live_trace_mirror.h"
#include "layout/timeline_layout.h"
#include "painters/timeline_colors.h"
#include "painters/translucent_rects.h"
#include "trace/trace.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

#include <array>

#include <random>

using namespace memscope;

namespace {

// Steps of forward, backward and optimizer phases with allocs, frees and Role names over a small
// address pool, under a few stack nodes (module colours).
Trace randomTrace(std::mt19937& rng, size_t n) {
    Trace t;
    Frame module;
    module.kind = FrameKind::Module;
    module.name = "TinyLlama.blocks.0.attention";
    const uint32_t block0 = t.stacks.child(0, t.stacks.internFrame(module));
    module.name = "TinyLlama.blocks.1.mlp";
    const uint32_t block1 = t.stacks.child(0, t.stacks.internFrame(module));
    const uint32_t stacks[] = {0, block0, block1};
    std::uniform_int_distribution<int> pick(0, 99);
    std::vector<int64_t> live(32, 0);
    int32_t step = 0;
    Phase phase = Phase::Init;
    int64_t allocated = 0;
    for (size_t i = 0; i < n; ++i) {
        if (pick(rng) < 5) {
            phase = phase == Phase::Forward    ? Phase::Backward
                    : phase == Phase::Backward ? Phase::Optimizer
                                               : Phase::Forward;
            step += phase == Phase::Forward;
        }
        Event e;
        e.time_ns = int64_t(i) * 10;
        e.step = step;
        e.phase = phase;
        e.stack = stacks[pick(rng) % 3];
        const auto slot = size_t(pick(rng) % int(live.size()));
        e.addr = 0x1000 + slot * 0x100;
        const int r = pick(rng);
        if (r < 50) {
            e.kind = EventKind::Alloc;
            e.size = 8 + pick(rng) * 16;
            live[slot] = e.size;
        } else if (r < 92) {
            if (live[slot] == 0) {
                continue;
            }
            e.kind = EventKind::Free;
            e.size = -live[slot];
            live[slot] = 0;
        } else {
            e.kind = EventKind::Role;
            e.size = pick(rng) % kCategoryCount;
        }
        allocated += e.kind == EventKind::Role ? 0 : e.size;
        e.allocated = allocated;
        t.events.append(e);
    }
    return t;
}

QString colorsDifference(const TimelineColors& got, const TimelineColors& want, int64_t count) {
    for (int c = 0; c < kCategoryCount; ++c) {
        if (got.categoryPresent(c) != want.categoryPresent(c)) {
            return QStringLiteral("category %1 presence").arg(c);
        }
    }
    if (got.groups().size() != want.groups().size()) {
        return QStringLiteral("%1 groups, want %2")
            .arg(got.groups().size())
            .arg(want.groups().size());
    }
    for (int g = 0; g < want.groups().size(); ++g) {
        if (got.groups()[g].name != want.groups()[g].name ||
            got.groups()[g].color != want.groups()[g].color) {
            return QStringLiteral("group %1 (%2 vs %3)")
                .arg(g)
                .arg(got.groups()[g].name, want.groups()[g].name);
        }
    }
    for (int64_t a = 0; a < count; ++a) {
        if (got.paletteIndexOf(a) != want.paletteIndexOf(a)) {
            return QStringLiteral("allocation %1: palette %2, want %3")
                .arg(a)
                .arg(got.paletteIndexOf(a))
                .arg(want.paletteIndexOf(a));
        }
    }
    return {};
}

}  // namespace

class TestTimelineColors : public QObject {
    Q_OBJECT

  private slots:
    // Blended directly, the same bytes as the raster engine's drawRects: over noise, with a
    // clip and a translation, for translucent colours of every kind, for one-pixel columns
    // taller than the engine's threading threshold and rectangles partly off the image.
    void translucentRectsAreDrawRects() {
        std::mt19937 rng(7);
        QImage noise(300, 240, QImage::Format_ARGB32_Premultiplied);
        for (int y = 0; y < noise.height(); ++y) {
            auto* row = reinterpret_cast<QRgb*>(noise.scanLine(y));
            for (int x = 0; x < noise.width(); ++x) {
                const uint a = rng() % 256;
                row[x] = qPremultiply(
                    qRgba(int(rng() % 256), int(rng() % 256), int(rng() % 256), int(a)));
            }
        }
        QVector<QRect> rects;
        for (int x = 0; x < 280; ++x) {
            const int top = int(rng() % 200) - 20;
            rects.push_back(QRect(x, top, 1, int(rng() % 220) + 1));
        }
        rects.push_back(QRect(QPoint(250, 10), QPoint(340, 30)));  // off the right edge
        for (const QColor& color :
             {TimelineColors::rangeWash(), QColor(255, 255, 255, 1), QColor(10, 200, 30, 128),
              QColor(0, 0, 0, 254), QColor(90, 90, 250, 0)}) {
            QImage direct = noise.copy();
            QImage engine = noise.copy();
            {
                QPainter painter(&direct);
                painter.translate(3, -2);
                painter.setClipRect(QRectF(10.5, 5, 250, 200));
                QVERIFY(TranslucentRects::blendsDirectly(painter));
                TranslucentRects::fill(painter, rects, color);
            }
            {
                QPainter painter(&engine);
                painter.translate(3, -2);
                painter.setClipRect(QRectF(10.5, 5, 250, 200));
                painter.setPen(Qt::NoPen);
                painter.setBrush(color);
                painter.drawRects(rects);
            }
            QVERIFY2(direct == engine, qPrintable(color.name(QColor::HexArgb)));
        }
        // Scaled (a high-density screen): the engine paints it.
        QImage scaled = noise.copy();
        QPainter painter(&scaled);
        painter.scale(2, 2);
        QVERIFY(!TranslucentRects::blendsDirectly(painter));
    }

    void extendEqualsRebuild() {
        using Scheme = TimelineColors::Scheme;
        std::mt19937 rng(42);
        int extended = 0;
        int kept_on_category_change = 0;
        for (int round = 0; round < 24; ++round) {
            const auto scheme = Scheme(round % 4);
            const Trace full = randomTrace(rng, 400 + size_t(round) * 50);
            LiveTraceMirror mirror;
            Trace source;
            TimelineColors colors;
            bool first = true;
            std::uniform_int_distribution<size_t> grow(1, 120);
            while (source.events.count() < full.events.count()) {
                const size_t n = std::min(full.events.count(), source.events.count() + grow(rng));
                source.stacks = full.stacks;
                for (size_t i = source.events.count(); i < n; ++i) {
                    source.events.append(full.events.at(i));
                }
                const LiveTraceMirror::Snapshot s = mirror.update(source);
                if (first) {
                    colors.rebuild(s.trace.get(), s.layout.get(), scheme);
                    first = false;
                } else {
                    std::array<bool, kCategoryCount> before{};
                    for (int c = 0; c < kCategoryCount; ++c) {
                        before[size_t(c)] = colors.categoryPresent(c);
                    }
                    const bool kept = colors.extend(s.trace.get(), s.layout.get());
                    extended += kept;
                    bool changed = false;
                    for (int c = 0; c < kCategoryCount; ++c) {
                        changed = changed || before[size_t(c)] != colors.categoryPresent(c);
                    }
                    // A category appearing or going recolours nothing but the legend.
                    kept_on_category_change += kept && changed;
                }
                TimelineColors want;
                want.rebuild(s.trace.get(), s.layout.get(), scheme);
                const auto got_legend = colors.legend(s.layout.get(), false);
                const auto want_legend = want.legend(s.layout.get(), false);
                QCOMPARE(got_legend.size(), want_legend.size());
                for (int k = 0; k < want_legend.size(); ++k) {
                    QCOMPARE(got_legend[k].name, want_legend[k].name);
                }
                const QString diff = colorsDifference(colors, want, s.layout->allocationCount());
                QVERIFY2(diff.isEmpty(), qPrintable(QStringLiteral("round %1, scheme %2, %3 "
                                                                   "events: %4")
                                                        .arg(round)
                                                        .arg(int(scheme))
                                                        .arg(n)
                                                        .arg(diff)));
            }
        }
        QVERIFY(extended > 100);  // most refreshes took the incremental path
        QVERIFY(kept_on_category_change > 0);
    }
};

QTEST_MAIN(TestTimelineColors)
#include "test_timeline_colors.moc"

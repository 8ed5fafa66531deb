// The timeline view and page offscreen: wheel and drag move the visible window exactly as
// TimelineMapping computes, clicking an allocation fills the stack pane with its frames, the
// detail controls reduce what is drawn to N allocations plus the summarized band, and the main
// window opens runs (and names the file when it cannot).

#include "common/stack_pane.h"
#include "common/timeline_labels.h"
#include "io/run_file.h"
#include "layout/timeline_layout.h"
#include "open_and_wait.h"
#include "run_document.h"
#include "shell/main_window.h"
#include "timeline/timeline_minimap.h"
#include "timeline/timeline_page.h"
#include "timeline/timeline_view.h"
#include "trace/trace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QTranslator>
#include <QtTest>

#include <limits>
#include <random>
#include <set>
#include <unordered_map>

#include "shell/translation_loader.h"

using namespace memscope;

namespace {

// Allocation indices in the trace below.
constexpr int64_t k_param = 0;      // 1000 B from init, never freed
constexpr int64_t k_big_act = 1;    // 4000 B, forward of step 1 in attention's aten::mm
constexpr int64_t k_temp = 2;       // 500 B, freed at once
constexpr int64_t k_grad_tmp = 15;  // 2000 B, made in backward (after 12 small ones)

// A small training-shaped run with real stacks: modules with file:line, an operator, an
// autograd node and its "backward of" frame; plus 24 small allocations to summarize.
std::shared_ptr<Trace> makeTrace() {
    auto t = std::make_shared<Trace>();
    t->meta.device = "cpu";
    t->meta.config = {{"preset", "test"},
                      {"batch_size", 2},
                      {"seq_len", 16},
                      {"dtype", "fp32"},
                      {"profile_type", "training"}};
    auto& s = t->stacks;
    const auto model = s.internFrame({"TinyLlama", "tiny_llama.cpp", 42, FrameKind::Module});
    const auto attn =
        s.internFrame({"TinyLlama.blocks.0.attention", "attention.cpp", 17, FrameKind::Module});
    const auto mm = s.internFrame({"aten::mm", "", 0, FrameKind::Operator});
    const auto node = s.internFrame({"MmBackward0", "", 0, FrameKind::BackwardNode});
    const auto of =
        s.internFrame({"backward of TinyLlama.blocks.0.attention", "", 0, FrameKind::BackwardOf});
    const auto in_model = s.child(StackTable::kEmpty, model);
    const auto in_attn = s.child(in_model, attn);
    const auto in_mm = s.child(in_attn, mm);
    const auto in_node = s.child(StackTable::kEmpty, node);
    const auto in_of = s.child(in_node, of);

    int64_t live = 0;
    int64_t time = 0;
    auto add = [&](EventKind kind, uint64_t addr, int64_t size, uint32_t stack, Phase phase,
                   int32_t step) {
        Event e;
        e.time_ns = time += 1000;
        e.kind = kind;
        e.addr = addr;
        e.size = size;
        live += size;
        e.allocated = live;
        e.stack = stack;
        e.phase = phase;
        e.step = step;
        t->events.append(e);
    };
    add(EventKind::Alloc, 1, 1000, in_model, Phase::Init, 0);
    t->phases.push_back({Phase::Init, 0, 0, time + 500});
    const int64_t forward_begin = time + 500;
    add(EventKind::Alloc, 2, 4000, in_mm, Phase::Forward, 1);
    add(EventKind::Alloc, 3, 500, in_mm, Phase::Forward, 1);
    add(EventKind::Free, 3, -500, in_mm, Phase::Forward, 1);
    for (int i = 0; i < 12; ++i) {  // small ones, summarized at low detail
        add(EventKind::Alloc, uint64_t(100 + i), 10 + i, in_attn, Phase::Forward, 1);
    }
    t->phases.push_back({Phase::Forward, 1, forward_begin, time + 500});
    const int64_t backward_begin = time + 500;
    add(EventKind::Alloc, 4, 2000, in_of, Phase::Backward, 1);
    add(EventKind::Free, 2, -4000, in_of, Phase::Backward, 1);
    for (int i = 0; i < 12; ++i) {
        add(EventKind::Free, uint64_t(100 + i), -(10 + i), in_of, Phase::Backward, 1);
        add(EventKind::Alloc, uint64_t(200 + i), 30 + i, in_of, Phase::Backward, 1);
    }
    add(EventKind::Free, 4, -2000, in_of, Phase::Backward, 1);
    t->phases.push_back({Phase::Backward, 1, backward_begin, time + 500});
    t->finalize();
    return t;
}

// The first n events of a trace, as a live run shows them before the rest arrive (phases that
// began by then, the last one cut at the last event).
std::shared_ptr<Trace> prefixOf(const Trace& full, size_t n) {
    auto t = std::make_shared<Trace>();
    t->meta = full.meta;
    t->stacks = full.stacks;
    for (size_t i = 0; i < n; ++i) {
        t->events.append(full.events.at(i));
    }
    const int64_t last = n > 0 ? full.events.time_ns[n - 1] : 0;
    for (PhaseInterval p : full.phases) {
        if (p.begin_ns <= last) {
            p.end_ns = std::min(p.end_ns, last + 1);
            t->phases.push_back(p);
        }
    }
    t->finalize();
    return t;
}

// A training-shaped run of 240,300 allocations in 400 steps, built event by event: 300
// parameters for good, then per step 200 activations (forward, freed in reverse in backward),
// each with a temporary freed soon after, so that total memory swings every step and a pixel
// column of a whole-run view covers hundreds of events.
std::shared_ptr<Trace> makeLargeTrace() {
    auto t = std::make_shared<Trace>();
    std::mt19937_64 rng(11);
    int64_t live = 0;
    int64_t time = 0;
    uint64_t next_addr = 0x1000;
    std::unordered_map<uint64_t, int64_t> sizes;
    Phase phase = Phase::Init;
    int32_t step = 0;
    auto alloc = [&](int64_t size) {
        Event e;
        e.time_ns = time += 100 + int64_t(rng() % 50);
        e.kind = EventKind::Alloc;
        e.addr = next_addr += 0x100;
        e.size = size;
        live += size;
        e.allocated = live;
        e.phase = phase;
        e.step = step;
        sizes[e.addr] = size;
        t->events.append(e);
        return e.addr;
    };
    auto release = [&](uint64_t addr) {
        Event e;
        e.time_ns = time += 100 + int64_t(rng() % 50);
        e.kind = EventKind::Free;
        e.addr = addr;
        e.size = -sizes.at(addr);
        live += e.size;
        e.allocated = live;
        e.phase = phase;
        e.step = step;
        sizes.erase(addr);
        t->events.append(e);
    };
    for (int i = 0; i < 300; ++i) {
        alloc(4096 + int64_t(rng() % 65536));
    }
    t->phases.push_back({Phase::Init, 0, 0, time + 1});
    std::vector<uint64_t> temps;
    for (step = 1; step <= 400; ++step) {
        auto temporary = [&] {
            temps.push_back(alloc(512 + int64_t(rng() % 200000)));
            if (temps.size() > 2 || rng() % 2) {
                const size_t k = rng() % temps.size();
                release(temps[k]);
                temps.erase(temps.begin() + std::ptrdiff_t(k));
            }
        };
        phase = Phase::Forward;
        const int64_t forward_begin = time + 1;
        std::vector<uint64_t> activations;
        for (int i = 0; i < 200; ++i) {
            activations.push_back(alloc(1024 + int64_t(rng() % 120000)));
            temporary();
        }
        t->phases.push_back({Phase::Forward, step, forward_begin, time + 1});
        phase = Phase::Backward;
        const int64_t backward_begin = time + 1;
        while (!activations.empty()) {
            temporary();
            release(activations.back());
            activations.pop_back();
        }
        for (const uint64_t a : temps) {
            release(a);
        }
        temps.clear();
        t->phases.push_back({Phase::Backward, step, backward_begin, time + 1});
    }
    t->finalize();
    return t;
}

// The widget position over the middle of a drawn allocation at event x.
QPoint pointOver(const TimelineView& view, int64_t allocation, int64_t x) {
    const TimelineLayout* layout = view.timelineLayout();
    const TimelineMapping m = view.mapping();
    const double bottom = double(layout->bottomAt(allocation, x));
    return QPointF(m.xToPixel(double(x) + 0.5),
                   m.bytesToPixel(bottom + double(layout->sizeOf(allocation)) / 2))
        .toPoint();
}

// The same run with wall times that are not evenly spaced: the backward pass takes 50 times
// as long per event as the forward pass.
std::shared_ptr<Trace> withUnevenTimes(const Trace& full) {
    auto t = std::make_shared<Trace>();
    t->meta = full.meta;
    t->stacks = full.stacks;
    int64_t time = 0;
    for (size_t i = 0; i < full.events.count(); ++i) {
        Event e = full.events.at(i);
        time += e.phase == Phase::Backward ? 50000 : 1000;
        e.time_ns = time;
        t->events.append(e);
    }
    t->finalize();
    return t;
}

bool isRed(const QColor& c) {
    return c.red() > 150 && c.green() < 60 && c.blue() < 60;
}

// Whether any pixel within `radius` of p is red.
bool redNear(const QImage& image, const QPointF& p, int radius) {
    for (int dy = -radius; dy <= radius; ++dy) {
        for (int dx = -radius; dx <= radius; ++dx) {
            const QPoint q = p.toPoint() + QPoint(dx, dy);
            if (image.rect().contains(q) && isRed(image.pixelColor(q))) {
                return true;
            }
        }
    }
    return false;
}

bool sameHue(const QColor& a, const QColor& b) {
    return std::abs(a.hsvHue() - b.hsvHue()) <= 3;
}

void sendWheel(QWidget* widget, const QPointF& pos, int delta) {
    QWheelEvent event(pos, widget->mapToGlobal(pos), QPoint(), QPoint(0, delta), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(widget, &event);
}

void sendMouse(QWidget* widget, QEvent::Type type, const QPointF& pos, Qt::MouseButton button,
               Qt::MouseButtons buttons, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QMouseEvent event(type, pos, widget->mapToGlobal(pos), button, buttons, modifiers);
    QCoreApplication::sendEvent(widget, &event);
}

}  // namespace

class TestTimelineView : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        // Expected texts use English digit grouping, whatever the machine's locale.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    }

    void wheel_zooms_around_the_cursor() {
        TimelineView view;
        view.resize(900, 500);
        view.setTrace(makeTrace());
        const double x_count = double(view.timelineLayout()->xCount());
        QCOMPARE(view.visibleX0(), 0.0);
        QCOMPARE(view.visibleX1(), x_count);

        const TimelineMapping before = view.mapping();
        const QPointF pos(before.left + before.width * 0.3, before.top + 40);
        const TimelineMapping expected =
            before.zoomedAt(pos.x(), 1.25 * 1.25, 0, x_count, TimelineView::kMinimumSpan);
        QSignalSpy spy(&view, &TimelineView::visibleRangeChanged);
        sendWheel(&view, pos, 240);  // two notches in
        QCOMPARE(spy.count(), 1);
        QCOMPARE(view.visibleX0(), expected.x0);
        QCOMPARE(view.visibleX1(), expected.x1);
        // The event under the cursor stayed under it.
        QCOMPARE(view.mapping().pixelToX(pos.x()), before.pixelToX(pos.x()));

        sendWheel(&view, pos, -120 * 20);  // far out: clamped to everything
        QCOMPARE(view.visibleX0(), 0.0);
        QCOMPARE(view.visibleX1(), x_count);
    }

    void drag_pans_and_double_click_resets() {
        TimelineView view;
        view.resize(900, 500);
        view.setTrace(makeTrace());
        const double x_count = double(view.timelineLayout()->xCount());
        view.setVisibleRange(10, 30);
        const TimelineMapping before = view.mapping();
        const QPointF from(before.left + 300, before.top + 100);
        const QPointF to = from + QPointF(-150, 10);
        sendMouse(&view, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        sendMouse(&view, QEvent::MouseMove, from + QPointF(-60, 4), Qt::NoButton, Qt::LeftButton);
        sendMouse(&view, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
        QSignalSpy selected(&view, &TimelineView::allocationSelected);
        sendMouse(&view, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        const TimelineMapping expected = before.pannedBy(to.x() - from.x(), 0, x_count);
        QCOMPARE(view.visibleX0(), expected.x0);
        QCOMPARE(view.visibleX1(), expected.x1);
        QVERIFY(view.visibleX0() > 10);  // dragged left: later events
        QCOMPARE(selected.count(), 0);   // a drag is not a click

        QTest::mouseDClick(&view, Qt::LeftButton, {}, from.toPoint());
        QCOMPARE(view.visibleX0(), 0.0);
        QCOMPARE(view.visibleX1(), x_count);
    }

    // The pane names the caching allocator's segment that holds an allocation, with its pool
    // (a snapshot's pool_id: a CUDA graph's private pool) and stream (issue 52).
    void the_stack_pane_names_the_segment_and_its_pool() {
        auto trace = std::make_shared<Trace>();
        Event seg;
        seg.kind = EventKind::SegmentAlloc;
        seg.addr = 0x7000;
        seg.size = 2 << 20;
        seg.device = 0;
        trace->events.append(seg);
        trace->segment_tags.push_back({0, 7, "(1, 2)"});
        Event alloc;
        alloc.kind = EventKind::Alloc;
        alloc.addr = 0x7400;
        alloc.size = 512;
        alloc.device = 0;
        alloc.time_ns = 10;
        trace->events.append(alloc);
        Event outside = alloc;
        outside.addr = 0x900000;  // in no segment
        trace->events.append(outside);
        trace->finalize();
        StackPane pane;
        pane.setTrace(trace);
        pane.showAllocation(0);
        QString text = pane.plainText();
        QVERIFY2(text.contains(QLatin1String("Segment | 0x7000, 2.0 MiB, pool (1, 2), stream 7")),
                 qPrintable(text));
        pane.showAllocation(1);
        text = pane.plainText();
        QVERIFY2(!text.contains(QLatin1String("Segment |")), qPrintable(text));
    }

    void click_pins_an_allocation_and_fills_the_stack_pane() {
        TimelinePage page;
        page.resize(1100, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy ready(&page, &TimelinePage::layoutReady);
        page.setTrace(makeTrace());
        QCOMPARE(ready.count(), 1);  // small: laid out at once
        TimelineView* view = page.view();
        const TimelineLayout* layout = view->timelineLayout();
        QVERIFY(layout);
        QVERIFY(page.stackPane()->plainText().contains(QLatin1String("Click an allocation")));

        QSignalSpy selected(view, &TimelineView::allocationSelected);
        const int64_t x = layout->beginX(k_big_act) + 2;
        const QPoint pos = pointOver(*view, k_big_act, x);
        QCOMPARE(view->allocationAt(pos), k_big_act);
        QTest::mouseClick(view, Qt::LeftButton, {}, pos);
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.at(0).at(0).toInt(), int(k_big_act));
        QCOMPARE(view->selectedAllocation(), k_big_act);
        QCOMPARE(page.stackPane()->allocation(), k_big_act);

        const QString text = page.stackPane()->plainText();
        QVERIFY2(text.contains(QLatin1String("Size | 4,000 bytes (3.9 KiB)")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("Category | Activation")), qPrintable(text));
        // The allocation stack, innermost first, with file:line for modules.
        const QString alloc_stack = QStringLiteral(
            "Allocation stack\n"
            "  aten::mm | operator\n"
            "  TinyLlama.blocks.0.attention | module · attention.cpp:17\n"
            "  TinyLlama | module · tiny_llama.cpp:42\n");
        QVERIFY2(text.contains(alloc_stack), qPrintable(text));
        const QString free_stack = QStringLiteral(
            "Free stack\n"
            "  backward of TinyLlama.blocks.0.attention | forward module responsible\n"
            "  MmBackward0 | autograd node");
        QVERIFY2(text.contains(free_stack), qPrintable(text));
        // Events are numbered like the x axis, as in the tooltip.
        QVERIFY2(text.contains(
                     QStringLiteral("Allocated | event %1 at ").arg(layout->beginX(k_big_act))),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("Freed | event %1 at ").arg(layout->endX(k_big_act))),
                 qPrintable(text));

        // The hover text names module and operator, exact bytes and the events.
        const QString tip = view->tooltipText(k_big_act);
        QVERIFY2(tip.contains(QLatin1String("4,000 bytes (3.9 KiB)")), qPrintable(tip));
        QVERIFY(tip.contains(QLatin1String("Module: TinyLlama.blocks.0.attention")));
        QVERIFY(tip.contains(QLatin1String("Operator: aten::mm")));
        QVERIFY(tip.contains(QLatin1String("Phase: forward, step 1")));
        QVERIFY(
            tip.contains(QStringLiteral("Allocated at event %1").arg(layout->beginX(k_big_act))));
        QVERIFY(tip.contains(QStringLiteral("Freed at event %1").arg(layout->endX(k_big_act))));
        QVERIFY(view->tooltipText(k_param).contains(QLatin1String("Never freed")));

        // Clicking empty space unpins.
        const TimelineMapping m = view->mapping();
        QTest::mouseClick(view, Qt::LeftButton, {},
                          QPointF(m.left + m.width - 3, m.top + 3).toPoint());
        QCOMPARE(view->selectedAllocation(), int64_t(-1));
        QVERIFY(page.stackPane()->plainText().contains(QLatin1String("Click an allocation")));
    }

    void hover_highlights_one_allocation() {
        TimelineView view;
        view.resize(900, 500);
        view.setTrace(makeTrace());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const int64_t x = view.timelineLayout()->beginX(k_grad_tmp);
        QTest::mouseMove(&view, pointOver(view, k_grad_tmp, x));
        QTRY_COMPARE(view.hoveredAllocation(), k_grad_tmp);
        QCOMPARE(view.selectedAllocation(), int64_t(-1));  // hovering does not pin
    }

    void detail_controls_reduce_drawn_items_to_n_plus_the_band() {
        TimelinePage page;
        page.resize(1100, 800);
        page.setTrace(makeTrace());
        TimelineView* view = page.view();
        const int64_t total = view->allocationCount();
        QCOMPARE(total, int64_t(28));
        QCOMPARE(view->detail(), total);  // memory_viz's default 15,000 covers everything
        QCOMPARE(page.detailSlider()->maximum(), int(total));
        QCOMPARE(page.detailLabel()->text(), QStringLiteral("Detail: 28 of 28 allocations"));

        const QSize size(1200, 600);
        view->renderImage(size);
        QCOMPARE(view->lastPaintStats().allocations, total);
        QVERIFY(!view->lastPaintStats().summarizedBand);

        page.detailSlider()->setValue(3);
        QTRY_COMPARE(view->detail(), int64_t(3));
        QCOMPARE(page.detailSpinBox()->value(), 3);
        QCOMPARE(page.detailPercentSpinBox()->value(), 10.71);  // 3 of 28, two decimals
        QCOMPARE(page.detailLabel()->text(), QStringLiteral("Detail: 3 of 28 allocations"));
        QCOMPARE(view->detailText(), QStringLiteral("Detail: 3 of 28 allocations"));
        view->renderImage(size);
        TimelineView::PaintStats stats = view->lastPaintStats();
        QCOMPARE(stats.allocations, int64_t(3));  // the three largest...
        QVERIFY(stats.summarizedBand);            // ...and one band for the other 25
        const TimelineLayout* layout = view->timelineLayout();
        QVERIFY(layout->drawnIndexOf(k_big_act) >= 0);
        QVERIFY(layout->drawnIndexOf(k_grad_tmp) >= 0);
        QVERIFY(layout->drawnIndexOf(k_param) >= 0);
        QVERIFY(layout->drawnIndexOf(k_temp) < 0);

        page.detailSpinBox()->setValue(5);
        QTRY_COMPARE(view->detail(), int64_t(5));
        QCOMPARE(page.detailSlider()->value(), 5);

        page.detailPercentSpinBox()->setValue(50);
        QTRY_COMPARE(view->detail(), int64_t(14));
        QCOMPARE(page.detailSlider()->value(), 14);
        view->renderImage(size);
        QCOMPARE(view->lastPaintStats().allocations, int64_t(14));

        view->setDetail(0);
        QCOMPARE(page.detailSlider()->value(), 0);
        view->renderImage(size);
        QCOMPARE(view->lastPaintStats().allocations, int64_t(0));
        QVERIFY(view->lastPaintStats().summarizedBand);
    }

    void large_traces_are_laid_out_off_the_gui_thread() {
        auto trace = std::make_shared<Trace>();
        const auto pairs = int64_t(RunDocument::kSyncLayoutEvents / 2 + 1000);
        int64_t live = 0;
        for (int64_t i = 0; i < pairs; ++i) {
            for (const bool free : {false, true}) {
                Event e;
                e.time_ns = i * 2 + free;
                e.kind = free ? EventKind::Free : EventKind::Alloc;
                e.addr = uint64_t(0x1000 + i);
                e.size = free ? -(64 + i % 7) : 64 + i % 7;
                live += e.size;
                e.allocated = live;
                trace->events.append(e);
            }
        }
        trace->finalize();
        TimelinePage page;
        QSignalSpy ready(&page, &TimelinePage::layoutReady);
        page.setTrace(trace);
        QVERIFY(page.isLayoutPending());
        QVERIFY(!page.view()->timelineLayout());
        QVERIFY(!page.detailSlider()->isEnabled());
        QVERIFY(ready.wait(60'000));
        QVERIFY(!page.isLayoutPending());
        QVERIFY(page.view()->timelineLayout());
        QCOMPARE(page.view()->allocationCount(), pairs);
        QCOMPARE(page.detailSlider()->maximum(), int(pairs));
        QVERIFY(page.detailSlider()->isEnabled());

        // A newer trace wins over a layout still being computed for an older one.
        page.setTrace(trace);
        page.setTrace(makeTrace());
        QCOMPARE(page.view()->allocationCount(), int64_t(28));
        QTest::qWait(200);
        QCOMPARE(page.view()->allocationCount(), int64_t(28));
    }

    void zoomed_in_paints_only_what_is_visible() {
        TimelineView view;
        view.setTrace(makeTrace());
        view.setVisibleRange(0, 8);  // before the backward allocations
        view.renderImage(QSize(1000, 600));
        const auto expected = view.timelineLayout()->drawnIn(0, 8).size();
        QCOMPARE(view.lastPaintStats().allocations, int64_t(expected));
        QVERIFY(expected < size_t(view.allocationCount()));
    }

    void live_update_keeps_a_zoomed_window_selection_and_detail() {
        const auto full = makeTrace();
        const auto prefix = prefixOf(*full, 16);  // forward only: k_big_act not freed yet
        TimelinePage page;
        page.resize(1100, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QSignalSpy ready(&page, &TimelinePage::layoutReady);
        page.setLiveTrace(prefix, std::make_shared<TimelineLayout>(*prefix));
        QCOMPARE(ready.count(), 1);
        TimelineView* view = page.view();
        const double old_end = double(view->timelineLayout()->xCount());
        QCOMPARE(view->visibleX1(), old_end);
        QCOMPARE(view->timelineLayout()->endX(k_big_act), int64_t(old_end));  // still live

        view->setVisibleRange(2, 10);  // the middle
        view->setDetail(3);
        const int64_t x = view->timelineLayout()->beginX(k_big_act) + 2;
        QTest::mouseClick(view, Qt::LeftButton, {}, pointOver(*view, k_big_act, x));
        QCOMPARE(view->selectedAllocation(), k_big_act);
        QCOMPARE(page.stackPane()->allocation(), k_big_act);
        QVERIFY(page.stackPane()->plainText().contains(QLatin1String("(never freed)")));
        QTest::mouseMove(view, pointOver(*view, k_big_act, x + 1));
        QTRY_COMPARE(view->hoveredAllocation(), k_big_act);

        QSignalSpy range(view, &TimelineView::visibleRangeChanged);
        QSignalSpy detail(view, &TimelineView::detailChanged);
        QSignalSpy selected(view, &TimelineView::allocationSelected);
        page.setLiveTrace(full, std::make_shared<TimelineLayout>(*full));
        QCOMPARE(ready.count(), 1);  // an update, not a new trace
        QCOMPARE(view->trace(), full.get());
        QCOMPARE(view->allocationCount(), int64_t(28));
        QCOMPARE(view->visibleX0(), 2.0);
        QCOMPARE(view->visibleX1(), 10.0);
        QCOMPARE(range.count(), 0);
        QCOMPARE(view->detail(), int64_t(3));  // the user's, not the new layout's default
        QCOMPARE(detail.count(), 0);
        QCOMPARE(page.detailSlider()->maximum(), 28);
        QCOMPARE(page.detailSlider()->value(), 3);
        QCOMPARE(view->selectedAllocation(), k_big_act);
        QCOMPARE(selected.count(), 0);
        QCOMPARE(view->hoveredAllocation(), k_big_act);
        // The pane kept its allocation and now shows where it was freed.
        QCOMPARE(page.stackPane()->allocation(), k_big_act);
        const QString pane = page.stackPane()->plainText();
        QVERIFY2(!pane.contains(QLatin1String("(never freed)")), qPrintable(pane));
        QVERIFY2(pane.contains(QStringLiteral("Freed | event %1 at ")
                                   .arg(view->timelineLayout()->endX(k_big_act))),
                 qPrintable(pane));

        // A shorter trace is another run: shown from scratch.
        page.setLiveTrace(prefix, nullptr);
        QCOMPARE(ready.count(), 2);
        QCOMPARE(view->selectedAllocation(), int64_t(-1));
        QCOMPARE(view->visibleX0(), 0.0);
        QCOMPARE(view->visibleX1(), old_end);
    }

    void live_update_grows_the_full_view_and_slides_a_following_one() {
        const auto full = makeTrace();
        const auto prefix = prefixOf(*full, 20);
        const double new_end = double(TimelineLayout(*full).xCount());
        {
            TimelineView view;
            view.resize(900, 500);
            view.setTrace(prefix);
            QCOMPARE(view.detail(), int64_t(view.allocationCount()));
            QSignalSpy range(&view, &TimelineView::visibleRangeChanged);
            QSignalSpy detail(&view, &TimelineView::detailChanged);
            view.updateTrace(full, std::make_shared<TimelineLayout>(*full));
            QCOMPARE(view.visibleX0(), 0.0);
            QCOMPARE(view.visibleX1(), new_end);
            QCOMPARE(range.count(), 1);
            // No detail chosen: the new layout's default, which covers the new allocations.
            QCOMPARE(view.detail(), int64_t(28));
            QCOMPARE(detail.count(), 1);
        }
        {
            TimelineView view;
            view.resize(900, 500);
            view.setTrace(prefix);
            const double old_end = double(view.timelineLayout()->xCount());
            view.setVisibleRange(old_end - 10, old_end);  // following the newest events
            view.updateTrace(full);
            QCOMPARE(view.visibleX0(), new_end - 10);
            QCOMPARE(view.visibleX1(), new_end);
            view.renderImage(QSize(900, 500));
            QCOMPARE(view.lastPaintStats().allocations,
                     int64_t(view.timelineLayout()
                                 ->drawnIn(int64_t(new_end) - 10, int64_t(new_end))
                                 .size()));
        }
    }

    // A live update renders the chart on a worker thread; what it shows at the end is what the
    // GUI thread paints for the same state, pixel for pixel, and a grab while it renders is
    // complete.
    void background_render_equals_the_synchronous_one() {
        const auto full = makeTrace();
        const auto prefix = prefixOf(*full, 20);
        QImage images[2];
        for (const auto mode : {TimelineView::ChartRendering::Background,
                                TimelineView::ChartRendering::Synchronous}) {
            TimelineView view;
            view.setChartRendering(mode);
            view.resize(700, 420);
            view.show();
            QVERIFY(QTest::qWaitForWindowExposed(&view));
            view.setTrace(prefix);
            view.repaint();  // a trace's first image is painted at once
            QVERIFY(!view.isRendering());
            view.updateTrace(full);
            view.repaint();
            const bool background = mode == TimelineView::ChartRendering::Background;
            QCOMPARE(view.isRendering(), background);
            // QWidget::grab (exports, window screenshots) paints the current state itself.
            const QImage expected = view.renderImage(view.size());
            QCOMPARE(view.grab().toImage().convertToFormat(QImage::Format_RGB32),
                     expected.convertToFormat(QImage::Format_RGB32));
            QTRY_VERIFY(!view.isRendering());
            QCoreApplication::processEvents();
            QCOMPARE(view.renderCounts().started, background ? 1 : 0);
            QCOMPARE(view.renderCounts().shown, background ? 1 : 0);
            QCOMPARE(view.chartImage(), expected);
            images[background ? 0 : 1] = view.chartImage();
        }
        QCOMPARE(images[0], images[1]);
    }

    // With annotations on, a live update's render computes them on its worker thread (a pass over
    // every span) and hands them over; the GUI thread does not compute them again.
    void background_render_computes_the_annotations() {
        const auto full = makeTrace();
        TimelineView view;
        view.setChartRendering(TimelineView::ChartRendering::Background);
        view.resize(700, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setAnnotationsVisible(true);
        view.setTrace(prefixOf(*full, 20));
        view.repaint();  // a trace's first image is painted at once, its annotations with it
        QVERIFY(view.annotationsReady());
        view.updateTrace(full);
        QVERIFY(!view.annotationsReady());  // new events: computed again...
        view.repaint();
        QVERIFY(view.isRendering());
        QVERIFY(!view.annotationsReady());  // ...not by the paint on this thread...
        QTRY_VERIFY(!view.isRendering());
        QCoreApplication::processEvents();
        QVERIFY(view.annotationsReady());  // ...but by the render
        const std::vector<TraceAnnotation> expected = TraceAnnotations::fromTrace(*full);
        QVERIFY(!expected.empty());
        QCOMPARE(view.annotations().size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(view.annotations()[i].name, expected[i].name);
            QCOMPARE(view.annotations()[i].begin_ns, expected[i].begin_ns);
            QCOMPARE(view.annotations()[i].end_ns, expected[i].end_ns);
        }
        QCOMPARE(view.chartImage(), view.renderImage(view.size()));
    }

    // One render at a time: updates that come while it runs are rendered once when it ends
    // (the latest state); a render of a trace replaced meanwhile is dropped.
    void background_renders_coalesce_and_stale_ones_are_dropped() {
        const auto full = makeTrace();
        TimelineView view;
        view.setChartRendering(TimelineView::ChartRendering::Background);
        view.resize(700, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setTrace(prefixOf(*full, 10));
        view.repaint();
        for (const size_t n : {14, 18, 22, 26}) {
            view.updateTrace(prefixOf(*full, n));
            view.repaint();
        }
        QCOMPARE(view.renderCounts().started, 1);
        QTRY_COMPARE(view.renderCounts().started, 2);  // the first ended: the latest state
        QTRY_VERIFY(!view.isRendering());
        QCoreApplication::processEvents();
        QCOMPARE(view.renderCounts().started, 2);
        QCOMPARE(view.renderCounts().dropped, 0);
        QCOMPARE(view.chartImage(), view.renderImage(view.size()));

        view.updateTrace(full);
        view.repaint();
        QVERIFY(view.isRendering());
        const auto other = makeTrace();  // another run: the render of the old one is stale
        view.setTrace(other);
        QTRY_VERIFY(!view.isRendering());
        QCOMPARE(view.renderCounts().dropped, 1);
        QCOMPARE(view.renderCounts().shown, 2);
        view.repaint();  // a new trace's first image: painted here
        QCOMPARE(view.chartImage(), view.renderImage(view.size()));
        // Setting the detail while a render reads the layout waits for it first.
        view.updateTrace(other, std::make_shared<TimelineLayout>(*other));
        view.repaint();
        QVERIFY(view.isRendering());
        view.setDetail(3);
        QVERIFY(!view.isRendering());
        QTRY_COMPARE(view.renderCounts().started, 5);
        QTRY_VERIFY(!view.isRendering());
        QCoreApplication::processEvents();
        QCOMPARE(view.chartImage(), view.renderImage(view.size()));
    }

    // Destroying the view while a render of a large run is in flight.
    void destroying_the_view_while_it_renders() {
        const auto large = makeLargeTrace();
        auto* view = new TimelineView;
        view->setChartRendering(TimelineView::ChartRendering::Background);
        view->resize(1200, 600);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view));
        view->setTrace(prefixOf(*large, large->events.count() / 2));
        view->repaint();
        view->updateTrace(large);
        view->repaint();
        QVERIFY(view->isRendering());
        delete view;
        QCoreApplication::processEvents();
    }

    void capacity_line_and_out_of_memory_point() {
        auto trace = makeTrace();
        const TimelineLayout plain_layout(*trace);
        const int64_t peak = plain_layout.peakBytes();
        {
            TimelineView view;
            view.setTrace(trace);
            const QSize size(900, 500);
            const QImage image = view.renderImage(size);
            const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
            // No limit: no red line where a capacity of twice the peak would be drawn.
            QVERIFY(m.ymax < 2.0 * double(peak));
        }
        // A limit of twice the peak and an OOM event at the end (as the recorder writes one:
        // size = bytes requested, allocated = bytes in use).
        trace->meta.capacity_bytes = 2 * peak;
        Event oom;
        oom.time_ns = trace->events.time_ns.back() + 1000;
        oom.kind = EventKind::Oom;
        oom.size = 3 * peak;
        oom.allocated = trace->events.allocated.back();
        oom.reserved = 2 * peak;
        trace->events.append(oom);
        trace->finalize();
        TimelineView view;
        view.setTrace(trace);
        const QSize size(900, 500);
        const QImage image = view.renderImage(size);
        const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
        QVERIFY(m.ymax >= double(2 * peak));  // the y range includes the capacity
        const double y = std::round(m.bytesToPixel(double(2 * peak))) + 0.5;
        QVERIFY(redNear(image, QPointF(m.left + m.width * 0.25, y), 4));
        QVERIFY(redNear(image, QPointF(m.left + m.width * 0.5, y), 4));
        QVERIFY(!redNear(image, QPointF(m.left + m.width * 0.25, y - 20), 4));
        // The cross where the run ran out, at the end of the x axis.
        const TimelineLayout* layout = view.timelineLayout();
        const QPointF cross(std::min(m.xToPixel(double(layout->xCount())), m.left + m.width - 6),
                            m.bytesToPixel(double(oom.allocated)));
        QVERIFY(redNear(image, cross, 2));
        // The run without the OOM event: no cross there.
        auto no_oom = prefixOf(*trace, trace->events.count() - 1);
        no_oom->meta.capacity_bytes = 0;
        view.setTrace(no_oom);
        const QImage without = view.renderImage(size);
        const TimelineMapping m2 = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
        QVERIFY(!redNear(
            without,
            QPointF(std::min(m2.xToPixel(double(layout->xCount())), m2.left + m2.width - 6),
                    m2.bytesToPixel(double(oom.allocated))),
            2));
    }

    void colour_modes_colour_allocations_and_the_legend() {
        TimelineView view;
        view.setTrace(makeTrace());
        const TimelineLayout* layout = view.timelineLayout();
        const QSize size(1000, 600);
        const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
        const int64_t x = layout->beginX(k_big_act) + 2;
        const QPoint inside = QPointF(m.xToPixel(double(x) + 0.5),
                                      m.bytesToPixel(double(layout->bottomAt(k_big_act, x)) + 2000))
                                  .toPoint();
        auto names = [&view] {
            QStringList out;
            for (const auto& e : view.legend()) {
                out << e.name;
            }
            return out;
        };
        auto drawnColor = [&] { return view.renderImage(size).pixelColor(inside).rgba(); };

        // By category (the default).
        QCOMPARE(view.colorMode(), TimelineView::ColorMode::Category);
        const QColor activation = TimelineView::categoryColor(int(layout->categoryOf(k_big_act)));
        QVERIFY(sameHue(view.allocationColor(k_big_act), activation));
        QVERIFY(names().contains(QStringLiteral("Activation")));
        QCOMPARE(drawnColor(), view.allocationColor(k_big_act).rgba());

        // By module: top-level groups, a backward allocation in its forward module's group.
        QSignalSpy changed(&view, &TimelineView::colorModeChanged);
        view.setColorMode(TimelineView::ColorMode::Module);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(names(), (QStringList{QStringLiteral("TinyLlama"), QStringLiteral("blocks.0")}));
        QVERIFY(sameHue(view.allocationColor(k_big_act), view.legend()[1].color));
        QVERIFY(sameHue(view.allocationColor(k_grad_tmp), view.legend()[1].color));
        QVERIFY(sameHue(view.allocationColor(k_param), view.legend()[0].color));
        QCOMPARE(drawnColor(), view.allocationColor(k_big_act).rgba());

        // By phase: the phase each allocation was made in.
        view.setColorMode(TimelineView::ColorMode::Phase);
        QCOMPARE(names(), (QStringList{QStringLiteral("init"), QStringLiteral("forward"),
                                       QStringLiteral("backward")}));
        QVERIFY(sameHue(view.allocationColor(k_param), view.legend()[0].color));
        QVERIFY(sameHue(view.allocationColor(k_big_act), view.legend()[1].color));
        QVERIFY(sameHue(view.allocationColor(k_grad_tmp), view.legend()[2].color));
        QVERIFY(!sameHue(view.legend()[1].color, view.legend()[2].color));
        QCOMPARE(drawnColor(), view.allocationColor(k_big_act).rgba());

        // By allocation: neighbours differ, one legend entry.
        view.setColorMode(TimelineView::ColorMode::Allocation);
        QCOMPARE(view.legend().size(), 1);
        for (int64_t a = 0; a + 1 < view.allocationCount(); ++a) {
            QVERIFY(view.allocationColor(a) != view.allocationColor(a + 1));
        }
        QCOMPARE(drawnColor(), view.allocationColor(k_big_act).rgba());

        // The summarized band joins the legend when there is one.
        view.setDetail(3);
        QVERIFY(names().last().startsWith(QLatin1String("Summarized (25 smaller")));
    }

    // Zoomed out over a large run, each pixel column shows the true envelope of memory over the
    // events it covers: filled from the bottom up to the lowest total, nothing drawn above the
    // highest (both found here by scanning every event of the column), whatever the detail and
    // the axis. Step lines are thinned to a few pixels apart and the phase bands, a pixel wide
    // each, are left out.
    void whole_run_columns_show_the_true_envelope() {
        const auto trace = makeLargeTrace();
        QVERIFY(trace->allocations().size() >= 200000);
        TimelineView view;
        view.setTrace(trace);
        const TimelineLayout* layout = view.timelineLayout();
        const QSize size(1200, 600);
        const QRgb white = qRgb(255, 255, 255);
        const QRgb grid = qRgb(227, 227, 227);
        const QRgb step_line = qRgb(171, 171, 171);
        const QRgb step_on_grid = qRgb(155, 155, 155);
        auto background = [&](QRgb c) {
            c |= 0xFF000000;
            return c == white || c == grid || c == step_line || c == step_on_grid;
        };
        struct Variant {
            int64_t detail;
            bool time_axis;
        };
        for (const Variant variant :
             {Variant{TimelineLayout::kDefaultDetail, false},
              Variant{view.allocationCount(), false}, Variant{int64_t(0), false},
              Variant{TimelineLayout::kDefaultDetail, true}}) {
            view.setDetail(variant.detail);
            view.setTimeAxis(variant.time_axis);
            view.resetView();
            const QImage image = view.renderImage(size).convertToFormat(QImage::Format_RGB32);
            const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
            const int64_t x_count = layout->xCount();
            QVERIFY(double(x_count) / m.width > 200);
            // The peak's marker and label sit above the curve near the peak: not checked there.
            const double peak_px = m.xToPixel(double(layout->peakX()) + 0.5);
            const int bottom = int(std::floor(m.bytesToPixel(0))) - 1;
            int filled_columns = 0;
            std::set<int> step_columns;
            for (int c = 0; c < int(m.width); ++c) {
                const auto lo =
                    std::clamp<int64_t>(int64_t(std::floor(m.pixelToX(m.left + c))), 0, x_count);
                const auto hi = std::clamp<int64_t>(
                    std::max(lo + 1, int64_t(std::ceil(m.pixelToX(m.left + c + 1)))), 0, x_count);
                if (lo >= hi) {
                    continue;
                }
                int64_t lowest = std::numeric_limits<int64_t>::max();
                int64_t highest = 0;
                for (int64_t x = lo; x < hi; ++x) {
                    lowest = std::min(lowest, layout->totalAt(x));
                    highest = std::max(highest, layout->totalAt(x));
                }
                const int px = int(m.left) + c;
                const int y_min = int(std::ceil(m.bytesToPixel(double(lowest))));
                for (int y = y_min + 1; y < bottom; ++y) {
                    if (background(image.pixel(px, y))) {
                        QFAIL(qPrintable(QStringLiteral("detail %1%2: column %3 (events %4 to "
                                                        "%5, lowest %6 bytes) is not filled at "
                                                        "row %7 (rows %8 to %9 should be)")
                                             .arg(variant.detail)
                                             .arg(variant.time_axis ? " time axis" : "")
                                             .arg(c)
                                             .arg(lo)
                                             .arg(hi)
                                             .arg(lowest)
                                             .arg(y)
                                             .arg(y_min + 1)
                                             .arg(bottom - 1)));
                    }
                }
                ++filled_columns;
                for (int y = int(m.top) + 1; y < int(m.top) + 25; ++y) {
                    const QRgb c = image.pixel(px, y);
                    if (c != white && c != grid && background(c)) {
                        step_columns.insert(px);
                    }
                }
                if (std::abs(px - peak_px) < 260) {
                    continue;
                }
                const int y_max = int(std::floor(m.bytesToPixel(double(highest))));
                for (int y = int(m.top) + 1; y < y_max - 1; ++y) {
                    if (!background(image.pixel(px, y))) {
                        QFAIL(qPrintable(QStringLiteral("detail %1%2: column %3 (events %4 to "
                                                        "%5, highest %6 bytes at row %7) is "
                                                        "painted at row %8: %9")
                                             .arg(variant.detail)
                                             .arg(variant.time_axis ? " time axis" : "")
                                             .arg(c)
                                             .arg(lo)
                                             .arg(hi)
                                             .arg(highest)
                                             .arg(y_max)
                                             .arg(y)
                                             .arg(QColor(image.pixel(px, y)).name())));
                    }
                }
            }
            QVERIFY(filled_columns > int(m.width) - 2);
            // 400 steps in about 1,100 columns: every second step line, 5 or more pixels apart.
            QVERIFY2(!step_columns.empty(), "no step lines");
            QVERIFY2(step_columns.size() <= size_t(m.width / 4),
                     qPrintable(QString::number(step_columns.size())));
            int previous = -100;
            for (const int px : step_columns) {
                QVERIFY2(
                    px - previous >= 4,
                    qPrintable(QStringLiteral("step lines at %1 and %2").arg(previous).arg(px)));
                previous = px;
            }
        }
    }

    void step_line_stride_keeps_lines_apart() {
        QCOMPARE(TimelineView::stepLineStride(12), 1);
        QCOMPARE(TimelineView::stepLineStride(4), 1);
        QCOMPARE(TimelineView::stepLineStride(2.7), 2);
        QCOMPARE(TimelineView::stepLineStride(1), 5);
        QCOMPARE(TimelineView::stepLineStride(0.5), 10);
        QCOMPARE(TimelineView::stepLineStride(0.1), 50);
    }

    void category_plot_stacks_memory_by_category() {
        TimelineView view;
        view.setTrace(makeTrace());
        const TimelineLayout* layout = view.timelineLayout();
        QSignalSpy changed(&view, &TimelineView::plotModeChanged);
        view.setPlotMode(TimelineView::PlotMode::Categories);
        QCOMPARE(changed.count(), 1);
        const QSize size(1000, 600);
        const QImage image = view.renderImage(size);
        const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
        int present = 0;
        std::set<int> categories;
        for (int64_t a = 0; a < layout->allocationCount(); ++a) {
            categories.insert(int(layout->categoryOf(a)));
        }
        present = int(categories.size());
        QCOMPARE(view.lastPaintStats().polygons, int64_t(present));  // one layer each
        QCOMPARE(view.lastPaintStats().allocations, int64_t(0));
        QCOMPARE(view.legend().size(), present);
        // Right after the big activation only it (4000 bytes) and the parameter (1000) are
        // live: the lower category in enum order at the bottom, in their category colours.
        const int64_t x = layout->beginX(k_big_act);
        const double px = m.xToPixel(double(x) + 0.5);
        const int param_category = int(layout->categoryOf(k_param));
        const int act_category = int(layout->categoryOf(k_big_act));
        QVERIFY(param_category != act_category);
        const bool param_below = param_category < act_category;
        const double param_mid = param_below ? 500 : 4500;
        const double act_mid = param_below ? 3000 : 2000;
        QCOMPARE(image.pixelColor(QPointF(px, m.bytesToPixel(param_mid)).toPoint()).rgba(),
                 TimelineView::categoryColor(param_category).rgba());
        QCOMPARE(image.pixelColor(QPointF(px, m.bytesToPixel(act_mid)).toPoint()).rgba(),
                 TimelineView::categoryColor(act_category).rgba());
        // The hover text: bytes per category at that x.
        const QString tip = view.categoryTooltipText(x);
        QVERIFY2(tip.contains(TimelineLabels::categoryName(int(layout->categoryOf(k_big_act))) +
                              QStringLiteral(": 4,000 bytes")),
                 qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Total: 5,000 bytes")), qPrintable(tip));
    }

    void time_axis_spaces_events_by_wall_time() {
        TimelineView view;
        view.resize(900, 500);
        view.setTrace(withUnevenTimes(*makeTrace()));
        const TimelineLayout* layout = view.timelineLayout();
        const TimelineMapping events = view.mapping();
        QVERIFY(!events.timeAxis());
        QSignalSpy changed(&view, &TimelineView::timeAxisChanged);
        view.setTimeAxis(true);
        QCOMPARE(changed.count(), 1);
        const TimelineMapping m = view.mapping();
        QVERIFY(m.timeAxis());
        QCOMPARE(view.visibleX0(), 0.0);  // the window in events is unchanged
        QCOMPARE(m.t0, double(layout->timeAt(0)));
        QCOMPARE(m.t1, layout->endTime());
        // Pixels proportional to time: a backward event is 50 times as wide as a forward one.
        const int64_t f = layout->beginX(k_big_act);
        const int64_t b = layout->beginX(k_grad_tmp) + 1;
        const double forward_width = m.xToPixel(double(f + 1)) - m.xToPixel(double(f));
        const double backward_width = m.xToPixel(double(b + 1)) - m.xToPixel(double(b));
        QVERIFY(std::abs(backward_width / forward_width - 50) < 0.01);
        QCOMPARE(m.xToPixel(double(b)),
                 m.left + (double(layout->timeAt(b)) - m.t0) * m.width / (m.t1 - m.t0));

        // Wheel zoom keeps the time under the cursor; the window is linear in time.
        const QPointF pos(m.left + m.width * 0.7, m.top + 40);
        const TimelineMapping expected =
            m.zoomedAt(pos.x(), 1.25, 0, double(layout->xCount()), TimelineView::kMinimumSpan);
        sendWheel(&view, pos, 120);
        const TimelineMapping z = view.mapping();
        QCOMPARE(view.visibleX0(), expected.x0);
        QCOMPARE(view.visibleX1(), expected.x1);
        QVERIFY(std::abs(z.pixelToTime(pos.x()) - m.pixelToTime(pos.x())) < 1e-3);
        QVERIFY(std::abs((z.t1 - z.t0) * 1.25 - (m.t1 - m.t0)) < 1e-3);
        // A drag moves the window by the time the pixels stand for.
        const QPointF from(z.left + 400, z.top + 50);
        sendMouse(&view, QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
        sendMouse(&view, QEvent::MouseMove, from + QPointF(100, 0), Qt::NoButton, Qt::LeftButton);
        sendMouse(&view, QEvent::MouseButtonRelease, from + QPointF(100, 0), Qt::LeftButton,
                  Qt::NoButton);
        const TimelineMapping p = view.mapping();
        QVERIFY(std::abs((z.t0 - p.t0) - 100 * (z.t1 - z.t0) / z.width) < 1e-3);
        // Back to events: the same window in events.
        const double x0 = view.visibleX0();
        view.setTimeAxis(false);
        QCOMPARE(view.visibleX0(), x0);
        QVERIFY(!view.mapping().timeAxis());
    }

    void rubber_band_zooms_to_the_band() {
        TimelineView view;
        view.resize(900, 500);
        view.setTrace(makeTrace());
        const TimelineMapping m = view.mapping();
        const QPointF a(m.left + 200, m.top + 50);
        const QPointF b(m.left + 500, m.top + 200);
        // Shift + left drag.
        sendMouse(&view, QEvent::MouseButtonPress, a, Qt::LeftButton, Qt::LeftButton,
                  Qt::ShiftModifier);
        sendMouse(&view, QEvent::MouseMove, b, Qt::NoButton, Qt::LeftButton, Qt::ShiftModifier);
        QCOMPARE(view.visibleX0(), 0.0);  // nothing happens before the release
        QSignalSpy selected(&view, &TimelineView::allocationSelected);
        sendMouse(&view, QEvent::MouseButtonRelease, b, Qt::LeftButton, Qt::NoButton,
                  Qt::ShiftModifier);
        QCOMPARE(view.visibleX0(), m.pixelToX(a.x()));
        QCOMPARE(view.visibleX1(), m.pixelToX(b.x()));
        QCOMPARE(selected.count(), 0);
        // Right drag, leftwards.
        view.resetView();
        sendMouse(&view, QEvent::MouseButtonPress, b, Qt::RightButton, Qt::RightButton);
        sendMouse(&view, QEvent::MouseMove, a, Qt::NoButton, Qt::RightButton);
        sendMouse(&view, QEvent::MouseButtonRelease, a, Qt::RightButton, Qt::NoButton);
        QCOMPARE(view.visibleX0(), m.pixelToX(a.x()));
        QCOMPARE(view.visibleX1(), m.pixelToX(b.x()));
        // A band under 3 pixels is a click: no zoom.
        view.resetView();
        sendMouse(&view, QEvent::MouseButtonPress, a, Qt::RightButton, Qt::RightButton);
        sendMouse(&view, QEvent::MouseButtonRelease, a + QPointF(2, 0), Qt::RightButton,
                  Qt::NoButton);
        QCOMPARE(view.visibleX0(), 0.0);
        QCOMPARE(view.visibleX1(), double(view.timelineLayout()->xCount()));
    }

    void minimap_brush_and_view_follow_each_other() {
        TimelinePage page;
        page.resize(1100, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setTrace(makeTrace());
        TimelineView* view = page.view();
        TimelineMinimap* minimap = page.minimap();
        const TimelineLayout* layout = view->timelineLayout();
        const double end = double(layout->xCount());
        QCOMPARE(minimap->windowX1(), end);
        // The curve: per column the highest total, its maximum the run's peak.
        const auto& columns = minimap->columnMaxima();
        QCOMPARE(*std::max_element(columns.begin(), columns.end()), layout->peakBytes());
        // The view moves the brush.
        view->setVisibleRange(10, 20);
        QCOMPARE(minimap->windowX0(), 10.0);
        QCOMPARE(minimap->windowX1(), 20.0);
        // Dragging the brush pans the view by as many events as the pixels stand for.
        const TimelineMapping mm = minimap->mapping();
        const QPointF centre = minimap->brushRect().center();
        sendMouse(minimap, QEvent::MouseButtonPress, centre, Qt::LeftButton, Qt::LeftButton);
        sendMouse(minimap, QEvent::MouseMove, centre + QPointF(50, 0), Qt::NoButton,
                  Qt::LeftButton);
        sendMouse(minimap, QEvent::MouseButtonRelease, centre + QPointF(50, 0), Qt::LeftButton,
                  Qt::NoButton);
        const double shift = 50 * end / mm.width;
        QVERIFY(std::abs(view->visibleX0() - (10 + shift)) < 1e-9);
        QVERIFY(std::abs(view->visibleX1() - (20 + shift)) < 1e-9);
        // Dragging the right edge resizes the window.
        const double x0 = view->visibleX0();
        const QPointF edge(minimap->brushRect().right() - 1, centre.y());
        const QPointF to = edge + QPointF(120, 0);
        sendMouse(minimap, QEvent::MouseButtonPress, edge, Qt::LeftButton, Qt::LeftButton);
        sendMouse(minimap, QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
        sendMouse(minimap, QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
        QCOMPARE(view->visibleX0(), x0);
        QVERIFY(std::abs(view->visibleX1() - mm.pixelToX(to.x())) < 1e-9);
        // The page's reset button shows everything, brush included.
        page.resetButton()->click();
        QCOMPARE(view->visibleX0(), 0.0);
        QCOMPARE(minimap->windowX1(), end);
    }

    void page_options_switch_the_view() {
        TimelinePage page;
        page.setTrace(makeTrace());
        TimelineView* view = page.view();
        QComboBox* color = page.colorModeCombo();
        color->setCurrentIndex(color->findData(int(TimelineView::ColorMode::Module)));
        QCOMPARE(view->colorMode(), TimelineView::ColorMode::Module);
        page.plotModeCombo()->setCurrentIndex(1);
        QCOMPARE(view->plotMode(), TimelineView::PlotMode::Categories);
        page.timeAxisCombo()->setCurrentIndex(1);
        QVERIFY(view->timeAxis());
        QVERIFY(page.minimap()->timeAxis());
        // And the combos follow the view.
        view->setColorMode(TimelineView::ColorMode::Phase);
        QCOMPARE(color->currentData().toInt(), int(TimelineView::ColorMode::Phase));
        view->setPlotMode(TimelineView::PlotMode::Allocations);
        QCOMPARE(page.plotModeCombo()->currentIndex(), 0);
    }

    void highlighted_allocations_stand_out() {
        TimelineView view;
        view.setTrace(makeTrace());
        const TimelineLayout* layout = view.timelineLayout();
        const QSize size(1000, 600);
        const TimelineMapping m = view.mapping(QRectF(QPointF(0, 0), QSizeF(size)));
        auto centreOf = [&](int64_t a, int64_t x) {
            return QPointF(m.xToPixel(double(x) + 0.5),
                           m.bytesToPixel(double(layout->bottomAt(a, x)) +
                                          double(layout->sizeOf(a)) / 2))
                .toPoint();
        };
        const int64_t x = layout->beginX(k_big_act) + 2;
        const QPoint big = centreOf(k_big_act, x);
        const QPoint param = centreOf(k_param, x);
        QCOMPARE(view.renderImage(size).pixelColor(param).rgba(),
                 view.allocationColor(k_param).rgba());
        view.setHighlightedAllocations({k_big_act});
        QCOMPARE(view.highlightedAllocations(), (QVector<qint64>{k_big_act}));
        QImage image = view.renderImage(size);
        QCOMPARE(image.pixelColor(big).rgba(), view.allocationColor(k_big_act).rgba());
        const QColor dimmed = image.pixelColor(param);
        QVERIFY(dimmed.rgba() != view.allocationColor(k_param).rgba());
        QVERIFY(dimmed.lightness() > view.allocationColor(k_param).lightness());
        view.setHighlightedAllocations({});
        QCOMPARE(view.renderImage(size).pixelColor(param).rgba(),
                 view.allocationColor(k_param).rgba());
    }

    void render_image_at_a_device_pixel_ratio() {
        TimelineView view;
        view.setTrace(makeTrace());
        const QImage one = view.renderImage(QSize(600, 400));
        QCOMPARE(one.size(), QSize(600, 400));
        const QImage two = view.renderImage(QSize(600, 400), 2);
        QCOMPARE(two.size(), QSize(1200, 800));
        QCOMPARE(two.devicePixelRatio(), 2.0);
        QCOMPARE(view.renderImage(QSize(100, 100), 9).size(), QSize(400, 400));  // at most 4
        // renderTo paints into any painter, e.g. an SVG generator's or a picture's.
        QImage target(QSize(600, 400), QImage::Format_ARGB32_Premultiplied);
        target.fill(Qt::black);
        QPainter painter(&target);
        view.renderTo(painter, QRectF(0, 0, 600, 400));
        painter.end();
        QCOMPARE(target, one);
    }

    void hovering_reuses_the_drawn_chart() {
        TimelineView view;
        view.resize(900, 500);
        view.setTrace(makeTrace());
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setDetail(20);  // the chart changes: redrawn
        view.repaint();
        QVERIFY(!view.lastPaintReusedChart());
        QCOMPARE(view.lastPaintStats().allocations, int64_t(20));
        const int64_t x = view.timelineLayout()->beginX(k_grad_tmp);
        QTest::mouseMove(&view, pointOver(view, k_grad_tmp, x));
        QTRY_COMPARE(view.hoveredAllocation(), k_grad_tmp);
        view.repaint();
        QVERIFY(view.lastPaintReusedChart());  // only the outline was drawn anew
        view.setVisibleRange(2, 30);
        view.repaint();
        QVERIFY(!view.lastPaintReusedChart());
        view.setColorMode(TimelineView::ColorMode::Phase);
        view.repaint();
        QVERIFY(!view.lastPaintReusedChart());
        view.repaint();
        QVERIFY(view.lastPaintReusedChart());
    }

    void byte_tick_labels_use_binary_units() {
        // One unit per axis, the largest the top reaches.
        QCOMPARE(TimelineView::byteTickLabel(96.0 * 1048576, 176.0 * 1048576),
                 QStringLiteral("96 MiB"));
        QCOMPARE(TimelineView::byteTickLabel(512.0 * 1048576, 3584.0 * 1048576),
                 QStringLiteral("0.5 GiB"));
        QCOMPARE(TimelineView::byteTickLabel(3584.0 * 1048576, 3584.0 * 1048576),
                 QStringLiteral("3.5 GiB"));
        QCOMPARE(TimelineView::byteTickLabel(512, 1000), QStringLiteral("512 B"));
        QCOMPARE(TimelineView::byteTickLabel(1536, 2048), QStringLiteral("1.5 KiB"));
        QCOMPARE(TimelineView::byteTickLabel(6144, 8192), QStringLiteral("6 KiB"));
    }

    // An import's legend says, in its tooltip, which rule put each category's bytes there at
    // the peak, and states the gradient rule (issue 39); a recording's legend has no tooltip.
    void legend_tooltip_names_the_rule_of_each_category() {
        auto trace = std::make_shared<Trace>();
        trace->meta.categories_inferred = true;
        auto add = [&](EventKind kind, uint64_t addr, int64_t size, Phase phase, int32_t step) {
            Event e;
            e.kind = kind;
            e.addr = addr;
            e.size = size;
            e.phase = phase;
            e.step = step;
            e.time_ns = int64_t(trace->events.count()) * 1000;
            e.allocated = (trace->events.count() ? trace->events.allocated.back() : 0) + size;
            trace->events.append(e);
        };
        add(EventKind::Alloc, 0x100, 4096, Phase::Other, -1);    // before recording
        add(EventKind::Alloc, 0x200, 1024, Phase::Forward, 1);   // activation
        add(EventKind::Alloc, 0x300, 2048, Phase::Backward, 1);  // gradient by its lifetime
        add(EventKind::Free, 0x200, -1024, Phase::Backward, 1);
        add(EventKind::Alloc, 0x400, 8192, Phase::Optimizer, 1);  // optimizer state
        trace->finalize();
        TimelineView view;
        view.resize(900, 400);
        view.setTrace(trace);
        const QString tip = view.legendToolTip();
        for (const char* line :
             {"Gradient (inferred: made in backward, alive after it)",
              "Optimizer state (inferred: made in the optimizer, kept into a later step)",
              "Before recording (inferred: allocated before recording started)",
              "freed at the next zero_grad, by the next backward, or never"}) {
            QVERIFY2(tip.contains(QLatin1String(line)), qPrintable(tip));
        }
        // The activation was freed before the peak: no line for it.
        QVERIFY2(!tip.contains(QStringLiteral("Activation (")), qPrintable(tip));
        QCOMPARE(view.legendToolTip(), tip);  // kept per trace
        auto recorded = std::make_shared<Trace>(*trace);
        recorded->meta.categories_inferred = false;
        recorded->finalize();
        view.setTrace(recorded);
        QVERIFY(view.legendToolTip().isEmpty());
    }

    void german_catalogue_translates_the_timeline() {
        QTranslator translator;
        QVERIFY(loadMemscopeTranslation(translator, QLocale(QLocale::German)));
        QCOMPARE(translator.translate("memscope::TimelineView", "Detail: %1 of %2 allocations"),
                 QStringLiteral("Detail: %1 von %2 Allokationen"));
        QVERIFY(!translator.translate("memscope::StackPane", "Allocation stack").isEmpty());
        QVERIFY(!translator.translate("memscope::TimelinePage", "Draw the largest").isEmpty());
        QCOMPARE(translator.translate("memscope::TimelinePage", "Colour by"),
                 QStringLiteral("Färben nach"));
        QCOMPARE(translator.translate("TimelineOverlayPainter", "Capacity %1"),
                 QStringLiteral("Kapazität %1"));
        QCOMPARE(translator.translate("TimelineLabels", "made in backward, alive after it"),
                 QStringLiteral("im Backward angelegt, danach noch belegt"));
        QVERIFY(!translator
                     .translate("memscope::TimelineMinimap",
                                "Overview of the whole run: drag the brush to pan, drag "
                                "its edges to zoom")
                     .isEmpty());
    }

    void main_window_opens_a_run() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("tiny.memscope"));
        RunFile::save(*makeTrace(), path.toStdString());

        MainWindow window;
        auto* open = window.findChild<QAction*>(QStringLiteral("action_open"));
        QVERIFY(open);
        QCOMPARE(open->shortcut(), QKeySequence(QStringLiteral("Ctrl+O")));
        QVERIFY(memscope_test::openAndWait(window, path));
        auto* stack = window.findChild<QStackedWidget*>(QStringLiteral("central_stack"));
        QVERIFY(stack);
        QCOMPARE(stack->currentWidget(), window.timelinePage());
        QCOMPARE(window.timelinePage()->view()->allocationCount(), int64_t(28));
        QVERIFY(window.windowTitle().contains(QLatin1String("tiny.memscope")));
        QCOMPARE(window.currentRunPath(), path);
    }

    void main_window_names_a_file_it_cannot_open() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("not-a-run.memscope"));
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write("this is not a run file");
        }
        MainWindow window;
        QString shown;
        QTimer::singleShot(0, &window, [&shown] {
            if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                shown = box->text();
                box->accept();
            }
        });
        QVERIFY(!memscope_test::openAndWait(window, path));
        QVERIFY2(shown.contains(QLatin1String("not-a-run.memscope")), qPrintable(shown));
        QVERIFY(window.currentRunPath().isEmpty());
        auto* stack = window.findChild<QStackedWidget*>(QStringLiteral("central_stack"));
        QVERIFY(stack->currentWidget() != window.timelinePage());
    }
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"

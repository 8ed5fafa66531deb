#include "common/stack_pane.h"

#include "common/byte_format.h"
#include "common/timeline_labels.h"
#include "layout/timeline_layout.h"
#include "run_document.h"
#include "trace/trace.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QEvent>
#include <QHeaderView>
#include <QKeySequence>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace memscope {
namespace {

// "1,048,576 bytes (1.0 MiB)"
QString allocationSizeText(int64_t bytes) {
    return StackPane::tr("%1 bytes (%2)").arg(exactBytes(bytes), bytesText(bytes));
}

QString frameKindText(FrameKind kind) {
    switch (kind) {
        case FrameKind::Module:
            return StackPane::tr("module");
        case FrameKind::Operator:
            return StackPane::tr("operator");
        case FrameKind::BackwardNode:
            return StackPane::tr("autograd node");
        case FrameKind::BackwardOf:
            return StackPane::tr("forward module responsible");
        case FrameKind::Other:
            break;
    }
    return StackPane::tr("other");
}

void appendText(const QTreeWidgetItem* item, int depth, QStringList& lines) {
    QString line = QString(depth * 2, QLatin1Char(' ')) + item->text(0);
    if (!item->text(1).isEmpty()) {
        line += QStringLiteral(" | ") + item->text(1);
    }
    lines << line;
    for (int i = 0; i < item->childCount(); ++i) {
        appendText(item->child(i), depth + 1, lines);
    }
}

}  // namespace

StackPane::StackPane(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("stack_pane"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("stack_tree"));
    m_tree->setColumnCount(2);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* copy = new QAction(m_tree);
    copy->setObjectName(QStringLiteral("action_copy_stacks"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &StackPane::copyToClipboard);
    m_tree->addAction(copy);
    layout->addWidget(m_tree);
    rebuild();
}

StackPane::~StackPane() = default;

StackPane::StackPane(RunDocument* document, QWidget* parent) : StackPane(parent) {
    setViewState(document);
}

void StackPane::setViewState(RunDocument* document) {
    if (m_state) {
        disconnect(m_state, nullptr, this, nullptr);
    }
    m_state = document;
    if (!m_state) {
        return;
    }
    // A new trace or layout (a live snapshot) shows the pinned allocation again: it may have
    // been freed since.
    auto follow = [this] {
        setTrace(m_state->trace(), m_state->layout());
        showAllocation(m_state->selectedAllocation());
    };
    connect(m_state, &RunDocument::traceChanged, this, follow);
    connect(m_state, &RunDocument::layoutChanged, this, follow);
    connect(m_state, &RunDocument::selectedAllocationChanged, this, &StackPane::showAllocation);
    follow();
}

void StackPane::setTrace(std::shared_ptr<const Trace> trace,
                         std::shared_ptr<const TimelineLayout> layout) {
    m_trace = std::move(trace);
    m_layout = std::move(layout);
    m_allocation = -1;
    rebuild();
}

void StackPane::showAllocation(int64_t index) {
    const auto trace = m_trace.lock();
    if (!trace || index < 0 || size_t(index) >= trace->allocations().size()) {
        index = -1;
    }
    m_allocation = index;
    rebuild();
}

QString StackPane::plainText() const {
    QStringList lines;
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        appendText(m_tree->topLevelItem(i), 0, lines);
    }
    return lines.join(QLatin1Char('\n'));
}

void StackPane::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        rebuild();
    }
    QWidget::changeEvent(event);
}

void StackPane::copyToClipboard() const {
    QApplication::clipboard()->setText(plainText());
}

void StackPane::addStack(QTreeWidgetItem* parent, const StackTable& stacks, uint32_t node) {
    if (node == StackTable::kEmpty) {
        new QTreeWidgetItem(parent, {tr("(no frames recorded)")});
        return;
    }
    // Innermost first: the operator that allocated, then the modules around it.
    for (uint32_t n = node; n != StackTable::kEmpty; n = stacks.parent(n)) {
        const Frame& frame = stacks.frame(stacks.frameOf(n));
        QString where = frameKindText(frame.kind);
        if (!frame.file.empty()) {
            where +=
                QStringLiteral(" · %1:%2").arg(QString::fromStdString(frame.file)).arg(frame.line);
        }
        new QTreeWidgetItem(parent, {QString::fromStdString(frame.name), where});
    }
}

void StackPane::rebuild() {
    m_tree->clear();
    m_tree->setHeaderLabels({tr("Item"), tr("Details")});
    const auto trace = m_trace.lock();
    if (!trace || m_allocation < 0) {
        auto* hint = new QTreeWidgetItem(m_tree, {tr("Click an allocation in the timeline to see "
                                                     "its size, category and stacks.")});
        hint->setDisabled(true);
        return;
    }
    const QLocale locale;
    const Allocation& a = trace->allocations()[size_t(m_allocation)];
    const auto& events = trace->events;
    auto add = [this](const QString& name, const QString& value) {
        return new QTreeWidgetItem(m_tree, {name, value});
    };
    add(tr("Allocation"), locale.toString(qint64(m_allocation)));
    add(tr("Size"), allocationSizeText(a.size));
    add(tr("Category"), TimelineLabels::categoryName(int(a.category)));
    auto eventText = [&](int64_t e, int64_t x) {
        return tr("event %1 at %2 s, %3, step %4")
            .arg(locale.toString(qint64(m_layout ? x : e)),
                 locale.toString(double(events.time_ns[size_t(e)]) / 1e9, 'f', 6),
                 TimelineLabels::phaseName(events.phase[size_t(e)]))
            .arg(events.step[size_t(e)]);
    };
    const int64_t begin_x = m_layout ? m_layout->beginX(m_allocation) : -1;
    const int64_t end_x = m_layout ? m_layout->endX(m_allocation) : -1;
    add(tr("Allocated"),
        a.alloc_event >= 0 ? eventText(a.alloc_event, begin_x) : tr("before recording started"));
    add(tr("Freed"),
        a.free_event >= 0 ? eventText(a.free_event, end_x) : tr("never (live at the end)"));
    add(tr("Address"), QStringLiteral("0x%1").arg(a.addr, 0, 16));
    add(tr("Device"), a.device < 0 ? tr("CPU") : tr("GPU %1").arg(a.device));
    // The caching allocator's segment that holds it when it was made: its pool (a private
    // pool's id, e.g. a CUDA graph's, from the snapshot's pool_id) and stream.
    const int64_t made = std::max<int64_t>(a.alloc_event, 0);
    for (const Segment& s : trace->segments()) {
        const bool holds =
            s.device == a.device && s.addr <= a.addr && a.addr - s.addr < uint64_t(s.size);
        const bool reserved =
            s.reserve_event <= made && (s.release_event < 0 || s.release_event >= made);
        if (holds && reserved) {
            add(tr("Segment"),
                tr("0x%1, %2, pool %3, stream %4")
                    .arg(QString::number(s.addr, 16), bytesText(s.size),
                         s.pool.empty() ? tr("default") : QString::fromStdString(s.pool))
                    .arg(s.stream));
            break;
        }
    }

    // An imported snapshot's raw frames, one click away under each cleaned stack (collapsed).
    QList<QTreeWidgetItem*> raw_items;
    auto addStacksOf = [&](QTreeWidgetItem* parent, int64_t event) {
        addStack(parent, trace->stacks, events.stack[size_t(event)]);
        if (trace->hasRawStacks()) {
            auto* raw = new QTreeWidgetItem(
                parent, {tr("Raw frames"), tr("as the snapshot lists them, innermost first")});
            addStack(raw, trace->raw_stacks, trace->raw_stack[size_t(event)]);
            raw_items << raw;
        }
    };
    auto* alloc_stack = add(tr("Allocation stack"), QString());
    if (a.alloc_event >= 0) {
        addStacksOf(alloc_stack, a.alloc_event);
    } else {
        new QTreeWidgetItem(alloc_stack, {tr("(allocated before recording started)")});
    }
    auto* free_stack = add(tr("Free stack"), QString());
    if (a.free_event >= 0) {
        addStacksOf(free_stack, a.free_event);
    } else {
        new QTreeWidgetItem(free_stack, {tr("(never freed)")});
    }
    m_tree->expandAll();
    for (QTreeWidgetItem* raw : raw_items) {
        raw->setExpanded(false);
    }
    m_tree->resizeColumnToContents(0);
}

}  // namespace memscope

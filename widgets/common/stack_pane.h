#pragma once

#include <QWidget>

#include <cstdint>
#include <memory>

class QTreeWidget;
class QTreeWidgetItem;

namespace memscope {

class RunDocument;
class TimelineLayout;
class StackTable;
class Trace;

// Read-only details of one allocation: size, category, phase, where it was allocated and freed
// on the timeline, and both call stacks (innermost frame first, like a traceback read from the
// top): module frames with file:line, operator frames, autograd nodes and "backward of" frames.
class StackPane : public QWidget {
    Q_OBJECT

  public:
    explicit StackPane(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    StackPane(RunDocument* document, QWidget* parent);
    ~StackPane() override;

    // Follows a run document (nullptr: none): its trace and layout, and its pinned allocation.
    void setViewState(RunDocument* document);

    // The layout, when there is one, numbers events like the timeline's x axis (alloc/free
    // events only); without it they are numbered as in the trace. The pane does not keep the
    // trace alive: its owner (the document) does, as long as the pane shows it.
    void setTrace(std::shared_ptr<const Trace> trace,
                  std::shared_ptr<const TimelineLayout> layout = nullptr);
    // Shows allocation `index` of the trace (-1 clears).
    void showAllocation(int64_t index);
    int64_t allocation() const { return m_allocation; }

    // The pane as indented text (two spaces a level, columns separated by " | "): what Copy
    // puts on the clipboard, and what tests compare.
    QString plainText() const;
    QTreeWidget* tree() const { return m_tree; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void rebuild();
    void addStack(QTreeWidgetItem* parent, const StackTable& stacks, uint32_t node);
    void copyToClipboard() const;

    RunDocument* m_state = nullptr;
    std::weak_ptr<const Trace> m_trace;  // the document's (or the caller's): not kept alive here
    std::shared_ptr<const TimelineLayout> m_layout;
    int64_t m_allocation = -1;
    QTreeWidget* m_tree = nullptr;
};

}  // namespace memscope

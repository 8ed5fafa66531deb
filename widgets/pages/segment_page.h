#pragma once

#include <QWidget>

#include <cstdint>
#include <memory>

class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace memscope {

class RunDocument;
class SegmentView;
class Trace;

// The Segments tab: the caching allocator's reserved segments and their blocks at a chosen
// event (SegmentView), under a header with the reserved peak and the fragmentation (reserved -
// allocated, largest free block) at the allocated peak and at the out-of-memory point. The event
// is chosen with a slider and a spin box, the Peak and OOM buttons, or from the timeline (the
// run document's pinned allocation's event, while the page shows the document's run); it
// starts at the peak. A run
// without segments shows a message saying why instead (no caching allocator on a CPU; reserved
// totals only).
class SegmentPage : public QWidget {
    Q_OBJECT

  public:
    explicit SegmentPage(QWidget* parent = nullptr);
    // Following `document` (setViewState).
    SegmentPage(RunDocument* document, QWidget* parent);
    ~SegmentPage() override;

    // Follows a run document (nullptr: none): its pinned allocation picks the event, and its
    // indexes give the OOM event, while the page shows its run.
    void setViewState(RunDocument* document);
    void setTrace(std::shared_ptr<const Trace> trace);
    // Shows the segments just after this event (clamped to the trace).
    void showAtEvent(int64_t event);
    int64_t currentEvent() const { return m_event; }

    SegmentView* view() const { return m_view; }
    QLabel* headerLabel() const { return m_header; }
    QLabel* stateLabel() const { return m_stateLabel; }
    QLabel* messageLabel() const { return m_message; }
    QSlider* eventSlider() const { return m_slider; }
    QSpinBox* eventSpinBox() const { return m_spin; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslateUi();
    // Shows the event of the document's pinned allocation, if any.
    void showPinned();
    void updateHeader();
    void updateState();

    RunDocument* m_state = nullptr;
    // The run shown: the document's (or the caller's), which keeps it alive; the segment view
    // holds it while it draws its segments.
    std::weak_ptr<const Trace> m_trace;
    int64_t m_event = -1;
    int64_t m_peakEvent = -1;
    int64_t m_oomEvent = -1;
    QLabel* m_message = nullptr;
    QWidget* m_content = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_eventLabel = nullptr;
    QSlider* m_slider = nullptr;
    QSpinBox* m_spin = nullptr;
    QPushButton* m_peakButton = nullptr;
    QPushButton* m_oomButton = nullptr;
    QLabel* m_stateLabel = nullptr;
    QLabel* m_legend = nullptr;
    SegmentView* m_view = nullptr;
};

}  // namespace memscope

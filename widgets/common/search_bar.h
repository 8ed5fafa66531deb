#pragma once

#include <QWidget>

#include <cstdint>
#include <vector>

class QLabel;
class QLineEdit;
class QTimer;
class QToolButton;

namespace memscope {

class RunDocument;

// Finds allocations of the run in a RunDocument by address, operator, module, category or any
// stack frame text (TraceSearch), as memory_viz's search does: the matches (within the range
// filter, when one is active) are highlighted on the timeline, the bar counts them, and
// next / previous (F3 / Shift+F3, the arrow buttons, Return / Shift+Return) pin the next match
// in allocation order and scroll the timeline to it.
class SearchBar : public QWidget {
    Q_OBJECT

  public:
    explicit SearchBar(RunDocument* state, QWidget* parent = nullptr);
    ~SearchBar() override;

    QLineEdit* edit() const { return m_edit; }
    QLabel* countLabel() const { return m_count; }
    // The matches, in the order next() walks them (by alloc event), and the current one (-1).
    const std::vector<int64_t>& matches() const { return m_matches; }
    int current() const { return m_current; }

  public slots:
    // Runs the search for the text now (otherwise it runs shortly after typing stops).
    void search();
    void next();
    void previous();
    // Focuses the field and selects its text (Ctrl+F).
    void focusSearch();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void go(int index);
    void updateCount();
    void retranslateUi();

    RunDocument* m_state = nullptr;
    QLineEdit* m_edit = nullptr;
    QLabel* m_count = nullptr;
    QToolButton* m_prev = nullptr;
    QToolButton* m_next = nullptr;
    QTimer* m_timer = nullptr;
    std::vector<int64_t> m_matches;
    int m_current = -1;
};

}  // namespace memscope

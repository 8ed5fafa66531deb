#pragma once

#include <QFrame>

class QComboBox;
class QLabel;
class QToolButton;

namespace memscope {

class RunDocument;

// The bar above the tabs that shows the active range filter of a RunDocument: "Filtered to
// events 1,204–5,880 (0.82 s–1.95 s): 312 allocations", how the range selects (alive in / made
// in), and a button that clears it. Hidden while there is no filter.
class FilterChip : public QFrame {
    Q_OBJECT

  public:
    explicit FilterChip(RunDocument* state, QWidget* parent = nullptr);
    ~FilterChip() override;

    QString text() const;
    QComboBox* modeCombo() const { return m_mode; }
    QToolButton* clearButton() const { return m_clear; }
    // "0.82 s", "35.0 ms", "120 µs": a time since the run started, for the chip's range.
    static QString timeText(qint64 ns);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void follow();
    void retranslateUi();

    RunDocument* m_state = nullptr;
    QLabel* m_label = nullptr;
    QComboBox* m_mode = nullptr;
    QToolButton* m_clear = nullptr;
};

}  // namespace memscope

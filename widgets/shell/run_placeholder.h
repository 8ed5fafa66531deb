#pragma once

#include <QWidget>

class QLabel;

namespace memscope {

// What the timeline tab shows while no run is open: "No run is open." and how to get one (Run,
// File > Open Run, drag and drop).
class RunPlaceholder : public QWidget {
    Q_OBJECT

  public:
    explicit RunPlaceholder(QWidget* parent = nullptr);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void retranslateUi();

    QLabel* m_title = nullptr;
    QLabel* m_detail = nullptr;
};

}  // namespace memscope

#pragma once

#include <QFrame>

class QLabel;
class QToolButton;

namespace memscope {

class ModulePage;

// The bar under the range filter's chip naming the module the views are filtered to (a row of
// the Modules tab): "Filtered to module model.layers.0: 12 allocation(s) highlighted", with the
// button that clears it. It looks like FilterChip and applies to the views the document's
// highlights reach; hidden while there is none.
class ModuleFilterChip : public QFrame {
    Q_OBJECT

  public:
    explicit ModuleFilterChip(QWidget* parent = nullptr);

    // Follows `page`'s module filter; the button clears it.
    void follow(ModulePage* page);
    QLabel* label() const { return m_label; }
    QToolButton* clearButton() const { return m_clear; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void showFilter();
    void retranslateUi();

    ModulePage* m_page = nullptr;
    QLabel* m_label = nullptr;
    QToolButton* m_clear = nullptr;
};

}  // namespace memscope

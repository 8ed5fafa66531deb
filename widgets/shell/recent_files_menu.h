#pragma once

#include <QMenu>
#include <QStringList>

class QAction;

namespace memscope {

// File > Open Recent: the last ten runs opened or recorded (absolute paths, newest first, kept in
// the settings), a missing file greyed out, and Clear Recent Files. Choosing one emits
// fileChosen().
class RecentFilesMenu : public QMenu {
    Q_OBJECT

  public:
    static constexpr int kMaxFiles = 10;

    explicit RecentFilesMenu(QWidget* parent = nullptr);

    QStringList files() const;
    // Puts PATH first (once).
    void addFile(const QString& path);
    void clearFiles();
    QAction* clearAction() const { return m_clear; }

  signals:
    void fileChosen(const QString& path);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void rebuild();
    void retranslateUi();

    QAction* m_clear = nullptr;
};

}  // namespace memscope

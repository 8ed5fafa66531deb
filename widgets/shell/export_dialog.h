#pragma once

#include <QDialog>
#include <QSize>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace memscope {

// File > Export View: where to write the current view, as PNG (at 1x to 4x the pixels, for
// print) or SVG (vector), and at which size: the view's own, or a size that suits a document or
// a slide. The format follows the file's suffix and the suffix follows the format.
class ExportDialog : public QDialog {
    Q_OBJECT

  public:
    ExportDialog(const QString& view_name, const QSize& view_size, const QString& directory,
                 QWidget* parent = nullptr);

    QString path() const;
    bool isSvg() const;
    // 1 to 4; always 1 for SVG.
    double scale() const;
    // An empty size: the view's own.
    QSize targetSize() const;

    void setPath(const QString& path);
    void setScale(double scale);

  private:
    void browse();
    void syncFormatFromPath();
    void syncPathFromFormat();
    void updateSummary();

    QSize m_viewSize;
    QLineEdit* m_path = nullptr;
    QComboBox* m_format = nullptr;
    QDoubleSpinBox* m_scale = nullptr;
    QComboBox* m_sizePreset = nullptr;
    QSpinBox* m_width = nullptr;
    QSpinBox* m_height = nullptr;
    QLabel* m_summary = nullptr;
};

}  // namespace memscope

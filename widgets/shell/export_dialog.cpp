#include "shell/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace memscope {

ExportDialog::ExportDialog(const QString& view_name, const QSize& view_size,
                           const QString& directory, QWidget* parent)
    : QDialog(parent), m_viewSize(view_size) {
    setObjectName(QStringLiteral("export_dialog"));
    setWindowTitle(tr("Export %1").arg(view_name));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;

    auto* path_row = new QHBoxLayout;
    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("export_path"));
    m_path->setText(QDir(directory).filePath(
        QString(view_name).toLower().replace(QLatin1Char(' '), QLatin1Char('-')) +
        QStringLiteral(".png")));
    auto* browse = new QPushButton(tr("Browse..."), this);
    path_row->addWidget(m_path, 1);
    path_row->addWidget(browse);
    form->addRow(tr("File:"), path_row);

    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("export_format"));
    m_format->addItem(tr("PNG image"), QStringLiteral("png"));
    m_format->addItem(tr("SVG vector drawing"), QStringLiteral("svg"));
    form->addRow(tr("Format:"), m_format);

    m_scale = new QDoubleSpinBox(this);
    m_scale->setObjectName(QStringLiteral("export_scale"));
    m_scale->setRange(1, 4);
    m_scale->setSingleStep(0.5);
    m_scale->setDecimals(1);
    m_scale->setSuffix(QStringLiteral(" x"));
    m_scale->setValue(2);
    m_scale->setToolTip(
        tr("Pixels per point: 2x or more stays sharp in print and on "
           "high-density screens"));
    form->addRow(tr("Scale:"), m_scale);

    m_sizePreset = new QComboBox(this);
    m_sizePreset->setObjectName(QStringLiteral("export_size"));
    m_sizePreset->addItem(tr("As shown (%1 x %2)").arg(view_size.width()).arg(view_size.height()),
                          QSize());
    m_sizePreset->addItem(tr("Document figure (1200 x 675)"), QSize(1200, 675));
    m_sizePreset->addItem(tr("Wide figure (1600 x 900)"), QSize(1600, 900));
    m_sizePreset->addItem(tr("Slide (1920 x 1080)"), QSize(1920, 1080));
    m_sizePreset->addItem(tr("Custom"), QSize(-1, -1));
    form->addRow(tr("Size:"), m_sizePreset);

    auto* custom = new QHBoxLayout;
    m_width = new QSpinBox(this);
    m_width->setRange(200, 16384);
    m_width->setValue(view_size.width() > 0 ? view_size.width() : 1600);
    m_height = new QSpinBox(this);
    m_height->setRange(150, 16384);
    m_height->setValue(view_size.height() > 0 ? view_size.height() : 900);
    custom->addWidget(m_width);
    custom->addWidget(new QLabel(QStringLiteral("x"), this));
    custom->addWidget(m_height);
    custom->addStretch();
    form->addRow(tr("Custom size:"), custom);

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("export_summary"));
    form->addRow(QString(), m_summary);
    layout->addLayout(form);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(m_path, &QLineEdit::textChanged, this, [this] {
        syncFormatFromPath();
        updateSummary();
    });
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        syncPathFromFormat();
        updateSummary();
    });
    for (QSpinBox* box : {m_width, m_height}) {
        connect(box, &QSpinBox::valueChanged, this, &ExportDialog::updateSummary);
    }
    connect(m_scale, &QDoubleSpinBox::valueChanged, this, &ExportDialog::updateSummary);
    connect(m_sizePreset, &QComboBox::currentIndexChanged, this, &ExportDialog::updateSummary);
    updateSummary();
}

QString ExportDialog::path() const {
    return m_path->text().trimmed();
}

bool ExportDialog::isSvg() const {
    return m_format->currentData().toString() == QLatin1String("svg");
}

double ExportDialog::scale() const {
    return isSvg() ? 1.0 : m_scale->value();
}

QSize ExportDialog::targetSize() const {
    const QSize preset = m_sizePreset->currentData().toSize();
    if (preset == QSize(-1, -1)) {
        return QSize(m_width->value(), m_height->value());
    }
    return preset;
}

void ExportDialog::setPath(const QString& path) {
    m_path->setText(path);
}

void ExportDialog::setScale(double scale) {
    m_scale->setValue(scale);
}

void ExportDialog::browse() {
    const QString chosen = QFileDialog::getSaveFileName(
        this, tr("Export View"), path(), tr("PNG image (*.png);;SVG vector drawing (*.svg)"));
    if (!chosen.isEmpty()) {
        m_path->setText(chosen);
    }
}

void ExportDialog::syncFormatFromPath() {
    const QString suffix = QFileInfo(path()).suffix().toLower();
    const int index = m_format->findData(suffix);
    if (index >= 0 && index != m_format->currentIndex()) {
        const QSignalBlocker block(m_format);
        m_format->setCurrentIndex(index);
    }
}

void ExportDialog::syncPathFromFormat() {
    const QString wanted = m_format->currentData().toString();
    QFileInfo info(path());
    if (info.suffix().toLower() == wanted) {
        return;
    }
    const QString base =
        info.completeBaseName().isEmpty() ? QStringLiteral("view") : info.completeBaseName();
    const QSignalBlocker block(m_path);
    m_path->setText(info.dir().filePath(base + QLatin1Char('.') + wanted));
}

void ExportDialog::updateSummary() {
    const bool custom = m_sizePreset->currentData().toSize() == QSize(-1, -1);
    m_width->setEnabled(custom);
    m_height->setEnabled(custom);
    m_scale->setEnabled(!isSvg());
    QSize size = targetSize();
    if (size.isEmpty()) {
        size = m_viewSize;
    }
    if (isSvg()) {
        m_summary->setText(
            tr("Vector drawing, %1 x %2 points").arg(size.width()).arg(size.height()));
    } else {
        m_summary->setText(tr("%1 x %2 pixels")
                               .arg(qRound(size.width() * scale()))
                               .arg(qRound(size.height() * scale())));
    }
}

}  // namespace memscope

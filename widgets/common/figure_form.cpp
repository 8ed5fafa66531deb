#include "common/figure_form.h"

#include <QFormLayout>
#include <QLabel>
#include <QWidget>

namespace memscope {

QLabel* FigureForm::add(QWidget* form, const QString& key) {
    auto* name = new QLabel(form);
    auto* value = new QLabel(form);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    static_cast<QFormLayout*>(form->layout())->addRow(name, value);
    m_names.insert(key, name);
    m_values.insert(key, value);
    return value;
}

void FigureForm::set(const QString& key, const QString& text, const QString& tool_tip) {
    if (QLabel* label = m_values.value(key)) {
        label->setText(text);
        label->setToolTip(tool_tip);
    }
}

void FigureForm::setName(const QString& key, const QString& text) {
    if (QLabel* label = m_names.value(key)) {
        label->setText(text);
    }
}

void FigureForm::clear() {
    for (QLabel* label : std::as_const(m_values)) {
        label->clear();
    }
}

QString FigureForm::text(const QString& key) const {
    const QLabel* label = m_values.value(key);
    return label ? label->text() : QString();
}

}  // namespace memscope

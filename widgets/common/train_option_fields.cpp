#include "common/train_option_fields.h"

#include "common/byte_format.h"
#include "model/config_error.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include <algorithm>
#include <limits>

namespace memscope {

namespace {

template <typename Field>
Field* fieldOf(const QWidget* form, const TrainOptionRow& row) {
    return form->findChild<Field*>(QLatin1String(row.key));
}

// A whole number as a spin box holds it.
int spinValue(int64_t value) {
    return int(std::clamp<int64_t>(value, std::numeric_limits<int>::min(),
                                   std::numeric_limits<int>::max()));
}

QWidget* makeField(const TrainOptionRow& row, QWidget* parent,
                   const TrainOptionFields::Look& look) {
    QWidget* field = nullptr;
    switch (row.type) {
        case OptionType::Integer: {
            auto* box = new QSpinBox(parent);
            box->setRange(spinValue(row.min), spinValue(row.max));
            box->setGroupSeparatorShown(look.group_separators);
            box->setKeyboardTracking(look.keyboard_tracking);
            box->setAccelerated(true);
            field = box;
            break;
        }
        case OptionType::Real: {
            auto* box = new QDoubleSpinBox(parent);
            box->setDecimals(6);
            box->setRange(row.real_min, row.real_max);
            box->setSingleStep(1e-4);
            box->setKeyboardTracking(look.keyboard_tracking);
            field = box;
            break;
        }
        case OptionType::Flag:
            field = new QCheckBox(parent);
            break;
        case OptionType::Choice:
        case OptionType::Text: {
            auto* box = new QComboBox(parent);
            if (look.compact_combos) {
                // Long item texts must not make a dock wider than the screen allows: the box
                // shrinks and its popup still shows the whole text.
                box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
                box->setMinimumContentsLength(10);
            }
            if (row.type == OptionType::Choice && row.choices != nullptr) {
                for (const std::string& name : row.choices()) {
                    box->addItem(QString::fromStdString(name), QString::fromStdString(name));
                }
            }
            field = box;
            break;
        }
        case OptionType::Bytes: {
            auto* line = new QLineEdit(parent);
            line->setClearButtonEnabled(true);
            field = line;
            break;
        }
    }
    field->setObjectName(QLatin1String(row.key));
    return field;
}

}  // namespace

QList<QWidget*> TrainOptionFields::add(QFormLayout* form, FormGroup TrainOptionRow::*placement,
                                       FormGroup group, const Look& look) {
    QWidget* parent = form->parentWidget();
    QList<QWidget*> fields;
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (row.*placement != group) {
            continue;
        }
        QWidget* field = makeField(row, parent, look);
        form->addRow(new QLabel(parent), field);
        fields << field;
    }
    return fields;
}

void TrainOptionFields::retranslate(QFormLayout* form, const Look& look) {
    for (int i = 0; i < form->rowCount(); ++i) {
        QLayoutItem* item = form->itemAt(i, QFormLayout::FieldRole);
        QWidget* field = item != nullptr ? item->widget() : nullptr;
        const TrainOptionRow* row =
            field != nullptr ? TrainOptionTable::find(field->objectName().toStdString()) : nullptr;
        auto* label = qobject_cast<QLabel*>(form->labelForField(field));
        if (row == nullptr || label == nullptr || field->objectName() != QLatin1String(row->key)) {
            continue;  // a field of the page's own
        }
        QString text = QCoreApplication::translate("TrainOptionTable", row->label);
        if (!look.mnemonics) {
            // "&&" is a literal ampersand; a single one marks the accelerator.
            text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
            text.remove(QLatin1Char('&'));
            text.replace(QStringLiteral("\x01"), QStringLiteral("&"));
        }
        label->setText(text);
        label->setBuddy(field);

        const QString tip = QCoreApplication::translate("TrainOptionTable",
                                                        *row->tip != '\0' ? row->tip : row->help);
        QString flags = QString::fromLatin1(row->flag);
        if (row->negation != nullptr) {
            flags += QStringLiteral(" / ") + QString::fromLatin1(row->negation);
        }
        field->setToolTip(tip.contains(QLatin1String("%1"))
                              ? tip.arg(flags)
                              : tip + QStringLiteral(" (") + flags + QLatin1Char(')'));
        if (row->zero_text != nullptr) {
            const QString zero = QCoreApplication::translate("TrainOptionTable", row->zero_text);
            if (auto* line = qobject_cast<QLineEdit*>(field)) {
                line->setPlaceholderText(zero);
            } else if (auto* spin = qobject_cast<QSpinBox*>(field)) {
                spin->setSpecialValueText(zero);
            }
        }
        if (auto* combo = qobject_cast<QComboBox*>(field); combo != nullptr && look.choice_texts) {
            for (const auto& [name, choice_text] : row->choice_texts) {
                const int index = combo->findData(QString::fromLatin1(name));
                if (index >= 0) {
                    combo->setItemText(
                        index, QCoreApplication::translate("TrainOptionTable", choice_text));
                }
            }
        }
    }
}

void TrainOptionFields::linkNeeds(QWidget* page) {
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (row.needs_key == nullptr) {
            continue;
        }
        QWidget* field = page->findChild<QWidget*>(QLatin1String(row.key));
        auto* needed = page->findChild<QComboBox*>(QLatin1String(row.needs_key));
        if (field == nullptr || needed == nullptr) {
            continue;  // the page does not show both
        }
        const QString value = QString::fromLatin1(row.needs_value);
        const auto update = [field, needed, value] {
            field->setEnabled(needed->currentData().toString() == value);
        };
        QObject::connect(needed, &QComboBox::currentIndexChanged, field, update);
        update();
    }
}

void TrainOptionFields::show(QWidget* form, const TrainOptions& options,
                             FormGroup TrainOptionRow::*placement) {
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (row.*placement == FormGroup::None) {
            continue;
        }
        const nlohmann::json value = options.value(row.key);
        if (auto* spin = fieldOf<QSpinBox>(form, row)) {
            const int64_t v = value.is_number() ? value.get<int64_t>() : 0;
            spin->setValue(spinValue(v));
        } else if (auto* real = fieldOf<QDoubleSpinBox>(form, row)) {
            real->setValue(value.is_number() ? value.get<double>() : 0.0);
        } else if (auto* check = fieldOf<QCheckBox>(form, row)) {
            check->setChecked(value.is_boolean() && value.get<bool>());
        } else if (auto* combo = fieldOf<QComboBox>(form, row)) {
            const QString name =
                QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
            int index = combo->findData(name);
            if (index < 0) {
                index = combo->findText(name);
            }
            if (index >= 0) {  // else the choice stays (a device not listed yet)
                combo->setCurrentIndex(index);
            }
        } else if (auto* line = fieldOf<QLineEdit>(form, row)) {
            const int64_t bytes = value.is_number() ? value.get<int64_t>() : 0;
            line->setText(bytes > 0 ? bytesText(bytes).remove(QLatin1Char(' ')) : QString());
        }
    }
}

TrainOptions TrainOptionFields::read(const QWidget* form, const TrainOptions& base,
                                     FormGroup TrainOptionRow::*placement) {
    nlohmann::json given = nlohmann::json::object();
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (row.*placement == FormGroup::None) {
            continue;
        }
        if (const auto* spin = fieldOf<QSpinBox>(form, row)) {
            given[row.key] = int64_t(spin->value());
        } else if (const auto* real = fieldOf<QDoubleSpinBox>(form, row)) {
            given[row.key] = real->value();
        } else if (const auto* check = fieldOf<QCheckBox>(form, row)) {
            given[row.key] = check->isChecked();
        } else if (const auto* combo = fieldOf<QComboBox>(form, row)) {
            const QVariant data = combo->currentData();
            given[row.key] =
                (data.isValid() ? data.toString() : combo->currentText()).toStdString();
        } else if (const auto* line = fieldOf<QLineEdit>(form, row)) {
            const QString text = line->text().trimmed();
            given[row.key] = text.isEmpty()
                                 ? nlohmann::json(0)
                                 : TrainOptions::parseValue(row, text.toStdString());  // throws
        }
    }
    return TrainOptions::withChanges(given, base);
}

}  // namespace memscope

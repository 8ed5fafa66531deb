#include "common/train_option_fields.h"

#include "model/config_error.h"
#include "run/run_summary.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
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

}  // namespace

void TrainOptionFields::show(QWidget* form, const TrainOptions& options,
                             FormGroup TrainOptionRow::*placement) {
    for (const TrainOptionRow& row : TrainOptionTable::rows()) {
        if (row.*placement == FormGroup::None) {
            continue;
        }
        const nlohmann::json value = options.value(row.key);
        if (auto* spin = fieldOf<QSpinBox>(form, row)) {
            const int64_t v = value.is_number() ? value.get<int64_t>() : 0;
            spin->setValue(int(std::clamp<int64_t>(v, std::numeric_limits<int>::min(),
                                                   std::numeric_limits<int>::max())));
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
            line->setText(bytes > 0
                              ? QString::fromStdString(formatBytes(bytes)).remove(QLatin1Char(' '))
                              : QString());
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

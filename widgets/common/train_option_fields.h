#pragma once

#include "model/train_option_table.h"
#include "run/train_options.h"

#include <QString>

#include <string_view>

class QWidget;

namespace memscope {

// The fields of a form that edit training options, found by the object name they carry: the
// key of their TrainOptionTable row. Values go in and out through TrainOptions::value and
// fromJson, so a form never names a TrainOptions field: a spin box holds a whole number, a
// double spin box a number, a check box a flag, a combo box a choice as its items' data (or
// text), and a line edit a size (empty: none).
class TrainOptionFields {
  public:
    // Shows `options` in every field under `form` named by the key of a row that `placement`
    // (TrainOptionRow::run_panel or ::planner_page) puts on the page.
    static void show(QWidget* form, const TrainOptions& options,
                     FormGroup TrainOptionRow::*placement);
    // `base` with the values of those fields (TrainOptions::withChanges). Throws ConfigError
    // naming the flag when a field's text is not a value of its option.
    static TrainOptions read(const QWidget* form, const TrainOptions& base,
                             FormGroup TrainOptionRow::*placement);
};

}  // namespace memscope

#pragma once

#include "model/train_option_table.h"
#include "run/train_options.h"

#include <QList>
#include <QString>

#include <string_view>

class QFormLayout;
class QWidget;

namespace memscope {

// The fields of a form that edit training options, found by the object name they carry: the
// key of their TrainOptionTable row. Values go in and out through TrainOptions::value and
// fromJson, so a form never names a TrainOptions field: a spin box holds a whole number, a
// double spin box a number, a check box a flag, a combo box a choice as its items' data (or
// text), and a line edit a size (empty: none).
class TrainOptionFields {
  public:
    // How a page's option fields look: the Run panel's and the Planner's differ.
    struct Look {
        bool mnemonics = true;          // labels keep their accelerator ("&Hidden size:")
        bool group_separators = true;   // "65,536" in spin boxes
        bool keyboard_tracking = true;  // a spin box's value follows each key typed
        bool compact_combos = true;     // combo boxes may shrink to ten characters
        bool choice_texts = true;       // choices show their rows' texts, not their names
    };

    // Adds to `form` (a layout already set on its widget, which parents the fields) a labelled
    // field for each row that `placement` puts in `group`, in the table's order, named by the
    // row's key:
    //   whole number  a spin box over the row's range
    //   number        a double spin box over the row's range, 6 decimals
    //   flag          a check box
    //   choice        a combo box of the row's choices (text and data: the name)
    //   text          a combo box the page fills (the device: those this machine has)
    //   size          a line edit with a clear button
    // The labels are empty until retranslate(). Returns the fields.
    static QList<QWidget*> add(QFormLayout* form, FormGroup TrainOptionRow::*placement,
                               FormGroup group, const Look& look);
    // Sets what each option field of `form` says, from its row, translated in the context
    // "TrainOptionTable": its label (made the label's buddy), its tooltip with the option's
    // flags, what no value means (a size's placeholder), and its choices' texts (with
    // look.choice_texts; the items keep their names as data).
    static void retranslate(QFormLayout* form, const Look& look);
    // Enables each option field under `page` whose row needs another option's value only while
    // that option's field (a combo box on the same page) shows it, now and on each change.
    static void linkNeeds(QWidget* page);

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

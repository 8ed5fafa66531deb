#pragma once

#include "run/phase.h"
#include "trace/category.h"

#include <QCoreApplication>
#include <QString>

namespace memscope {

// The names users read for a Category and a Phase: in the timeline's legend, tooltips and step
// strip, and in every table and pane that shows an allocation's category or phase.
class TimelineLabels {
    Q_DECLARE_TR_FUNCTIONS(TimelineLabels)

  public:
    static QString categoryName(int category) {
        switch (static_cast<Category>(category)) {
            case Category::Parameter:
                return tr("Parameter");
            case Category::OptimizerState:
                return tr("Optimizer state");
            case Category::Input:
                return tr("Input");
            case Category::Temporary:
                return tr("Temporary");
            case Category::Activation:
                return tr("Activation");
            case Category::Gradient:
                return tr("Gradient");
            case Category::AutogradDetail:
                return tr("Autograd detail");
            case Category::Communication:
                return tr("Communication");
            case Category::BeforeRecording:
                return tr("Before recording");
            case Category::Unknown:
                break;
        }
        return tr("Unknown");
    }

    static QString phaseName(int phase) {
        switch (static_cast<Phase>(phase)) {
            case Phase::Init:
                return tr("init");
            case Phase::Forward:
                return tr("forward");
            case Phase::Backward:
                return tr("backward");
            case Phase::Optimizer:
                return tr("optimizer");
            case Phase::Other:
                break;
        }
        return tr("other");
    }
};

}  // namespace memscope

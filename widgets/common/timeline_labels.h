#pragma once

#include "run/phase.h"
#include "trace/category.h"
#include "trace/category_rule.h"

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

    // The rule that gave a category (trace/categorizer.h), as core's describe() says it.
    static QString ruleText(CategoryRule rule, bool inferred) {
        switch (rule) {
            case CategoryRule::Named:
                return inferred ? tr("named by the snapshot") : tr("named by the recording");
            case CategoryRule::BeforeRecording:
                return tr("allocated before recording started");
            case CategoryRule::FreedInBackward:
                return tr("made in forward, freed in backward");
            case CategoryRule::AliveAtBackward:
                return tr("made in forward, alive when backward began");
            case CategoryRule::FreedInPhase:
                return tr("made and freed in one phase");
            case CategoryRule::ForwardFreedLater:
                return tr("made in forward, freed later without a backward");
            case CategoryRule::MadeByAccumulateGrad:
                return tr("made under AccumulateGrad, kept");
            case CategoryRule::AliveAfterBackward:
                return tr("made in backward, alive after it");
            case CategoryRule::KeptAfterBackward:
                return tr("made in backward, kept, not a gradient's lifetime");
            case CategoryRule::KeptByOptimizer:
                return tr("made in the optimizer, kept into a later step");
            case CategoryRule::MadeInCollective:
                return tr("made inside a collective (c10d, DDP, torch.distributed)");
            case CategoryRule::AliveAtOutOfMemory:
                return tr("made in forward, alive when it ran out of memory");
            case CategoryRule::ParameterOfGradient:
                return tr(
                    "alive before the trace and to its end, one block per gradient of its "
                    "size");
            case CategoryRule::StateBesideParameter:
                return tr(
                    "alive before the trace and to its end, beside a parameter of its size "
                    "(an optimizer's per-parameter state)");
            case CategoryRule::NothingTells:
                break;
        }
        return tr("nothing tells its phase or lifetime");
    }

    // "Gradient (inferred: made in backward, alive after it)", or for a recording "Gradient
    // (named by the recording)".
    static QString categoryWithRule(int category, CategoryRule rule, bool inferred) {
        return inferred ? tr("%1 (inferred: %2)").arg(categoryName(category), ruleText(rule, true))
                        : tr("%1 (%2)").arg(categoryName(category), ruleText(rule, false));
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
